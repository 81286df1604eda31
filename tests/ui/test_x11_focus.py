"""Tab on a real X desktop (Xvfb + openbox): once Hearth's window is up, the keyboard starts in
the sidebar and Tab walks it before the chat and the composer (issue 26: "Tab starts in the
composer, not the sidebar"; not reproduced on this desktop, see the probe)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ui.test_x11_desktop import desktop  # noqa: F401 (fixture)
from tests.ui.test_x11_desktop import pytestmark as on_an_x_desktop

PROBE = Path(__file__).with_name("x11_focus_probe.py")
pytest.importorskip("Xlib")
pytestmark = [on_an_x_desktop, pytest.mark.usefixtures("needs_llama_cpp")]


def test_tab_starts_in_the_sidebar_once_the_window_is_shown(desktop, tiny_model: Any  # noqa: F811
                                                             ) -> None:
    done = subprocess.run([sys.executable, str(PROBE), str(tiny_model.gguf_path)], env=desktop,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    focus = json.loads(done.stdout.strip().splitlines()[-1])["focus"]
    assert focus[:3] == ["new", "search", "list"]  # the sidebar first, in its order...
    assert "composer" not in focus  # ...and the next Tabs stay there (its page buttons)
