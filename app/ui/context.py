"""What every window needs: the composition root, the background-ops pool and the theme."""

from __future__ import annotations

from dataclasses import dataclass
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

    @property
    def dark(self) -> bool:
        return bool(self.theme and self.theme.dark)
