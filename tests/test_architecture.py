"""The layering rules hold at run time too: importing the core never loads an engine or Qt."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
import app.main, app.core.assistant, app.core.runner, backends.select, backends.llama_cpp
import skills.documents, skills.files, skills.calendar
heavy = [m for m in ("llama_cpp", "mlx", "mlx_lm", "PySide6", "transformers") if m in sys.modules]
print(",".join(heavy))
"""


def test_core_and_backends_import_no_engine_or_qt() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
