"""PySide6 reads every module imported after it; give it the same answer for less work.

PySide6's import hook (`shibokensupport.feature`, for `from __feature__ import snake_case`)
asks of each module named by an import statement after PySide6 loads whether its source says
"PySide6", through `inspect.getsource`: ~135 modules before Hearth's first frame, 20-50 ms.
Reading the file's bytes gives the same answer in a fraction of the time
(`tests/ui/test_binding_speed.py`); anything else still goes through the binding's own check.
Hearth selects no `__feature__`, so even a wrong answer would change nothing here; the answer
is kept the same for any library that does."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType

import PySide6  # noqa: F401 - its import hook is what this speeds up

Check = Callable[[ModuleType], bool]
_replaced: list[Check] = []  # the binding's own check, once replaced


def read_sources_faster() -> bool:
    """Replace the binding's check (once); False where this binding has none to replace."""
    feature = sys.modules.get("shibokensupport.feature")
    original: Check | None = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or original is None or _replaced:
        return False
    _replaced.append(original)

    def uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return original(module)  # built in, compiled, or sourceless: the binding decides
        try:
            with open(path, "rb") as source:
                return b"PySide6" in source.read()
        except OSError:
            return original(module)

    feature._mod_uses_pyside = uses_pyside  # type: ignore[attr-defined]
    return True


def binding_check() -> Check | None:
    """The binding's own check (tests compare the answers)."""
    return _replaced[0] if _replaced else None
