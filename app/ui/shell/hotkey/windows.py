"""Windows: RegisterHotKey (MOD_NOREPEAT); WM_HOTKEY arrives through a native event filter.

The press grants foreground rights, so the quick-ask box may take focus right away."""

from __future__ import annotations

import ctypes
from typing import Any

from PySide6.QtCore import QAbstractNativeEventFilter, QCoreApplication, QObject

from app.ui.shell.hotkey import Chord, GlobalHotkey, HotkeyStatus
from app.ui.shell.hotkey.keys import windows_vk

MOD_ALT, MOD_CONTROL, MOD_SHIFT, MOD_WIN, MOD_NOREPEAT = 0x1, 0x2, 0x4, 0x8, 0x4000
WM_HOTKEY = 0x0312
HOTKEY_ID = 0x4845  # "HE"
ERROR_HOTKEY_ALREADY_REGISTERED = 1409


class _Filter(QAbstractNativeEventFilter):
    def __init__(self, owner: WindowsHotkey) -> None:
        super().__init__()
        self._owner = owner

    def nativeEventFilter(self, event_type: Any, message: Any) -> Any:  # noqa: N802
        if bytes(event_type) == b"windows_generic_MSG":
            from ctypes import wintypes

            msg = wintypes.MSG.from_address(int(message))
            if msg.message == WM_HOTKEY and msg.wParam == HOTKEY_ID:
                self._owner.activated.emit()
                return True, 0
        return False, 0


class WindowsHotkey(GlobalHotkey):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._user32 = ctypes.WinDLL("user32", use_last_error=True)  # type: ignore[attr-defined]
        self._filter = _Filter(self)
        app = QCoreApplication.instance()
        if app is None:
            raise OSError("no Qt application to receive WM_HOTKEY")
        app.installNativeEventFilter(self._filter)
        self._registered = False

    def _register(self, chord: Chord, text: str) -> HotkeyStatus:
        vk = windows_vk(chord.key)
        if vk is None:
            return HotkeyStatus(False, self.tr("Choose a letter, digit, Space or F1–F12."))
        mods = MOD_NOREPEAT | (MOD_CONTROL if chord.ctrl else 0) | (
            MOD_ALT if chord.alt else 0) | (MOD_SHIFT if chord.shift else 0) | (
            MOD_WIN if chord.meta else 0)
        # hwnd None: WM_HOTKEY is posted to this (the GUI) thread's queue, which Qt pumps.
        if self._user32.RegisterHotKey(None, HOTKEY_ID, mods, vk):
            self._registered = True
            return HotkeyStatus(True, self.tr("%1 opens Quick ask from anywhere.")
                                .replace("%1", text))
        error = ctypes.get_last_error()  # type: ignore[attr-defined]
        if error == ERROR_HOTKEY_ALREADY_REGISTERED:
            return HotkeyStatus(False, self.tr("%1 is already used by another app. Choose "
                                               "another combination.").replace("%1", text))
        return HotkeyStatus(False, self.tr("Windows refused the shortcut (error %1).")
                            .replace("%1", str(error)))

    def unregister(self) -> None:
        if self._registered:
            self._user32.UnregisterHotKey(None, HOTKEY_ID)
            self._registered = False
