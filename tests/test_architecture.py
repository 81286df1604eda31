"""The layering rules hold at run time too: importing the core never loads an engine or Qt."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

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


@pytest.fixture(scope="module")
def figures() -> Any:
    """bench/code_figures.py, imported from bench/ (not a package)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import code_figures
    finally:
        sys.path.pop(0)
    return code_figures


@pytest.fixture(scope="module")
def parsed(figures: Any) -> dict[str, tuple[Path, ast.Module]]:
    """Every product module, parsed once for the tests below (~2 s on a 2-core box)."""
    return figures.modules(ROOT)  # type: ignore[no-any-return]


def test_no_module_of_hearth_imports_itself_back(
        figures: Any, parsed: dict[str, tuple[Path, ast.Module]]) -> None:
    """No import cycles, function-level imports included (a cycle hides which module owns a
    concept and breaks on the first import-order change); bench/code_figures.py reports them."""
    graph = {name: figures.imports_of(name, p, t, set(parsed)) for name, (p, t) in parsed.items()}
    assert figures.cycles(graph) == []


def test_plain_any_parameters_stay_under_the_ratchet(
        figures: Any, parsed: dict[str, tuple[Path, ast.Module]]) -> None:
    """Issue 29's typing ratchet: at most 80 parameters typed as bare `Any` in product code
    (235 before), counted as bench/code_figures.py counts them; a new one needs a real type."""
    total = sum(figures.plain_any_parameters(tree) for _, tree in parsed.values())
    assert total <= 80, f"{total} plain-Any parameters: type the new ones"
