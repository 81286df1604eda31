"""The output parser on the shapes of output Nanbeige really produces, tidy and untidy."""

from __future__ import annotations

import json

import pytest

from backends.events import Event, ReasoningDelta, StreamError, TextDelta, ToolCall, merge_deltas
from backends.parser import OutputParser


def merged(events: list[Event]) -> list[Event]:
    """Join adjacent deltas of one kind, so results compare whatever the chunking."""
    return merge_deltas(events)


def parse(text: str, chunk: int = 0, **kwargs: object) -> list[Event]:
    parser = OutputParser(**kwargs)  # type: ignore[arg-type]
    events: list[Event] = []
    pieces = [text] if chunk <= 0 else [text[i:i + chunk] for i in range(0, len(text), chunk)]
    for piece in pieces:
        events += parser.feed(piece)
    return merged(events + parser.finish())


def calls(events: list[Event]) -> list[tuple[str, dict[str, object]]]:
    return [(e.name, e.arguments) for e in events if isinstance(e, ToolCall)]


def errors(events: list[Event]) -> list[str]:
    return [e.message for e in events if isinstance(e, StreamError)]


XML_CALL = (
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
    "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>"
)


@pytest.mark.parametrize("chunk", [0, 1, 3])
def test_reasoning_then_answer(chunk: int) -> None:
    out = parse("The user greets me.\nI reply.\n</think>\n\nHello! How can I help?", chunk)
    assert out == [ReasoningDelta("The user greets me.\nI reply."),
                   TextDelta("Hello! How can I help?")]


def test_thinking_disabled_everything_is_answer() -> None:
    assert parse("Paris is the capital.\n", starts_in_reasoning=False) == [
        TextDelta("Paris is the capital.")]


def test_stray_think_at_start_is_dropped() -> None:
    assert parse("<think>\nhmm\n</think>\n\nok") == [ReasoningDelta("hmm"), TextDelta("ok")]


def test_think_at_start_opens_reasoning_when_not_expected() -> None:
    assert parse("\n<think>plan</think>answer", starts_in_reasoning=False) == [
        ReasoningDelta("plan"), TextDelta("answer")]


def test_think_later_in_text_is_plain_text() -> None:
    out = parse("Use the <think> tag.", starts_in_reasoning=False)
    assert out == [TextDelta("Use the <think> tag.")]


def test_output_ending_inside_reasoning_keeps_the_reasoning() -> None:
    assert parse("still thinking about") == [ReasoningDelta("still thinking about")]


def test_indentation_of_first_answer_line_is_kept() -> None:
    out = parse("r</think>\n\n    code()\n  more", starts_in_reasoning=True)
    assert out == [ReasoningDelta("r"), TextDelta("    code()\n  more")]


@pytest.mark.parametrize("chunk", [0, 1, 2, 7])
def test_xml_tool_call_after_answer(chunk: int) -> None:
    out = parse("Weather needed.\n</think>\n\nLet me check.\n\n" + XML_CALL, chunk)
    assert out[:2] == [ReasoningDelta("Weather needed."), TextDelta("Let me check.")]
    assert calls(out) == [("get_weather", {"city": "Paris", "days": 3})]
    assert len(out) == 3


def test_tool_call_raw_text_is_kept() -> None:
    (call,) = [e for e in parse("r</think>" + XML_CALL) if isinstance(e, ToolCall)]
    assert call.raw == XML_CALL


def test_multiline_string_value_keeps_inner_newlines() -> None:
    text = ("</think><tool_call>\n<function=write_note>\n<parameter=body>\nline one\n\n"
            "  line two\n</parameter>\n</function>\n</tool_call>")
    assert calls(parse(text)) == [("write_note", {"body": "line one\n\n  line two"})]


def test_untidy_call_without_newlines_and_with_trailing_spaces() -> None:
    text = ("</think>\n\n<tool_call><function=get_weather >  \n<parameter=city>Paris</parameter> \n"
            "<parameter=units> \ncelsius\n  </parameter>  </function>  </tool_call>  ")
    out = parse(text)
    assert calls(out) == [("get_weather", {"city": "Paris", "units": "celsius"})]
    assert not [e for e in out if isinstance(e, TextDelta)]


def test_json_values_are_typed_and_other_values_stay_strings() -> None:
    params = {"n": "42", "f": "1.5", "b": "true", "z": "null", "o": '{"a": [1, 2]}',
              "l": "[1, \"x\"]", "s": "hello", "q": '"quoted"', "nan": "NaN", "e": ""}
    body = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in params.items())
    text = f"</think><tool_call>\n<function=f>\n{body}</function>\n</tool_call>"
    assert calls(parse(text)) == [("f", {
        "n": 42, "f": 1.5, "b": True, "z": None, "o": {"a": [1, 2]}, "l": [1, "x"],
        "s": "hello", "q": '"quoted"', "nan": "NaN", "e": ""})]


def test_schema_string_parameters_stay_strings() -> None:
    tools = [{"type": "function", "function": {"name": "call", "parameters": {
        "type": "object", "properties": {"phone": {"type": "string"}, "n": {"type": "integer"}}}}}]
    text = ("</think><tool_call>\n<function=call>\n<parameter=phone>\n123\n</parameter>\n"
            "<parameter=n>\n123\n</parameter>\n</function>\n</tool_call>")
    assert calls(parse(text, tools=tools)) == [("call", {"phone": "123", "n": 123})]


def test_several_calls_with_text_between_and_after() -> None:
    one = XML_CALL
    two = XML_CALL.replace("Paris", "Oslo")
    out = parse(f"r</think>\n\nFirst.\n\n{one}\nThen.\n{two}\n\nDone.")
    assert out == [ReasoningDelta("r"), TextDelta("First."),
                   ToolCall("get_weather", {"city": "Paris", "days": 3}, raw=one),
                   TextDelta("Then."),
                   ToolCall("get_weather", {"city": "Oslo", "days": 3}, raw=two),
                   TextDelta("Done.")]


def test_two_functions_in_one_block_give_two_calls() -> None:
    text = ("</think><tool_call>\n<function=a>\n<parameter=x>\n1\n</parameter>\n</function>\n"
            "<function=b>\n</function>\n</tool_call>")
    assert calls(parse(text)) == [("a", {"x": 1}), ("b", {})]


def test_missing_parameter_close_ends_at_next_parameter() -> None:
    text = ("</think><tool_call>\n<function=f>\n<parameter=a>\none\n<parameter=b>\ntwo\n"
            "</parameter>\n</function>\n</tool_call>")
    assert calls(parse(text)) == [("f", {"a": "one", "b": "two"})]


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_json_variant_accepted_in_both_modes(fmt: str) -> None:
    text = '</think>\n\n<tool_call>\n{"name": "search", "arguments": {"q": "cats", "k": 2}}\n</tool_call>'
    assert calls(parse(text, tool_call_format=fmt)) == [("search", {"q": "cats", "k": 2})]


def test_json_variant_with_arguments_as_string() -> None:
    text = '</think><tool_call>{"name": "search", "arguments": "{\\"q\\": \\"cats\\"}"}</tool_call>'
    assert calls(parse(text)) == [("search", {"q": "cats"})]


def test_xml_call_accepted_in_json_mode() -> None:
    assert calls(parse("</think>" + XML_CALL, tool_call_format="json")) == [
        ("get_weather", {"city": "Paris", "days": 3})]


def test_missing_tool_call_close_at_end_is_accepted_when_function_closed() -> None:
    text = "</think>\n\n" + XML_CALL.removesuffix("</tool_call>")
    out = parse(text)
    assert calls(out) == [("get_weather", {"city": "Paris", "days": 3})]
    assert not errors(out)


def test_missing_function_close_inside_closed_block_is_accepted() -> None:
    text = "</think>" + XML_CALL.replace("</function>\n", "")
    assert calls(parse(text)) == [("get_weather", {"city": "Paris", "days": 3})]


@pytest.mark.parametrize("cut", [len("<tool_call>\n<function=get_wea"),
                                 len("<tool_call>\n<function=get_weather>\n<parameter=city>\nPar"),
                                 len(XML_CALL) - len("</function>\n</tool_call>")])
def test_call_cut_off_at_end_is_a_readable_error(cut: int) -> None:
    out = parse("</think>\n\n" + XML_CALL[:cut])
    assert not calls(out)
    (message,) = errors(out)
    assert "cut off" in message
    assert "Traceback" not in message


def test_call_open_alone_at_end_is_an_error() -> None:
    (message,) = errors(parse("</think>answer<tool_call>\n"))
    assert "cut off" in message


def test_json_call_cut_off_is_an_error() -> None:
    (message,) = errors(parse('</think><tool_call>\n{"name": "f", "argum'))
    assert "cut off" in message


def test_unreadable_complete_calls_are_errors_and_parsing_goes_on() -> None:
    out = parse('</think><tool_call>\nnonsense\n</tool_call>after<tool_call>{"x": 1}</tool_call>'
                '<tool_call>{bad json}</tool_call><tool_call>{"name":"f","arguments":[1]}</tool_call>')
    assert len(errors(out)) == 4
    assert TextDelta("after") in out


def test_new_call_before_close_ends_the_previous_one() -> None:
    first = XML_CALL.removesuffix("</tool_call>")
    out = parse("</think>" + first + XML_CALL)
    assert calls(out) == [("get_weather", {"city": "Paris", "days": 3})] * 2


def test_partial_tag_is_held_back_then_released_as_text() -> None:
    parser = OutputParser(starts_in_reasoning=False)
    assert parser.feed("a <tool_") == [TextDelta("a")]
    assert parser.feed("box> b") == [TextDelta(" <tool_box> b")]


def test_partial_think_close_is_held_back_in_reasoning() -> None:
    parser = OutputParser()
    assert parser.feed("plan </th") == [ReasoningDelta("plan")]
    assert parser.feed("ink>\n\nyes") == [TextDelta("yes")]


def test_text_streams_without_waiting_for_more_than_a_tag() -> None:
    parser = OutputParser(starts_in_reasoning=False)
    assert parser.feed("Hello") == [TextDelta("Hello")]
    assert parser.feed(" wor") == [TextDelta(" wor")]
    assert parser.feed("ld < 3") == [TextDelta("ld < 3")]


def test_text_inside_a_call_is_never_text() -> None:
    parser = OutputParser(starts_in_reasoning=False)
    seen = parser.feed("<tool_call>\n<function=f>\n<parameter=a>\nsecret")
    assert seen == []


def test_partial_tag_at_end_of_output_is_text() -> None:
    assert parse("ok <tool_ca", starts_in_reasoning=False) == [TextDelta("ok <tool_ca")]


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="tool_call_format"):
        OutputParser(tool_call_format="yaml")


def test_odd_tool_specs_do_not_break_the_parser() -> None:
    tools = [{"function": "nope"}, {"function": {"parameters": [1]}}, {}]
    assert calls(parse("</think>" + XML_CALL, tools=tools)) == [
        ("get_weather", {"city": "Paris", "days": 3})]


def test_text_after_a_call_missing_its_close_is_answer() -> None:
    text = "</think>" + XML_CALL.removesuffix("</tool_call>") + "\nI asked for the weather."
    out = parse(text)
    assert calls(out) == [("get_weather", {"city": "Paris", "days": 3})]
    assert out[-1] == TextDelta("I asked for the weather.")


# -- regressions from issue 12 ------------------------------------------------------------

def test_call_after_reasoning_that_never_closed_still_runs() -> None:
    out = parse("I need the weather.\n" + XML_CALL, chunk=2)
    assert out[0] == ReasoningDelta("I need the weather.")
    assert calls(out) == [("get_weather", {"city": "Paris", "days": 3})]


def test_call_tag_quoted_in_reasoning_is_just_reasoning() -> None:
    out = parse("Maybe a <tool_call> with search.\n</think>\n\nHi", chunk=3)
    assert out == [ReasoningDelta("Maybe a <tool_call> with search."), TextDelta("Hi")]


@pytest.mark.parametrize("chunk", [0, 1, 4])
def test_values_lose_trailing_spaces_and_carriage_returns(chunk: int) -> None:
    text = ("</think><tool_call>\r\n<function=f>\r\n<parameter=city>\r\nParis  \r\n</parameter>\r\n"
            "<parameter=note> two words\t</parameter>\r\n</function>\r\n</tool_call>")
    assert calls(parse(text, chunk)) == [("f", {"city": "Paris", "note": "two words"})]


@pytest.mark.parametrize("chunk", [0, 1, 5])
def test_value_quoting_the_closing_tags_stays_whole(chunk: int) -> None:
    body = 'Close it with </parameter> and then </tool_call>, then </function>.'
    text = ("</think><tool_call>\n<function=write_note>\n<parameter=body>\n" + body +
            "\n</parameter>\n<parameter=n>\n2\n</parameter>\n</function>\n</tool_call>\nSaved.")
    out = parse(text, chunk)
    assert calls(out) == [("write_note", {"body": body, "n": 2})]
    assert [e for e in out if isinstance(e, TextDelta)] == [TextDelta("Saved.")]


@pytest.mark.parametrize("chunk", [0, 1, 3])
def test_call_tag_quoted_in_an_answer_does_not_cut_it(chunk: int) -> None:
    answer = "Wrap calls in the `<tool_call>` tag, as in <tool_call> blocks. Done."
    out = parse("</think>\n\n" + answer, chunk)
    assert out == [TextDelta(answer)]
    assert not errors(out)


def test_quoted_call_tag_then_a_real_call() -> None:
    out = parse("</think>Use `<tool_call>` like this:\n" + XML_CALL)
    assert out[0] == TextDelta("Use `<tool_call>` like this:")
    assert calls(out) == [("get_weather", {"city": "Paris", "days": 3})]


@pytest.mark.parametrize("schema", [
    {"type": ["string", "null"]},
    {"anyOf": [{"type": "string"}, {"type": "null"}]},
    {"oneOf": [{"type": "integer"}, {"type": "string"}]},
    {"enum": ["1", "2", None]},
])
def test_optional_string_parameters_are_never_coerced(schema: dict[str, object]) -> None:
    tools = [{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {"v": schema, "n": {"type": ["integer", "null"]}}}}}]
    for raw in ("123", "true", "null", "[1]"):
        text = (f"</think><tool_call>\n<function=f>\n<parameter=v>\n{raw}\n</parameter>\n"
                "<parameter=n>\n7\n</parameter>\n</function>\n</tool_call>")
        assert calls(parse(text, tools=tools)) == [("f", {"v": raw, "n": 7})]


@pytest.mark.parametrize("chunk", [0, 1, 3])
def test_a_stray_think_close_at_the_start_of_an_answer_is_dropped(chunk: int) -> None:
    out = parse("</think>\n\nIt is noon.", chunk, starts_in_reasoning=False)
    assert out == [TextDelta("It is noon.")]
    assert parse("Use `</think>` to close.", chunk, starts_in_reasoning=False) == [
        TextDelta("Use `</think>` to close.")]


@pytest.mark.parametrize("chunk", [0, 1, 3])
def test_closing_tags_that_close_nothing_never_reach_the_answer(chunk: int) -> None:
    out = parse("</think>\n\nDone.</tool_call> Really </think>done.", chunk)
    assert out == [TextDelta("Done. Really done.")]
    assert parse("</think>Write `</tool_call>` last.", chunk) == [
        TextDelta("Write `</tool_call>` last.")]


# -- read exactly (issue 24) --------------------------------------------------------------------

COUNT_TOOL = [{"type": "function", "function": {"name": "count", "parameters": {
    "type": "object", "properties": {"n": {"type": "integer"}, "exact": {"type": "boolean"},
                                     "ratio": {"type": "number"}, "label": {"type": "string"}}}}}]


@pytest.mark.parametrize("chunk", [0, 1, 5])
def test_literal_tool_call_tag_inside_an_argument_value_stays_in_it(chunk: int) -> None:
    code = "print('<tool_call>')\nx = 1"
    text = (f"<tool_call>\n<function=run>\n<parameter=code>\n{code}\n</parameter>\n"
            "</function>\n</tool_call>")
    events = parse(text, chunk, starts_in_reasoning=False)
    assert calls(events) == [("run", {"code": code})] and errors(events) == []


@pytest.mark.parametrize(("written", "wanted"), [
    ('"3"', {"n": 3}), ("True", {"exact": True}), ("'false'", {"exact": False}),
    ('"0.5"', {"ratio": 0.5}), ("3", {"label": "3"}), ("many", {"n": "many"})])
def test_values_in_the_wrong_json_type_are_converted_by_the_schema(written: str,
                                                                   wanted: dict[str, object]
                                                                   ) -> None:
    key = next(iter(wanted))
    xml = (f"<tool_call>\n<function=count>\n<parameter={key}>\n{written}\n</parameter>\n"
           "</function>\n</tool_call>")
    assert calls(parse(xml, starts_in_reasoning=False, tools=COUNT_TOOL)) == [("count", wanted)]


@pytest.mark.parametrize(("sent", "wanted"), [
    ({"n": "3"}, {"n": 3}), ({"exact": "true"}, {"exact": True}), ({"label": 3}, {"label": "3"}),
    ({"n": "many"}, {"n": "many"})])
def test_json_call_values_are_converted_by_the_schema(sent: dict[str, object],
                                                      wanted: dict[str, object]) -> None:
    body = json.dumps({"name": "count", "arguments": sent})
    events = parse(f"<tool_call>\n{body}\n</tool_call>", starts_in_reasoning=False,
                   tools=COUNT_TOOL)
    assert calls(events) == [("count", wanted)]


@pytest.mark.parametrize("body", [
    "{'name': 'get_weather', 'arguments': {'city': 'Paris', 'days': 3}}",
    '{"name": "get_weather", "arguments": {"city": "Paris", "days": 3,},}',
    "{'name': 'get_weather', 'arguments': {'city': 'Paris', 'days': 3, 'live': true,}}"])
def test_json_calls_with_single_quotes_or_trailing_commas_are_repaired_and_logged(
        body: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("INFO", logger="backends.parser"):
        events = parse(f"<tool_call>\n{body}\n</tool_call>", starts_in_reasoning=False)
    assert errors(events) == []
    name, arguments = calls(events)[0]
    assert name == "get_weather" and arguments["city"] == "Paris" and arguments["days"] == 3
    assert "Repaired a tool call" in caplog.text


def test_a_true_inside_a_repaired_string_stays_as_written() -> None:
    events = parse("<tool_call>\n{'name': 'note', 'arguments': {'text': 'true or null',}}\n"
                   "</tool_call>", starts_in_reasoning=False)
    assert calls(events) == [("note", {"text": "true or null"})]


@pytest.mark.parametrize("chunk", [0, 1, 4])
def test_spelled_out_end_of_turn_is_never_shown(chunk: int) -> None:
    events = parse("Thinking.\n</think>\n\nThe answer.<|im_end|>\n<|im_start|>user\nmore",
                   chunk)
    assert merged(events) == [ReasoningDelta("Thinking."), TextDelta("The answer.")]
    quoted = parse("Done.\n</think>\n\nChatML ends a turn with `<|im_end|>`.", chunk)
    assert "".join(e.text for e in quoted if isinstance(e, TextDelta)) == (
        "ChatML ends a turn with `<|im_end|>`.")
