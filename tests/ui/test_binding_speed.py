"""PySide6's import hook gets the same answer from Hearth's faster source check."""

from __future__ import annotations

import inspect
import json
import sys
from types import ModuleType

import pytest

import app.ui
import app.ui.i18n
from app.ui.binding_speed import binding_check


def _expected(module: ModuleType) -> bool:
    """What the binding's check answers: does the module's source say "PySide6"?"""
    try:
        return "PySide6" in inspect.getsource(module)
    except (TypeError, OSError, SyntaxError):
        return False


@pytest.mark.parametrize("module", [app.ui.i18n, app.ui, json, sys, inspect,
                                    sys.modules["PySide6.QtCore"], ModuleType("made_here")],
                         ids=lambda module: module.__name__)
def test_the_faster_check_answers_as_the_binding_does(module: ModuleType) -> None:
    feature = sys.modules["shibokensupport.feature"]
    assert binding_check() is not None  # importing app.ui replaced it
    assert feature._mod_uses_pyside is not binding_check()
    assert feature._mod_uses_pyside(module) == _expected(module)
    assert binding_check()(module) == _expected(module)  # type: ignore[misc]
