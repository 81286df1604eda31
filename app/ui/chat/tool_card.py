"""A card for one tool call: which skill ran, with what arguments, its result; Approve / Deny."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from app.ui.chat.written_file import WrittenFileActions, written_path
from app.ui.widgets import button, dim_label, hbox

MAX_ROWS = 8

# Skill names the model sees are snake_case; people read words (translated in ToolCard).
_NICE: dict[str, str] = {
    "search_documents": str(QT_TRANSLATE_NOOP("ToolCard", "Searched documents")),
    "read_document": str(QT_TRANSLATE_NOOP("ToolCard", "Read a document")),
    "search_files": str(QT_TRANSLATE_NOOP("ToolCard", "Searched files")),
    "open_file": str(QT_TRANSLATE_NOOP("ToolCard", "Open a file")),
    "reveal_file": str(QT_TRANSLATE_NOOP("ToolCard", "Show a file")),
    "list_events": str(QT_TRANSLATE_NOOP("ToolCard", "Looked at the calendar")),
    "find_free_time": str(QT_TRANSLATE_NOOP("ToolCard", "Found free time")),
    "add_event": str(QT_TRANSLATE_NOOP("ToolCard", "Add an event")),
    "update_event": str(QT_TRANSLATE_NOOP("ToolCard", "Change an event")),
    "delete_event": str(QT_TRANSLATE_NOOP("ToolCard", "Delete an event")),
    "office_inspect": str(QT_TRANSLATE_NOOP("ToolCard", "Looked at a spreadsheet")),
    "office_query": str(QT_TRANSLATE_NOOP("ToolCard", "Queried a spreadsheet")),
    "office_digest": str(QT_TRANSLATE_NOOP("ToolCard", "Summarised a folder")),
    "office_convert": str(QT_TRANSLATE_NOOP("ToolCard", "Convert a spreadsheet")),
    "office_clean": str(QT_TRANSLATE_NOOP("ToolCard", "Clean a spreadsheet")),
    "office_report": str(QT_TRANSLATE_NOOP("ToolCard", "Write a Word report")),
    "office_slides": str(QT_TRANSLATE_NOOP("ToolCard", "Make slides")),
}


# The argument names the skills use most, in words (translated in ToolCard); others stay.
_ARGUMENTS: dict[str, str] = {
    "title": str(QT_TRANSLATE_NOOP("ToolCard", "title")),
    "markdown": str(QT_TRANSLATE_NOOP("ToolCard", "text")),
    "query": str(QT_TRANSLATE_NOOP("ToolCard", "search")),
    "document": str(QT_TRANSLATE_NOOP("ToolCard", "document")),
    "pages": str(QT_TRANSLATE_NOOP("ToolCard", "pages")),
    "section": str(QT_TRANSLATE_NOOP("ToolCard", "section")),
    "files": str(QT_TRANSLATE_NOOP("ToolCard", "files")),
    "file": str(QT_TRANSLATE_NOOP("ToolCard", "file")),
    "path": str(QT_TRANSLATE_NOOP("ToolCard", "file")),
    "folder": str(QT_TRANSLATE_NOOP("ToolCard", "folder")),
    "sql": str(QT_TRANSLATE_NOOP("ToolCard", "query")),
    "start": str(QT_TRANSLATE_NOOP("ToolCard", "start")),
    "end": str(QT_TRANSLATE_NOOP("ToolCard", "end")),
    "location": str(QT_TRANSLATE_NOOP("ToolCard", "place")),
    "timezone": str(QT_TRANSLATE_NOOP("ToolCard", "time zone")),
    "limit": str(QT_TRANSLATE_NOOP("ToolCard", "at most")),
    "filter": str(QT_TRANSLATE_NOOP("ToolCard", "filter")),
    "slides": str(QT_TRANSLATE_NOOP("ToolCard", "slides")),
}


class Answerable(Protocol):
    """A change waiting for the person: a turn's confirmation, or a routine's held change."""

    def approve(self) -> None: ...

    def deny(self) -> None: ...


def nice_name(name: str) -> str:
    return _NICE.get(name, name.replace("_", " ").capitalize())


def format_arguments(arguments: dict[str, object],
                     word: Callable[[str], str] = lambda key: key) -> str:
    """`key: value  ·  ...`; `word` names a key in the reader's language."""
    parts = []
    for key, value in arguments.items():
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        if len(shown) > 80:
            shown = shown[:77] + "…"
        parts.append(f"{word(key)}: {shown}")
    return "  ·  ".join(parts)


def _rows(data: object) -> list[dict[str, object]]:
    if isinstance(data, dict):
        for key in ("items", "results", "files", "events", "passages", "documents"):
            if isinstance(data.get(key), list):
                return [r for r in data[key] if isinstance(r, dict)]
        return []
    if isinstance(data, list):
        return [r for r in data if isinstance(r, dict)]
    return []


def _row_html(row: dict[str, object]) -> str:
    """One line of a result: an event, a file or a passage, whichever the row looks like."""
    esc = html.escape
    if "start" in row:  # calendar event
        when = str(row.get("start", ""))[:16].replace("T", " ")
        end = str(row.get("end", ""))[11:16]
        title = row.get("title") or row.get("summary") or ""
        where = f" — {esc(str(row['location']))}" if row.get("location") else ""
        return f"<b>{esc(when)}{('–' + esc(end)) if end else ''}</b>&nbsp; {esc(str(title))}{where}"
    if "text" in row and ("document" in row or "title" in row):  # passage
        title = row.get("title") or Path(str(row.get("document", ""))).name
        loc = f", {esc(str(row['location']))}" if row.get("location") else ""
        cite = f"[{row['citation']}] " if row.get("citation") else ""
        snippet = str(row.get("text", "")).replace("\n", " ")[:160]
        return f"<b>{esc(cite)}{esc(str(title))}</b>{loc}<br/><i>{esc(snippet)}</i>"
    if "path" in row:  # file
        path = Path(str(row["path"]))
        size = row.get("size")
        extra = f" · {_size(size)}" if isinstance(size, int) else ""
        return f"<b>{esc(path.name)}</b>&nbsp; <span>{esc(str(path.parent))}{extra}</span>"
    return esc(", ".join(f"{k}: {v}" for k, v in list(row.items())[:4]))


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n = n / 1024  # type: ignore[assignment]
    return str(n)


# Document text as the model reads it: fenced, with a citation number and its source.
_FENCE = re.compile(r'<document_data (?:citation="(\d+)" )?source="([^"]*)">\n(.*?)\n</document_data>',
                    re.DOTALL)
_MODEL_HINT = re.compile(r"^\[[^\n]*call read_document with[^\n]*\]$", re.MULTILINE)


def _passage_html(match: re.Match[str]) -> str:
    cite = f"[{match.group(1)}] " if match.group(1) else ""
    snippet = match.group(3).replace("\n", " ")
    snippet = snippet if len(snippet) <= 160 else snippet[:159] + "…"
    return f"<b>{html.escape(cite + match.group(2))}</b><br/><i>{html.escape(snippet)}</i>"


def readable_html(text: str) -> str:
    """A result's text as a person reads it: the notes and fences meant for the model (the
    document-data warning, "call read_document with ...") become the passages they hold."""
    # Here, not at the top: the document skill is not needed before the window's first frame.
    from skills.documents.tools import DATA_NOTE

    text = _MODEL_HINT.sub("", text.replace(DATA_NOTE, "")).strip()
    parts, at = [], 0
    for match in _FENCE.finditer(text):
        parts.append(_plain_html(text[at:match.start()]))
        parts.append(_passage_html(match))
        at = match.end()
    parts.append(_plain_html(text[at:]))
    return "<br/>".join(p for p in parts if p)


def _plain_html(text: str) -> str:
    text = text.strip()
    short = text if len(text) < 600 else text[:597] + "…"
    return html.escape(short).replace("\n", "<br/>")


def result_html(text: str, data: object) -> str:
    rows = _rows(data)
    if not rows:
        return readable_html(text)
    lines = [_row_html(r) for r in rows[:MAX_ROWS]]
    more = len(rows) - MAX_ROWS
    if more > 0:
        lines.append(f"<i>+{more}</i>")
    return "<br/>".join(lines)


class ToolCard(QFrame):
    """Shows a running tool; an action waits for Approve / Deny in the card itself."""

    decided = Signal(bool)
    pause_asked = Signal(bool)  # True: pause the running tool; False: resume it
    state_changed = Signal(dict)  # what to store with the result (e.g. {"undone": True})

    def __init__(
        self, call_id: str, name: str, arguments: dict[str, object],
        parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("toolCard")
        self.call_id = call_id
        self.name = name
        self._request: Answerable | None = None
        self.file_actions: WrittenFileActions | None = None  # Open / Reveal / Undo
        self._denied = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 9, 12, 10)
        layout.setSpacing(4)
        self.title = QLabel("⚙  " + self.tr(nice_name(name)))
        self.title.setObjectName("toolTitle")
        self.status = dim_label(self.tr("Running…"), wrap=False)
        layout.addLayout(hbox(self.title, None, self.status))
        self.args = QLabel(format_arguments(arguments, self._argument))
        self.args.setObjectName("toolArgs")
        self.args.setWordWrap(True)
        self.args.setVisible(bool(arguments))
        layout.addWidget(self.args)
        self.result = QLabel(wordWrap=True, textFormat=Qt.TextFormat.RichText)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result.hide()
        layout.addWidget(self.result)
        self._confirm_row = self._build_confirm_row()
        layout.addWidget(self._confirm_row)
        self._pause_row = self._build_pause_row()
        layout.addWidget(self._pause_row)
        self.paused = False
        self._done_of = (0, 0)  # files done, files in all: what "Paused — 12 of 40" says
        self.setAccessibleName(self.tr("Tool: %s") % self.tr(nice_name(name)))

    def _build_confirm_row(self) -> QWidget:
        row = QWidget()
        box = QVBoxLayout(row)
        box.setContentsMargins(0, 4, 0, 0)
        self.description = QLabel(wordWrap=True)
        box.addWidget(self.description)
        self.approve_button = button(self.tr("Approve"), lambda: self._decide(True))
        self.approve_button.setObjectName("primary")
        self.deny_button = button(self.tr("Deny"), lambda: self._decide(False))
        box.addLayout(hbox(self.approve_button, self.deny_button, None))
        row.hide()
        return row

    def _build_pause_row(self) -> QWidget:
        row = QWidget()
        self.pause_button = button(self.tr("Pause"), lambda: self._set_paused(True))
        self.resume_button = button(self.tr("Resume"), lambda: self._set_paused(False))
        self.resume_button.setObjectName("primary")
        self.resume_button.hide()
        buttons = hbox(self.pause_button, self.resume_button, None)
        buttons.setContentsMargins(0, 4, 0, 0)
        row.setLayout(buttons)
        row.hide()
        return row

    def offer_pause(self) -> None:
        """The running tool can pause (a folder digest): show Pause / Resume."""
        if self.status.objectName() == "dim":  # still running
            self._pause_row.show()

    def withdraw_pause(self) -> None:
        """The turn ended (Stop): nothing left to pause."""
        self._pause_row.hide()
        self.paused = False

    def _set_paused(self, paused: bool) -> None:
        if paused == self.paused:
            return
        self.paused = paused
        self.pause_button.setVisible(not paused)
        self.resume_button.setVisible(paused)
        (self.resume_button if paused else self.pause_button).setFocus()
        self._show_count("")
        self.pause_asked.emit(paused)

    def ask(self, request: Answerable) -> None:
        """Wait for the user's decision on a change (the turn thread blocks until then)."""
        self._request = request
        self.description.setText(
            str(getattr(request, "description", ""))
            or format_arguments(getattr(request, "arguments", {}), self._argument)
        )
        self.status.setText(self.tr("Waiting for you"))
        self._confirm_row.show()
        self.approve_button.setFocus()

    def _decide(self, approved: bool) -> None:
        request, self._request = self._request, None
        if request is None:
            return
        (request.approve if approved else request.deny)()
        self._confirm_row.hide()
        self._denied = not approved
        self.status.setText(self.tr("Approved") if approved else self.tr("Denied"))
        self.decided.emit(approved)

    def show_progress(self, done: int, total: int, current: str) -> None:
        """A long tool's progress in its status: "3 of 20: report.pdf"."""
        self._done_of = (min(done + 1, total) if current else done, total)
        self._show_count(current)

    def _show_count(self, current: str) -> None:
        done, total = self._done_of
        if self.paused:  # the file being read is finished first, then it waits
            self.status.setText(self.tr("Paused — %1 of %2 files").replace(
                "%1", str(done)).replace("%2", str(total)))
            return
        text = self.tr("%1 of %2").replace("%1", str(done)).replace("%2", str(total))
        self.status.setText(text + (f": {Path(current).name}" if current else ""))

    @property
    def waiting(self) -> bool:
        return self._request is not None

    def finish(self, ok: bool, text: str, data: object,
               state: dict[str, object] | None = None) -> None:
        """Show the result; `state` is the card's stored state when a chat is reopened."""
        state = state or {}
        self.withdraw_pause()
        self._denied = self._denied or bool(state.get("denied"))
        unanswered = self._request is not None
        if unanswered:  # the turn ended (Esc, Stop) without an answer: treated as denied
            self._request = None
            self._confirm_row.hide()
        if not ok and (unanswered or self._denied):
            # Nothing was done because the person said no or stopped: not a failure.
            self.status.setText("○ " + (self.tr("Stopped before you decided") if unanswered
                                        else self.tr("Denied")))
            self.status.setObjectName("toolStatus")
            self.status.style().polish(self.status)
            # The result is the sentence telling the model it was not done: the status says it.
            self.result.clear()
            self.result.setVisible(False)
            return
        self.status.setText("✓ " + self.tr("Done") if ok else "✕ " + self.tr("Failed"))
        self.status.setObjectName("toolStatusOk" if ok else "toolStatusFail")
        self.status.style().polish(self.status)
        written = written_path(data) if ok else ""
        record = data if isinstance(data, dict) else {}
        # A written file is told from its data, in the reader's language (the text is the
        # model's, in English, with instructions for it).
        self.result.setText(self._written_html(record) if written else result_html(text, data))
        self.result.setVisible(bool(text or data))
        if written and self.file_actions is None:
            self.file_actions = WrittenFileActions(record, self)
            self.file_actions.undone.connect(self._on_undone)  # a method: queued to this thread
            if state.get("undone"):
                self.file_actions.show_undone()
            layout = self.layout()
            if layout is not None:
                layout.addWidget(self.file_actions)

    def _argument(self, key: str) -> str:
        return self.tr(_ARGUMENTS[key]) if key in _ARGUMENTS else key

    def _written_html(self, data: dict[str, object]) -> str:
        name = html.escape(Path(written_path(data)).name)
        size = data.get("size")
        text = self.tr("Wrote %1 (%2).").replace("%1", f"<b>{name}</b>").replace(
            "%2", _size(size) if isinstance(size, int) else "?")
        backup = data.get("backup")
        if isinstance(backup, str) and backup:
            text += "<br/>" + self.tr("The previous file is kept as %1.").replace(
                "%1", html.escape(Path(backup).name))
        return text

    def _on_undone(self, ok: bool, _message: str) -> None:
        if ok:
            self.state_changed.emit({"undone": True})
