"""Shield True, False and None from reference-count bugs in the installed Qt binding.

PySide6 6.12's `SignalInstance.emit()` returns True without owning a reference to it (a failed
`disconnect()` does the same with False), and every method returning void hands back None the
same way: each call takes one reference from the interpreter's singleton for good. On Python
3.11 these are ordinary objects, so after enough calls in a long session (every emit, every
paint call) a count reaches zero and the process dies with "Fatal Python error: bool_dealloc"
(or none_dealloc) - seen at quit, whatever the moment. Python 3.12 made these singletons
immortal; here they get the same treatment: a reserve of references no session can use up.
Measured first, so a fixed binding is left alone."""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject, Signal

RESERVE = 1 << 40  # a million emits a second would need 12 days to use it up
_PROBES = 64


class _Probe(QObject):
    ping = Signal()


def emit_leaks_true() -> bool:
    """Whether emitting a signal takes references from True (measured, not assumed)."""
    probe = _Probe()
    before = sys.getrefcount(True)
    for _ in range(_PROBES):
        probe.ping.emit()
    # Other threads may touch True meanwhile; a leak shows as a loss of about one per emit.
    return before - sys.getrefcount(True) >= _PROBES // 2


def void_call_leaks_none() -> bool:
    """Whether a method returning void takes references from None."""
    probe = _Probe()
    before = sys.getrefcount(None)
    for _ in range(_PROBES):
        probe.setObjectName("probe")
    return before - sys.getrefcount(None) >= _PROBES // 2


def _immortal_already() -> bool:
    return sys.version_info >= (3, 12) or sys.implementation.name != "cpython"


def protect_singletons() -> bool:
    """Give True, False and None a reserve of references when the binding leaks them; True if
    it did (a second call adds a second reserve, which is harmless)."""
    if _immortal_already() or not (emit_leaks_true() or void_call_leaks_none()):
        return False
    for singleton in (True, False, None):
        # ob_refcnt is the object header's first field in CPython (release and debug builds
        # alike before 3.12); the reserve is what 3.12's immortal objects have built in.
        count = ctypes.c_ssize_t.from_address(id(singleton))
        count.value += RESERVE
    return True
