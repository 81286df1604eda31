"""Defect 5: quit crashed with "Fatal Python error: bool_dealloc" after long sessions (and the
same binding bug drains None through every void call)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# More emits than True has references in a fresh interpreter; a long session streams as many.
EMITS = """
import sys
from PySide6.QtCore import QCoreApplication, QObject, Signal
{guard}
app = QCoreApplication([])
class Source(QObject):
    changed = Signal(object)
source = Source()
seen = []
source.changed.connect(seen.append)
for i in range(200_000):
    source.changed.emit(i)
    source.setObjectName("source")  # a void call: None's references, as painting spends them
print("emitted", len(seen))
"""


def run(guard: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", EMITS.format(guard=guard)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin",
                               "PYTHONPATH": str(ROOT)})


def test_a_long_session_of_signals_does_not_kill_the_interpreter() -> None:
    done = run("import app.ui  # what every window imports first")
    assert done.returncode == 0, done.stderr[-1500:]
    assert "emitted 200000" in done.stdout
    assert "_dealloc" not in done.stderr


def test_the_guard_only_acts_where_the_binding_leaks() -> None:
    from app.ui.binding_guard import emit_leaks_true, protect_singletons, void_call_leaks_none

    if sys.version_info >= (3, 12):
        assert protect_singletons() is False  # immortal singletons need nothing
    else:
        assert protect_singletons() is (emit_leaks_true() or void_call_leaks_none())
