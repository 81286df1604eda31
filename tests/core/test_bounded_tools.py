"""Tool servers meet limits: a 3,000-tool server gives the model its first tools_per_server,
and a multi-megabyte tool result is kept in the chat cut, with a note the model can act on."""

from __future__ import annotations

from pathlib import Path

from app.core.assistant import Assistant, TurnMode
from app.core.history import HistoryStore
from app.core.runner import ModelRunner
from app.core.settings import Settings
from backends.scripted import ScriptedBackend
from skills.common.limits import LIMITS
from tests.core.test_assistant_loop import Events
from tests.core.test_mcp import WAIT, manager_of, server
from tests.support.model_output import answer, call


def test_a_server_with_thousands_of_tools_gives_the_first_few() -> None:
    mgr = manager_of([server("huge", "many", trusted=True)], start_timeout=WAIT)
    try:
        names = [s.name for s in mgr.skills()]
        assert len(names) == LIMITS.tools_per_server
        assert "huge__add" in names  # the server's own first tools come first
        assert any("tools_per_server" in note for note in mgr.notes())
    finally:
        mgr.close()


def test_a_huge_tool_result_is_kept_cut_with_a_note(tmp_path: Path) -> None:
    size = 5_000_000
    backend = ScriptedBackend([call("fixture__blob", size=size), answer("Long."), "Blob"])
    runner = ModelRunner()
    runner.load(backend).result(WAIT)
    history = HistoryStore(tmp_path / "h.db")
    assistant = Assistant(runner, history, [], Settings(),
                          mcp_servers=[server("fixture", trusted=True)])
    try:
        handle = assistant.send(None, "a blob please", on_event=Events(), confirm="approve",
                                mode=TurnMode(thinking=True))
        assert handle.wait(WAIT)
        stored = [m for m in history.messages(handle.conversation_id) if m.role == "tool"]
        assert len(stored) == 1
        text = stored[0].content
        assert len(text.encode()) < LIMITS.tool_result_bytes + 1024
        assert "tool_result_bytes" in text and "narrower" in text
        assert "4.8 MB" in text  # how much there was, so the model can judge the next call
    finally:
        assistant.close()
        runner.close()
        history.close()
    assert (tmp_path / "h.db").stat().st_size < size // 4
