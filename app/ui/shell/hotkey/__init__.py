"""A global hotkey behind one interface, with a native backend per platform (Qt has none).

Windows: RegisterHotKey + a native event filter; macOS: Carbon RegisterEventHotKey; Linux X11:
XGrabKey through libX11. Each checks the registration result, so "taken by another app" or
"not possible here (Wayland)" reaches the settings dialog with what to do instead."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence


@dataclass(frozen=True)
class HotkeyStatus:
    ok: bool
    message: str


@dataclass(frozen=True)
class Chord:
    """A parsed key combination: a Qt key plus modifier flags."""

    key: int
    ctrl: bool = False
    alt: bool = False
    shift: bool = False
    meta: bool = False  # Windows key / Cmd


def default_hotkey() -> str:
    # Qt names the macOS Option key "Alt": "Alt+Space" shows as ⌥Space there.
    return "Alt+Space" if sys.platform == "darwin" else "Ctrl+Alt+Space"


def parse_chord(text: str) -> Chord | None:
    """'Ctrl+Alt+Space' -> Chord; None for empty or unparsable text."""
    sequence = QKeySequence(text)
    if sequence.isEmpty() or sequence.count() != 1:
        return None
    combo = sequence[0]  # type: ignore[index]  # the stubs miss QKeySequence.__getitem__
    mods = combo.keyboardModifiers()
    key = int(combo.key().value)
    if key in (0, int(Qt.Key.Key_unknown.value)):
        return None
    return Chord(key,
                 ctrl=bool(mods & Qt.KeyboardModifier.ControlModifier),
                 alt=bool(mods & Qt.KeyboardModifier.AltModifier),
                 shift=bool(mods & Qt.KeyboardModifier.ShiftModifier),
                 meta=bool(mods & Qt.KeyboardModifier.MetaModifier))


class GlobalHotkey(QObject):
    """Base: `register(text)` -> HotkeyStatus; `activated` fires on the GUI thread."""

    activated = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.status = HotkeyStatus(False, self.tr("No global shortcut set."))
        self.keys = ""  # the combination that works now ("" while none does)

    def register(self, text: str) -> HotkeyStatus:
        self.unregister()
        chord = parse_chord(text)
        if chord is None:
            self.status = HotkeyStatus(False, self.tr("“%1” is not a key combination.")
                                       .replace("%1", text))
        elif not (chord.ctrl or chord.alt or chord.meta):
            self.status = HotkeyStatus(False, self.tr("Use at least one of Ctrl, Alt/Option or "
                                                      "the Windows/Cmd key, so ordinary typing "
                                                      "is not captured."))
        else:
            self.status = self._register(chord, text)
        self.keys = text if self.status.ok else ""
        return self.status

    def _register(self, chord: Chord, text: str) -> HotkeyStatus:
        return HotkeyStatus(False, unsupported_message())

    def unregister(self) -> None:
        """Release the combination (called on quit and before registering another)."""


def unsupported_message() -> str:
    platform = QGuiApplication.platformName()
    if platform == "wayland":
        return QCoreApplication.translate(
            "GlobalHotkey", "Wayland does not let apps grab keys. Add a shortcut in your "
            "desktop's keyboard settings that runs: hearth --toggle")
    return QCoreApplication.translate(
        "GlobalHotkey", "Global shortcuts are not available on this display (%1). Bind "
        "“hearth --toggle” to a key in your system settings.").replace("%1", platform or "?")


def create_hotkey(parent: QObject | None = None) -> GlobalHotkey:
    """The native implementation for this platform, or one that explains why there is none."""
    platform = QGuiApplication.platformName()
    try:
        if sys.platform == "win32":
            from app.ui.shell.hotkey.windows import WindowsHotkey

            return WindowsHotkey(parent)
        if sys.platform == "darwin":
            from app.ui.shell.hotkey.macos import MacHotkey

            return MacHotkey(parent)
        if platform == "xcb":
            from app.ui.shell.hotkey.x11 import X11Hotkey

            return X11Hotkey(parent)
    except OSError:
        pass  # the native library is missing: fall through to the explaining stub
    return GlobalHotkey(parent)
