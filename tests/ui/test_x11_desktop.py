"""Quick ask on a real X desktop (Xvfb + openbox, no compositor, as a plain Linux session):
no taskbar button of its own and no black corners (issue 16, defect 13)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.xvfb import xvfb

PROBE = Path(__file__).with_name("x11_quick_ask_probe.py")
pytestmark = pytest.mark.skipif(
    not (sys.platform.startswith("linux") and shutil.which("Xvfb") and shutil.which("openbox")
         and shutil.which("xprop")),
    reason="needs Xvfb, openbox and xprop (apt-get install xvfb openbox x11-utils)")


@pytest.fixture
def desktop() -> Iterator[dict[str, str]]:
    with xvfb("1280x800x24") as display:
        env = {**os.environ, "DISPLAY": display}
        manager = subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # openbox owns the WM selection once it manages
            check = subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=env,
                                   capture_output=True, text=True)
            if "window id" in check.stdout:
                break
            time.sleep(0.05)
        try:
            yield env
        finally:
            manager.terminate()
            manager.wait(10)


@pytest.mark.parametrize("look", ["light", "dark"])
def test_quick_ask_has_no_taskbar_button_and_no_black_corners(desktop, look: str) -> None:
    done = subprocess.run([sys.executable, str(PROBE), look], env=desktop, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert "_NET_WM_STATE_SKIP_TASKBAR" in seen["state"]  # the window manager agreed
    assert seen["composited"] is False  # openbox alone: a translucent margin would be black
    assert seen["masked"] and seen["mask_corner_open"]  # so the corners are cut away
    # ...and the soft edge of the rounded border the mask keeps lies on the window colour:
    # on the black margin it showed as a dark jagged rim along each corner.
    assert seen["corner_darkest"] is not None, "the box never showed on the X server"
    assert seen["corner_darkest"] >= min(seen["window"], seen["border"]) - 12, seen
