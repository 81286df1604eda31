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


def test_no_module_of_hearth_imports_itself_back() -> None:
    """No import cycles, function-level imports included (a cycle hides which module owns a
    concept and breaks on the first import-order change); bench/code_figures.py reports them."""
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    try:
        import code_figures
    finally:
        sys.path.pop(0)
    root = Path(__file__).resolve().parents[1]
    found = code_figures.modules(root)
    graph = {name: code_figures.imports_of(name, p, t, set(found)) for name, (p, t) in found.items()}
    assert code_figures.cycles(graph) == []


def test_plain_any_parameters_stay_under_the_ratchet() -> None:
    """Issue 29's typing ratchet: at most 80 parameters typed as bare `Any` in product code
    (235 before), counted as bench/code_figures.py counts them; a new one needs a real type."""
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    try:
        import code_figures
    finally:
        sys.path.pop(0)
    found = code_figures.modules(Path(__file__).resolve().parents[1])
    total = sum(code_figures.plain_any_parameters(tree) for _, tree in found.values())
    assert total <= 80, f"{total} plain-Any parameters: type the new ones"
