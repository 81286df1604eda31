"""Tick boxes can be seen in both looks: a checkbox's and a checkable list row's box stands out
from what is behind it (WCAG's 3:1 for a control's edge), and a ticked one shows its tick."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyleOptionButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.theme import colors, make_palette, stylesheet


def luminance(color: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    return (0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF())
            + 0.0722 * channel(color.blueF()))


def contrast(a: QColor, b: QColor) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def standing_out(image: QImage, area: QRect, behind: QColor) -> int:
    """Pixels in `area` at 3:1 or more against `behind`."""
    return sum(contrast(image.pixelColor(x, y), behind) >= 3
               for x in range(area.left(), area.right() + 1)
               for y in range(area.top(), area.bottom() + 1))


@pytest.fixture(params=[False, True], ids=["light", "dark"])
def look(request: Any, qtbot: Any, qapp: QApplication
         ) -> Iterator[tuple[bool, QWidget, QCheckBox, QListWidget]]:
    dark = request.param
    before = qapp.palette()
    qapp.setPalette(make_palette(dark))  # as ThemeManager sets it
    try:
        yield dark, *_page(qtbot, dark)
    finally:
        qapp.setPalette(before)


def _page(qtbot: Any, dark: bool) -> tuple[QWidget, QCheckBox, QListWidget]:
    page = QWidget()
    qtbot.addWidget(page)
    page.setStyleSheet(stylesheet(dark))  # the app's own look, on this page only
    box = QCheckBox("Show done", page)
    rows = QListWidget(page)
    item = QListWidgetItem("Call the plumber")
    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
    item.setCheckState(Qt.CheckState.Unchecked)
    rows.addItem(item)
    layout = QVBoxLayout(page)
    layout.addWidget(box)
    layout.addWidget(rows)
    page.resize(300, 200)
    page.show()
    qtbot.waitExposed(page)
    return page, box, rows


def box_area(box: QCheckBox) -> QRect:
    option = QStyleOptionButton()
    box.initStyleOption(option)
    return box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)


def row_box_area(rows: QListWidget) -> QRect:
    """The row's left end, where its tick box is drawn (in the viewport's pixels)."""
    row = rows.visualItemRect(rows.item(0))
    return QRect(row.left(), row.top(), min(28, row.width()), row.height())


def test_an_empty_tick_box_stands_out_in_both_looks(look) -> None:
    dark, _page, box, rows = look
    behind = QColor(colors(dark)["window"])
    assert standing_out(box.grab().toImage(), box_area(box), behind) >= 20
    base = QColor(colors(dark)["base"])
    assert standing_out(rows.viewport().grab().toImage(), row_box_area(rows), base) >= 20


def test_a_ticked_box_is_filled_and_shows_its_tick(look, qtbot) -> None:
    dark, _page, box, rows = look
    box.setChecked(True)
    rows.item(0).setCheckState(Qt.CheckState.Checked)
    accent, mark = QColor(colors(dark)["accent"]), QColor(colors(dark)["accent_text"])
    for image, area in ((box.grab().toImage(), box_area(box)),
                        (rows.viewport().grab().toImage(), row_box_area(rows))):
        pixels = [image.pixelColor(x, y) for x in range(area.left(), area.right() + 1)
                  for y in range(area.top(), area.bottom() + 1)]
        assert sum(p == accent for p in pixels) >= 40  # the box is filled
        assert sum(contrast(p, accent) >= 3 and contrast(p, mark) < 1.5 for p in pixels) >= 6
