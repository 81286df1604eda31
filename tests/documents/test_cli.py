"""`hearth docs ...` driven through app.main.main like a user would."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from app.core.paths import Paths
from app.core.settings import load_settings
from app.main import main
from tests.documents.corpus import write_pdf, write_xlsx
from tests.support.processes import popen_with_ctrl_c


def _lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "manual.pdf", [["Setup guide"], ["Replace the kettle filter monthly."]])
    write_xlsx(docs / "costs.xlsx", {"Parts": [["Part", "Price"], ["kettle filter", 12]]})
    (docs / "broken.docx").write_bytes(b"not a zip")
    return docs


def test_add_then_search_as_json(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["docs", "add", str(folder), "--json"]) == 0
    report = _lines(capsys.readouterr().out)[0]
    assert report["added"] == 2 and report["failed"] == 1
    assert "not a zip" in report["failures"][0]["reason"]  # the CLI words the code in English
    assert report["failures"][0]["code"] == "not_zip"  # and a program reads the code

    assert main(["docs", "search", "kettle filter", "--json"]) == 0
    hits = _lines(capsys.readouterr().out)
    assert {h["citation"] for h in hits} == set(range(1, len(hits) + 1))
    by_title = {h["title"]: h for h in hits}
    assert by_title["manual.pdf"]["page"] == 2
    assert by_title["manual.pdf"]["document"] == str(folder / "manual.pdf")
    assert by_title["costs.xlsx"]["sheet"] == "Parts"
    assert all(isinstance(h["score"], float) and h["text"] for h in hits)


def test_list_status_and_text_output(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["docs", "add", str(folder)])
    assert "Skipped 1 file:" in capsys.readouterr().out
    assert main(["docs", "list", "--json"]) == 0
    assert [d["title"] for d in _lines(capsys.readouterr().out)] == ["costs.xlsx", "manual.pdf"]
    assert main(["docs", "status", "--json"]) == 0
    status = _lines(capsys.readouterr().out)[0]
    assert status["documents"] == 2 and status["failures"][0]["path"].endswith("broken.docx")
    assert main(["docs", "search", "kettle"]) == 0
    assert "[1] " in capsys.readouterr().out


def test_watch_remembers_the_folder_in_settings(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["docs", "watch", str(folder), "--json"]) == 0
    assert _lines(capsys.readouterr().out)[0]["added"] == 2
    settings = load_settings(Paths.from_env().settings_file)
    assert settings.watched_folders == [str(folder)]
    assert main(["docs", "status", "--json"]) == 0
    assert _lines(capsys.readouterr().out)[0]["watching"] == [str(folder)]


def test_bad_arguments_fail_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["docs", "add", str(tmp_path / "nope")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("hearth: no such file or folder") and err.count("\n") == 1
    assert main(["docs", "watch", str(tmp_path / "nope")]) == 1
    assert "not a folder" in capsys.readouterr().err


def test_watch_in_the_foreground_follows_changes_until_ctrl_c(
    tmp_path: Path, hearth_home: Path
) -> None:
    import os
    import signal
    import subprocess
    import sys

    from skills.documents import DocumentIndex
    from tests.documents.conftest import wait_for

    folder = tmp_path / "live"
    folder.mkdir()
    # PYTHONFAULTHANDLER: if it ever hangs, SIGABRT makes it print where every thread is.
    env = {**os.environ, "HEARTH_HOME": str(hearth_home), "PYTHONFAULTHANDLER": "1"}
    process = popen_with_ctrl_c(
        [sys.executable, "-m", "app.main", "docs", "watch", str(folder), "--foreground"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert process.stdout is not None
        assert "Watching" in process.stdout.readline() + process.stdout.readline()
        (folder / "new.txt").write_text("the cormorant dries its wings")
        index = DocumentIndex(Paths.from_env().index_db)
        try:
            wait_for(lambda: [p.title for p in index.search("cormorant")] == ["new.txt"])
        finally:
            index.close()
        process.send_signal(signal.SIGINT)
        assert_stops(process)
    finally:
        stop(process)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="tgkill and /proc are Linux's")
def test_watch_stops_when_ctrl_c_lands_on_another_thread(tmp_path: Path) -> None:
    """Linux may deliver a process's SIGINT to any of its threads; one that lands on a watcher
    thread must still stop the command (an untimed wait in the main thread never saw it)."""
    import ctypes
    import os
    import signal
    import subprocess

    folder = tmp_path / "live"
    folder.mkdir()
    process = popen_with_ctrl_c(
        [sys.executable, "-m", "app.main", "docs", "watch", str(folder), "--foreground"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
    )
    try:
        assert process.stdout is not None
        assert "Watching" in process.stdout.readline() + process.stdout.readline()
        others = [int(tid) for tid in os.listdir(f"/proc/{process.pid}/task")
                  if int(tid) != process.pid]
        assert others  # the folder watcher's threads
        libc = ctypes.CDLL(None, use_errno=True)
        tgkill = 234 if os.uname().machine == "x86_64" else 131  # the tgkill syscall number
        assert libc.syscall(tgkill, process.pid, others[0], signal.SIGINT) == 0
        assert_stops(process)
    finally:
        stop(process)


def assert_stops(process: Any) -> None:
    """The command exits 0 after its Ctrl+C; if it hangs, the failure shows its threads.

    Under a second on a quiet machine: the bound only keeps a real hang from stalling the
    suite, so it is wide enough for a machine other programs keep busy."""
    import signal
    import subprocess

    try:
        _, errors = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)  # PYTHONFAULTHANDLER prints every thread
        _, errors = process.communicate()
        pytest.fail(f"docs watch did not stop after Ctrl+C; its threads:\n{errors}")
    assert process.returncode == 0, errors


def stop(process: Any) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()
