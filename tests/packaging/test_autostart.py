"""Start at login: the XDG entry a Linux session reads, and the macOS LaunchAgent fallback."""

from __future__ import annotations

import configparser
import plistlib
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from app.ui.shell.autostart import MacLoginItem, XdgAutostart, launch_command


def test_the_xdg_entry_starts_hearth_hidden_and_goes_when_switched_off(tmp_path: Path) -> None:
    autostart = XdgAutostart(tmp_path)
    assert not autostart.enabled()
    autostart.set(True)
    assert autostart.enabled()
    entry = configparser.ConfigParser(interpolation=None)
    entry.read(tmp_path / "autostart" / "hearth.desktop")
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application"
    assert shlex.split(section["Exec"]) == launch_command()
    assert launch_command()[-1] == "--hidden"
    if shutil.which("desktop-file-validate"):
        proc = subprocess.run(["desktop-file-validate", str(autostart.path)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout
    autostart.set(False)
    assert not autostart.enabled() and not autostart.path.exists()


def test_the_command_it_registers_really_starts_hearth(tmp_path: Path) -> None:
    """The registered command is runnable: with --version in place of --hidden it answers."""
    command = [*launch_command()[:-1], "--version"]
    proc = subprocess.run(command, capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert proc.stdout.startswith("hearth ")


def test_the_launch_agent_fallback_runs_at_load(tmp_path: Path) -> None:
    item = MacLoginItem(tmp_path)  # running from source: no bundle for SMAppService
    item.set(True)
    agent = plistlib.loads(item.agent.read_bytes())
    assert agent["RunAtLoad"] is True and agent["ProgramArguments"] == launch_command()
    assert agent["ProgramArguments"][0] == sys.executable
    assert item.enabled()
    item.set(False)
    assert not item.enabled()
