"""`hearth memory add|list|delete|instructions`, driven through app.main.main like a user."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.core.memory import MemoryStore
from app.core.paths import Paths
from app.main import Hearth, main


def _json(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def test_add_list_and_delete(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "add", "I live in Lyon", "--json"]) == 0
    [added] = _json(capsys.readouterr().out)
    assert set(added) >= {"id", "text", "source", "created"}
    assert (added["text"], added["source"]) == ("I live in Lyon", "typed")
    assert main(["memory", "add", "I am a nurse"]) == 0
    assert capsys.readouterr().out.startswith("Remembered ")
    assert main(["memory", "list", "--json"]) == 0
    assert [m["text"] for m in _json(capsys.readouterr().out)] == ["I live in Lyon",
                                                                   "I am a nurse"]
    assert main(["memory", "delete", str(added["id"])]) == 0
    assert "Forgot" in capsys.readouterr().out
    assert main(["memory", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and lines[0].endswith("I am a nurse") and "typed" in lines[0]


def test_list_dates_a_memory_by_this_computers_clock(
        capsys: pytest.CaptureFixture[str], far_east: None) -> None:
    import sqlite3

    assert main(["memory", "add", "I live in Lyon", "--json"]) == 0
    [added] = _json(capsys.readouterr().out)
    with sqlite3.connect(Paths.from_env().history_db) as conn:
        conn.execute("update memories set created = ? where id = ?",
                     ["2026-12-02T20:00:00+00:00", added["id"]])
    assert main(["memory", "list"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert "2026-12-03" in line and "2026-12-02" not in line  # 10:00 on the 3rd at UTC+14


def test_what_the_cli_adds_reaches_the_next_chat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "add", "I live in Lyon"]) == 0
    assert main(["memory", "instructions", "Always answer in metric."]) == 0
    hearth = Hearth()
    try:
        system = hearth.assistant.prefix_request()[0][0]["content"]
    finally:
        hearth.close()
    assert "I live in Lyon" in system and "Always answer in metric." in system


def test_bad_input_is_one_line_and_changes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "add", "   "]) == 2
    assert main(["memory", "delete", "7"]) == 2
    assert main(["memory", "delete"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["hearth: The memory is empty: write what Hearth should remember.",
                   "hearth: There is no memory 7.", "hearth: give a memory id, or --all"]
    assert main(["memory", "list", "--json"]) == 0
    assert capsys.readouterr().out == ""


def test_delete_all_needs_yes_without_a_terminal(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    for text in ("one", "two"):
        assert main(["memory", "add", text]) == 0
    capsys.readouterr()
    assert main(["memory", "delete", "--all"]) == 2
    assert "add --yes" in capsys.readouterr().err
    assert main(["memory", "delete", "--all", "--yes", "--json"]) == 0
    assert _json(capsys.readouterr().out) == [{"deleted": 2}]
    store = MemoryStore(Paths.from_env().ensure().history_db)
    assert store.entries() == []
    store.close()


def test_instructions_show_set_and_clear(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "instructions"]) == 0
    assert capsys.readouterr().out == "No standing instructions.\n"
    assert main(["memory", "instructions", "I'm a nurse on night shifts"]) == 0
    assert main(["memory", "instructions", "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert json.loads(out[-1]) == {"instructions": "I'm a nurse on night shifts"}
    assert main(["memory", "instructions", "--clear", "--json"]) == 0
    assert _json(capsys.readouterr().out) == [{"instructions": ""}]
    assert main(["memory", "instructions", "x", "--clear"]) == 2


def test_mcp_serve_offers_no_memory_tool() -> None:
    """Other agents never read or write memory through `hearth mcp serve`."""
    from app.core.mcp.server import HearthTools

    hearth = Hearth()
    try:
        assert {"remember", "forget_memory"} <= {s.name for s in hearth.assistant.skills()}
        tools = HearthTools([*hearth.skills(), *hearth.assistant.skills()], [], "UTC",
                            lambda tool, arguments: "")
        names = {tool.name for tool in tools.tools()}
    finally:
        hearth.close()
    assert names and not names & {"remember", "forget_memory"}


def test_other_programs_cannot_propose_a_memory() -> None:
    """The local server's proposal desk (changes other programs ask the person to approve)
    takes calendar changes only: remember and forget_memory are refused before anyone asks."""
    from app.core.server.proposals import ProposalDesk
    from skills.base import SkillError

    hearth = Hearth()
    try:
        asked: list[Any] = []
        desk = ProposalDesk(hearth.assistant.skills(), asked.append, "UTC")
        for tool, arguments in (("remember", {"text": "my PIN is 9999"}),
                                ("forget_memory", {"id": 1})):
            with pytest.raises(SkillError, match="not a change Hearth accepts"):
                desk.propose(tool, arguments)
        assert asked == [] and hearth.memory.entries() == []
    finally:
        hearth.close()


@pytest.mark.parametrize("forget", [False, True])
def test_history_delete_names_what_the_chat_taught(forget: bool,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """`hearth history delete` never keeps a chat's memories unsaid: it names them (and how
    to forget them), or forgets them too with --forget-memories."""
    hearth = Hearth()
    try:
        chat = hearth.history.create_conversation("Garden")
        hearth.history.add_message(chat.id, "user", "I grow tulips")
        taught = hearth.memory.add("I grow tulips", source=chat.id)
        typed = hearth.memory.add("I live in Lyon")
    finally:
        hearth.close()
    extra = ["--forget-memories"] if forget else []
    assert main(["history", "delete", chat.id[:8], "--json", *extra]) == 0
    out, err = capsys.readouterr()
    key = "memories_forgotten" if forget else "memories_kept"
    assert _json(out) == [{"deleted": chat.id, "title": "Garden", key: [taught.id]}]
    assert main(["memory", "list", "--json"]) == 0
    left = [m["id"] for m in _json(capsys.readouterr().out)]
    if forget:
        assert left == [typed.id] and err == ""
    else:
        assert left == [taught.id, typed.id]
        assert "I grow tulips" in err and "hearth memory delete" in err
