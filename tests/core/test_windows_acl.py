"""Owner-only folders on Windows: the icacls commands decided, and failures that stay harmless.

Run on every platform: the decision is pure, and `tighten` takes the command runner, so these
tests never start icacls. They do not prove icacls accepts the commands (that needs Windows)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from app.core.windows_acl import MARKER, SYSTEM_SID, WHOAMI, commands, tighten, user_sid

SID = "S-1-5-21-1004336348-1177238915-682003330-1001"
WHOAMI_OUT = f'"desktop-7\\\\ana maría","{SID}"\r\n'


def test_the_users_sid_is_read_from_whoami() -> None:
    assert user_sid(WHOAMI_OUT) == SID
    assert user_sid("") == "" and user_sid("ERROR: Access is denied.") == ""


def test_a_folder_gets_the_user_and_system_only_inherited_by_its_contents(
        tmp_path: Path) -> None:
    folder = tmp_path / "Hearth data; & \"odd\""  # one argument whatever it holds: no shell
    reset, own, contents = commands(folder, SID)
    assert reset == ["icacls", str(folder), "/reset", "/Q"]  # explicit extra grants dropped
    assert own == ["icacls", str(folder), "/inheritance:r", "/grant:r",
                   f"*{SID}:(OI)(CI)F", f"*{SYSTEM_SID}:(OI)(CI)F", "/Q"]
    assert contents == ["icacls", str(folder / "*"), "/reset", "/T", "/C", "/Q"]


class Recorder:
    def __init__(self, failing: str = "") -> None:
        self.calls: list[list[str]] = []
        self.failing = failing

    def __call__(self, argv: list[str]) -> tuple[int, str]:
        self.calls.append(argv)
        if argv == WHOAMI:
            return 0, WHOAMI_OUT
        if self.failing and self.failing in argv:
            return 5, "Access is denied."
        return 0, "Successfully processed 1 files"


def test_every_folder_is_tightened_once_with_one_lookup_of_the_user(tmp_path: Path) -> None:
    folders = [tmp_path / name for name in ("data", "cache", "models", "logs")]
    for folder in folders:
        folder.mkdir()
    run = Recorder()
    assert tighten(folders, run) == 0
    assert run.calls.count(WHOAMI) == 1
    assert [c[1] for c in run.calls[1:]] == [p for f in folders
                                             for p in (str(f), str(f), str(f / "*"))]
    again = Recorder()
    assert tighten(folders, again) == 0 and again.calls == []  # the next start spawns nothing
    (folders[1] / MARKER).unlink()  # a cache deleted and made again
    assert tighten(folders, again) == 0
    assert {c[1] for c in again.calls[1:]} == {str(folders[1]), str(folders[1] / "*")}


def test_failures_are_logged_not_raised(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "hearth.db").write_bytes(b"")
    with caplog.at_level(logging.WARNING, logger="app.core.windows_acl"):
        assert tighten([tmp_path / "data"], Recorder(failing="/inheritance:r")) == 1
    assert "Could not make" in caplog.text and "Access is denied" in caplog.text
    assert not (tmp_path / "data" / MARKER).exists()  # tried again at the next start

    def missing(argv: list[str]) -> tuple[int, str]:
        raise FileNotFoundError(2, "No such file", argv[0])

    assert tighten([tmp_path / "data"], missing) == 1  # no whoami: nothing changed, logged
    assert "SID" in caplog.text


def test_an_empty_folder_is_not_a_failure(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    assert tighten([tmp_path / "logs"], Recorder(failing="/T")) == 0  # no `logs\*` to reset
