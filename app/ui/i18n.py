"""UI language: Qt translations (.qm), following the system language unless settings say."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

TRANSLATIONS = Path(__file__).resolve().parents[2] / "resources" / "translations"
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}


def resolve_language(choice: str, system: QLocale | None = None) -> str:
    """'system' -> 'zh_CN' for any Chinese locale (simplified is what we ship), else 'en'."""
    if choice in LANGUAGES:
        return choice
    locale = system or QLocale.system()
    return "zh_CN" if locale.language() == QLocale.Language.Chinese else "en"


class Translations:
    """Installs hearth_xx.qm plus Qt's own qtbase_xx.qm (standard dialogs and buttons)."""

    def __init__(self, app: QApplication) -> None:
        self._app = app
        self._installed: list[QTranslator] = []
        self.language = "en"

    def apply(self, choice: str) -> str:
        for translator in self._installed:
            self._app.removeTranslator(translator)
        self._installed.clear()
        self.language = resolve_language(choice)
        if self.language != "en":
            ours = QTranslator(self._app)
            if ours.load(f"hearth_{self.language}", str(TRANSLATIONS)):
                self._app.installTranslator(ours)
                self._installed.append(ours)
            qt = QTranslator(self._app)
            qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
            if qt.load(f"qtbase_{self.language}", qt_dir):
                self._app.installTranslator(qt)
                self._installed.append(qt)
        return self.language


def plural(n: int, one: str, many: str) -> str:
    """English needs two forms, Chinese one: callers pass both, already translated.

    ("%n file(s)" would need a compiled English catalogue just to drop the "(s)".)"""
    return one if n == 1 else many.replace("%1", str(n))
