"""Help: the keyboard shortcuts the window answers to (read from its own menus, so the list
is never out of date), and About Hearth (its version, and where the person's data lives)."""

from __future__ import annotations

import html

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, QUrl
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QMenu, QMenuBar, QMessageBox, QWidget


def menu_shortcuts(bar: QMenuBar) -> list[tuple[str, str]]:
    """(what, keys) for every menu action with a shortcut, as the menus name them."""
    found: list[tuple[str, str]] = []
    for top in bar.actions():
        menu = top.menu()
        for action in menu.actions() if isinstance(menu, QMenu) else []:
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            if keys:
                found.append((action.text().replace("&", "").rstrip("…"), keys))
    return found


def shortcuts_html(rows: list[tuple[str, str]]) -> str:
    cells = "".join(f"<tr><td>{html.escape(what)}</td><td>&nbsp;&nbsp;<b>{html.escape(keys)}"
                    "</b></td></tr>" for what, keys in rows)
    return f"<table>{cells}</table>"


def show_shortcuts(parent: QWidget, bar: QMenuBar, quick_ask: str) -> QMessageBox:
    """`quick_ask`: the global shortcut when it is registered, else ""."""
    rows = menu_shortcuts(bar)
    if quick_ask:
        rows.insert(0, (QCoreApplication.translate("HelpMenu", "Quick ask, from any app"),
                        quick_ask))
    rows += widget_shortcuts(parent)
    title = QCoreApplication.translate("HelpMenu", "Keyboard shortcuts")
    return _box(parent, title, shortcuts_html(rows))


def widget_shortcuts(window: QWidget) -> list[tuple[str, str]]:
    """The keys the window's widgets answer to outside the menus: each shortcut listed with
    widgets.in_help, then the composer's own keys."""
    found: list[tuple[object, QKeySequence]] = [
        (shortcut.whatsThis(), shortcut.key())
        for shortcut in window.findChildren(QShortcut) if shortcut.whatsThis()]
    found += [(QT_TRANSLATE_NOOP("HelpMenu", "Send"), QKeySequence("Enter")),
              (QT_TRANSLATE_NOOP("HelpMenu", "New line in a message"),
               QKeySequence("Shift+Enter"))]
    native = QKeySequence.SequenceFormat.NativeText
    return [(QCoreApplication.translate("HelpMenu", str(what)), keys.toString(native))
            for what, keys in found]


def show_about(parent: QWidget, version: str, data_folder: str, model: str) -> QMessageBox:
    translate = QCoreApplication.translate
    link = html.escape(QUrl.fromLocalFile(data_folder).toString())
    folder = f'<a href="{link}">{html.escape(data_folder)}</a>'  # opens it in the file manager
    model_line = html.escape(translate("HelpMenu", "Model: %1"))
    data_line = html.escape(translate("HelpMenu", "Your chats, memories and settings: %1"))
    lines = [html.escape(translate("HelpMenu",
                                   "A private assistant that runs entirely on this computer.")),
             model_line.replace("%1", html.escape(model)), data_line.replace("%1", folder)]
    text = f"<h3>Hearth {html.escape(version)}</h3>" + "".join(f"<p>{p}</p>" for p in lines)
    return _box(parent, translate("HelpMenu", "About Hearth"), text)


def _box(parent: QWidget, title: str, text: str) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.NoIcon, title, text, QMessageBox.StandardButton.Ok,
                      parent)
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)  # the link opens
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()  # not exec(): the window goes on answering behind it
    return box
