"""What every window needs: the composition root, the background-ops pool and the theme."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast, overload

from app.core.root import HearthParts
from app.ui.ops import Ops

if TYPE_CHECKING:
    from app.core.assistant import Assistant
    from app.core.conversations import Conversations
    from app.core.history import HistoryStore
    from app.core.memory import MemoryStore
    from app.core.routines import Approvals, RoutineStore, Scheduler
    from app.ui.i18n import Translations
    from app.ui.settings.api_server import ServerSwitch
    from app.ui.shell.hotkey import GlobalHotkey
    from app.ui.theme import ThemeManager
    from skills.calendar import CalendarStore
    from skills.documents import DocumentIndex
    from skills.files import FileIndex

PartName = Literal["history", "conversations", "documents", "calendar", "files", "memory",
                   "routines", "scheduler", "approvals"]


@dataclass
class UiContext:
    """Passed to each window instead of globals; tests build one around a test Hearth."""

    hearth: HearthParts
    ops: Ops
    theme: ThemeManager | None = None
    hotkey: GlobalHotkey | None = None  # when the app registered one
    translations: Translations | None = None
    server: ServerSwitch | None = None  # the in-app server for other programs

    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def assistant(self) -> Assistant:
        """The core Assistant, built on first use. Call it from background work only: building
        it opens the indexes and loads every skill (hundreds of milliseconds)."""
        with self._lock:
            return self.hearth.assistant

    @overload
    def part(self, name: Literal["history"]) -> HistoryStore: ...
    @overload
    def part(self, name: Literal["conversations"]) -> Conversations: ...
    @overload
    def part(self, name: Literal["documents"]) -> DocumentIndex: ...
    @overload
    def part(self, name: Literal["calendar"]) -> CalendarStore: ...
    @overload
    def part(self, name: Literal["files"]) -> FileIndex: ...
    @overload
    def part(self, name: Literal["memory"]) -> MemoryStore: ...
    @overload
    def part(self, name: Literal["routines"]) -> RoutineStore: ...
    @overload
    def part(self, name: Literal["scheduler"]) -> Scheduler: ...
    @overload
    def part(self, name: Literal["approvals"]) -> Approvals: ...

    def part(self, name: PartName) -> object:
        """A part of the root, opened on first use (from a worker: opening reads the disk)."""
        with self._lock:
            return cast(object, getattr(self.hearth, name))

    @overload
    def lazy(self, name: Literal["history"]) -> HistoryStore: ...
    @overload
    def lazy(self, name: Literal["conversations"]) -> Conversations: ...
    @overload
    def lazy(self, name: Literal["documents"]) -> DocumentIndex: ...
    @overload
    def lazy(self, name: Literal["calendar"]) -> CalendarStore: ...
    @overload
    def lazy(self, name: Literal["files"]) -> FileIndex: ...
    @overload
    def lazy(self, name: Literal["memory"]) -> MemoryStore: ...
    @overload
    def lazy(self, name: Literal["routines"]) -> RoutineStore: ...
    @overload
    def lazy(self, name: Literal["scheduler"]) -> Scheduler: ...
    @overload
    def lazy(self, name: Literal["approvals"]) -> Approvals: ...

    def lazy(self, name: PartName) -> Any:
        """A stand-in, typed as the part, that opens it only when a method is looked up on it;
        look methods up inside background work, never on the GUI thread."""
        return _Lazy(self, name)

    @property
    def dark(self) -> bool:
        return bool(self.theme and self.theme.dark)


class _Lazy:
    def __init__(self, ctx: UiContext, name: PartName) -> None:
        self._ctx = ctx
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._ctx.part(self._name), attr)
