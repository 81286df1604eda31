"""Linux X11: XGrabKey on the root window through libX11 (ctypes), on our own connection.

A grab another client holds fails with BadAccess, reported asynchronously: an error handler
catches it after XSync. NumLock and CapsLock change the modifier state, so every variant is
grabbed. Events arrive on our connection; a QSocketNotifier wakes us to read them."""

from __future__ import annotations

import ctypes
from typing import Any

from PySide6.QtCore import QObject, QSocketNotifier

from app.ui.shell.hotkey import Chord, GlobalHotkey, HotkeyStatus
from app.ui.shell.hotkey.keys import x11_keysym_name
from app.ui.shell.x11_window import typed_x11

SHIFT, LOCK, CONTROL, MOD1, MOD2, MOD4 = 1, 2, 4, 8, 16, 64  # Mod1 = Alt, Mod2 = NumLock
KEY_PRESS = 2
BAD_ACCESS = 10
GRAB_MODE_ASYNC = 1


class _XErrorEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("display", ctypes.c_void_p),
                ("resourceid", ctypes.c_ulong), ("serial", ctypes.c_ulong),
                ("error_code", ctypes.c_ubyte), ("request_code", ctypes.c_ubyte),
                ("minor_code", ctypes.c_ubyte)]


class _XEvent(ctypes.Union):
    _fields_ = [("type", ctypes.c_int), ("pad", ctypes.c_long * 24)]


_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_XErrorEvent))


def _load() -> Any:
    pointer, number, word = ctypes.c_void_p, ctypes.c_int, ctypes.c_ulong
    return typed_x11({
        "XOpenDisplay": (pointer, [ctypes.c_char_p]), "XDefaultRootWindow": (word, [pointer]),
        "XStringToKeysym": (word, [ctypes.c_char_p]),
        "XKeysymToKeycode": (ctypes.c_ubyte, [pointer, word]),
        "XGrabKey": (number, [pointer, number, ctypes.c_uint, word, number, number, number]),
        "XUngrabKey": (number, [pointer, number, ctypes.c_uint, word]),
        "XSync": (number, [pointer, number]), "XPending": (number, [pointer]),
        "XNextEvent": (number, [pointer, ctypes.POINTER(_XEvent)]),
        "XConnectionNumber": (number, [pointer]),
        "XSetErrorHandler": (pointer, [_ERROR_HANDLER]), "XCloseDisplay": (number, [pointer])})


class X11Hotkey(GlobalHotkey):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._x = _load()  # OSError when libX11 is missing: create_hotkey falls back
        self._display: int | None = None
        self._grabs: list[tuple[int, int]] = []
        self._notifier: QSocketNotifier | None = None
        self._failed = False
        self._handler = _ERROR_HANDLER(self._on_error)  # kept alive: C holds the pointer

    def _on_error(self, _display: int, event: ctypes._Pointer) -> int:  # type: ignore[type-arg]
        if event.contents.error_code == BAD_ACCESS:
            self._failed = True
        return 0

    def _open(self) -> int | None:
        if self._display is None:
            self._display = self._x.XOpenDisplay(None)
            if self._display:
                fd = self._x.XConnectionNumber(self._display)
                self._notifier = QSocketNotifier(fd, QSocketNotifier.Type.Read, self)
                self._notifier.activated.connect(self._drain)
        return self._display or None

    def _register(self, chord: Chord, text: str) -> HotkeyStatus:
        display = self._open()
        name = x11_keysym_name(chord.key)
        if display is None:
            return HotkeyStatus(False, self.tr("Could not connect to the X server."))
        if name is None:
            return HotkeyStatus(False, self.tr("Choose a letter, digit, Space or F1–F12."))
        keycode = self._x.XKeysymToKeycode(display, self._x.XStringToKeysym(name.encode()))
        mods = (CONTROL if chord.ctrl else 0) | (MOD1 if chord.alt else 0) | (
            SHIFT if chord.shift else 0) | (MOD4 if chord.meta else 0)
        root = self._x.XDefaultRootWindow(display)
        self._failed = False
        previous = self._x.XSetErrorHandler(self._handler)
        for extra in (0, LOCK, MOD2, LOCK | MOD2):  # CapsLock / NumLock variants
            self._x.XGrabKey(display, keycode, mods | extra, root, 0, GRAB_MODE_ASYNC,
                             GRAB_MODE_ASYNC)
            self._grabs.append((keycode, mods | extra))
        self._x.XSync(display, 0)  # errors are asynchronous: flush them to the handler now
        self._x.XSetErrorHandler(ctypes.cast(previous, _ERROR_HANDLER) if previous else
                                 _ERROR_HANDLER())
        if self._failed:
            self.unregister()
            return HotkeyStatus(False, self.tr("%1 is already used by another app. Choose "
                                               "another combination.").replace("%1", text))
        return HotkeyStatus(True, self.tr("%1 opens Quick ask from anywhere.").replace("%1", text))

    def _drain(self) -> None:
        event = _XEvent()
        while self._display and self._x.XPending(self._display):
            self._x.XNextEvent(self._display, ctypes.byref(event))
            if event.type == KEY_PRESS:
                self.activated.emit()

    def unregister(self) -> None:
        if self._display and self._grabs:
            root = self._x.XDefaultRootWindow(self._display)
            for keycode, mods in self._grabs:
                self._x.XUngrabKey(self._display, keycode, mods, root)
            self._x.XSync(self._display, 0)
        self._grabs.clear()
