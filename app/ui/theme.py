"""Light and dark looks: Fusion plus our own palette, following the system scheme by default.

Colours live in palettes only; the stylesheet refers to palette roles, so one switch repaints
every widget. Fusion is used everywhere because native styles ignore dark palettes on Windows."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QLayout, QVBoxLayout, QWidget

from app.ui.widgets import dim_label, hbox

STYLES = Path(__file__).resolve().parents[2] / "resources" / "styles"

_LIGHT = {
    "window": "#f6f5f2", "base": "#ffffff", "alt": "#efede8", "text": "#1f2328",
    "mid": "#d9d6cf", "dim": "#6b6f76", "accent": "#c8553d", "accent_text": "#ffffff",
    "button": "#fbfaf8", "link": "#b2472f", "tooltip": "#2b2d31",
}
_DARK = {
    "window": "#1c1d20", "base": "#242629", "alt": "#2b2d31", "text": "#e8e6e3",
    "mid": "#3a3d42", "dim": "#9a9ea5", "accent": "#e07a5f", "accent_text": "#1c1d20",
    "button": "#2b2d31", "link": "#f0a38c", "tooltip": "#e8e6e3",
}


def colors(dark: bool) -> dict[str, str]:
    return dict(_DARK if dark else _LIGHT)


def make_palette(dark: bool) -> QPalette:
    c = colors(dark)
    p = QPalette()
    role = QPalette.ColorRole
    pairs = {
        role.Window: c["window"], role.WindowText: c["text"], role.Base: c["base"],
        role.AlternateBase: c["alt"], role.Text: c["text"], role.Button: c["button"],
        role.ButtonText: c["text"], role.Highlight: c["accent"],
        role.HighlightedText: c["accent_text"], role.Link: c["link"],
        role.LinkVisited: c["link"], role.Mid: c["mid"], role.PlaceholderText: c["dim"],
        role.ToolTipBase: c["base"], role.ToolTipText: c["text"], role.BrightText: c["accent"],
        role.Light: c["base"], role.Midlight: c["alt"], role.Dark: c["mid"],
        role.Shadow: c["mid"], role.Accent: c["accent"],
    }
    for r, value in pairs.items():
        p.setColor(r, QColor(value))
    disabled = QColor(c["dim"])
    for r in (role.Text, role.WindowText, role.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, r, disabled)
    return p


def stylesheet(dark: bool) -> str:
    """The QSS with colour tokens filled in (resources/styles/hearth.qss)."""
    text = (STYLES / "hearth.qss").read_text(encoding="utf-8")
    # Images by absolute path (forward slashes on Windows too), the tick drawn for this look.
    text = text.replace("@icons", (STYLES.parent / "icons").as_posix())
    text = text.replace("@look", "dark" if dark else "light")
    # Longest names first so "@accent_text" is not eaten by "@accent".
    for key, value in sorted(colors(dark).items(), key=lambda kv: -len(kv[0])):
        text = text.replace("@" + key, value)
    return text


class ThemeManager(QObject):
    """Applies "system" / "light" / "dark" and repaints when the system scheme flips."""

    changed = Signal(bool)  # dark?

    def __init__(self, app: QApplication, choice: str = "system") -> None:
        super().__init__(app)
        self._app = app
        self._choice = choice
        self.dark = False
        if not getattr(app, "fusion_from_start", False):  # see application.hearth_application
            app.setStyle("Fusion")
        app.styleHints().colorSchemeChanged.connect(lambda _s: self.apply())

    def set_choice(self, choice: str) -> None:
        self._choice = choice
        self.apply()

    def _system_is_dark(self) -> bool:
        return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark

    def apply(self, with_stylesheet: bool = True) -> None:
        """The palette and the stylesheet of the chosen look. `with_stylesheet` False: the
        palette only, for a start whose windows are still to be built (apply_stylesheet)."""
        dark = self._choice == "dark" or (self._choice == "system" and self._system_is_dark())
        self.dark = dark
        self._app.setPalette(make_palette(dark))
        if with_stylesheet:
            self.apply_stylesheet()
        self.changed.emit(dark)

    def apply_stylesheet(self) -> None:
        """Once the windows are built: one pass that polishes them when they are first shown.
        Set before, every widget added to a parent works out its inherited style sheet again
        (QWidgetPrivate::inheritStyle), ~60M instructions (~15 ms) for the main window."""
        self._app.setStyleSheet(stylesheet(self.dark))


def page_title(text: str = "") -> QLabel:
    """The large title at the top of a page (Library, Files, Calendar, Models)."""
    title = QLabel(text)
    font = title.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)
    title.setFont(font)
    return title


def title_row(title: QLabel, *widgets: QWidget) -> QHBoxLayout:
    """A page's header row: its title on the left, `widgets` (its buttons) on the right."""
    return hbox(title, None, *widgets)


def page_layout(page: QWidget, header: QLayout) -> tuple[QVBoxLayout, QLabel]:
    """A page's column (Library, Files, Calendar): its header row, then its dim status line;
    the caller adds the rest below."""
    layout = QVBoxLayout(page)
    layout.setContentsMargins(24, 18, 24, 16)
    layout.setSpacing(10)
    layout.addLayout(header)
    status = dim_label(wrap=False)
    layout.addWidget(status)
    return layout, status
