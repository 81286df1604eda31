"""What every window needs: the composition root, the background-ops pool and the theme."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.ui.ops import Ops

if TYPE_CHECKING:
    from app.ui.theme import ThemeManager


@dataclass
class UiContext:
    """Passed to each window instead of globals; tests build one around a test Hearth."""

    hearth: Any  # app.main.Hearth (typed loosely: app.ui may not import app.main)
    ops: Ops
    theme: ThemeManager | None = None
    hotkey: Any = None  # app.ui.hotkey.GlobalHotkey, when the app registered one
    translations: Any = None  # app.ui.i18n.Translations

    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def assistant(self) -> Any:
        """The core Assistant, built on first use. Call it from background work only: building
        it opens the indexes and loads every skill (hundreds of milliseconds)."""
        with self._lock:
            return self.hearth.assistant

    def part(self, name: str) -> Any:
        """hearth.history / documents / calendar / files, opened on first use (from a worker)."""
        with self._lock:
            return getattr(self.hearth, name)

    def lazy(self, name: str) -> Any:
        """A stand-in that opens the part only when a method is looked up on it; look methods
        up inside background work, never on the GUI thread."""
        return _Lazy(self, name)

    @property
    def dark(self) -> bool:
        return bool(self.theme and self.theme.dark)


class _Lazy:
    def __init__(self, ctx: UiContext, name: str) -> None:
        self._ctx = ctx
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._ctx.part(self._name), attr)
