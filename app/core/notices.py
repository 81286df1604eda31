"""What Hearth tells the user once about its own state: the kinds, and who is listening.

The CLI prints each notice's English line on stderr; the window shows each in its own words
(app/ui/notice_banner.py), so a notice carries its kind and the facts its sentence needs.
Notices may arrive from any thread (parts are opened off the GUI thread): listeners are called
on the thread that adds one, and a window hands them over to its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # index_health imports sqlite_utils: not before the window shows
    from app.core.settings_compat import SettingNote
    from skills.index_health import Damage


class NoticeKind(Enum):
    SETTINGS_OTHER_VERSION = "settings_other_version"  # unknown keys kept, wrong types reset
    INDEX_REBUILT = "index_rebuilt"  # a damaged index.db moved aside, rebuilding
    HISTORY_READ_ONLY = "history_read_only"  # hearth.db readable, nothing new can be saved


@dataclass(frozen=True)
class Notice:
    kind: NoticeKind
    text: str  # the English line (the CLI's)
    detail: str = ""  # the English details (the CLI's)
    path: str = ""  # the file concerned: hearth.db, or where index.db was moved
    count: int = 0  # documents queued again (INDEX_REBUILT)
    damage: Damage | None = None  # what is wrong with the file (a code the window words)
    settings: tuple[SettingNote, ...] = ()  # SETTINGS_OTHER_VERSION: each setting, as a code

    @property
    def damaged(self) -> bool:
        """HISTORY_READ_ONLY: damaged (recoverable) rather than unwritable."""
        return self.damage is not None

    def __str__(self) -> str:
        return self.text


Listener = Callable[[Notice], None]


class Notices:
    """The notices of one Hearth, in order; a listener also gets those already given."""

    def __init__(self) -> None:
        self._items: list[Notice] = []
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()

    def add(self, notice: Notice) -> None:
        with self._lock:
            self._items.append(notice)
            listeners = list(self._listeners)
        for listener in listeners:
            listener(notice)

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` for every notice, past and future; returns what stops it."""
        with self._lock:
            self._listeners.append(listener)
            past = list(self._items)
        for notice in past:
            listener(notice)

        def stop() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)
        return stop

    def __iter__(self) -> Iterator[Notice]:
        with self._lock:
            return iter(list(self._items))

    def __len__(self) -> int:
        return len(self._items)
