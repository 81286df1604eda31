"""Drafts of a tool call's frame: the next parameter not yet written, or the call's end."""

from __future__ import annotations

from typing import Any

import numpy as np

from backends.frame_drafts import FrameDrafts
from backends.pass_costs import PassCosts
from backends.prompt_lookup import PromptLookup


def tokens(text: str) -> list[int]:
    return [ord(char) for char in text]  # a tokenizer of one token a character


def text(ids: list[int]) -> str:
    return "".join(chr(token) for token in ids)


def tool(*names: str, required: tuple[str, ...] = ()) -> dict[str, Any]:
    parameters: dict[str, Any] = {"type": "object",
                                  "properties": {name: {"type": "string"} for name in names}}
    if required:
        parameters["required"] = list(required)
    return {"type": "function", "function": {"name": "write_file", "parameters": parameters}}


CALL = "<tool_call>\n<function=write_file>\n<parameter=path>\n/home/anna/notes.md\n</"
FREE = {1: 1.0, 16: 1.0}
CPU = {1: 1.0, 4: 2.7, 8: 4.1, 12: 5.3, 16: 6.8}


def frame(history: str, *tools: dict[str, Any], room: int = 40) -> str:
    at, drafted = FrameDrafts(tools, tokens).after(np.asarray(tokens(history)), [], room)
    assert at == 0
    return text(drafted)


def test_after_a_value_the_frame_goes_on_with_the_next_parameter_not_yet_written() -> None:
    assert frame(CALL, tool("path", "title")) == "parameter>\n<parameter=title>\n"
    # Written in another order: the one still missing comes next.
    swapped = CALL.replace("<parameter=path>", "<parameter=title>")
    assert frame(swapped, tool("path", "title")) == "parameter>\n<parameter=path>\n"


def test_after_the_last_parameters_value_the_frame_is_the_calls_end() -> None:
    written = CALL + "parameter>\n<parameter=title>\nMy notes\n</"
    assert frame(written, tool("path", "title")) == "parameter>\n</function>\n</tool_call>\n"
    # Where the schema says which are required, the call ends after the last of those.
    assert frame(CALL, tool("path", "title", required=("path",))) == (
        "parameter>\n</function>\n</tool_call>\n")


def test_no_frame_is_drafted_outside_an_open_call_or_inside_a_value() -> None:
    assert frame("Write the notes.\n</", tool("path", "title")) == ""  # no call begun
    closed = CALL + "parameter>\n<parameter=title>\nx\n</parameter>\n</function>\n</"
    assert frame(closed, tool("path", "title")) == ""  # that call is over
    assert frame(CALL[:-3], tool("path", "title")) == ""  # the value may go on
    assert frame(CALL, {"type": "function", "function": {"name": "other"}}) == ""


def test_the_frame_replaces_an_earlier_calls_way_in_the_draft() -> None:
    # A one-shot example's call went on with its title after its path; this call has its
    # title already, so after its path comes the call's end, not the example's title.
    example = "<function=write_file>\n<parameter=path>\n/a\n</parameter>\n<parameter=title>\nA\n"
    example += "</parameter>\n</function>\n"
    prompt = example + "<function=write_file>\n<parameter=title>\nB\n</parameter>\n"
    prompt += "<parameter=path>\n/a\n</"
    frames = FrameDrafts([tool("path", "title")], tokens)
    drafter = PromptLookup(tokens(prompt), PassCosts(FREE, learn=False), frames=frames)
    # (15 tokens: a pass of 16 is the largest priced)
    assert text(drafter.propose(40)) == "parameter>\n</fu"
    plain = PromptLookup(tokens(prompt), PassCosts(FREE, learn=False))
    assert text(plain.propose(40)) == "parameter>\n<par"  # the example's way


def test_frame_drafts_that_miss_stop_being_sent() -> None:
    frames = FrameDrafts([tool("path", "title")], tokens)
    drafter = PromptLookup(tokens(CALL), PassCosts(CPU, learn=False), frames=frames)
    draft = drafter.propose(40)
    assert draft and "parameter>\n<parameter=title>".startswith(text(draft))  # the schema's
    for _ in range(6):  # the model writes something else each time
        drafter.feedback(len(draft), 0)
        draft = drafter.propose(40)
        if not draft:
            break
    assert drafter.propose(40) == []


def test_with_several_tools_offered_the_frame_is_the_called_ones() -> None:
    search = {"type": "function", "function": {"name": "search", "parameters": {
        "type": "object", "properties": {"query": {"type": "string"}}}}}
    assert frame(CALL, search, tool("path", "title")) == "parameter>\n<parameter=title>\n"
    called = "<tool_call>\n<function=search>\n<parameter=query>\nbudget 2026\n</"
    assert frame(called, search, tool("path", "title")) == (
        "parameter>\n</function>\n</tool_call>\n")
    assert frame(called.replace("search", "fetch"), search, tool("path", "title")) == ""
