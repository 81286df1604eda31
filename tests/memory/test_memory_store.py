"""The memory store in hearth.db: facts and standing instructions, kept across restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.history import HistoryStore
from app.core.memory import MemoryStore, UnknownMemory
from app.core.memory.store import MAX_TEXT


def test_memories_and_instructions_survive_a_restart(db: Path) -> None:
    store = MemoryStore(db)
    first = store.add("  I live in   Lyon ")
    store.add("My daughter is called Mia", source="conv-1")
    store.set_instructions("Always answer in metric.")
    store.close()
    again = MemoryStore(db)
    kept = again.entries()
    assert [(m.id, m.text, m.source) for m in kept] == [
        (first.id, "I live in Lyon", "typed"), (first.id + 1, "My daughter is called Mia",
                                                "conv-1")]
    assert kept[0].created and kept[0].last_used == ""
    assert again.instructions() == "Always answer in metric."
    again.close()


def test_search_edit_and_delete(memory: MemoryStore) -> None:
    memory.add("I live in Lyon")
    nurse = memory.add("I am a nurse on night shifts")
    assert [m.text for m in memory.entries("NURSE")] == ["I am a nurse on night shifts"]
    assert memory.edit(nurse.id, "I am a nurse on day shifts").text == "I am a nurse on day shifts"
    assert memory.delete(nurse.id).text == "I am a nurse on day shifts"
    with pytest.raises(UnknownMemory):
        memory.delete(nurse.id)
    assert [m.text for m in memory.entries()] == ["I live in Lyon"]
    assert memory.delete_all() == 1 and memory.entries() == []


def test_an_id_is_never_given_again(memory: MemoryStore) -> None:
    """The model may say "forget 2" about a memory already gone: it must not hit a newer one."""
    gone = memory.add("old fact")
    memory.delete(gone.id)
    assert memory.add("new fact").id != gone.id


def test_bad_input_is_refused_and_nothing_is_stored(memory: MemoryStore) -> None:
    with pytest.raises(ValueError, match="empty"):
        memory.add(" \n ")
    with pytest.raises(ValueError, match=str(MAX_TEXT)):
        memory.add("x" * (MAX_TEXT + 1))
    with pytest.raises(UnknownMemory):
        memory.edit(99, "anything")
    assert memory.entries() == []


def test_what_a_chat_taught_is_found_by_its_id(memory: MemoryStore,
                                               history: HistoryStore) -> None:
    chat = history.create_conversation("Garden")
    taught = memory.add("I grow tulips", source=chat.id)
    memory.add("I live in Lyon")
    assert memory.from_source(chat.id) == [taught]
    assert memory.delete_many([taught.id]) == 1 and memory.from_source(chat.id) == []


def test_clearing_the_instructions(memory: MemoryStore) -> None:
    memory.set_instructions("Answer in metric.")
    assert memory.set_instructions("   ") == "" and memory.instructions() == ""


def test_history_recover_keeps_memories_and_instructions(db: Path,
                                                         history: HistoryStore) -> None:
    """`hearth history recover` rebuilds hearth.db table by table: memory comes along, and
    ids still never repeat."""
    from app.core.recovery import recover

    store = MemoryStore(db)
    store.add("I live in Lyon")
    store.delete(store.add("gone").id)
    store.set_instructions("Answer in metric.")
    store.close()
    copy = recover(db, install=False).copy
    again = MemoryStore(copy)
    try:
        assert [m.text for m in again.entries()] == ["I live in Lyon"]
        assert again.instructions() == "Answer in metric."
        assert again.add("new").id == 3
    finally:
        again.close()
