"""Qt key codes -> each platform's key codes, for the keys a global shortcut may use."""

from __future__ import annotations

from PySide6.QtCore import Qt

K = Qt.Key
SPACE = int(K.Key_Space.value)

# Carbon virtual key codes (HIToolbox/Events.h): the ANSI layout positions.
_MAC_LETTERS = {"A": 0, "S": 1, "D": 2, "F": 3, "H": 4, "G": 5, "Z": 6, "X": 7, "C": 8, "V": 9,
                "B": 11, "Q": 12, "W": 13, "E": 14, "R": 15, "Y": 16, "T": 17, "O": 31,
                "U": 32, "I": 34, "P": 35, "L": 37, "J": 38, "K": 40, "N": 45, "M": 46}
_MAC_DIGITS = {"1": 18, "2": 19, "3": 20, "4": 21, "6": 22, "5": 23, "9": 25, "7": 26,
               "8": 28, "0": 29}
_MAC_F = [122, 120, 99, 118, 96, 97, 98, 100, 101, 109, 103, 111]


def _char(key: int) -> str:
    return chr(key) if 0x20 < key < 0x7F else ""


def _f_index(key: int) -> int:
    first = int(K.Key_F1.value)
    return key - first if first <= key < first + 12 else -1


def windows_vk(key: int) -> int | None:
    """Virtual-key code: letters and digits are their ASCII codes, F1 is 0x70."""
    if key == SPACE:
        return 0x20
    ch = _char(key)
    if ch.isalnum():
        return ord(ch.upper())
    index = _f_index(key)
    return 0x70 + index if index >= 0 else None


def mac_keycode(key: int) -> int | None:
    if key == SPACE:
        return 49
    ch = _char(key).upper()
    if ch in _MAC_LETTERS:
        return _MAC_LETTERS[ch]
    if ch in _MAC_DIGITS:
        return _MAC_DIGITS[ch]
    index = _f_index(key)
    return _MAC_F[index] if index >= 0 else None


def x11_keysym_name(key: int) -> str | None:
    """The name XStringToKeysym understands: 'space', 'a', '1', 'F5'."""
    if key == SPACE:
        return "space"
    ch = _char(key)
    if ch.isalnum():
        return ch.lower()
    index = _f_index(key)
    return f"F{index + 1}" if index >= 0 else None
