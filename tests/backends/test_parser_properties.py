"""Property-based checks of the output parser: never raises, chunking-blind, round-trips calls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from backends.base import GenerateOptions
from backends.chat_format import ChatTemplate
from backends.events import Done, Event, ReasoningDelta, StreamError, TextDelta, ToolCall
from backends.parser import OutputParser
from tests.backends.test_parser import merged
from tests.support.tiny_model import CHAT_TEMPLATE as TINY_TEMPLATE

# The model's own template, when the shared reference folder sits beside the repository.
OFFICIAL = Path(__file__).resolve().parents[3] / "shared" / "nanbeige" / "chat_template.jinja"

RELAXED = settings(deadline=None, max_examples=150,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

TAGS = ["<think>", "</think>", "<tool_call>", "</tool_call>", "<function=f>", "<function=",
        "</function>", "<parameter=a>", "<parameter=", "</parameter>", '{"name": "g", ',
        '"arguments": {"x": 1}}', "<", ">", "/", "\n", "\n\n", " ", "<tool_", "</th", "42"]

tag_soup = st.lists(st.one_of(st.sampled_from(TAGS), st.text(max_size=6)), max_size=40).map(
    "".join)

# Text a template renders verbatim: anything except the markers the format itself relies on.
FORBIDDEN = ("<think>", "</think>", "<tool_call>", "</tool_call>", "<function=", "</function>",
             "<parameter=", "</parameter>", "<|im_end|>", "<|im_start|>")
PIECES = ["\n", "\n\n", " ", "  ", "\t", "<", ">", "/", "=", "_", '"', "{", "}", "a", "x y", "é"]
free_text = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=3)), max_size=10).map(
    "".join).filter(lambda s: not any(marker in s for marker in FORBIDDEN))
identifier = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.\-]{0,15}", fullmatch=True)


def _json_non_string(text: str) -> bool:
    try:
        return not isinstance(json.loads(text), str)
    except ValueError:
        return False


# Without a schema, a string that reads as JSON ("12", "true") cannot be told from the value.
string_value = free_text.filter(lambda s: not _json_non_string(s))
json_leaf = st.one_of(st.none(), st.booleans(), st.integers(),
                      st.floats(allow_nan=False, allow_infinity=False), string_value)
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(free_text, inner, max_size=3)), max_leaves=8)
# An XML parameter value loses spaces and `\r` at its end (untidy output pads values with them).
param_string = string_value.filter(
    lambda s: s == s.rstrip(" \t\r") and not s.endswith((" \n", "\t\n", "\r\n"))
    and (s.strip(" \t\r") != "" or not s))
arguments = st.dictionaries(
    identifier, st.one_of(param_string, json_value.filter(lambda v: not isinstance(v, str))),
    max_size=4)
tool_calls = st.lists(st.tuples(identifier, arguments), max_size=3)


def run_parser(pieces: list[str], **kwargs: Any) -> list[Event]:
    parser = OutputParser(**kwargs)
    events: list[Event] = []
    for piece in pieces:
        events += parser.feed(piece)
    return events + parser.finish()


def split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({min(c, len(text)) for c in cuts})
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]


@RELAXED
@given(text=st.one_of(st.text(), tag_soup), cuts=st.lists(st.integers(0, 400), max_size=12),
       starts_in_reasoning=st.booleans(), fmt=st.sampled_from(["xml", "json"]))
def test_any_text_in_any_chunks_parses_the_same_and_never_raises(
        text: str, cuts: list[int], starts_in_reasoning: bool, fmt: str) -> None:
    kwargs = {"starts_in_reasoning": starts_in_reasoning, "tool_call_format": fmt}
    whole = run_parser([text], **kwargs)
    chunked = run_parser(split(text, cuts), **kwargs)
    assert merged(chunked) == merged(whole)
    assert all(isinstance(e, (ReasoningDelta, TextDelta, ToolCall, StreamError)) for e in whole)
    assert not any(isinstance(e, Done) for e in whole)


def quoted_only(text: str) -> bool:
    """`<tool_call>` may stay in text only where it is quoted in prose: words follow on its line."""
    parts = text.split("<tool_call>")
    for after in parts[1:]:
        rest = after.lstrip(" \t")
        if (not rest or rest[0] in "\r\n{" or rest.startswith("<tool_call>")
                or "<function=".startswith(rest[:10])):
            return False
    return True


@RELAXED
@given(text=tag_soup, starts_in_reasoning=st.booleans())
@example(text="<tool_call></think>", starts_in_reasoning=False)  # found by a CI-sized run
def test_tags_never_leak_into_deltas(text: str, starts_in_reasoning: bool) -> None:
    for event in merged(run_parser(list(text), starts_in_reasoning=starts_in_reasoning)):
        if isinstance(event, TextDelta):
            assert quoted_only(event.text)
        if isinstance(event, ReasoningDelta):
            assert "</think>" not in event.text
        if isinstance(event, (TextDelta, ReasoningDelta)):
            # Edges are trimmed; only the indentation of a segment's first line may stay.
            assert event.text and event.text == event.text.rstrip(" \t\r\n")
            assert not event.text.startswith("\n")


@RELAXED
@given(text=st.text(alphabet=st.characters(exclude_characters="<"), max_size=60),
       cuts=st.lists(st.integers(0, 60), max_size=6))
def test_plain_answer_comes_through_whole(text: str, cuts: list[int]) -> None:
    assume(text.strip(" \t\r\n") and "\n" not in text[: len(text) - len(text.lstrip())])
    events = merged(run_parser(split(text, cuts), starts_in_reasoning=False))
    assert events == [TextDelta(text.strip(" \t\r\n"))]


def _templates() -> list[Any]:
    official = pytest.param(
        OFFICIAL, id="official",
        marks=pytest.mark.skipif(not OFFICIAL.exists(), reason="reference template not beside repo"))
    return [official, pytest.param(None, id="tiny-model")]


@pytest.mark.parametrize("source", _templates())
@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_tool_calls_rendered_by_the_template_parse_back(source: Path | None, fmt: str) -> None:
    template = ChatTemplate(source.read_text() if source else TINY_TEMPLATE)

    @settings(RELAXED, max_examples=80)  # each example renders the template: keep it modest
    @given(reasoning=free_text, content=free_text, calls=tool_calls,
           cuts=st.lists(st.integers(0, 600), max_size=8))
    def round_trip(reasoning: str, content: str, calls: list[tuple[str, dict[str, Any]]],
                   cuts: list[int]) -> None:
        reasoning, content = reasoning.strip(), content.strip()
        output = _render_assistant_output(template, reasoning, content, calls, fmt)
        events = merged(run_parser(split(output, cuts), tool_call_format=fmt))
        expected: list[Event] = []
        expected += [ReasoningDelta(reasoning)] if reasoning else []
        expected += [TextDelta(content)] if content else []
        assert [e for e in events if not isinstance(e, ToolCall)] == expected
        assert [(e.name, e.arguments) for e in events if isinstance(e, ToolCall)] == calls

    round_trip()


def _render_assistant_output(template: ChatTemplate, reasoning: str, content: str,
                             calls: list[tuple[str, dict[str, Any]]], fmt: str) -> str:
    """What the model would have emitted for this history turn (after the generation prompt)."""
    message = {"role": "assistant", "content": content, "reasoning_content": reasoning,
               "tool_calls": [{"type": "function", "function": {"name": n, "arguments": a}}
                              for n, a in calls]}
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "sys"}, {"role": "user", "content": "q"}, message]
    rendered = template.render(messages, GenerateOptions(tool_call_format=fmt),
                               add_generation_prompt=False)
    opening = "<|im_start|>assistant\n<think>\n"
    output = rendered[rendered.rindex(opening) + len(opening):]
    assert output.endswith("<|im_end|>\n")
    return output.removesuffix("<|im_end|>\n")
