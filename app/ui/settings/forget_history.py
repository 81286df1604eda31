"""Delete all history: asks first (how many chats, what goes with them), forgets off the GUI thread."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QCheckBox, QMessageBox, QWidget

from app.ui.context import UiContext
from app.ui.i18n import plural
from app.ui.widgets import confirm, tell


class HistoryEraser(QObject):
    """`ask()` counts the chats, shows what deleting them forgets, and on "Delete all" runs the
    lifecycle owner (app.core.conversations) on a worker; `erased` carries what it forgot."""

    erased = Signal(list)  # app.core.conversations.Forgotten, one per conversation
    memory_forgotten = Signal()  # what the chats taught went with them: the prefix is new

    def __init__(self, ctx: UiContext, parent: QWidget) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._parent = parent
        self.box: QMessageBox | None = None  # the question on screen (tests click it)
        self._asked: set[str] = set()  # the chats the question counted

    def ask(self) -> None:
        history, memory = self.ctx.lazy("history"), self.ctx.lazy("memory")

        def read() -> tuple[set[str], list[int]]:
            # The chats a person can see: started-and-never-used ones hold nothing (they go too).
            ids = {c.id for c in history.list_conversations(include_archived=True,
                                                            include_empty=False)}
            return ids, [m.id for m in memory.entries() if not m.typed]

        self.ctx.ops.run(read, lambda found: self._confirm(*found),
                         title=self.tr("Could not read your conversations"))

    def counted(self, gone: list[Any]) -> int:
        """How many of the chats the question counted were deleted: the number it said, not
        the empty ones nobody saw that went with them."""
        return sum(1 for g in gone if getattr(g, "conversation_id", None) in self._asked)

    def _confirm(self, ids: set[str], taught: list[int] | None = None) -> None:
        self._asked, count = ids, len(ids)
        if count == 0:
            self.box = tell(self._parent, self.tr("Delete all history"),
                            self.tr("There is no history to delete."),
                            QMessageBox.Icon.Information)
            return
        question = plural(count, self.tr("Delete your conversation for good?"),
                          self.tr("Delete all %1 conversations for good?"))
        detail = self.tr("Their messages, the documents dropped into them, the model's saved "
                         "memory of them (KV caches) and their search entries are forgotten. "
                         "This cannot be undone.")

        def erase() -> None:
            check = box.checkBox()
            self.erase(taught if check is not None and check.isChecked() else [])

        box = confirm(self._parent, self.tr("Delete all history"), f"{question}\n\n{detail}",
                      self.tr("Delete all"), erase)
        if taught:  # what the chats taught is named, and goes too unless unticked
            also = QCheckBox(plural(len(taught), self.tr(
                "Also forget the one thing Hearth remembers from them"), self.tr(
                "Also forget the %1 things Hearth remembers from them")), box)
            also.setChecked(True)
            box.setCheckBox(also)
        self.box = box

    def erase(self, memories: list[int] | None = None) -> None:
        """Forget every conversation now (no question asked), and these memories with them."""
        conversations, memory = self.ctx.lazy("conversations"), self.ctx.lazy("memory")
        forget = list(memories or [])

        def work() -> list[Any]:
            gone = conversations.delete_all()
            if forget:
                memory.delete_many(forget)
            return gone

        def done(gone: list[Any]) -> None:
            self.erased.emit(gone)
            if forget:
                self.memory_forgotten.emit()

        self.ctx.ops.run(work, done, title=self.tr("Could not delete the history"), writes=True)
