"""MCP servers as skills, against a real stdio server the tests start (mcp_server_fixture.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from app.core.assistant import Assistant, TurnMode
from app.core.events import ConfirmationNeeded, ToolFinished, TurnDone
from app.core.history import HistoryStore
from app.core.mcp.base import McpUnavailable
from app.core.runner import ModelRunner
from app.core.settings import McpServer, Settings
from backends.scripted import ScriptedBackend
from skills.base import SkillContext, SkillError
from tests.core.test_assistant_loop import Events
from tests.support.model_output import answer, call
from tests.support.ports import free_port

if TYPE_CHECKING:
    from app.core.mcp.manager import McpManager

FIXTURE = str(Path(__file__).with_name("mcp_server_fixture.py"))
WAIT = 60


def server(name: str, mode: str = "normal", trusted: bool = False) -> McpServer:
    return McpServer(name=name, command=[sys.executable, FIXTURE, *mode.split()], trusted=trusted)


def manager_of(servers: list[McpServer], **timeouts: float) -> McpManager:
    """A manager for `servers`. The MCP SDK it starts them with is imported here, as the tests
    run, not as the suite is collected: it takes a second or two to import."""
    from app.core.mcp.manager import McpManager

    return McpManager(servers, **timeouts)


@pytest.fixture(scope="module")
def manager() -> Iterator[McpManager]:
    """One running fixture server (trusted) and one untrusted name for the same script."""
    mgr = manager_of(
        [server("calc", trusted=True), server("other")], start_timeout=WAIT, call_timeout=3
    )
    yield mgr
    mgr.close()


def test_tools_appear_as_prefixed_skills_with_their_schemas(manager: McpManager) -> None:
    skills = {s.name: s for s in manager.skills()}
    assert {"calc__add", "calc__shout", "other__add"} <= set(skills)
    add = skills["calc__add"]
    assert add.parameters["properties"]["a"]["type"] == "integer"
    assert "Add two whole numbers" in add.description
    # Every MCP tool asks first unless the user trusts its server.
    assert add.changes_things is False and skills["other__add"].changes_things is True
    assert "other" in skills["other__add"].describe_change({"a": 1, "b": 2})
    assert manager.status() == {"calc": "running", "other": "running"}


def test_calls_return_text_and_errors_are_readable(manager: McpManager) -> None:
    skills = {s.name: s for s in manager.skills()}
    result = skills["calc__add"].run({"a": 2, "b": 3}, SkillContext())
    assert result.ok and result.text == "5"
    failed = skills["calc__fail"].run({"reason": "disk is full"}, SkillContext())
    assert not failed.ok and "disk is full" in failed.text


def test_a_server_that_hangs_mid_call_times_out_and_is_restarted(manager: McpManager) -> None:
    skills = {s.name: s for s in manager.skills()}
    started = time.monotonic()
    with pytest.raises(SkillError, match="did not answer within 3 s"):
        skills["calc__sleep"].run({"seconds": 3600}, SkillContext())
    assert time.monotonic() - started < WAIT  # the call gave up; it did not wait for the tool
    # The next call starts the server afresh.
    assert skills["calc__shout"].run({"text": "hi"}, SkillContext()).text == "HI"


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("crash", "the configuration is missing"),  # its stderr explains why
        ("hang", "did not start within 1 s"),
        ("garbage", "did not start within 1 s"),
    ],
)
def test_a_server_that_cannot_start_is_a_readable_note(mode: str, reason: str) -> None:
    # A crash is seen when the process ends, so it gets a generous limit it never reaches. A
    # server that hangs or talks garbage never starts, whatever the limit: the test waits it out.
    limit = WAIT if mode == "crash" else 1
    mgr = manager_of([server("broken", mode)], start_timeout=limit, call_timeout=3)
    try:
        started = time.monotonic()
        assert mgr.skills() == []
        assert time.monotonic() - started < limit + WAIT / 2  # its 3,600 s hang was not waited out
        notes = mgr.notes()
        assert len(notes) == 1 and "'broken' is unavailable" in notes[0] and reason in notes[0]
    finally:
        mgr.close()


def _pids_in(pidfile: Path) -> list[int]:
    """The ids fixture servers started with this file wrote (first thing they do)."""
    return [int(line) for line in pidfile.read_text(encoding="ascii").split()]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(sys.platform == "win32", reason="os.kill(pid, 0) asks about a POSIX pid")
def test_no_server_process_outlives_close_even_one_given_up_on(tmp_path: Path) -> None:
    """Servers given up on (one stuck mid-call, two that never finish starting) are dropped by
    the manager before close(); close() still ends every process it started."""
    files = {mode: tmp_path / f"{mode}.pid" for mode in ("normal", "hang", "garbage")}
    servers = [server(mode, f"{mode} --pidfile {pidfile}") for mode, pidfile in files.items()]
    mgr = manager_of(servers, start_timeout=WAIT, call_timeout=2)
    try:
        with pytest.raises(McpUnavailable, match="did not answer"):
            mgr.call("normal", "sleep", {"seconds": 3600})
        # Wait until the other two have started (not for their tools, which never come),
        # then give up on them: a start limit of 0 makes the next turn drop them at once.
        mgr.skills(should_stop=lambda: files["hang"].exists() and files["garbage"].exists())
        mgr.start_timeout = 0.0
        mgr.skills()
        notes = " ".join(mgr.notes())
        assert "'hang' is unavailable" in notes and "'garbage' is unavailable" in notes
    finally:
        mgr.close()
    pids = {mode: _pids_in(pidfile) for mode, pidfile in files.items()}
    assert all(pids.values()), pids
    assert {mode: [pid for pid in found if _alive(pid)] for mode, found in pids.items()} == {
        mode: [] for mode in files}


def test_a_missing_command_is_a_readable_note() -> None:
    mgr = manager_of([McpServer("ghost", command=["/no/such/server-binary"])], start_timeout=5)
    try:
        assert mgr.skills() == []
        assert "not found" in mgr.notes()[0] or "No such file" in mgr.notes()[0]
    finally:
        mgr.close()


def test_the_assistant_offers_mcp_tools_and_confirms_untrusted_ones(tmp_path: Path) -> None:
    backend = ScriptedBackend(
        [
            call("fixture__add", a=20, b=22),
            answer("It is 42."),
            "Adding numbers",  # the title
            call("fixture__add", a=1, b=1),
            answer("Declined."),
        ]
    )
    runner = ModelRunner()
    runner.load(backend).result(WAIT)
    history = HistoryStore(tmp_path / "h.db")
    assistant = Assistant(runner, history, [], Settings(), mcp_servers=[server("fixture")])
    try:
        events = Events()
        handle = assistant.send(
            None, "add 20 and 22", on_event=events, confirm="approve", mode=TurnMode(thinking=True)
        )
        assert handle.wait(WAIT)
        assert events.of(ConfirmationNeeded)[0].request.name == "fixture__add"
        assert events.of(ToolFinished)[0].text == "42"
        assert "fixture__add" in {t["function"]["name"] for t in backend.calls[0].options.tools}
        denied = Events()
        again = assistant.send(
            handle.conversation_id,
            "and 1+1?",
            on_event=denied,
            confirm="deny",
            mode=TurnMode(thinking=True),
        )
        assert again.wait(WAIT)
        assert "declined" in denied.of(ToolFinished)[0].text
        assert denied.of(TurnDone)[0].finish_reason == "stop"
    finally:
        assistant.close()
        runner.close()
        history.close()


def test_a_streamable_http_server_works_by_url() -> None:
    port = free_port()
    process = subprocess.Popen([sys.executable, FIXTURE, "http", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    mgr = manager_of([McpServer("web", url=f"http://127.0.0.1:{port}/mcp")], start_timeout=WAIT)
    try:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:  # wait until the server listens
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        skills = {s.name: s for s in mgr.skills()}
        assert skills["web__shout"].changes_things is True
        assert skills["web__shout"].run({"text": "over http"}, SkillContext()).text == "OVER HTTP"
    finally:
        mgr.close()
        process.terminate()
        process.wait(10)


def test_a_broken_server_holds_up_only_the_first_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.core.mcp.manager.RETRY_AFTER_S", 0.0)
    mgr = manager_of([server("stuck", "hang")], start_timeout=2, call_timeout=2)
    try:
        assert mgr.skills() == []  # waited for the first start, which timed out
        # A retry that waited would now wait a whole minute: far more than any busy machine
        # takes to start a connection in the background and return.
        mgr.start_timeout = WAIT
        started = time.monotonic()
        assert mgr.skills() == []  # the retry runs in the background
        assert time.monotonic() - started < WAIT / 2
        assert "'stuck' is unavailable" in mgr.notes()[0]
    finally:
        mgr.close()


def test_cancel_while_a_server_starts_ends_the_turn_at_once(tmp_path: Path) -> None:
    """The server keeps starting in the background; its tools come on the next turn."""
    backend = ScriptedBackend([call("gated__add", a=2, b=3), answer("It is 5."), "Adding"])
    runner = ModelRunner()
    runner.load(backend).result(WAIT)
    history = HistoryStore(tmp_path / "h.db")
    with socket.socket() as gate:
        gate.bind(("127.0.0.1", 0))
        gate.listen(1)
        gate.settimeout(WAIT)
        port = gate.getsockname()[1]
        # The default start timeout (30 s) is what a turn would wait without a prompt cancel.
        assistant = Assistant(runner, history, [], Settings(),
                              mcp_servers=[server("gated", f"gated {port}")])
        try:
            handle = assistant.send(None, "add 2 and 3", mode=TurnMode(thinking=True))
            link, _ = gate.accept()  # the turn is now waiting for the server
            with link:
                assert link.recv(16) == b"starting\n"
                handle.cancel()
                assert handle.wait(10), "the turn waited for the server after cancel"
                assert handle.finish_reason == "cancelled" and backend.calls == []
                conv = handle.conversation_id
                assert [(m.role, m.status) for m in history.messages(conv)] == [
                    ("user", "complete"), ("assistant", "cancelled")]
                assert assistant.mcp.status() == {"gated": "starting"}
                link.sendall(b"go\n")
            events = Events()
            again = assistant.send(conv, "add 2 and 3", on_event=events, confirm="approve",
                                   mode=TurnMode(thinking=True))
            assert again.wait(WAIT)
            assert events.of(ToolFinished)[0].text == "5"
            assert assistant.mcp.status() == {"gated": "running"}
        finally:
            assistant.close()
            runner.close()
            history.close()
