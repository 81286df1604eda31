"""Packaging test fixtures: the macOS check scripts, imported from packaging/macos."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

MACOS = Path(__file__).resolve().parents[2] / "packaging" / "macos"


def macos_script(name: str) -> Any:
    """One of packaging/macos's scripts as a module (the folder is not a package)."""
    sys.path.insert(0, str(MACOS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


@pytest.fixture
def check_minos() -> Any:
    return macos_script("check_minos")


@pytest.fixture
def check_mlx() -> Any:
    return macos_script("check_mlx")
