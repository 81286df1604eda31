"""Hearth's icons, drawn as SVG in resources/icons (crisp at every scale, light and dark)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QIcon

ICONS = Path(__file__).resolve().parents[2] / "resources" / "icons"


def app_icon() -> QIcon:
    return QIcon(str(ICONS / "hearth.svg"))


def tray_icon() -> QIcon:
    icon = QIcon(str(ICONS / "hearth-tray.svg"))
    icon.setIsMask(True)  # macOS draws mask icons in the menu bar's own colour
    return icon
