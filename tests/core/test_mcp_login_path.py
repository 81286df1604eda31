"""MCP servers named as bare `npx` / `uvx`: found on the login shell's PATH (macOS Finder's is bare)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from app.core.mcp.login_path import login_shell_path, server_env
from app.core.settings import McpServer
from tests.core.test_mcp import FIXTURE, manager_of

FINDER_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"  # what launchd gives an app started from Finder

posix = pytest.mark.skipif(sys.platform == "win32", reason="a login shell is a POSIX thing")


def _executable(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


@posix
def test_a_command_only_the_login_shell_finds_runs_with_that_path(tmp_path: Path) -> None:
    brew = tmp_path / "homebrew" / "bin"
    npx = "hearth-test-npx"  # a name no machine has on its own PATH
    _executable(brew / npx, "#!/bin/sh\n")
    login = f"{brew}:{FINDER_PATH}"
    assert server_env(npx, FINDER_PATH, lambda: login) == {"PATH": login}
    assert server_env("sh", FINDER_PATH, lambda: login) is None  # found already: untouched
    assert server_env(str(brew / npx), FINDER_PATH, lambda: login) is None  # a given path
    assert server_env("hearth-test-uvx", FINDER_PATH, lambda: login) is None  # nowhere


@posix
def test_the_login_shell_reports_the_path_its_profile_builds(tmp_path: Path) -> None:
    shell = _executable(tmp_path / "fake-zsh", '#!/bin/sh\necho "Welcome!"\n'
                        'PATH="/opt/homebrew/bin:$PATH"; export PATH\neval "$2"\n')
    assert login_shell_path(str(shell)).startswith("/opt/homebrew/bin:")
    assert login_shell_path(str(tmp_path / "no-shell")) == ""


@posix
def test_a_bare_server_command_from_finder_starts_and_lists_its_tools(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end: Hearth's PATH lacks the folder; the user's shell profile adds it."""
    tools = tmp_path / "node" / "bin"
    _executable(tools / "fixture-mcp", f'#!/bin/sh\nexec "{sys.executable}" "{FIXTURE}"\n')
    shell = _executable(tmp_path / "fake-zsh",
                        f'#!/bin/sh\nPATH="{tools}:$PATH"; export PATH\neval "$2"\n')
    monkeypatch.setenv("SHELL", str(shell))
    monkeypatch.setenv("PATH", os.pathsep.join([FINDER_PATH, str(Path(sys.executable).parent)]))
    manager = manager_of([McpServer("fixture", command=["fixture-mcp"])], start_timeout=60)
    try:
        assert any(s.name.startswith("fixture__") for s in manager.skills()), manager.notes()
    finally:
        manager.close()
