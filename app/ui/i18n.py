"""UI language: Qt translations (.qm), following the system language unless settings say."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QLibraryInfo, QLocale, QObject, QTranslator
from PySide6.QtWidgets import QApplication, QWidget

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


class Retranslator(QObject):
    """Keeps one widget's texts in the UI language: each setter runs now, and again on every
    QEvent.LanguageChange (Qt sends one to every widget when a translator comes or goes), so
    a language picked in Settings shows at once in the windows already open.

    A setter given a `key` replaces the previous one with that key: texts that follow state
    ("Loading the model…", a count) stay current without piling up stale setters.

    It hears the change as the owner's child (a widget passes LanguageChange on to all its
    child objects), not through an event filter on the owner, which would run Python for
    every event the owner gets (~170 calls before the first frame)."""

    def __init__(self, owner: QWidget) -> None:
        super().__init__(owner)
        self._setters: dict[object, Callable[[], object]] = {}

    def __call__(self, setter: Callable[[], object], key: object = None) -> None:
        setter()
        self._setters[key if key is not None else object()] = setter

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LanguageChange:
            for setter in list(self._setters.values()):
                setter()
        return super().event(event)


def ui_locale(translations: Translations | None) -> QLocale:
    """Dates, day names and sizes as the UI's language writes them (not the C locale's); an
    English UI keeps the user's own order (US or UK)."""
    language = getattr(translations, "language", "en")
    if language != "en":
        return QLocale(language)
    system = QLocale.system()
    return system if system.language() == QLocale.Language.English else QLocale("en_GB")


def plural(n: int, one: str, many: str) -> str:
    """English needs two forms, Chinese one: callers pass both, already translated.

    ("%n file(s)" would need a compiled English catalogue just to drop the "(s)".)"""
    return one if n == 1 else many.replace("%1", str(n))


def data_size(locale: QLocale, size: int) -> str:
    """A size in the locale's words and digits, 1024-based as file managers show it."""
    return locale.formattedDataSize(size, 1, QLocale.DataSizeFormat.DataSizeTraditionalFormat)
