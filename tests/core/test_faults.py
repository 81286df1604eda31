"""Faults become one line: FIFOs where files belong, concurrent first runs, lone surrogates,
a read-only HEARTH_HOME and a full disk, each through the real CLI in its own process (forked
from one that imported the CLI once, tests/support/cli_forks.py; concurrent first runs are
separate starts)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.history import HistoryStore
from app.core.paths import Paths
from app.main import main
from tests.support.cli_forks import ForkingCli
from tests.support.model_output import answer
from tests.support.scripted_cli import script_file

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = ("import signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
          "from app.main import main; sys.exit(main(sys.argv[1:]))")


CLI = ForkingCli()


@pytest.fixture(autouse=True, scope="module")
def _cli_server() -> Iterator[None]:
    yield
    CLI.close()


def hearth(home: Path, *argv: str, file_limit: int | None = None,
           timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HEARTH_HOME": str(home), "PYTHONPATH": str(ROOT)}
    return CLI.run(list(argv), env, file_limit=file_limit, timeout=timeout)


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("hearth: ")]
    assert lines and len(result.stderr.strip().splitlines()) == len(lines), result.stderr
    return lines[0]


def test_a_fifo_named_model_gguf_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "model.gguf"
    os.mkfifo(fifo)
    result = hearth(tmp_path / "home", "ask", "hi", "--model", str(fifo), timeout=120)
    assert result.returncode == 4  # model_bad
    assert "not a regular file" in one_line(result)


def test_a_fifo_among_mlx_weights_is_refused_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "mlx"
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "nanbeige"}')
    os.mkfifo(folder / "model.safetensors")
    result = hearth(tmp_path / "home", "ask", "hi", "--model", str(folder), "--engine", "mlx",
                    timeout=120)
    assert result.returncode == 4 and "not a regular file" in one_line(result)


def test_a_fifo_given_to_calendar_import_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "events.ics"
    os.mkfifo(fifo)
    result = hearth(tmp_path / "home", "calendar", "import", str(fifo), timeout=120)
    assert result.returncode == 2 and "not a regular file" in one_line(result)


def test_concurrent_first_runs_on_a_fresh_home_all_succeed(tmp_path: Path) -> None:
    home = tmp_path / "fresh"
    file = script_file(tmp_path, answer("Hello."))
    env = {**os.environ, "HEARTH_HOME": str(home), "PYTHONPATH": str(ROOT)}
    runs = [subprocess.Popen([sys.executable, "-c", LAUNCH, "ask", "hi", "--engine",
                              "scripted", "--script", file], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outcomes = [(run.wait(timeout=600), run.stderr.read() if run.stderr else "") for run in runs]
    for run in runs:
        for stream in (run.stdout, run.stderr):
            if stream is not None:
                stream.close()
    assert [code for code, _ in outcomes] == [0, 0, 0, 0], outcomes
    store = HistoryStore(home / "data" / "hearth.db")
    try:
        assert len(store.list_conversations()) == 4
    finally:
        store.close()


def test_an_answer_with_lone_surrogates_is_saved(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = script_file(tmp_path, answer("half a smile \ud83d and the rest"))
    assert main(["ask", "smile", "--engine", "scripted", "--script", file]) == 0
    captured = capsys.readouterr()
    assert "half a smile \\ud83d and the rest" in captured.out  # shown, visibly
    store = HistoryStore(Paths.from_env().history_db)
    try:
        (conversation,) = store.list_conversations()
        saved = [m.content for m in store.messages(conversation.id) if m.role == "assistant"]
        assert len(saved) == 1 and saved[0].endswith("half a smile \ufffd and the rest")
    finally:
        store.close()


def populated(tmp_path: Path) -> tuple[Path, Path]:
    home, folder = tmp_path / "home", tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text("walrus tusk " * 100)
    file = script_file(tmp_path, answer("Hi."), "Greeting")
    for argv in (["docs", "add", str(folder)], ["files", "add-root", str(folder)],
                 ["calendar", "add", "--title", "Tea", "--start", "2026-12-03T10:00"],
                 ["ask", "hi", "--engine", "scripted", "--script", file]):
        assert hearth(home, *argv).returncode == 0
    return home, folder


def commands(tmp_path: Path, folder: Path) -> list[list[str]]:
    file = script_file(tmp_path, answer("Hi again."))
    return [["history", "list"], ["history", "search", "hi"], ["history", "export"],
            ["docs", "status"], ["docs", "search", "walrus"], ["docs", "add", str(folder)],
            ["files", "status"], ["files", "search", "walrus"], ["files", "scan"],
            ["calendar", "list", "--from", "2026-12-01", "--to", "2026-12-05"],
            ["calendar", "add", "--title", "Lunch", "--start", "2026-12-04T12:00"],
            ["ask", "hi", "--engine", "scripted", "--script", file], ["models", "list"]]


def check_every_command(home: Path, tmp_path: Path, folder: Path,
                        file_limit: int | None = None) -> None:
    for argv in commands(tmp_path, folder):
        result = hearth(home, *argv, file_limit=file_limit)
        if result.returncode != 0:
            one_line(result)
        assert "Traceback" not in result.stderr, (argv, result.stderr)


def test_the_whole_cli_on_a_full_disk(tmp_path: Path) -> None:
    home, folder = populated(tmp_path)
    for name in ("big1.txt", "big2.txt"):  # writes now fail: the disk is "full"
        (folder / name).write_text("fresh text " * 200_000)
    check_every_command(home, tmp_path, folder, file_limit=1)


@pytest.mark.skipif(os.geteuid() != 0 or sys.platform != "linux", reason="bind mounts need root")
def test_the_whole_cli_on_a_read_only_home(tmp_path: Path) -> None:
    home, folder = populated(tmp_path)
    subprocess.run(["mount", "--bind", str(home), str(home)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(home)], check=True)
        check_every_command(home, tmp_path, folder)
        listed = hearth(home, "history", "list")
        assert listed.returncode == 0 and "Greeting" in listed.stdout  # still readable
        assert "read-only" in listed.stderr
        for area in ("docs", "files"):  # the indexes read too
            found = hearth(home, area, "search", "walrus")
            assert found.returncode == 0 and "a.txt" in found.stdout, found.stderr
    finally:
        subprocess.run(["umount", "-l", str(home)], check=False)


@pytest.mark.skipif(os.geteuid() == 0 or sys.platform == "win32",
                    reason="root ignores permissions")
def test_the_whole_cli_on_an_unwritable_home(tmp_path: Path) -> None:
    home, folder = populated(tmp_path)
    folders = [home / "data", home / "cache", home / "logs", home]
    for path in folders:
        path.chmod(0o500)
    try:
        check_every_command(home, tmp_path, folder)
    finally:
        for path in folders:
            path.chmod(0o700)
