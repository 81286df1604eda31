"""The sidebar: new chat, search across every message, the conversation list, and navigation."""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QT_TRANSLATE_NOOP, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.ui import widgets
from app.ui.context import UiContext
from app.ui.i18n import Retranslator, plural
from app.ui.widgets import dim_label, in_help, tr_button

if TYPE_CHECKING:  # the dialogs' classes are made when first named: not before the window
    from PySide6.QtWidgets import QMessageBox

ID_ROLE = Qt.ItemDataRole.UserRole
SEARCH_DELAY_MS = 200
TAUGHT_SHOWN = 8  # memories listed in the delete dialog; the rest are counted


def highlight_snippet(snippet: str) -> str:
    """Search hits come wrapped in [[ ]]; show them bold and everything else escaped."""
    out = html.escape(snippet)
    return out.replace("[[", "<b>").replace("]]", "</b>")


def _chosen(box: QMessageBox, taught: list[Any]) -> list[int]:
    """The memories to forget with the chat: those listed, if "Forget … too" stays ticked."""
    check = box.checkBox()
    return [m.id for m in taught] if check is not None and check.isChecked() else []


class Sidebar(QWidget):
    """Emits conversation_selected(id) / new_requested(); keeps itself fresh through ops."""

    conversation_selected = Signal(str)
    hit_selected = Signal(str, str)  # (conversation id, message id)
    new_requested = Signal()
    page_requested = Signal(str)  # "library" | "files" | "calendar" | "routines" | "models"
    # | "settings"
    deleted = Signal(str)
    memory_forgotten = Signal()  # a deleted chat's memories went with it: the prefix is new

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        self.ctx = ctx
        self._reloads = 0  # which reload of the list is the latest (see reload)
        self.conversations: list[Any] = []
        self.current_id: str | None = None
        self.page = "chat"  # the window's page on screen (mark_page)
        self._keep: str | None = None  # the row to select again after a reload
        self._tr = Retranslator(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 12, 10, 10)
        layout.setSpacing(8)
        self.new_button = tr_button(self._tr, lambda: "＋  " + self.tr("New chat"),
                                    self.new_requested.emit)
        self._tr(lambda: self.new_button.setToolTip(self.tr("Start a new conversation (Ctrl+N)")))
        layout.addWidget(self.new_button)
        self.search = QLineEdit()
        self._tr(lambda: self.search.setPlaceholderText(self.tr("Search all chats (Ctrl+K)")))
        self._tr(lambda: self.search.setAccessibleName(self.tr("Search all chats")))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._schedule_search)
        # Down from the search field goes into what it lists (results, or the chats).
        QShortcut(QKeySequence(Qt.Key.Key_Down), self.search, self._enter_list,
                  context=Qt.ShortcutContext.WidgetShortcut)
        layout.addWidget(self.search)
        self.stack = QStackedWidget()
        self.stack.addWidget(self._build_list())
        self.stack.addWidget(self._build_results())
        layout.addWidget(self.stack, 1)
        layout.addWidget(self._build_nav())
        self._search_timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._run_search)
        in_help(QShortcut(QKeySequence("Ctrl+K"), self, self._focus_search),
                QT_TRANSLATE_NOOP("HelpMenu", "Search all chats"))
        QShortcut(QKeySequence.StandardKey.Find, self, self._focus_search)
        # Headers ("Pinned"), untitled chats and the result count are built from data.
        self._tr(self._refresh_texts)

    def _refresh_texts(self) -> None:
        if self.conversations:
            self._show(self.conversations)
        if self.stack.currentIndex() == 1:
            self._run_search()

    def _build_list(self) -> QListWidget:
        self.list = QListWidget()
        self.list.setObjectName("conversationList")
        # Titles are cut with "…" to the sidebar's width: never an (empty) sideways scrollbar.
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self._tr(lambda: self.list.setAccessibleName(self.tr("Conversations")))
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        self.list.itemActivated.connect(self._activated)
        self.list.itemClicked.connect(self._activated)
        in_help(QShortcut(QKeySequence(Qt.Key.Key_F2), self.list, self.rename_current,
                          context=Qt.ShortcutContext.WidgetShortcut),
                QT_TRANSLATE_NOOP("HelpMenu", "Rename the chosen chat"))
        in_help(QShortcut(QKeySequence.StandardKey.Delete, self.list, self.delete_current,
                          context=Qt.ShortcutContext.WidgetShortcut),
                QT_TRANSLATE_NOOP("HelpMenu", "Delete the chosen chat"))
        # The Menu key would open the menu wherever the mouse is; open it at the selected chat.
        for key in (QKeySequence(Qt.Key.Key_Menu), QKeySequence("Shift+F10")):
            QShortcut(key, self.list, self.menu_for_current,
                      context=Qt.ShortcutContext.WidgetShortcut)
        return self.list

    def _build_results(self) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        self.results_label = dim_label(wrap=False)
        column.addWidget(self.results_label)
        self.results = QListWidget()
        self.results.setObjectName("searchResults")
        self._tr(lambda: self.results.setAccessibleName(self.tr("Search results")))
        # The delegate that draws hits in bold comes with the first ones (_show_hits).
        self.results.setWordWrap(True)
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.results.itemActivated.connect(self._hit_activated)
        self.results.itemClicked.connect(self._hit_activated)
        column.addWidget(self.results, 1)
        return box

    def _build_nav(self) -> QWidget:
        nav = QWidget()
        column = QVBoxLayout(nav)
        column.setContentsMargins(0, 4, 0, 0)
        column.setSpacing(0)
        texts: dict[str, Callable[[], str]] = {
            "library": lambda: self.tr("Library"), "files": lambda: self.tr("Files"),
            "calendar": lambda: self.tr("Calendar"), "routines": lambda: self.tr("Routines"),
            "models": lambda: self.tr("Models"), "settings": lambda: self.tr("Settings")}
        self.nav_buttons: dict[str, QPushButton] = {}
        for key, text in texts.items():
            button = tr_button(self._tr, text, partial(self.page_requested.emit, key), named=True)
            button.setObjectName("nav")
            # Marked while its page is on screen (models and settings open dialogs); a click
            # leaves the keyboard focus where it was, so the focus ring shows only on Tab.
            button.setCheckable(key not in ("models", "settings"))
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            self.nav_buttons[key] = button
            column.addWidget(button)
        return nav

    def mark_page(self, key: str) -> None:
        """Mark the page on screen; "chat": none of them, and the chat's row instead. One mark
        at a time: the chat behind a page is not shown as if it were on screen."""
        self.page = key
        for name, button in self.nav_buttons.items():
            button.setChecked(name == key)
        if key == "chat":
            self.select(self.current_id)
        else:
            self.list.clearSelection()  # the row stays current: F2, Delete still act on it

    # -- list ---------------------------------------------------------------------------------
    def reload(self) -> None:
        history = self.ctx.lazy("history")
        # Reads run on a pool: an older read can finish after a newer one, so only the latest
        # is shown (a stale list would hide chats just made or show ones just deleted).
        self._reloads += 1
        number = self._reloads
        # Chats never used are not listed (they are forgotten at the next start).
        self.ctx.ops.run(lambda: history.list_conversations(include_empty=False),
                         lambda found: self._show(found) if number == self._reloads else None,
                         title=self.tr("Could not read your conversations"))

    def _show(self, conversations: list[Any]) -> None:
        pinned = [c for c in conversations if c.pinned]
        recent = [c for c in conversations if not c.pinned]
        self.conversations = pinned + recent
        # A reload (e.g. when the window comes back to the front) keeps the row the keyboard
        # is on, so Shift+F10 or Delete still act on the chat the person picked.
        item = self.list.currentItem()
        picked = item.data(ID_ROLE) if item is not None else None
        self._keep = str(picked) if picked else self.current_id
        self.list.clear()
        if pinned:
            self._header(self.tr("Pinned"))
            self._items(pinned)
            self._header(self.tr("Recent"))
        self._items(recent)
        if self.page != "chat":
            self.list.clearSelection()

    def _header(self, text: str) -> None:
        item = QListWidgetItem(text.upper())
        item.setFlags(Qt.ItemFlag.NoItemFlags)  # a label: not selectable, skipped by arrows
        font = item.font()
        font.setPointSizeF(font.pointSizeF() * 0.8)
        font.setBold(True)
        item.setFont(font)
        self.list.addItem(item)

    def _items(self, conversations: list[Any]) -> None:
        for conv in conversations:
            title = conv.title or self.tr("New chat")  # the one name for an untitled chat
            item = QListWidgetItem(title)
            item.setData(ID_ROLE, conv.id)
            item.setToolTip(title)
            self.list.addItem(item)
            if conv.id == self._keep:
                self.list.setCurrentItem(item)

    def select(self, conversation_id: str | None) -> None:
        """Highlight the chat on screen; one not listed yet (new, or made by quick ask) is
        highlighted when a reload lists it, and none stays on the chat shown before."""
        self.current_id = conversation_id
        for i in range(self.list.count()):
            item = self.list.item(i)
            if item.data(ID_ROLE) == conversation_id:
                self.list.setCurrentItem(item)
                return
        self.list.setCurrentRow(-1)  # no current row: a reload keeps current_id, not the old
        self.list.clearSelection()

    def _activated(self, item: QListWidgetItem) -> None:
        cid = str(item.data(ID_ROLE))
        if cid != self.current_id:
            self.current_id = cid
            self.conversation_selected.emit(cid)
        elif self.page != "chat":  # the chat open behind another page: back to it as it is
            self.page_requested.emit("chat")

    def _conv(self, cid: str) -> Any:
        return next((c for c in self.conversations if c.id == cid), None)

    def _menu(self, pos: QPoint) -> None:
        item = self.list.itemAt(pos)
        if item is None or item.data(ID_ROLE) is None:
            return
        cid = str(item.data(ID_ROLE))
        conv = self._conv(cid)
        menu = QMenu(self)
        menu.addAction(self.tr("Rename…"), lambda: self.rename(cid))
        pinned = bool(conv and conv.pinned)
        menu.addAction(self.tr("Unpin") if pinned else self.tr("Pin"),
                       lambda: self.set_pinned(cid, not pinned))
        menu.addSeparator()
        menu.addAction(self.tr("Delete…"), lambda: self.delete(cid))
        menu.popup(self.list.viewport().mapToGlobal(pos))

    def menu_for_current(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self._menu(self.list.visualItemRect(item).center())

    def _current(self) -> str | None:
        item = self.list.currentItem()
        return str(item.data(ID_ROLE)) if item is not None else None

    def rename_current(self) -> None:
        cid = self._current()
        if cid:
            self.rename(cid)

    def delete_current(self) -> None:
        cid = self._current()
        if cid:
            self.delete(cid)

    def rename(self, cid: str, title: str | None = None) -> None:
        if title is None:
            from PySide6.QtWidgets import QInputDialog

            conv = self._conv(cid)
            title, ok = QInputDialog.getText(self, self.tr("Rename conversation"),
                                             self.tr("Title:"), text=conv.title if conv else "")
            if not ok or not title.strip():
                return
        history = self.ctx.lazy("history")
        self.ctx.ops.run(lambda: history.rename(cid, title.strip()), lambda _r: self.reload(), writes=True)

    def set_pinned(self, cid: str, pinned: bool) -> None:
        history = self.ctx.lazy("history")
        self.ctx.ops.run(lambda: history.set_pinned(cid, pinned), lambda _r: self.reload(), writes=True)

    def delete(self, cid: str, confirm: bool = True) -> QMessageBox | None:
        """Deleting asks first, naming the chat, with Cancel as the default (Enter keeps it),
        and says what Hearth remembers from it, offering to forget that too."""
        if not confirm:
            self._delete(cid, [])
            return None
        conv = self._conv(cid)
        title = (conv.title if conv else "") or self.tr("New chat")
        taught: list[Any] = []
        box = widgets.confirm(self, self.tr("Delete conversation"),
                              self.tr("Delete “%1”? Its messages and the files dropped into it "
                                      "are forgotten. This cannot be undone.").replace("%1", title),
                              self.tr("Delete"), lambda: self._delete(cid, _chosen(box, taught)))
        self._say_taught(box, cid, taught)
        return box

    def _say_taught(self, box: QMessageBox, cid: str, taught: list[Any]) -> None:
        """Delete waits (a few milliseconds) until the dialog can say what the chat taught, so
        it is never deleted with its memories kept unsaid."""
        from PySide6.QtWidgets import QCheckBox, QMessageBox

        delete = next(b for b in box.buttons()
                      if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole)
        delete.setEnabled(False)
        memory = self.ctx.lazy("memory")

        def shown(found: list[Any]) -> None:
            if not shiboken6.isValid(box):
                return
            taught.extend(found)
            if found:
                lines = "\n".join(f"• {m.text}" for m in found[:TAUGHT_SHOWN])
                if len(found) > TAUGHT_SHOWN:
                    lines += "\n" + self.tr("…and %1 more").replace(
                        "%1", str(len(found) - TAUGHT_SHOWN))
                box.setInformativeText(plural(
                    len(found), self.tr("Hearth remembers one thing from this chat:"),
                    self.tr("Hearth remembers %1 things from this chat:")) + "\n" + lines)
                also = QCheckBox(self.tr("Forget what it taught too"), box)  # box owns it
                also.setChecked(True)
                box.setCheckBox(also)
            delete.setEnabled(True)

        def unreadable(_error: Exception) -> None:
            if shiboken6.isValid(box):
                delete.setEnabled(True)

        self.ctx.ops.run(lambda: memory.from_source(cid), shown, unreadable)

    def _delete(self, cid: str, forget: list[int]) -> None:
        conversations = self.ctx.lazy("conversations")  # forgets its documents and cache too
        memory = self.ctx.lazy("memory")

        def work() -> None:
            conversations.delete(cid)
            if forget:
                memory.delete_many(forget)

        def done(_r: object) -> None:
            self.deleted.emit(cid)
            if forget:
                self.memory_forgotten.emit()
            self.reload()

        self.ctx.ops.run(work, done, writes=True)

    def forgotten(self, gone: list[Any]) -> None:
        """Conversations deleted elsewhere too (Delete all history in Settings): off the list."""
        for item in gone:
            self.deleted.emit(item.conversation_id)
        self.reload()

    # -- search -------------------------------------------------------------------------------
    def _schedule_search(self, _text: str) -> None:
        self._search_timer.start()

    def _focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    def _enter_list(self) -> None:
        """Focus the list on screen at its first row a person can pick."""
        if self._search_timer.isActive():
            self._search_timer.stop()  # typed (or cleared) and went down at once: now
            self._run_search()
        shown = self.results if self.stack.currentIndex() == 1 else self.list
        shown.setFocus(Qt.FocusReason.TabFocusReason)
        for row in range(shown.count()):
            if shown.item(row).flags() & Qt.ItemFlag.ItemIsSelectable:
                shown.setCurrentRow(row)
                return

    def _run_search(self) -> None:
        query = self.search.text().strip()
        if not query:
            self.stack.setCurrentIndex(0)
            return
        history = self.ctx.lazy("history")
        self.ctx.ops.run(lambda: history.search(query),
                         lambda hits: self._show_hits(query, hits),
                         title=self.tr("Search failed"))

    def _show_hits(self, query: str, hits: list[Any]) -> None:
        if query != self.search.text().strip():
            return  # an older search finished after a newer one started
        # Imported here: QStyle and QPainter cost the first frame ~25 ms of PySide6 enums.
        from app.ui.rich_delegate import HTML_ROLE, RichTextDelegate

        if not isinstance(self.results.itemDelegate(), RichTextDelegate):
            self.results.setItemDelegate(RichTextDelegate(self.results))
        self.stack.setCurrentIndex(1)
        self.results.clear()
        self.results_label.setText(plural(len(hits), self.tr("1 result"), self.tr("%1 results")) if hits
                                   else self.tr("Nothing found"))
        for hit in hits:
            title = hit.conversation_title or self.tr("New chat")
            plain = hit.snippet.replace("[[", "").replace("]]", "")
            if hit.role == "title":  # the title itself matched: show it once, highlighted
                label = self.tr("Title")
                item = QListWidgetItem(f"{label}: {plain}")  # what screen readers read
                rich = (f"<b>{highlight_snippet(hit.snippet)}</b><br/>"
                        f"<span style='color: gray'>{html.escape(label)}</span>")
            else:
                item = QListWidgetItem(f"{title}: {plain}")
                rich = f"<b>{html.escape(title)}</b><br/>{highlight_snippet(hit.snippet)}"
            item.setData(ID_ROLE, (hit.conversation_id, hit.message_id))
            item.setData(HTML_ROLE, rich)
            self.results.addItem(item)

    def _hit_activated(self, item: QListWidgetItem) -> None:
        cid, mid = item.data(ID_ROLE)
        self.current_id = cid
        self.hit_selected.emit(cid, mid)
