"""A list delegate that draws an item's HTML (search hits in bold) and sizes rows to fit it.

The item's display text stays plain, so screen readers and keyboard search read it; the HTML
lives in its own role and only changes what is painted."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

HTML_ROLE = Qt.ItemDataRole.UserRole + 1
PADDING = 10

Index = QModelIndex | QPersistentModelIndex


class RichTextDelegate(QStyledItemDelegate):
    def _document(self, option: QStyleOptionViewItem, index: Index) -> QTextDocument:
        document = QTextDocument()
        document.setDefaultFont(option.font)
        document.setHtml(str(index.data(HTML_ROLE) or ""))
        document.setTextWidth(max(option.rect.width() - 2 * PADDING, 40))
        return document

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        self.initStyleOption(option, index)
        document = self._document(option, index)
        option.text = ""  # the style draws the background and focus; we draw the text
        widget = option.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, widget)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette.setColor(QPalette.ColorRole.Text,
                                 option.palette.color(QPalette.ColorRole.Text))
        painter.save()
        painter.translate(option.rect.left() + PADDING, option.rect.top() + PADDING // 2)
        document.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:  # noqa: N802
        self.initStyleOption(option, index)
        document = self._document(option, index)
        return QSize(int(document.idealWidth()) + 2 * PADDING,
                     int(document.size().height()) + PADDING)
