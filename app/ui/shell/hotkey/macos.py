"""macOS: Carbon RegisterEventHotKey (needs no Accessibility permission); Qt's Cocoa event
loop dispatches the hot-key events to our handler. The status is checked: -9878 means the
combination is taken."""

from __future__ import annotations

import ctypes
import ctypes.util

from PySide6.QtCore import QObject

from app.ui.shell.hotkey import Chord, GlobalHotkey, HotkeyStatus
from app.ui.shell.hotkey.keys import mac_keycode

CMD_KEY, SHIFT_KEY, OPTION_KEY, CONTROL_KEY = 0x100, 0x200, 0x800, 0x1000
EVENT_HOTKEY_EXISTS = -9878
K_EVENT_CLASS_KEYBOARD = int.from_bytes(b"keyb", "big")
K_EVENT_HOTKEY_PRESSED = 5
SIGNATURE = int.from_bytes(b"HRTH", "big")


class _HotKeyID(ctypes.Structure):
    _fields_ = [("signature", ctypes.c_uint32), ("id", ctypes.c_uint32)]


class _EventTypeSpec(ctypes.Structure):
    _fields_ = [("eventClass", ctypes.c_uint32), ("eventKind", ctypes.c_uint32)]


_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)


class MacHotkey(GlobalHotkey):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        path = ctypes.util.find_library("Carbon")
        if not path:
            raise OSError("Carbon framework not found")
        self._carbon = ctypes.CDLL(path)
        self._carbon.GetApplicationEventTarget.restype = ctypes.c_void_p
        self._carbon.RegisterEventHotKey.argtypes = [
            ctypes.c_uint32, ctypes.c_uint32, _HotKeyID, ctypes.c_void_p, ctypes.c_uint32,
            ctypes.POINTER(ctypes.c_void_p)]
        self._carbon.InstallEventHandler.argtypes = [
            ctypes.c_void_p, _HANDLER, ctypes.c_uint32, ctypes.POINTER(_EventTypeSpec),
            ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
        self._carbon.UnregisterEventHotKey.argtypes = [ctypes.c_void_p]
        self._ref = ctypes.c_void_p()
        self._callback = _HANDLER(self._on_hotkey)  # kept alive: Carbon holds the pointer
        spec = _EventTypeSpec(K_EVENT_CLASS_KEYBOARD, K_EVENT_HOTKEY_PRESSED)
        target = self._carbon.GetApplicationEventTarget()
        self._carbon.InstallEventHandler(target, self._callback, 1, ctypes.byref(spec), None,
                                         None)

    def _on_hotkey(self, _call: int, _event: int, _data: int) -> int:
        self.activated.emit()
        return 0

    def _register(self, chord: Chord, text: str) -> HotkeyStatus:
        code = mac_keycode(chord.key)
        if code is None:
            return HotkeyStatus(False, self.tr("Choose a letter, digit, Space or F1–F12."))
        # Qt on macOS maps Ctrl to Cmd and Meta to Control.
        mods = (CMD_KEY if chord.ctrl else 0) | (OPTION_KEY if chord.alt else 0) | (
            SHIFT_KEY if chord.shift else 0) | (CONTROL_KEY if chord.meta else 0)
        status = self._carbon.RegisterEventHotKey(
            code, mods, _HotKeyID(SIGNATURE, 1), self._carbon.GetApplicationEventTarget(), 0,
            ctypes.byref(self._ref))
        if status == 0:
            return HotkeyStatus(True, self.tr("%1 opens Quick ask from anywhere.")
                                .replace("%1", text))
        if status == EVENT_HOTKEY_EXISTS:
            return HotkeyStatus(False, self.tr("%1 is already used by another app. Choose "
                                               "another combination.").replace("%1", text))
        return HotkeyStatus(False, self.tr("macOS refused the shortcut (error %1). On macOS "
                                           "15.0–15.1 Option-only shortcuts are refused; add "
                                           "Cmd or Ctrl.").replace("%1", str(status)))

    def unregister(self) -> None:
        if self._ref:
            self._carbon.UnregisterEventHotKey(self._ref)
            self._ref = ctypes.c_void_p()
