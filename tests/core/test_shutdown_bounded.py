"""Shutdown always finishes: an MCP tool server's own children end with `hearth ask`, and
pending proposals from other programs are refused at once when the server stops."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.core.events import ConfirmationRequest
from app.core.runner import ModelRunner
from app.core.server.proposals import ProposalDesk, propose_to_app
from app.core.server.service import ApiServer, ServerConfig
from skills.base import SkillError
from skills.calendar import CalendarStore
from skills.calendar.tools import calendar_skills
from tests.core.test_mcp import FIXTURE
from tests.support.capped import hearth_env
from tests.support.model_output import answer, call


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")
def test_a_tool_servers_child_does_not_outlive_hearth_ask(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "data").mkdir(parents=True)
    children = tmp_path / "children"
    (home / "data" / "settings.json").write_text(json.dumps({"mcp_servers": [
        {"name": "s", "command": [sys.executable, FIXTURE], "trusted": True}]}))
    script = tmp_path / "script.json"
    script.write_text(json.dumps([call("s__spawn", pidfile=str(children)), answer("Done."),
                                  "Spawn"]))
    result = subprocess.run([sys.executable, "-m", "app.main", "ask", "spawn", "--engine",
                             "scripted", "--script", str(script), "--yes"], env=hearth_env(home),
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    pids = [int(p) for p in children.read_text().split()]
    assert pids
    try:
        deadline = time.monotonic() + 30  # SIGKILL is sent before ask returns; reaping lags
        while any(map(_alive, pids)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(_alive, pids))
    finally:
        for pid in filter(_alive, pids):
            os.kill(pid, 9)


def test_stopping_the_server_refuses_every_pending_proposal(tmp_path: Path) -> None:
    store = CalendarStore(tmp_path / "h.db")
    asked: list[ConfirmationRequest] = []
    desk = ProposalDesk(calendar_skills(store, "UTC"), asked.append, "UTC")  # nobody answers
    runner = ModelRunner()
    server = ApiServer(runner, ServerConfig(api_key=lambda: "k" * 20, port=0), proposals=desk)
    server.start()
    propose = propose_to_app("127.0.0.1", server.port, "k" * 20)
    answers: list[str] = []

    def one(n: int) -> None:
        try:
            propose("add_event", {"title": f"Tea {n}", "start": "2026-12-03T10:00:00Z",
                                  "end": "2026-12-03T11:00:00Z"})
            answers.append("made")
        except SkillError as exc:
            answers.append(str(exc))

    threads = [threading.Thread(target=one, args=(n,), daemon=True) for n in range(8)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while len(asked) < 2 and time.monotonic() < deadline:  # the rest may wait for a thread
        time.sleep(0.05)
    assert asked
    server.stop()
    for thread in threads:
        thread.join(30)  # a hang guard: they are answered as soon as the server stops
    try:
        assert len(answers) == 8, answers
        assert all("refused" in a or "shutting down" in a or "not running" in a
                   for a in answers), answers
        assert all(r.answered and not r.approved for r in asked)
        assert store.all_events() == []
    finally:
        runner.close()
        store.close()
