"""X11 window manager hints Qt has no API for: whether a compositor runs (without one, a
translucent window's corners come out black) and "keep this window off the taskbar"."""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

from PySide6.QtGui import QGuiApplication

CLIENT_MESSAGE = 33
SUBSTRUCTURE_NOTIFY, SUBSTRUCTURE_REDIRECT = 1 << 19, 1 << 20
NET_WM_STATE_ADD = 1
SOURCE_APPLICATION = 1


class _ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong),
                ("send_event", ctypes.c_int), ("display", ctypes.c_void_p),
                ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]


class _XEvent(ctypes.Union):
    _fields_ = [("xclient", _ClientMessage), ("pad", ctypes.c_long * 24)]


def typed_x11(signatures: dict[str, tuple[Any, list[Any]]]) -> Any:
    """libX11 with these functions' (result type, argument types) declared; OSError without
    the library."""
    lib = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    for name, (result, arguments) in signatures.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = result, arguments
    return lib


def _xlib() -> Any:
    """libX11 with the few functions used here typed, or None off X11."""
    if QGuiApplication.platformName() != "xcb":
        return None
    pointer, number, word = ctypes.c_void_p, ctypes.c_int, ctypes.c_ulong
    try:
        return typed_x11({
            "XOpenDisplay": (pointer, [ctypes.c_char_p]), "XCloseDisplay": (number, [pointer]),
            "XDefaultScreen": (number, [pointer]), "XDefaultRootWindow": (word, [pointer]),
            "XInternAtom": (word, [pointer, ctypes.c_char_p, number]),
            "XGetSelectionOwner": (word, [pointer, word]),
            "XSendEvent": (number, [pointer, word, number, ctypes.c_long,
                                    ctypes.POINTER(_XEvent)]),
            "XFlush": (number, [pointer])})
    except OSError:
        return None


def composited() -> bool:
    """True unless this is X11 without a compositing manager (then nothing is translucent)."""
    lib = _xlib()
    if lib is None:
        return QGuiApplication.platformName() != "xcb"  # macOS, Windows, Wayland composite
    display = lib.XOpenDisplay(None)
    if not display:
        return False
    try:
        screen = lib.XDefaultScreen(display)
        atom = lib.XInternAtom(display, f"_NET_WM_CM_S{screen}".encode(), 0)
        return bool(lib.XGetSelectionOwner(display, atom))
    finally:
        lib.XCloseDisplay(display)


def skip_taskbar(window_id: int) -> bool:
    """Ask the window manager (EWMH) to keep a mapped window off the taskbar and pager."""
    lib = _xlib()
    if lib is None:
        return False
    display = lib.XOpenDisplay(None)
    if not display:
        return False
    try:
        event = _XEvent()
        message = event.xclient
        message.type = CLIENT_MESSAGE
        message.send_event = 1
        message.window = window_id
        message.message_type = lib.XInternAtom(display, b"_NET_WM_STATE", 0)
        message.format = 32
        message.data[0] = NET_WM_STATE_ADD
        message.data[1] = lib.XInternAtom(display, b"_NET_WM_STATE_SKIP_TASKBAR", 0)
        message.data[2] = lib.XInternAtom(display, b"_NET_WM_STATE_SKIP_PAGER", 0)
        message.data[3] = SOURCE_APPLICATION
        root = lib.XDefaultRootWindow(display)
        sent = lib.XSendEvent(display, root, 0, SUBSTRUCTURE_REDIRECT | SUBSTRUCTURE_NOTIFY,
                              ctypes.byref(event))
        lib.XFlush(display)
        return bool(sent)
    finally:
        lib.XCloseDisplay(display)
