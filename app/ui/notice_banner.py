"""Hearth's notices about its own state, shown once at the top of the window, in its language.

Non-modal: each notice is a row that stays until dismissed. A read-only history offers to
recover what can be read into a new file, on a worker (it reads the whole file); the damaged
file is kept, and the recovered one is used from the next start.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget

from app.core.notices import Notice, NoticeKind
from app.core.settings_compat import NoteWhy, SettingNote
from app.ui.widgets import tr_button

if TYPE_CHECKING:
    from app.core.recovery import Recovery
    from skills.index_health import Damage
from app.ui.banner_frame import BannerFrame
from app.ui.context import UiContext

translate = QCoreApplication.translate  # context "Notices" written out: lupdate reads the calls


def setting_words(note: SettingNote) -> str:
    """One setting of another version's file, in the UI language (its key as it is)."""
    sentence = {
        NoteWhy.UNKNOWN_KEY: translate("Notices", "%1: not known to this version (kept)"),
        NoteWhy.WRONG_TYPE: translate("Notices", "%1: not the right kind of value (the default "
                                                 "is used)"),
        NoteWhy.ITEM_LEFT_OUT: translate("Notices", "%1: not the right kind of value (left "
                                                    "out)"),
    }[note.why]
    return sentence.replace("%1", note.key)


def damage_words(damage: Damage | None) -> str:
    """What is wrong with a database file, in the UI language (SQLite's words stay as they are)."""
    if damage is None:
        return ""
    from skills.index_health import DamageWhy  # loaded already: it told what is wrong

    sentence = {
        DamageWhy.UNREADABLE: translate("Notices", "it cannot be read: %1"),
        DamageWhy.NOT_SQLITE: translate("Notices", "it is not a SQLite database"),
        DamageWhy.TRUNCATED: translate("Notices", "it was cut short"),
        DamageWhy.FOREIGN: translate("Notices", "it is another program's database"),
        DamageWhy.DAMAGED: translate("Notices", "SQLite reports: %1"),
    }[damage.why]
    return sentence.replace("%1", damage.detail)


def describe(notice: Notice) -> str:
    """The notice in the UI language; English specifics (settings keys) stay as they are."""
    if notice.kind is NoticeKind.SETTINGS_OTHER_VERSION:
        return translate(
            "Notices", "Your settings were written by another version of Hearth. Settings this "
            "version does not know are kept and ignored; values of the wrong type were replaced "
            "by their defaults. The file as it was is kept as settings.previous.json. "
            "Details: %1").replace("%1", "; ".join(setting_words(n) for n in notice.settings))
    if notice.kind is NoticeKind.INDEX_REBUILT:
        return translate(
            "Notices", "The search index was damaged (%1). It was moved aside as %2 and is being "
            "rebuilt; %3 documents will be indexed again.").replace(
            "%1", damage_words(notice.damage)).replace("%2", Path(notice.path).name).replace(
            "%3", str(notice.count))
    if notice.damaged:
        return translate(
            "Notices", "Your chat history is damaged (%1) and was opened read-only: you can "
            "read your conversations, but new chats cannot be saved. Recovering copies what can "
            "still be read into a new file; the damaged file is kept.").replace(
            "%1", damage_words(notice.damage))
    return translate(
        "Notices", "Your chat history could only be opened read-only (%1 cannot be written): "
        "you can read your conversations, but new chats cannot be saved.").replace(
        "%1", notice.path)


class NoticeRow(BannerFrame):
    """One notice: its words, the action it offers, and a button that puts it away."""

    def __init__(self, ctx: UiContext, notice: Notice, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.notice = notice
        self._tr(lambda: self.text.setText(describe(notice)), key="text")
        self._tr(lambda: self.text.setAccessibleName(translate("Notices", "Notice")))
        self.action = tr_button(self._tr, lambda: translate("Notices", "Recover into a new file"),
                                self.recover)
        self.action.setVisible(notice.kind is NoticeKind.HISTORY_READ_ONLY and notice.damaged)
        self.add(self.action)
        self.dismiss = QPushButton("×")
        self.dismiss.setFlat(True)
        self._tr(lambda: self.dismiss.setAccessibleName(translate("Notices", "Dismiss")))
        self._tr(lambda: self.dismiss.setToolTip(translate("Notices", "Dismiss")))
        self.dismiss.clicked.connect(self.hide)
        self.add(self.dismiss)

    def recover(self) -> None:
        self.action.setEnabled(False)
        self._say(lambda: translate("Notices", "Recovering your chat history…"))
        self.ctx.ops.run(self.ctx.hearth.recover_history, self._recovered, self._not_recovered)

    def _recovered(self, result: Recovery) -> None:
        rows = f"{sum(result.rows.values()):,}"
        kept = Path(str(result.kept_as)).name
        self.action.hide()
        self._say(lambda: translate(
            "Notices", "Recovered %1 rows into a new chat history; the damaged file is kept as "
            "%2. Restart Hearth to use the recovered history.").replace("%1", rows).replace(
            "%2", kept))

    def _not_recovered(self, error: Exception) -> None:
        self.action.setEnabled(True)
        self._say(lambda: translate(
            "Notices", "Nothing could be recovered: %1. Your chat history file is "
            "unchanged.").replace("%1", str(error)))

    def _say(self, text: Callable[[], str]) -> None:
        self._tr(lambda: self.text.setText(text()), key="text")


class NoticeBanner(QWidget):
    """The column of notice rows; notices come from any thread through `arrived`."""

    arrived = Signal(object)

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.rows: list[NoticeRow] = []
        self._column = QVBoxLayout(self)
        self._column.setContentsMargins(16, 8, 16, 0)
        self._column.setSpacing(6)
        self.arrived.connect(self._show)  # queued onto the GUI thread when emitted elsewhere
        stop = ctx.hearth.notices.listen(self._deliver)
        self.destroyed.connect(lambda *_: stop())
        self.setVisible(bool(self.rows))

    def _deliver(self, notice: Notice) -> None:
        try:
            self.arrived.emit(notice)
        except RuntimeError:
            pass  # the window is going away

    def _show(self, notice: Notice) -> None:
        if any(r.notice == notice for r in self.rows):
            return  # said once
        row = NoticeRow(self.ctx, notice, self)
        self.rows.append(row)
        self._column.addWidget(row)
        self.show()

    def texts(self) -> list[str]:
        """What the visible rows say (for tests and screen readers' summaries)."""
        return [r.text.text() for r in self.rows if not r.isHidden()]
