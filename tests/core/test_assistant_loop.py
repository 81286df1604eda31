"""The turn loop, driven by the scripted backend replaying realistic Nanbeige outputs."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from app.core.assistant import Assistant, TurnMode
from app.core.events import (
    ConfirmationNeeded,
    Queued,
    ReasoningDelta,
    SourcesFound,
    TextDelta,
    TitleChanged,
    ToolFinished,
    ToolStarted,
    TurnDone,
    TurnFailed,
    TurnStarted,
)
from app.core.history import HistoryStore
from app.core.runner import ModelRunner
from app.core.settings import Settings
from backends.errors import BackendError, FailureKind
from backends.scripted import ScriptedBackend
from skills.base import ReadOnlyTool, Skill, SkillContext, SkillError, SkillResult, Source
from skills.builtin import builtin_skills
from tests.support.model_output import GREETING, TIME_CALL, answer, call

WAIT = 20

TWO_CONVERSIONS = (
    "Two conversions are needed.\n</think>\n\n<tool_call>\n<function=convert_units>\n"
    "<parameter=value>\n5\n</parameter>\n<parameter=from_unit>\nmi\n</parameter>\n"
    "<parameter=to_unit>\nkm\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n"
    "<function=convert_units>\n<parameter=value>\n212\n</parameter>\n<parameter=from_unit>\nF"
    "\n</parameter>\n<parameter=to_unit>\nC\n</parameter>\n</function>\n</tool_call>"
)
BAD_VALUE = (
    "I convert it.\n</think>\n\n<tool_call>\n<function=convert_units>\n"
    "<parameter=value>five</parameter>\n<parameter=from_unit>mi</parameter>\n"
    "<parameter=to_unit>km</parameter>\n</function>\n</tool_call>"
)
NO_SUCH_TOOL = (
    "Let me check the weather.\n</think>\n\n<tool_call>\n<function=get_weather>\n"
    "<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>"
)


class Events:
    """Thread-safe recorder of assistant events, with shortcuts for the checks below."""

    def __init__(self, on: dict[type, Any] | None = None) -> None:
        self.items: list[Any] = []
        self.on = on or {}
        self._lock = threading.Lock()

    def __call__(self, event: Any) -> None:
        with self._lock:
            self.items.append(event)
        hook = self.on.get(type(event))
        if hook is not None:
            hook(event)

    def of(self, kind: type) -> list[Any]:
        with self._lock:
            return [e for e in self.items if isinstance(e, kind)]

    def text(self) -> str:
        return "".join(e.text for e in self.of(TextDelta))


class Later:
    """The handle, for hooks that may fire before send() has returned it."""

    def __init__(self) -> None:
        self._handle: Any = None
        self._set = threading.Event()

    def set(self, handle: Any) -> Any:
        self._handle = handle
        self._set.set()
        return handle

    def cancel(self, *_: Any) -> None:
        assert self._set.wait(WAIT)
        self._handle.cancel()


class NoteSkill:
    """A skill that changes things (deletes a note), to test confirmations."""

    name = "delete_note"
    description = "Delete one of the user's notes."
    parameters = {
        "type": "object",
        "properties": {"title": {"type": "string"}},
        "required": ["title"],
    }
    changes_things = True

    def __init__(self) -> None:
        self.deleted: list[str] = []

    def describe_change(self, arguments: dict[str, Any]) -> str:
        return f"Delete the note '{arguments['title']}' for good."

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        self.deleted.append(arguments["title"])
        return SkillResult(f"Deleted '{arguments['title']}'.")


class BlockingSkill(ReadOnlyTool):
    """Runs until released: lets a test cancel while a tool is running."""

    name = "slow_search"
    description = "Search slowly."
    parameters = {"type": "object", "properties": {"q": {"type": "string"}}}

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        self.started.set()
        self.release.wait(WAIT)
        return SkillResult("found nothing")


class BrokenSkill(ReadOnlyTool):
    name = "broken"
    description = "Always fails."
    parameters = {"type": "object", "properties": {"kind": {"type": "string"}}}

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        if arguments.get("kind") == "readable":
            raise SkillError("The index is still being built; try again in a minute.")
        raise KeyError("chunk_id")


class DocSkill(ReadOnlyTool):
    """Returns two citable passages per call, numbered through the turn's counter."""

    name = "search_documents"
    description = "Search the user's documents."
    parameters = {
        "type": "object",
        "properties": {"query": {"type": "string"}},
        "required": ["query"],
    }

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        assert context.next_citation is not None
        sources = [
            Source(
                context.next_citation(),
                f"/docs/{arguments['query']}-{i}.pdf",
                page=i,
                text=f"passage {i}",
            )
            for i in (1, 2)
        ]
        text = "\n".join(f"[{s.citation}] {s.text}" for s in sources)
        return SkillResult(text, sources=sources)


def make(
    runner: ModelRunner, history: HistoryStore, extra: list[Any] | None = None, **settings: Any
) -> Assistant:
    skills: list[Skill] = [*builtin_skills(), *(extra or [])]
    return Assistant(runner, history, skills, Settings(**settings))


def turn(
    assistant: Assistant,
    text: str,
    conversation: str | None = None,
    events: Events | None = None,
    **kwargs: Any,
) -> tuple[Any, Events]:
    events = events or Events()
    kwargs.setdefault("mode", TurnMode(thinking=True))
    handle = assistant.send(conversation, text, on_event=events, **kwargs)
    assert handle.wait(WAIT), "the turn did not finish"
    return handle, events


def roles(history: HistoryStore, conversation: str) -> list[tuple[str, str]]:
    return [(m.role, m.status) for m in history.messages(conversation)]


def test_reasoning_then_answer_is_streamed_stored_and_titled(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(GREETING, "Greeting the assistant")
    handle, events = turn(make(runner, history), "hello there")
    conv = handle.conversation_id
    assert "".join(e.text for e in events.of(ReasoningDelta)).startswith("The user says hello")
    assert events.text() == "Hello! How can I help?"
    started, done = events.of(TurnStarted)[0], events.of(TurnDone)[0]
    assert (
        done.finish_reason == "stop" and done.assistant_message_id == started.assistant_message_id
    )
    assert done.usage["completion_tokens"] > 0
    stored = history.messages(conv)
    assert [(m.role, m.status) for m in stored] == [("user", "complete"), ("assistant", "complete")]
    assert stored[1].content == "Hello! How can I help?"
    assert stored[1].reasoning.startswith("The user says hello")
    assert stored[1].engine == "scripted"
    assert events.of(TitleChanged)[0].title == "Greeting the assistant"
    assert history.get_conversation(conv).title == "Greeting the assistant"  # type: ignore[union-attr]


def test_system_prompt_and_options_sent_to_the_engine(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue("Hi.")
    turn(make(runner, history), "hi", mode=TurnMode(thinking=False, max_tokens=77))
    messages, options = backend.calls[0]
    system = messages[0]["content"]
    assert messages[0]["role"] == "system" and "Hearth" in system
    assert "time zone" in system and "never instructions" in system  # tools go in options
    assert messages[1]["role"] == "user" and messages[1]["content"].startswith("hi\n\n[sent ")
    assert options.enable_thinking is False and options.preserve_thinking is False
    assert options.max_tokens == 77 and options.cache_key
    assert {t["function"]["name"] for t in options.tools} == {"get_current_time", "convert_units"}


def test_bad_title_output_falls_back_to_the_first_words(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(GREETING, "<tool_call>")
    handle, events = turn(make(runner, history), "please plan my trip to Lisbon in May next year")
    assert events.of(TitleChanged)[0].title == "please plan my trip to Lisbon"


def test_one_tool_call_runs_and_its_result_goes_back(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(TIME_CALL, answer("It is evening in Tokyo."))
    handle, events = turn(make(runner, history), "what time is it in Tokyo?")
    conv = handle.conversation_id
    started, finished = events.of(ToolStarted)[0], events.of(ToolFinished)[0]
    assert started.name == "get_current_time" and started.arguments == {"timezone": "Asia/Tokyo"}
    assert finished.ok and "Asia/Tokyo" in finished.text and finished.call_id == started.call_id
    assert events.of(TurnDone)[0].finish_reason == "stop"
    assert roles(history, conv) == [
        ("user", "complete"),
        ("assistant", "complete"),
        ("tool", "complete"),
        ("assistant", "complete"),
    ]
    stored = history.messages(conv)
    assert stored[1].tool_calls == [
        {"id": started.call_id, "name": "get_current_time", "arguments": {"timezone": "Asia/Tokyo"}}
    ]
    assert stored[2].tool_ok is True and stored[2].tool_call_id == started.call_id
    assert stored[3].content == "It is evening in Tokyo."
    second_messages, second_options = backend.calls[1]
    # One thinking rule from the first step to the last (tests/core/test_prompt_reuse.py).
    assert second_options.preserve_thinking is backend.calls[0].options.preserve_thinking
    assert second_messages[-2]["tool_calls"][0]["function"]["arguments"] == {
        "timezone": "Asia/Tokyo"
    }  # a dict, as the template needs
    assert second_messages[-1]["role"] == "tool" and "Asia/Tokyo" in second_messages[-1]["content"]


def test_several_calls_in_one_output_all_run(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(TWO_CONVERSIONS, answer("5 mi is 8.05 km and 212 F is 100 C."))
    handle, events = turn(make(runner, history), "convert 5 miles and 212 F")
    texts = [e.text for e in events.of(ToolFinished)]
    assert texts == ["5 mi = 8.04672 km", "212 F = 100 C"]
    conv = handle.conversation_id
    assert [r for r, _ in roles(history, conv)] == [
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
    ]
    assert len(history.messages(conv)[1].tool_calls) == 2


def test_a_malformed_parameter_goes_back_to_the_model_which_recovers(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(
        BAD_VALUE,
        call("convert_units", value=5, from_unit="mi", to_unit="km"),
        answer("About 8 km."),
    )
    handle, events = turn(make(runner, history), "5 miles in km?")
    first, second = events.of(ToolFinished)
    assert not first.ok and "not valid" in first.text and "value" in first.text
    assert second.ok and second.text == "5 mi = 8.04672 km"
    assert events.of(TurnDone)[0].finish_reason == "stop"
    assert "not valid" in backend.calls[1].messages[-1]["content"]


def test_an_unknown_tool_is_explained_to_the_model(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(NO_SUCH_TOOL, answer("I cannot check the weather."))
    handle, events = turn(make(runner, history), "weather in Paris?")
    finished = events.of(ToolFinished)[0]
    assert not finished.ok and "no tool named 'get_weather'" in finished.text
    assert "convert_units" in finished.text  # tells the model what it can use instead
    assert history.messages(handle.conversation_id)[-1].content == "I cannot check the weather."


def test_skill_failures_become_text_the_model_can_use(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(call("broken", kind="readable"), call("broken", kind="bug"), answer("Sorry."))
    handle, events = turn(make(runner, history, [BrokenSkill()]), "use the broken one")
    readable, bug = events.of(ToolFinished)
    assert (
        readable.text
        == "Error from 'broken': The index is still being built; try again in a minute."
    )
    assert not bug.ok and "KeyError" in bug.text
    assert events.of(TurnDone)[0].finish_reason == "stop"


def test_an_unreadable_tool_call_is_reported_back(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(
        "Hmm.\n</think>\n\n<tool_call>\n<function=convert_units>\n<parameter=value>\n5",
        answer("Let me answer directly: about 8 km."),
    )
    handle, events = turn(make(runner, history), "5 miles?")
    finished = events.of(ToolFinished)[0]
    assert not finished.ok and "could not be read" in finished.text and "cut off" in finished.text
    assert events.of(TurnDone)[0].finish_reason == "stop"


def test_a_turn_that_never_stops_calling_tools_hits_the_step_limit(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    zones = ["Asia/Tokyo", "Europe/Paris", "America/Lima", "Africa/Cairo", "Asia/Dubai"]
    backend.queue(*[call("get_current_time", timezone=zone) for zone in zones])
    handle, events = turn(
        make(runner, history), "loop forever", mode=TurnMode(thinking=True, step_limit=3)
    )
    assert events.of(TurnDone)[0].finish_reason == "step_limit"
    assert len(backend.calls) == 3 + 1  # three steps, then the title
    final = history.messages(handle.conversation_id)[-1]
    assert final.role == "assistant" and "stopped after 3 steps" in final.content
    assert "stopped after 3 steps" in events.text()
    assert len(events.of(ToolFinished)) == 3


def test_the_step_limit_comes_from_settings(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(*[TIME_CALL] * 4)
    handle, events = turn(make(runner, history, step_limit=2), "loop")
    assert len(events.of(ToolFinished)) == 2
    assert events.of(TurnDone)[0].finish_reason == "step_limit"


@pytest.mark.parametrize("approve", [True, False])
def test_changing_things_asks_first(
    approve: bool, runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    note = NoteSkill()
    backend.queue(call("delete_note", title="groceries"), answer("Done." if approve else "OK."))

    def decide(event: ConfirmationNeeded) -> None:
        # The UI answers from its own thread.
        target = event.request.approve if approve else event.request.deny
        threading.Thread(target=target).start()

    events = Events(on={ConfirmationNeeded: decide})
    handle, _ = turn(make(runner, history, [note]), "delete my groceries note", events=events)
    request = events.of(ConfirmationNeeded)[0].request
    assert request.name == "delete_note" and request.description == (
        "Delete the note 'groceries' for good."
    )
    finished = events.of(ToolFinished)[0]
    if approve:
        assert note.deleted == ["groceries"] and finished.ok
    else:
        assert note.deleted == [] and not finished.ok and "declined" in finished.text
        assert "declined" in backend.calls[1].messages[-1]["content"]


@pytest.mark.parametrize("policy", ["approve", "deny"])
def test_headless_policies_answer_confirmations(
    policy: Any, runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    note = NoteSkill()
    backend.queue(call("delete_note", title="x"), answer("ok"))
    handle, events = turn(make(runner, history, [note]), "delete x", confirm=policy)
    assert events.of(ConfirmationNeeded)  # still shown (the CLI prints it)
    assert note.deleted == (["x"] if policy == "approve" else [])


def test_cancel_mid_stream_keeps_the_partial_answer(history: HistoryStore, tmp_path: Path) -> None:
    backend = ScriptedBackend(delay=0.005)
    runner = ModelRunner()
    runner.load(backend).result(WAIT)
    try:
        assistant = make(runner, history)
        words = " ".join(f"word{i}" for i in range(400))
        backend.queue(answer(words))
        later = Later()
        events = Events(on={TextDelta: later.cancel})
        handle = later.set(
            assistant.send(
                None, "tell me a long story", on_event=events, mode=TurnMode(thinking=True)
            )
        )
        assert handle.wait(WAIT)
        assert events.of(TurnDone)[0].finish_reason == "cancelled"
        stored = history.messages(handle.conversation_id)
        assert [(m.role, m.status) for m in stored] == [
            ("user", "complete"),
            ("assistant", "cancelled"),
        ]
        assert stored[1].content and len(stored[1].content) < len(words)
        # No title from the model for a stopped answer, but the chat is named after the
        # user's words rather than left untitled (issue 16, defect 9).
        assert [e.title for e in events.of(TitleChanged)] == ["tell me a long story"]
        assert history.get_conversation(handle.conversation_id).title == "tell me a long story"
    finally:
        runner.close()


def test_cancel_mid_tool_leaves_consistent_history(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    blocking = BlockingSkill()
    backend.queue(call("slow_search", q="taxes"), answer("never sent"))
    events = Events()
    handle = make(runner, history, [blocking]).send(
        None, "find my taxes", on_event=events, mode=TurnMode(thinking=True)
    )
    try:
        assert blocking.started.wait(WAIT)
        handle.cancel()
        assert handle.wait(WAIT)  # at once, while the skill is still stuck
    finally:
        blocking.release.set()
    assert events.of(TurnDone)[0].finish_reason == "cancelled"
    stored = history.messages(handle.conversation_id)
    assert [m.role for m in stored] == ["user", "assistant", "tool"]
    assert stored[1].status == "complete" and stored[1].tool_calls[0]["name"] == "slow_search"
    assert stored[2].tool_call_id == stored[1].tool_calls[0]["id"] and stored[2].tool_ok is False
    assert backend.pending == 1  # the model was not asked again


def test_cancel_while_waiting_for_confirmation_releases_the_turn(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    note = NoteSkill()
    backend.queue(call("delete_note", title="a"))
    later = Later()
    events = Events(
        on={ConfirmationNeeded: lambda e: threading.Thread(target=later.cancel).start()}
    )
    handle = later.set(
        make(runner, history, [note]).send(
            None, "delete a", on_event=events, mode=TurnMode(thinking=True)
        )
    )
    assert handle.wait(WAIT)
    assert events.of(TurnDone)[0].finish_reason == "cancelled" and note.deleted == []
    assert events.of(ConfirmationNeeded)[0].request.approved is False


def test_an_engine_failure_fails_the_turn_readably(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(BackendError("The model ran out of memory."))
    handle, events = turn(make(runner, history), "hello")
    assert events.of(TurnFailed)[0].message == "The model ran out of memory."
    assert roles(history, handle.conversation_id)[-1] == ("assistant", "error")
    assert handle.finish_reason == "error"
    assert history.get_conversation(handle.conversation_id).title == "hello"  # not untitled


def test_sources_get_turn_unique_numbers_and_are_stored(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(
        call("search_documents", query="budget"),
        call("search_documents", query="plan"),
        answer("The budget is 4,000 EUR [1] and the plan is ready [3]."),
    )
    handle, events = turn(make(runner, history, [DocSkill()]), "what is the budget?")
    found = [s.citation for e in events.of(SourcesFound) for s in e.sources]
    assert found == [1, 2, 3, 4]
    final = history.messages(handle.conversation_id)[-1]
    assert [s["citation"] for s in final.sources] == [1, 2, 3, 4]
    assert final.sources[2]["document"] == "/docs/plan-1.pdf"


def test_docs_mode_offers_only_document_skills(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(answer("From your documents: nothing."))
    turn(make(runner, history, [DocSkill()]), "q", mode=TurnMode.docs_only(thinking=True))
    messages, options = backend.calls[0]
    assert [t["function"]["name"] for t in options.tools] == ["search_documents"]
    assert "documents only" in messages[0]["content"]


def test_a_second_turn_continues_the_conversation(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    assistant = make(runner, history)
    backend.queue(GREETING, "Hello", answer("Your name is Ada."))
    first, _ = turn(assistant, "hi, I am Ada")
    second, events = turn(assistant, "what is my name?", conversation=first.conversation_id)
    assert second.conversation_id == first.conversation_id
    sent = backend.calls[-1].messages
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    assert sent[2]["content"] == "Hello! How can I help?"
    assert not events.of(TitleChanged)  # titled once, after the first exchange


def test_regenerate_keeps_the_earlier_answer_and_edit_replaces_the_tail(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    assistant = make(runner, history)
    backend.queue(answer("first"), "Title", answer("second"), answer("third"))
    first, _ = turn(assistant, "question one")
    conv = first.conversation_id
    regen = assistant.regenerate(conv, mode=TurnMode(thinking=True))
    assert regen.wait(WAIT)
    assert [m.content for m in history.messages(conv)] == ["question one", "second"]
    user_id = history.messages(conv)[0].id
    assert history.alternatives(conv) == {user_id: (2, 2)}
    edited = assistant.edit_and_resend(conv, user_id, "question two", mode=TurnMode(thinking=True))
    assert edited.wait(WAIT)
    assert [m.content for m in history.messages(conv)] == ["question two", "third"]
    assert backend.calls[-1].messages[1]["content"].startswith("question two")
    assert history.alternatives(conv) == {}  # the old answers answered other words


def test_regenerating_an_earlier_answer_keeps_what_followed_it_and_the_model_reads_the_choice(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    assistant = make(runner, history)
    backend.queue(answer("Paris."), "Title", answer("Rome."), answer("Lyon."), answer("Next."))
    first, _ = turn(assistant, "a city?")
    conv = first.conversation_id
    assert assistant.send(conv, "another?", mode=TurnMode(thinking=True)).wait(WAIT)
    paris = history.messages(conv)[1]
    assert paris.content == "Paris."
    assert assistant.regenerate(conv, mode=TurnMode(thinking=True),
                                message_id=paris.id).wait(WAIT)
    assert [m.content for m in history.messages(conv)] == ["a city?", "Lyon."]
    question = history.messages(conv)[0].id
    assert history.alternatives(conv) == {question: (2, 2)}

    assistant.select_answer(conv, question, 1)  # back to Paris and the exchange after it
    assert [m.content for m in history.messages(conv)] == ["a city?", "Paris.", "another?",
                                                           "Rome."]
    assert history.alternatives(conv) == {question: (1, 2)}
    assert assistant.send(conv, "and now?", mode=TurnMode(thinking=True)).wait(WAIT)
    sent = [m["content"] for m in backend.calls[-1].messages if m["role"] == "assistant"]
    assert sent == ["Paris.", "Rome."]  # the model reads the answer shown, not "Lyon."
    assert not history.search("Lyon")  # an answer put aside is not found until shown again


def test_a_second_send_to_a_busy_conversation_is_refused(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    blocking = BlockingSkill()
    assistant = make(runner, history, [blocking])
    backend.queue(call("slow_search", q="x"), answer("done"))
    first = assistant.send(None, "slow", mode=TurnMode(thinking=True))
    try:
        assert blocking.started.wait(WAIT)
        events = Events()
        again = assistant.send(first.conversation_id, "are you there?", on_event=events)
        assert again.done and "still being written" in events.of(TurnFailed)[0].message
    finally:
        blocking.release.set()
    assert first.wait(WAIT)


def failure_of(handle: Any, events: Events) -> TurnFailed:
    assert handle.wait(WAIT) and handle.finish_reason == "error"
    (failed,) = events.of(TurnFailed)
    return failed


def test_unknown_conversation_is_a_clear_error(runner: ModelRunner, history: HistoryStore) -> None:
    events = Events()
    failed = failure_of(make(runner, history).send("nope", "hi", on_event=events), events)
    assert failed.kind is FailureKind.BAD_INPUT and "no conversation with id nope" in failed.message
    assert history.list_conversations() == []


def test_a_listener_that_raises_does_not_break_the_turn(
    runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend
) -> None:
    backend.queue(GREETING)

    def bad_listener(event: Any) -> None:
        raise RuntimeError("UI bug")

    handle = make(runner, history).send(
        None, "hi", on_event=bad_listener, mode=TurnMode(thinking=True)
    )
    assert handle.wait(WAIT) and handle.finish_reason == "stop"
    assert history.messages(handle.conversation_id)[-1].status == "complete"


class SlowDisk:
    """The real store behind a gate: writes wait until the test opens it."""

    def __init__(self, history: HistoryStore) -> None:
        self.history = history
        self.gate = threading.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.history, name)

    def create_conversation(self, *args: Any, **kwargs: Any) -> Any:
        assert self.gate.wait(WAIT)
        return self.history.create_conversation(*args, **kwargs)


def test_send_returns_its_handle_before_touching_the_disk(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    backend.queue(GREETING, "Hi")
    disk = SlowDisk(history)
    stored: list[str] = []
    events = Events(on={TurnStarted: lambda e: stored.extend(
        m.content for m in history.messages(e.conversation_id) if m.role == "user")})
    assistant = Assistant(runner, disk, builtin_skills(), Settings())  # type: ignore[arg-type]
    handle = assistant.send(None, "my question", mode=TurnMode(thinking=True), on_event=events)
    assert not handle.done and history.list_conversations() == []  # nothing written yet
    disk.gate.set()
    assert handle.wait(WAIT) and handle.finish_reason == "stop"
    assert stored == ["my question"]  # stored by the time the turn says it started
    assert history.list_conversations()[0].id == handle.conversation_id


def test_editing_or_regenerating_the_wrong_thing_is_refused(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    assistant = make(runner, history)
    backend.queue(GREETING, "Hi")
    first, _ = turn(assistant, "hi")
    conv = first.conversation_id
    reply = history.messages(conv)[-1]
    events = Events()
    assert "Only your own messages" in failure_of(
        assistant.edit_and_resend(conv, reply.id, "changed", on_event=events), events).message
    events = Events()
    assert "No message nope" in failure_of(
        assistant.edit_and_resend(conv, "nope", "changed", on_event=events), events).message
    empty = history.create_conversation().id
    events = Events()
    assert "no message to answer again" in failure_of(
        assistant.regenerate(empty, on_event=events), events).message
    assert assistant.active(conv) is None and assistant.active(empty) is None
    assert [m.content for m in history.messages(conv)] == ["hi", "Hello! How can I help?"]


def test_a_quick_question_waits_visibly_behind_a_long_answer(history: HistoryStore) -> None:
    backend = ScriptedBackend(delay=0.002)
    runner = ModelRunner()
    runner.load(backend).result(WAIT)
    try:
        assistant = make(runner, history)
        story = " ".join(f"line{i}" for i in range(300))
        backend.queue(answer(story), answer("It is 4."), "Story", "Sum")
        first_text = threading.Event()
        long_events = Events(on={TextDelta: lambda e: first_text.set()})
        long_turn = assistant.send(None, "tell me a story", on_event=long_events,
                                   mode=TurnMode(thinking=True))
        assert first_text.wait(WAIT)
        quick_events = Events()
        quick = assistant.send(None, "2+2?", on_event=quick_events, mode=TurnMode(thinking=True))
        assert long_turn.wait(WAIT) and quick.wait(WAIT)
        assert [e.position for e in quick_events.of(Queued)] == [1]
        assert long_events.text() == story and quick_events.text() == "It is 4."
        assert long_events.of(TurnDone)[0].finish_reason == "stop"
        assert quick_events.of(TurnDone)[0].finish_reason == "stop"
    finally:
        runner.close()



def test_the_next_message_can_follow_done_while_the_title_is_written(
        runner: ModelRunner, history: HistoryStore, backend: ScriptedBackend) -> None:
    assistant = make(runner, history)
    # The title and the second answer race for the runner: both outputs suit either request.
    backend.queue(GREETING, "Fine thanks", "Fine thanks")
    follow_up: list[Any] = []
    second_events = Events()

    def on_done(event: TurnDone) -> None:
        # What a UI does: re-enable the composer at TurnDone; the user sends at once.
        follow_up.append(assistant.send(event.conversation_id, "how are you?",
                                        on_event=second_events, mode=TurnMode(thinking=False)))

    first, _ = turn(assistant, "hello", events=Events(on={TurnDone: on_done}))
    assert follow_up and follow_up[0].wait(WAIT)
    assert not second_events.of(TurnFailed)
    assert second_events.text() == "Fine thanks"
    assert history.get_conversation(first.conversation_id).title == "Fine thanks"  # type: ignore[union-attr]


def test_an_empty_message_is_refused(runner: ModelRunner, history: HistoryStore) -> None:
    with pytest.raises(ValueError, match="empty"):
        make(runner, history).send(None, "   ")
    assert history.list_conversations() == []
