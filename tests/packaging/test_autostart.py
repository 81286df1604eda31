"""Start at login: the XDG entry a Linux session reads, and the macOS LaunchAgent fallback."""

from __future__ import annotations

import configparser
import plistlib
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


def _spec_args(value: str) -> list[str]:
    """An Exec= value read back as the Desktop Entry spec says a launcher reads it."""
    text = value.replace("\\\\", "\0").replace("\\n", "\n").replace("\0", "\\")
    args: list[str] = []
    current, quoted, escape, started = "", False, False, False
    for char in text:
        if escape:
            current, escape = current + char, False
        elif quoted and char == "\\":
            escape = True
        elif char == '"':
            quoted, started = not quoted, True
        elif char == " " and not quoted:
            if current or started:
                args.append(current)
            current, started = "", False
        else:
            current += char
    if current or started:
        args.append(current)
    return [a.replace("%%", "%") for a in args]


def test_an_install_path_with_spaces_and_quotes_starts_at_login(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The spec wants double quotes: the single quotes written before made desktop-file-validate
    fail, and a session started nothing for a Hearth under "/opt/My Apps"."""
    command = ['/opt/My Apps/Hearth "2" $HOME 100% \\x/hearth', "--hidden"]
    monkeypatch.setattr("app.ui.shell.autostart.launch_command", lambda: command)
    autostart = XdgAutostart(tmp_path)
    autostart.set(True)
    line = next(x for x in autostart.path.read_text().splitlines() if x.startswith("Exec="))
    assert _spec_args(line.removeprefix("Exec=")) == command
    if shutil.which("desktop-file-validate") is None:
        pytest.skip("desktop-file-validate (tests/run.sh installs desktop-file-utils) is missing")
    proc = subprocess.run(["desktop-file-validate", str(autostart.path)], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout


def test_the_mac_login_item_is_the_bundles_agent_that_starts_hearth_hidden(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SMAppService.mainAppService started the bundle without arguments (the window opened at
    login); the agent the bundle carries passes --hidden, and the app registers that one."""
    import types

    from tests.packaging.conftest import macos_script

    plists = macos_script("bundle_plists")
    agent_file = plists.install_login_agent(tmp_path / "Hearth.app")
    agent = plistlib.loads(agent_file.read_bytes())
    assert agent["ProgramArguments"] == [agent["BundleProgram"], "--hidden"]
    assert agent["BundleProgram"] == "Contents/MacOS/Hearth" and agent["RunAtLoad"] is True
    registered: list[str] = []

    class Service:
        def __init__(self, name: str) -> None:
            self.name = name

        def status(self) -> int:
            return 1 if self.name == "main" else 0

        def registerAndReturnError_(self, _error: object) -> tuple[bool, None]:  # noqa: N802 - the ObjC selector
            registered.append(self.name)
            return True, None

        def unregisterAndReturnError_(self, _error: object) -> tuple[bool, None]:  # noqa: N802 - the ObjC selector
            registered.append(f"-{self.name}")
            return True, None

    fake = types.SimpleNamespace(SMAppService=types.SimpleNamespace(
        agentServiceWithPlistName_=Service, mainAppService=lambda: Service("main")))
    monkeypatch.setitem(sys.modules, "ServiceManagement", fake)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    MacLoginItem(tmp_path).set(True)
    assert registered == ["-main", agent_file.name]  # the old item goes, the agent comes


def test_the_mac_bundle_says_why_it_talks_to_the_local_network() -> None:
    """Without NSLocalNetworkUsageDescription macOS 15 silently blocks a LAN engine."""
    from tests.packaging.conftest import macos_script

    plist = macos_script("bundle_plists").info_plist("1.2.3", "14.0")
    assert "local network" in plist["NSLocalNetworkUsageDescription"]
    assert plist["LSMinimumSystemVersion"] == "14.0" and plist["CFBundleVersion"] == "1.2.3"
    spec = (Path(__file__).resolve().parents[2] / "packaging" / "hearth.spec").read_text()
    assert "info_plist=info_plist(" in spec  # the bundle is built with these keys
