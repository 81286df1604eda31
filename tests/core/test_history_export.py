"""Exports: Markdown a person can read, JSON a program can load back, one or all conversations."""

from __future__ import annotations

import json

import pytest

from app.core.history import HistoryStore, NotFound


def _tool_chat(history: HistoryStore) -> str:
    chat = history.create_conversation("Convert units")
    history.add_message(chat.id, "user", "How many km is 3 miles?", attachments=["/d/u.pdf"])
    call = {"id": "c1", "name": "convert_units", "arguments": {"value": 3, "unit": "mi"}}
    history.add_message(
        chat.id,
        "assistant",
        "",
        reasoning="Use the tool.\nThen answer.",
        tool_calls=[call],
        model="nanbeige",
    )
    history.add_message(
        chat.id, "tool", "```4.83 km```", tool_call_id="c1", tool_name="convert_units", tool_ok=True
    )
    history.add_message(
        chat.id,
        "assistant",
        "3 miles is about 4.83 km [1].",
        sources=[{"citation": 1, "title": "Units.pdf", "location": "page 2"}],
    )
    history.add_message(chat.id, "assistant", "And in metres", status="interrupted")
    return chat.id


def test_markdown_reads_like_the_conversation(history: HistoryStore) -> None:
    text = history.export_markdown(_tool_chat(history))
    assert text.startswith("# Convert units\n")
    order = [
        "## You",
        "How many km is 3 miles?",
        "Attached: `/d/u.pdf`",
        "> Thinking: Use the tool.",
        "> Then answer.",
        'Called `convert_units` with `{"value": 3, "unit": "mi"}`',
        "## Tool result: convert_units (ok)",
        "````\n```4.83 km```\n````",
        "3 miles is about 4.83 km [1].",
        "1. Units.pdf, page 2",
        "## Hearth [interrupted]",
        "And in metres",
    ]
    positions = [text.index(part) for part in order]
    assert positions == sorted(positions)


def test_json_holds_every_field_and_loads_back(history: HistoryStore) -> None:
    chat_id = _tool_chat(history)
    [exported] = json.loads(json.dumps(history.export_json(chat_id)))
    assert exported["title"] == "Convert units" and exported["id"] == chat_id
    saved = history.messages(chat_id)
    assert [m["id"] for m in exported["messages"]] == [m.id for m in saved]
    assert exported["messages"][1]["tool_calls"][0]["arguments"] == {"value": 3, "unit": "mi"}
    assert exported["messages"][2]["tool_ok"] is True
    assert exported["messages"][4]["status"] == "interrupted"


def test_export_all_includes_archived_conversations(history: HistoryStore) -> None:
    _tool_chat(history)
    hidden = history.create_conversation("Archived one")
    history.add_message(hidden.id, "user", "old question")
    history.set_archived(hidden.id, True)
    untitled = history.create_conversation()
    history.add_message(untitled.id, "user", "no title yet")
    assert {c["title"] for c in history.export_json()} == {"Convert units", "Archived one", ""}
    text = history.export_markdown()
    assert "# Archived one" in text and "# Convert units" in text
    assert "# New chat" in text and text.count("\n---\n") == 2


def test_unknown_conversation_is_a_clear_error(history: HistoryStore) -> None:
    with pytest.raises(NotFound, match="no conversation"):
        history.export_markdown("missing")
    with pytest.raises(NotFound):
        history.export_json("missing")
    assert history.export_json() == [] and history.export_markdown() == ""
