"""Small builders the pages share: labels, wired buttons, rows, spin boxes and choices, and the
questions that never block the GUI thread."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLayout, QPushButton, QWidget

from app.ui.i18n import Retranslator

if TYPE_CHECKING:
    from PySide6.QtGui import QShortcut

    # Imported where they are built: PySide6 creates a class (and its enum classes) when it is
    # first named, and the window's first frame shows none of these.
    from PySide6.QtWidgets import (
        QAbstractItemView,
        QDoubleSpinBox,
        QMessageBox,
        QSpinBox,
        QTabWidget,
    )


def dim_label(text: str = "", wrap: bool = True) -> QLabel:
    """A quiet line (hints, counts, states): the stylesheet greys the "dim" name."""
    label = QLabel(text)
    label.setObjectName("dim")
    label.setWordWrap(wrap)
    return label


def bold_label(text: str = "") -> QLabel:
    label = QLabel(text)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


def button(text: str, slot: Callable[[], object] | None = None, name: str = "") -> QPushButton:
    """A push button calling `slot` when clicked; `name` is what a screen reader says."""
    made = QPushButton(text)
    if name:
        made.setAccessibleName(name)
    if slot is not None:
        # Never handed `checked`: a slot with an optional argument would take it for its own.
        made.clicked.connect(lambda: slot())
    return made


def tr_button(tr: Retranslator, text: Callable[[], str], slot: Callable[[], object] | None = None,
              named: bool = False) -> QPushButton:
    """A button whose text, and with `named` its accessible name, follows the UI language."""
    made = button("", slot)
    tr(partial(_retext, made, text, named))
    return made


def _retext(widget: QPushButton, text: Callable[[], str], named: bool) -> None:
    widget.setText(text())
    if named:
        widget.setAccessibleName(text())


def add_tabs(tabs: QTabWidget, tr: Retranslator,
             pages: Iterable[tuple[QWidget, Callable[[], str]]]) -> None:
    """Add `pages`, each tab named in the UI language (and renamed when it changes)."""
    for page, name in pages:
        index = tabs.addTab(page, "")
        tr(partial(_name_tab, tabs, index, name))


def _name_tab(tabs: QTabWidget, index: int, name: Callable[[], str]) -> None:
    tabs.setTabText(index, name())


def hbox(*items: QWidget | tuple[QWidget, int] | QLayout | int | None,
        margins: bool = True) -> QHBoxLayout:
    """A row of widgets and layouts: None is a stretch, an int a spacing of that many pixels,
    (widget, n) a widget with stretch factor n."""
    line = QHBoxLayout()
    if not margins:
        line.setContentsMargins(0, 0, 0, 0)
    for item in items:
        if item is None:
            line.addStretch(1)
        elif isinstance(item, int):
            line.addSpacing(item)
        elif isinstance(item, tuple):
            line.addWidget(*item)
        elif isinstance(item, QLayout):
            line.addLayout(item)
        else:
            line.addWidget(item)
    return line


def spin_box(low: int, high: int, value: int, name: str, step: int = 1) -> QSpinBox:
    from PySide6.QtWidgets import QSpinBox

    box = QSpinBox()
    box.setRange(low, high)
    box.setSingleStep(step)
    box.setValue(value)
    box.setAccessibleName(name)
    return box


def decimal_box(low: float, high: float, value: float, name: str, step: float) -> QDoubleSpinBox:
    from PySide6.QtWidgets import QDoubleSpinBox

    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setSingleStep(step)
    box.setDecimals(2)
    box.setValue(value)
    box.setAccessibleName(name)
    return box


def choice(items: Iterable[tuple[str, object]], current: object, name: str) -> QComboBox:
    """A combo box of (label, value) with `current`'s item chosen (the first when absent)."""
    box = QComboBox()
    for label, value in items:
        box.addItem(label, value)
    box.setCurrentIndex(max(0, box.findData(current)))
    box.setAccessibleName(name)
    return box


def confirm(parent: QWidget, title: str, text: str, action: str,
            then: Callable[[], object], icon: QMessageBox.Icon | None = None,
            otherwise: Callable[[], object] | None = None) -> QMessageBox:
    """Ask before a change: `action` (a destructive button) runs `then`; Cancel, the default
    (Enter keeps things as they are), runs `otherwise`. Shown without blocking; deletes itself.
    `icon`: a warning unless given."""
    from PySide6.QtWidgets import QMessageBox

    icon = QMessageBox.Icon.Warning if icon is None else icon
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Cancel, parent)
    chosen = box.addButton(action, QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def answered(_result: int) -> None:
        if box.clickedButton() is chosen:
            then()
        elif otherwise is not None:
            otherwise()

    box.finished.connect(answered)
    box.open()
    return box


def tell(parent: QWidget | None, title: str, text: str,
         icon: QMessageBox.Icon | None = None) -> QMessageBox:
    """A message with OK, shown without blocking; it deletes itself once closed. `icon`: a
    warning unless given."""
    from PySide6.QtWidgets import QMessageBox

    icon = QMessageBox.Icon.Warning if icon is None else icon
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


def follow_selection(view: QAbstractItemView, *buttons: QWidget) -> None:
    """`buttons` act on the chosen row: on while one is chosen, off (not silently doing
    nothing) while none is."""
    selection = view.selectionModel()

    def update() -> None:
        for each in buttons:
            each.setEnabled(selection.hasSelection())

    selection.selectionChanged.connect(lambda _on, _off: update())
    update()


def in_help(shortcut: QShortcut, what: object) -> QShortcut:
    """`shortcut`, listed in Help > Keyboard shortcuts as `what`: a QT_TRANSLATE_NOOP in the
    "HelpMenu" context, translated when the list is shown."""
    shortcut.setWhatsThis(str(what))
    return shortcut


def room_to_write(dialog: QWidget, characters: int = 72) -> None:
    """A form dialog wide enough to write a line in: its fields' own size hints made it
    narrower than one sentence of notes or a question."""
    dialog.setMinimumWidth(dialog.fontMetrics().horizontalAdvance("x") * characters)


def clear_layout(layout: QLayout) -> None:
    """Remove and delete every widget `layout` holds."""
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget() if item is not None else None
        if widget is not None:
            widget.deleteLater()
