"""The X11 global hotkey against a real X server (Xvfb), when this machine has one."""

from __future__ import annotations

import ctypes.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.xvfb import xvfb

PROBE = Path(__file__).with_name("x11_hotkey_probe.py")
pytestmark = pytest.mark.skipif(
    not (sys.platform.startswith("linux") and shutil.which("Xvfb")
         and ctypes.util.find_library("Xtst")),
    reason="needs Xvfb and libXtst (apt-get install xvfb libxtst6)")


@pytest.fixture
def display() -> Iterator[str]:
    with xvfb("800x600x24") as name:
        yield name


def probe(display: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "DISPLAY": display}
    return subprocess.Popen([sys.executable, str(PROBE), *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def result(process: subprocess.Popen[str]) -> dict[str, object]:
    out, _ = process.communicate(timeout=30)
    return json.loads(out.strip().splitlines()[-1])


def test_the_hotkey_registers_and_fires_on_a_key_press(display) -> None:
    got = result(probe(display, "press"))
    assert got == {"kind": "X11Hotkey", "ok": True, "fired": True,
                   "message": "Ctrl+Alt+Space opens Quick ask from anywhere."}


def test_a_combination_another_app_holds_is_reported_as_taken(display) -> None:
    holder = probe(display, "grab", "2500")
    assert holder.stdout is not None
    assert json.loads(holder.stdout.readline())["ok"] is True  # it holds the grab now
    second = result(probe(display, "grab"))
    assert second["ok"] is False
    assert "already used by another app" in str(second["message"])
    holder.communicate(timeout=30)
