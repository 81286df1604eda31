"""Choosing files to read; opening a file with its own app, or showing it in the file manager
(selected where possible)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QWidget

from skills.common.formats import FORMATS


def start_folder() -> str:
    """Where file dialogs open: the user's Documents (else home), never the folder Hearth
    happened to be started from."""
    from PySide6.QtCore import QStandardPaths

    documents = QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.DocumentsLocation)
    return documents if documents and Path(documents).is_dir() else str(Path.home())


def pick_documents(parent: QWidget, title: str) -> list[str]:
    """Files chosen to read: the formats Hearth reads are listed, any other file a choice away
    (it is then said why it was skipped)."""
    from PySide6.QtWidgets import QFileDialog  # built on first use: not in the first frame

    paths, _ = QFileDialog.getOpenFileNames(parent, title, start_folder(), document_filter())
    return paths


def document_filter() -> str:
    patterns = " ".join(f"*{suffix}" for suffix in FORMATS)
    readable = QCoreApplication.translate("FileActions", "Documents (%1)").replace("%1", patterns)
    return readable + ";;" + QCoreApplication.translate("FileActions", "All files (*)")


def file_name_for(title: str, suffix: str) -> str:
    """A chat's title as a file name: characters no file system takes are dropped."""
    cleaned = re.sub(r'[\\/:*?"<>|\x00-\x1f]+', " ", title).strip(" .")
    return (" ".join(cleaned.split())[:80] or "Hearth chat") + suffix


def open_path(path: str) -> bool:
    return QDesktopServices.openUrl(QUrl.fromLocalFile(path))


def reveal_path(path: str) -> bool:
    """Finder and Explorer select the file; on Linux the FileManager1 D-Bus service does (Files,
    Dolphin, Nemo, Thunar), else the folder opens."""
    if sys.platform == "darwin":
        return _spawn(["open", "-R", path])
    if sys.platform == "win32":
        return _spawn(["explorer", f"/select,{path}"])
    if _show_items(path):
        return True
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(Path(path).parent)))


def _show_items(path: str) -> bool:
    try:
        from PySide6.QtDBus import QDBusConnection, QDBusInterface, QDBusMessage
    except ImportError:
        return False
    bus = QDBusConnection.sessionBus()
    if not bus.isConnected():
        return False
    manager = QDBusInterface("org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
                             "org.freedesktop.FileManager1", bus)
    if not manager.isValid():
        return False
    reply = manager.call("ShowItems", [QUrl.fromLocalFile(path).toString()], "")
    return reply.type() != QDBusMessage.MessageType.ErrorMessage


def _spawn(argv: list[str]) -> bool:
    import subprocess  # here: the window imports this module before its first frame

    try:
        subprocess.Popen(argv)
    except OSError:
        return False
    return True
