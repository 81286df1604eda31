"""Memory and standing instructions reach every new chat and quick ask, in the system message."""

from __future__ import annotations

from typing import Any

from app.core.assistant import TurnMode
from app.core.memory import MemoryStore
from app.core.settings import Settings
from backends.scripted import ScriptedBackend
from tests.support.model_output import answer_output

WAIT = 20


def _ask(assistant: Any, text: str, conversation: str | None = None, **mode: Any) -> Any:
    handle = assistant.send(conversation, text, mode=TurnMode(thinking=True, **mode),
                            confirm="deny")
    assert handle.wait(WAIT)
    return handle


def _system(backend: ScriptedBackend, call: int = 0) -> str:
    first = backend.calls[call].messages[0]
    assert first["role"] == "system"
    return str(first["content"])


def test_what_do_you_know_about_me_is_answered_from_memory(
        make_assistant: Any, memory: MemoryStore, backend: ScriptedBackend) -> None:
    memory.add("I live in Lyon")
    memory.add("I am allergic to peanuts")
    memory.set_instructions("Always answer in metric.")
    backend.queue(answer_output("From memory.", "You live in Lyon and are allergic to peanuts."),
                  "Where I live")
    _ask(make_assistant(), "What do you know about me?")
    system = _system(backend)
    assert "I live in Lyon" in system and "I am allergic to peanuts" in system
    assert "Always answer in metric." in system
    assert backend.calls[0].messages[-1]["role"] == "user"  # not smuggled in as a chat message


def test_every_new_chat_and_quick_ask_shares_one_prefix_with_the_warm_up(
        make_assistant: Any, memory: MemoryStore, backend: ScriptedBackend) -> None:
    """The warm-up prepares exactly the system message and tools each new chat sends, so the
    saved prefix (memories included) serves all of them."""
    for n in range(50):
        memory.add(f"Fact number {n} about me")
    memory.set_instructions("I'm a nurse on night shifts.")
    assistant = make_assistant()
    warm, options = assistant.prefix_request()
    backend.queue(answer_output("a", "one"), "t1", answer_output("b", "two"), "t2")
    _ask(assistant, "Plan my week.")
    _ask(assistant, "How many cm in an inch?", kind="quick")
    prompts = [c for c in backend.calls if c.options.tools]  # turns, not titles
    assert len(prompts) == 2
    for call in prompts:
        assert call.messages[0] == warm[0]
        assert call.options.tools == options.tools
    assert "Fact number 49 about me" in warm[0]["content"]


def test_a_change_to_memory_changes_the_prefix_of_the_next_chat(
        make_assistant: Any, memory: MemoryStore) -> None:
    assistant = make_assistant()
    before = assistant.prefix_request()[0][0]["content"]
    memory.add("I live in Lyon")
    after = assistant.prefix_request()[0][0]["content"]
    assert before != after and "I live in Lyon" in after
    assert after.startswith(before.split("\n\nWhat you remember")[0])


def test_memory_off_leaves_the_memories_and_tools_out_but_keeps_instructions(
        make_assistant: Any, memory: MemoryStore, settings: Settings,
        backend: ScriptedBackend) -> None:
    memory.add("I live in Lyon")
    memory.set_instructions("Always answer in metric.")
    assistant = make_assistant()
    assert {"remember", "forget_memory"} <= {s.name for s in assistant.skills()}
    settings.memory_enabled = False
    assert not {"remember", "forget_memory"} & {s.name for s in assistant.skills()}
    backend.queue(answer_output("a", "ok"), "t")
    _ask(assistant, "hello")
    system = _system(backend)
    assert "Lyon" not in system and "Always answer in metric." in system


def test_a_turn_stamps_its_memories_as_used(make_assistant: Any, memory: MemoryStore,
                                            backend: ScriptedBackend) -> None:
    kept = memory.add("I live in Lyon")
    assert memory.get(kept.id).last_used == ""
    backend.queue(answer_output("a", "ok"), "t")
    _ask(make_assistant(), "hello")
    assert memory.get(kept.id).last_used >= kept.created
