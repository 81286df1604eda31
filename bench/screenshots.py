"""Render Hearth's windows (light and dark) to PNGs in bench/screenshots/, offscreen.

    .venv/bin/python bench/screenshots.py

Main window with a realistic conversation (thinking, a tool card, a Markdown answer with a
table and code, numbered sources), quick ask, model manager and settings."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_SCRATCH: list[tempfile.TemporaryDirectory[str]] = []  # removed when the script ends


def scratch(prefix: str) -> str:
    """A folder for this run only (the Hearth home, the folders the pages show)."""
    _SCRATCH.append(tempfile.TemporaryDirectory(prefix=prefix, ignore_cleanup_errors=True))
    return _SCRATCH[-1].name


os.environ["HEARTH_HOME"] = scratch("hearth-shots-")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "bench" / "screenshots"

QUESTION = "How much did we spend on travel in Q3 compared with the budget? Show it as a table."
REASONING = ("The user wants Q3 travel spend against budget. I should search their documents "
             "for the Q3 expense report and the budget, then compare the figures.")
ANSWER = """Travel came in **8% over budget** in Q3, mostly because of the Berlin offsite [1].

| Month | Budget | Spent | Difference |
|---|---:|---:|---:|
| July | €4,000 | €3,650 | −€350 |
| August | €3,500 | €3,420 | −€80 |
| September | €4,500 | €5,910 | +€1,410 |
| **Q3** | **€12,000** | **€12,980** | **+€980** |

September's overrun is the offsite: flights were booked late at higher fares [2]. To check the
totals yourself:

```python
spent = {"Jul": 3650, "Aug": 3420, "Sep": 5910}
budget = 12_000
print(sum(spent.values()) - budget)  # 980
```

Next quarter, booking offsite travel 6 weeks ahead would likely keep you within budget.
"""
SOURCES = [
    SimpleNamespace(citation=1, document="/home/ana/Finance/Q3-expenses.pdf",
                    title="Q3-expenses.pdf", location="page 4", page=4, text=""),
    SimpleNamespace(citation=2, document="/home/ana/Finance/Berlin offsite.docx",
                    title="Berlin offsite.docx", location="Travel > Flights", page=None,
                    text=""),
]
PASSAGES = [
    {"citation": 1, "document": SOURCES[0].document, "title": "Q3-expenses.pdf",
     "location": "page 4", "text": "Travel: July 3,650; August 3,420; September 5,910 EUR."},
    {"citation": 2, "document": SOURCES[1].document, "title": "Berlin offsite.docx",
     "location": "Travel > Flights", "text": "Flights booked 9 days before departure..."},
]
TITLES = ["Q3 travel vs budget", "Plan the Berlin offsite", "Summarise the lease PDF",
          "Python: dedupe a CSV", "Meeting notes 12 Nov", "Gift ideas for Mia"]


def wait(app: object, ops: object, ms: int = 300) -> None:
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        app.processEvents()  # type: ignore[attr-defined]
        time.sleep(0.01)
    ops.wait(2000)  # type: ignore[attr-defined]
    app.processEvents()  # type: ignore[attr-defined]


def seed(hearth: object) -> None:
    history = hearth.history  # type: ignore[attr-defined]
    for i, title in enumerate(reversed(TITLES)):
        conv = history.create_conversation(title)
        history.add_message(conv.id, "user", f"Question about {title.lower()}")
        history.add_message(conv.id, "assistant", "An answer.")
        if i == 1:
            history.set_pinned(conv.id, True)


def fill_chat(window: object) -> None:
    from app.ui.chat.message import AssistantMessage, UserMessage

    chat = window.chat  # type: ignore[attr-defined]
    dark = chat.ctx.dark
    chat._add(UserMessage(QUESTION, "u1", dark=dark))
    answer = AssistantMessage(dark=dark)
    chat._add(answer)
    answer.add_reasoning(REASONING)
    card = answer.add_tool("c1", "search_documents", {"query": "Q3 travel budget"})
    card.finish(True, "2 passages", PASSAGES)
    answer.add_text(ANSWER)
    answer.set_sources(SOURCES)
    answer.finish("31.4 tok/s · 412 tokens")
    render_all(answer)
    window.engine_label.setText("llama.cpp · Nanbeige4.2-3B Q4_K_M")  # type: ignore[attr-defined]
    window.context_label.setText("Context 2,318 / 16,384")  # type: ignore[attr-defined]
    window.speed_label.setText("31.4 tok/s")  # type: ignore[attr-defined]
    chat.composer.think.setChecked(True)


def render_all(answer: Any) -> None:
    """Render every part of an answer now (the window renders them as they stream)."""
    for segment in answer.segments:
        segment.flush()


def open_window(app: object, hearth: object, scheme: str, size: tuple[int, int],
                translations: object = None) -> tuple[Any, Any]:
    """The main window over `hearth` in `scheme`, shown at `size`, its conversations listed."""
    from app.ui.context import UiContext
    from app.ui.ops import Ops
    from app.ui.shell.main_window import MainWindow
    from app.ui.theme import ThemeManager

    theme = ThemeManager(app, scheme)  # type: ignore[arg-type]
    theme.apply()
    ctx = UiContext(hearth, Ops(), theme, translations=translations)  # type: ignore[arg-type]
    window = MainWindow(ctx)
    window.resize(*size)
    window.show()
    window.sidebar.reload()
    return window, ctx


def shoot(widget: object, name: str) -> Path:
    path = OUT / f"{name}.png"
    widget.grab().save(str(path))  # type: ignore[attr-defined]
    return path


def main() -> int:
    from PySide6.QtWidgets import QApplication

    from app.main import Hearth
    from app.ui.context import UiContext
    from app.ui.ops import Ops
    from app.ui.theme import ThemeManager

    OUT.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(["hearth"])
    hearth = Hearth()
    seed(hearth)
    saved = []
    for scheme in ("light", "dark"):
        theme = ThemeManager(app, scheme)
        theme.apply()
        ctx = UiContext(hearth, Ops(), theme)
        saved += shoot_all(app, ctx, scheme)
        ctx.ops.wait(3000)
    seed_pages(hearth)
    saved += shoot_pages(app, hearth)
    saved += shoot_chinese(app, hearth)
    seed_files(hearth)
    for language in ("en", "zh_CN"):
        for scheme in ("light", "dark"):
            saved += shoot_views(app, hearth, language, scheme)
    for path in saved:
        print(path.relative_to(ROOT))
    hearth.close()
    return 0


def seed_pages(hearth: object) -> None:
    """A watched folder with two documents and a bad one; three events this week."""
    from datetime import datetime, timedelta

    from skills.calendar import Event

    folder = Path(scratch("hearth-docs-")) / "Finance"
    folder.mkdir()
    (folder / "Q3 budget.md").write_text("# Budget\n\nTravel: 12,000 EUR for Q3.")
    (folder / "Expense notes.txt").write_text("September offsite flights were booked late.")
    (folder / "scan.pdf").write_bytes(b"%PDF-1.4 not really a pdf")
    _workbook(folder / "Travel 2026.xlsx")
    documents = hearth.documents  # type: ignore[attr-defined]
    documents.watch(str(folder))
    documents.sync()
    start = datetime.now().astimezone().replace(hour=9, minute=30, second=0, microsecond=0)
    for day, (title, place) in enumerate((("Standup", ""), ("Dentist (Dr. Okafor)",
                                          "Lindenstr. 12"), ("Offsite planning", "Room 4"))):
        when = start + timedelta(days=day, hours=day)
        hearth.calendar.add(Event(uid="", title=title, start=when,  # type: ignore[attr-defined]
                                  end=when + timedelta(hours=1), location=place))
    early = start.replace(hour=6, minute=15) + timedelta(days=1)  # Day opens where it is
    hearth.calendar.add(Event(uid="", title="Early train", start=early,  # type: ignore[attr-defined]
                              end=early + timedelta(minutes=45)))
    night = start.replace(hour=21, minute=0) + timedelta(days=2)  # drawn on both its days
    hearth.calendar.add(Event(uid="", title="Night ferry", start=night,  # type: ignore[attr-defined]
                              end=night + timedelta(hours=11)))
    seed_personal(hearth, start)


def seed_personal(hearth: Any, start: Any) -> None:
    """Two memories (one typed, one from a chat), standing instructions, a weekday routine."""
    from app.core.routines.schedule import Schedule
    from skills.common.clock import local_timezone_name

    hearth.memory.add("I live in Lyon and cycle to work")
    hearth.memory.add("My sister Anna's birthday is 14 March", source="chat:seed")
    hearth.memory.set_instructions("Always answer in metric units.")
    morning = start.replace(hour=7, minute=30, tzinfo=None)
    hearth.routines.add("Morning briefing", "What's on today and what's due?",
                        Schedule(morning, local_timezone_name(), "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
                        start)


def seed_files(hearth: object) -> None:
    """A folder chosen for file search, with files of several kinds and ages."""
    folder = Path(scratch("hearth-files-")) / "Projects"
    for sub, names in (("Trip", ["Berlin budget.xlsx", "Flights.pdf", "Packing list.txt"]),
                       ("Taxes", ["Receipts 2025.zip", "Tax return draft.docx"]),
                       ("Photos", ["Harbour.jpg", "Offsite team.png"])):
        (folder / sub).mkdir(parents=True)
        for name in names:
            (folder / sub / name).write_bytes(b"budget notes " * 200)
    settings = hearth.settings  # type: ignore[attr-defined]
    settings.file_roots = [str(folder)]
    hearth.files.add_root(str(folder))  # type: ignore[attr-defined]
    hearth.files.scan()  # type: ignore[attr-defined]


def shoot_views(app: object, hearth: object, language: str, scheme: str) -> list[Path]:
    """Every view, in this language and theme: library, files, calendar (month, week,
    agenda), the event form, and Settings' tabs."""
    from app.ui.i18n import Translations

    translations = Translations(app)  # type: ignore[arg-type]
    translations.apply(language)
    window, ctx = open_window(app, hearth, scheme, (1280, 820), translations)
    wait(app, ctx.ops)
    tag = f"{language}-{scheme}"
    paths = []
    window.show_page("library")
    wait(app, ctx.ops, 400)
    paths.append(shoot(window, f"view-library-{tag}"))
    window.show_files("budget")
    wait(app, ctx.ops, 500)
    paths.append(shoot(window, f"view-files-{tag}"))
    paths += shoot_cards(app, window, ctx, language, tag)
    window.show_page("calendar")
    calendar = window.pages.currentWidget()
    for mode in ("month", "week", "agenda"):
        calendar.set_mode(mode)  # type: ignore[attr-defined]
        wait(app, ctx.ops, 400)
        paths.append(shoot(window, f"view-calendar-{mode}-{tag}"))
    form = calendar.new_event()  # type: ignore[attr-defined]
    form.title.setText("Dentist" if language == "en" else "看牙医")
    wait(app, ctx.ops, 100)
    paths.append(shoot(form, f"dialog-event-{tag}"))
    form.reject()
    paths += shoot_calendar_asks(app, ctx, calendar, tag)
    window.show_page("routines")
    wait(app, ctx.ops, 400)
    paths.append(shoot(window, f"view-routines-{tag}"))
    settings = window.open_settings()
    for index in range(settings.tabs.count()):  # type: ignore[attr-defined]
        settings.tabs.setCurrentIndex(index)  # type: ignore[attr-defined]
        wait(app, ctx.ops, 150)
        paths.append(shoot(settings, f"dialog-settings-{index}-{tag}"))
    settings.reject()
    window.close()
    wait(app, ctx.ops, 50)
    translations.apply("en")
    return paths


def shoot_calendar_asks(app: object, ctx: Any, calendar: Any, tag: str) -> list[Path]:
    """The day view (opened where its earliest event is), a drag's confirm naming both days,
    and a re-import's question about events changed in Hearth and in the file."""
    from datetime import timedelta

    from app.ui.pages.calendar.conflicts import ConflictDialog
    from skills.calendar.local_edits import Conflict

    calendar.set_mode("day")
    wait(app, ctx.ops, 400)
    paths = [shoot(calendar.window(), f"view-calendar-day-{tag}")]
    calendar.set_mode("week")
    wait(app, ctx.ops, 400)
    occ = next(o for o in calendar.time_grid.occurrences if not o.event.all_day)
    box = calendar.move_occurrence(occ, occ.start + timedelta(days=2),
                                   occ.end + timedelta(days=2, hours=20))
    wait(app, ctx.ops, 100)
    paths.append(shoot(box, f"dialog-calendar-move-{tag}"))
    box.reject()
    conflicts = [Conflict("a", "", "Lunch with Sam & Jo", "Lunch with Sam", "", False),
                 Conflict("b", "", "", "Call the bank", "", True)]
    dialog = ConflictDialog(conflicts, "work.ics", calendar)
    dialog.show()
    wait(app, ctx.ops, 100)
    paths.append(shoot(dialog, f"dialog-calendar-conflicts-{tag}"))
    dialog.reject()
    return paths


PASTE = "\n".join(f"Line {i}: notes from the planning meeting about item {i}." for i in range(90))


def shoot_cards(app: object, window: Any, ctx: Any, language: str, tag: str) -> list[Path]:
    """A chat as reopened (issue 26): a long paste kept as a document, a written file's card
    with Open / Show in folder / Undo, a denied change, a document read; the model picker
    naming the server's model; the chat list with the keyboard in it (its focus ring)."""
    from app.ui.chat.message import AssistantMessage, UserMessage

    window.show_page("chat")
    window.chat.new_conversation()
    dark, chat = ctx.dark, window.chat
    zh = language != "en"
    paste = UserMessage(PASTE, "u1", dark=dark)
    paste.show_attached("Pasted text 1.txt")
    chat._add(paste)
    answer = AssistantMessage(dark=dark)
    chat._add(answer)
    read = answer.add_tool("c1", "read_document", {"document": "Pasted text 1.txt"})
    read.finish(True, '<document_data citation="1" source="Pasted text 1.txt">\n'
                + PASTE[:300] + "\n</document_data>", {"document": "Pasted text 1.txt"})
    report = answer.add_tool("c2", "office_report", {"title": "会议纪要" if zh else "Minutes"})
    made = str(Path(tempfile.gettempdir()) / ("会议纪要.docx" if zh else "Minutes.docx"))
    report.finish(True, "Wrote …", {"written": made, "size": 36815, "backup": ""},
                  {"undone": False})
    denied = answer.add_tool("c3", "add_event", {"title": "Review", "start": "2026-12-04T10:00"})
    denied.finish(False, "declined", None, {"denied": True})
    answer.add_text("会议纪要已写好。" if zh else "The minutes are written.")
    answer.finish("24.0 tok/s · 180 tokens")
    render_all(answer)
    window.context_label.setText(window.tr("Context %1 / %2").replace("%1", "3,904").replace(
        "%2", "4,096") + window.tr(" · your message: its start and end, the rest as a document"))
    window.sidebar.list.setFocus()
    window.sidebar.list.setCurrentRow(1)
    wait(app, ctx.ops, 400)
    return [shoot(window, f"view-chat-cards-{tag}")]


def _workbook(path: Path) -> None:
    """Two sheets: the Length column should say so."""
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["Month", "Spent"])
    book.active.append(["July", 3650])
    book.create_sheet("Budget").append(["Q3", 12000])
    book.save(path)


def shoot_pages(app: object, hearth: object, suffix: str = "light") -> list[Path]:
    window, ctx = open_window(app, hearth, "light", (1180, 720))
    paths = []
    for page in ("library", "calendar"):
        window.show_page(page)
        wait(app, ctx.ops, 400)
        paths.append(shoot(window, f"{page}-{suffix}"))
    window.close()
    return paths


def shoot_chinese(app: object, hearth: object) -> list[Path]:
    """The main window switched live to Simplified Chinese (checks that every open text
    follows the new language, the translation and the CJK font)."""
    from app.ui.i18n import Translations

    translations = Translations(app)  # type: ignore[arg-type]
    window, ctx = open_window(app, hearth, "light", (1280, 860), translations)
    wait(app, ctx.ops)
    for page in ("library", "calendar", "chat"):  # built in English, then switched
        window.show_page(page)
    translations.apply("zh_CN")
    wait(app, ctx.ops, 300)
    window.engine_label.setText("llama.cpp · Nanbeige4.2-3B Q4_K_M")
    paths = [shoot(window, "main-zh_CN-light")]
    for page in ("library", "calendar"):
        window.show_page(page)
        wait(app, ctx.ops, 400)
        paths.append(shoot(window, f"{page}-zh_CN-light"))
    window.close()
    translations.apply("en")
    return paths


def shoot_all(app: object, ctx: object, scheme: str) -> list[Path]:
    from app.ui.models.manager import ModelManager
    from app.ui.settings.dialog import SettingsDialog
    from app.ui.shell.main_window import MainWindow
    from app.ui.shell.quick_ask import QuickAsk

    ops = ctx.ops  # type: ignore[attr-defined]
    paths = []
    window = MainWindow(ctx)
    window.resize(1280, 860)
    window.show()
    window.sidebar.reload()
    wait(app, ops)
    window.sidebar.select(window.sidebar.conversations[1].id)
    fill_chat(window)
    wait(app, ops, 400)
    paths.append(shoot(window, f"main-{scheme}"))
    quick = QuickAsk(ctx)
    quick.show()
    quick.input.setText("")
    quick.input.setPlaceholderText("When is my next dentist appointment?")
    from app.ui.chat.message import AssistantMessage

    quick.answer = AssistantMessage(dark=ctx.dark)  # type: ignore[attr-defined]
    quick.answer._layout.setContentsMargins(0, 0, 0, 0)
    quick.scroll_area.setWidget(quick.answer)
    quick.scroll_area.show()
    card = quick.answer.add_tool("c1", "list_events", {"query": "dentist"})
    card.finish(True, "1 event", [{"title": "Dentist (Dr. Okafor)", "start":
                                   "2026-12-03T09:30:00", "end": "2026-12-03T10:15:00",
                                   "location": "Lindenstr. 12"}])
    quick.answer.add_text("Your next dentist appointment is on **Thursday 3 December at "
                          "09:30** with Dr. Okafor (Lindenstr. 12).")
    quick.answer.finish("28.9 tok/s · 41 tokens")
    quick.answer.regenerate_button.hide()
    quick.open_button.setEnabled(True)
    wait(app, ops, 300)
    quick.fit()
    wait(app, ops, 100)
    paths.append(shoot(quick, f"quick-ask-{scheme}"))
    manager = ModelManager(ctx, first_run=True)
    manager.resize(660, 760)
    manager.show()
    wait(app, ops, 400)
    paths.append(shoot(manager, f"model-manager-{scheme}"))
    paths += shoot_template_choice(app, manager, scheme)
    settings = SettingsDialog(ctx)
    settings.show()
    wait(app, ops, 300)
    paths.append(shoot(settings, f"settings-{scheme}"))
    settings.tabs.setCurrentIndex(2)
    wait(app, ops, 100)
    paths.append(shoot(settings, f"settings-general-{scheme}"))
    for w in (window, quick, manager, settings):
        w.close()
        w.deleteLater()
    wait(app, ops, 50)
    return paths


def shoot_template_choice(app: object, manager: Any, scheme: str) -> list[Path]:
    """A GGUF without a usable chat template, as the Models dialog refuses it: of a Nanbeige
    build (the built-in template or a file) and of another architecture (a file)."""
    paths = []
    for arch, known in (("nanbeige", "Nanbeige4.2"), ("llama", "")):
        manager._checked(f"/models/base-{arch}.gguf",
                         "The file carries no chat template (tokenizer.chat_template).", arch,
                         known)
        wait(app, manager.ctx.ops, 150)
        paths.append(shoot(manager, f"model-manager-no-template-{arch}-{scheme}"))
    manager._hide_offers()
    return paths


if __name__ == "__main__":
    sys.exit(main())
