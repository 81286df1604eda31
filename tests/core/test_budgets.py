"""Thinking budget, loop detection, sampling per step and the context budget, through the real
Assistant and ModelRunner on the scripted engine (the loop's logic; the engines have their own)."""

from __future__ import annotations

from typing import Any

from app.core.assistant import Assistant, TurnMode
from app.core.assistant.context_budget import RESULT_CUT, SUMMARY_INTRO
from app.core.events import ContextCompacted, OutputCut, ToolFinished, TurnDone, TurnFailed
from app.core.history import HistoryStore
from app.core.runner import ModelRunner
from app.core.settings import Settings
from backends.scripted import ScriptedBackend
from skills.builtin import builtin_skills
from tests.core.test_assistant_loop import WAIT, Events, turn
from tests.support.model_output import TIME_CALL, answer


def make(runner: ModelRunner, history: HistoryStore, **settings: Any) -> Assistant:
    return Assistant(runner, history, builtin_skills(), Settings(**settings))


def last_answer(history: HistoryStore, conv: str) -> Any:
    return [m for m in history.messages(conv) if m.role == "assistant"][-1]


# -- thinking budget ---------------------------------------------------------------------------

def test_reasoning_over_budget_is_closed_by_hearth_and_answered(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.queue("one two three four five six seven eight nine ten </think>\n\nlate",
                  "The answer is 42.", "Title")
    handle, events = turn(make(runner, history, thinking_budget_chat=5), "think hard")
    (cut,) = events.of(OutputCut)
    assert (cut.part, cut.reason, cut.tokens) == ("reasoning", "budget", 5)
    first, second = backend.calls[0].options, backend.calls[1].options
    assert first.thinking_budget == 5 and second.thinking_budget is None
    assert second.assistant_prefix == "one two three\n</think>\n\n"
    prompt = backend.render_prompt(backend.calls[1].messages, second)
    assert prompt.endswith("<think>\none two three\n</think>\n\n")
    stored = last_answer(history, handle.conversation_id)
    assert (stored.reasoning, stored.content, stored.notice) == (
        "one two three", "The answer is 42.", "thinking_cut")
    assert events.of(TurnDone)[0].finish_reason == "stop"


def test_each_kind_of_request_has_its_own_budget(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.queue(TIME_CALL, answer("It is noon."), "Title")
    assistant = make(runner, history, thinking_budget_quick=300, thinking_budget_tools=200)
    turn(assistant, "time?", mode=TurnMode(thinking=True, kind="quick"))
    assert [c.options.thinking_budget for c in backend.calls[:2]] == [300, 200]
    assert backend.calls[2].options.enable_thinking is False  # titles: budget 0, no reasoning


def test_a_zero_budget_answers_without_reasoning(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.queue("Straight answer.", "Title")
    turn(make(runner, history, thinking_budget_chat=0), "hi")
    assert backend.calls[0].options.enable_thinking is False
    assert backend.calls[0].options.thinking_budget is None


def test_title_reasoning_is_closed_at_its_budget(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.queue(answer("Hello."), "a b c d e f g h", "Greeting chat")
    handle, _ = turn(make(runner, history, thinking_budget_title=3), "hello")
    title_calls = backend.calls[1:]
    assert title_calls[0].options.enable_thinking and title_calls[0].options.thinking_budget == 3
    assert title_calls[1].options.assistant_prefix == "a b\n</think>\n\n"
    conversation = history.get_conversation(handle.conversation_id)
    assert conversation is not None and conversation.title == "Greeting chat"


# -- loops --------------------------------------------------------------------------------------

def test_a_reasoning_loop_is_stopped_and_answered(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    sentence = "Let me check the time zone again. "
    backend.queue(sentence * 60, "It is 9 in Lima.", "Title")
    handle, events = turn(make(runner, history), "time in Lima?")
    (cut,) = events.of(OutputCut)
    assert (cut.part, cut.reason) == ("reasoning", "loop")
    assert cut.tokens < 60 * 14  # stopped well before the model ran out of repetitions
    stored = last_answer(history, handle.conversation_id)
    assert stored.reasoning.count("Let me check") == 1
    assert stored.content == "It is 9 in Lima." and stored.notice == "thinking_cut"


def test_an_answer_loop_is_stopped_with_a_notice(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.queue(answer("Sure. " + "I agree with that completely and fully. " * 60), "Title")
    handle, events = turn(make(runner, history), "agree?")
    (cut,) = events.of(OutputCut)
    assert (cut.part, cut.reason) == ("answer", "loop")
    stored = last_answer(history, handle.conversation_id)
    assert stored.content == "Sure. I agree with that completely and fully."
    assert stored.notice == "answer_loop" and stored.status == "complete"
    assert not events.of(TurnFailed)


def test_a_repeated_tool_call_is_answered_once_then_ends_the_turn(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.queue(TIME_CALL, TIME_CALL, TIME_CALL, TIME_CALL, "Title")
    handle, events = turn(make(runner, history), "time in Tokyo?")
    finished = events.of(ToolFinished)
    assert [f.ok for f in finished] == [True, False, False]
    assert "already called" in finished[1].text
    stored = last_answer(history, handle.conversation_id)
    assert stored.notice == "tool_loop" and "kept repeating" in stored.content
    assert [(c.part, c.reason) for c in events.of(OutputCut)] == [("tools", "loop")]
    assert backend.pending == 1  # the fourth call was never asked for


# -- sampling per step -----------------------------------------------------------------------

def test_first_step_samples_as_chat_and_tool_steps_as_agentic_work(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.queue(TIME_CALL, answer("It is noon."), "Title")
    turn(make(runner, history, chat_temperature=0.5, tool_temperature=0.9, tool_top_k=40),
         "time?")
    chat, tool = backend.calls[0].options, backend.calls[1].options
    assert (chat.effective_temperature(), chat.top_p, chat.top_k) == (0.5, 0.95, 20)
    assert (tool.effective_temperature(), tool.top_k) == (0.9, 40)


def test_model_card_defaults() -> None:
    settings = Settings()
    assert (settings.chat_temperature, settings.chat_top_p, settings.chat_top_k) == (0.6, 0.95, 20)
    assert settings.tool_temperature == 1.0
    assert Settings.from_dict({"tool_temperature": 1}).tool_temperature == 1.0


# -- context budget ----------------------------------------------------------------------------

def _long_history(history: HistoryStore, turns: int, words: int = 40) -> str:
    conv = str(history.create_conversation("long").id)
    for n in range(turns):
        history.add_message(conv, "user", f"Question {n}: " + "word " * words)
        history.add_message(conv, "assistant", f"Answer {n}: " + "reply " * words,
                            reasoning="thinking " * 20)
    return conv


def test_a_conversation_longer_than_the_window_is_summarized_and_goes_on(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.info.context_length = 2000
    conv = _long_history(history, 30)
    before = history.messages(conv)
    backend.queue("Summary: thirty questions about words.", answer("Here I am."))
    prompts: list[Any] = []
    handle, events = turn(make(runner, history), "Still there?", conversation=conv,
                          on_prompt=lambda messages, options: prompts.append(messages))
    assert events.of(TurnDone) and not events.of(TurnFailed)
    (compacted,) = events.of(ContextCompacted)
    assert compacted.summarized > 0 and compacted.tokens_after < compacted.tokens_before
    messages = prompts[0]
    assert messages[0]["role"] == "system" and "Hearth" in messages[0]["content"]
    assert messages[1]["content"] == SUMMARY_INTRO + "Summary: thirty questions about words."
    assert messages[-1]["content"].startswith("Still there?")
    transcript = backend.calls[0].messages[1]["content"]
    assert transcript.count("Question") >= 20  # the summarizer read (the start of) most turns
    rendered = backend.count_tokens(backend.render_prompt(messages, backend.calls[1].options))
    assert rendered + backend.calls[1].options.max_tokens <= 2000
    after = history.messages(conv)
    assert [m.id for m in before] == [m.id for m in after][: len(before)]  # nothing lost
    summary = next(m for m in after if m.summary_of)
    assert summary.role == "system" and summary.id == compacted.summary_message_id
    assert "Earlier messages summarized" in history.export_markdown(conv)
    assert "Question 0:" in history.export_markdown(conv)


def test_the_next_turn_reuses_the_summary_and_keeps_the_prefix(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.info.context_length = 2000
    conv = _long_history(history, 30)
    backend.queue("Summary one.", answer("First."), answer("Second."))
    prompts: list[Any] = []
    assistant = make(runner, history)
    for text in ("one?", "two?"):
        turn(assistant, text, conversation=conv,
             on_prompt=lambda messages, options: prompts.append(messages))
    assert prompts[0][:2] == prompts[1][:2]  # system + summary: the cacheable prefix stays
    assert sum(bool(m.summary_of) for m in history.messages(conv)) == 1
    assert backend.pending == 0


def test_a_huge_tool_result_is_capped_with_a_note(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.info.context_length = 4000
    conv = str(history.create_conversation("doc").id)
    history.add_message(conv, "user", "Read the report")
    history.add_message(conv, "assistant", "", tool_calls=[
        {"id": "c1", "name": "read_document", "arguments": {"path": "/r.pdf"}}])
    history.add_message(conv, "tool", "page text " * 30000, tool_call_id="c1",
                        tool_name="read_document", tool_ok=True)
    backend.queue(answer("It is long."))
    prompts: list[Any] = []
    _, events = turn(make(runner, history), "And?", conversation=conv,
                     on_prompt=lambda messages, options: prompts.append(messages))
    assert events.of(TurnDone) and not events.of(TurnFailed)
    tool = next(m for m in prompts[0] if m["role"] == "tool")
    note = RESULT_CUT.split("{")[0]
    assert note in tool["content"] and "page range" in tool["content"]
    assert backend.count_tokens(tool["content"]) <= 1000 + 120  # the cap, and the note
    stored = next(m for m in history.messages(conv) if m.role == "tool")
    assert len(stored.content) == len("page text " * 30000)  # the history keeps it whole


def test_a_single_message_bigger_than_the_window_still_gets_an_answer(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.info.context_length = 1500
    backend.queue(answer("That is a lot of text."), "Title")
    events = Events()
    handle = make(runner, history).send(None, "Summarize: " + "blah " * 5000 + "\nWhat is it?",
                                        on_event=events, mode=TurnMode(thinking=True))
    assert handle.wait(WAIT)
    assert events.of(TurnDone) and not events.of(TurnFailed)
    sent = backend.calls[0].messages[-1]["content"]
    assert "left out" in sent and sent.rstrip().endswith("]")


def test_reasoning_that_stops_without_an_answer_is_closed_and_answered(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.queue("I think about it and then stop.<|im_end|>", "Here is the answer.", "Title")
    handle, events = turn(make(runner, history), "hm?")
    (cut,) = events.of(OutputCut)
    assert (cut.part, cut.reason) == ("reasoning", "no_answer")
    stored = last_answer(history, handle.conversation_id)
    assert stored.content == "Here is the answer." and stored.notice == "thinking_cut"
