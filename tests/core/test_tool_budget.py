"""A cap on tool calls per step and per turn, also with --yes (issue 18)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.model_output import answer
from tests.support.scripted_cli import ask_json, open_history, script_file, write_settings


def many_calls(count: int, start: int = 0) -> str:
    """`count` different calls (the turn stops a call repeated word for word, a separate rule)."""
    def one(value: int) -> str:
        return ("<tool_call>\n<function=convert_units>\n"
                f"<parameter=value>\n{value}\n</parameter>\n"
                "<parameter=from_unit>\nkm\n</parameter>\n<parameter=to_unit>\nmi\n</parameter>\n"
                "</function>\n</tool_call>")
    return "Calling.\n</think>\n\n" + "\n".join(one(start + i) for i in range(count))


def test_a_thousand_calls_in_one_step_run_only_the_cap_even_with_yes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], hearth_home: Path) -> None:
    file = script_file(tmp_path, many_calls(1000), answer("Done."), "Clock")
    code, lines, err = ask_json(capsys, "what time is it?", "--engine", "scripted",
                                "--script", file, "--yes", "--max-tokens", "200000")
    assert code == 0, err
    results = [line for line in lines if line["type"] == "tool_result"]
    ran = [r for r in results if r["name"] == "convert_units"]
    assert len(ran) == 10 and all(r["ok"] for r in ran)
    # The answer loop guard may end a 1,000-call reply early (its last call cut off and
    # reported as unreadable); whatever was written in full beyond the cap is not run.
    capped = [r["text"] for r in results if r["name"] == "" and "were not run" in r["text"]]
    (note,) = capped
    found = re.match(r"(\d+) more tool calls were not run: at most 10 tool calls run in one "
                     r"step", note)
    assert found and int(found.group(1)) >= 900
    store = open_history()
    try:
        saved = store.messages(lines[-1]["conversation_id"])
        assert len(saved[1].tool_calls or []) == 10  # the history replays only what ran
    finally:
        store.close()


def test_the_turn_cap_holds_across_steps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], hearth_home: Path) -> None:
    write_settings(hearth_home, max_tool_calls_per_step=4, max_tool_calls_per_turn=6)
    file = script_file(tmp_path, many_calls(4), many_calls(4, 4), many_calls(4, 8), answer("Done."),
                  "Clock")
    code, lines, err = ask_json(capsys, "time?", "--engine", "scripted", "--script", file, "--yes")
    assert code == 0, err
    ran = [line for line in lines if line["type"] == "tool_result" and line["name"]]
    assert len(ran) == 6
    notes = [line["text"] for line in lines if line["type"] == "tool_result" and not line["name"]]
    assert notes == ["2 more tool calls were not run: this turn has used all 6 of its tool "
                     "calls. Answer with what you have, or ask for fewer calls at a time.",
                     "4 more tool calls were not run: this turn has used all 6 of its tool "
                     "calls. Answer with what you have, or ask for fewer calls at a time."]
