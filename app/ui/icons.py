"""Hearth's icons, drawn as SVG in resources/icons (crisp at every scale, light and dark)."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtGui import QIcon

ICONS = Path(__file__).resolve().parents[2] / "resources" / "icons"


def app_icon() -> QIcon:
    return QIcon(str(ICONS / "hearth.svg"))


def tray_icon(platform: str = sys.platform) -> QIcon:
    """macOS recolours a mask ("template") icon to suit the menu bar; Linux panels and the
    Windows taskbar draw icons as they are, so there the icon is coloured and outlined to read
    on dark and light panels alike (a solid black mask vanishes on a dark panel)."""
    if platform == "darwin":
        icon = QIcon(str(ICONS / "hearth-tray.svg"))
        icon.setIsMask(True)
        return icon
    return QIcon(str(ICONS / "hearth-tray-color.svg"))
