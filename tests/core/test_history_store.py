"""HistoryStore: conversations and messages saved, listed, updated and deleted as a user expects."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from app.core.history import HistoryError, HistoryStore, NotFound
from backends.errors import FailureKind


def test_every_message_field_round_trips(history: HistoryStore) -> None:
    chat = history.create_conversation("Units")
    call = {"id": "c1", "name": "convert_units", "arguments": {"value": 3, "from": "mi"}}
    source = {"citation": 1, "document": "/docs/a.pdf", "page": 2, "title": "A"}
    answer = history.add_message(
        chat.id,
        "assistant",
        "3 miles is 4.83 km",
        reasoning="miles to km",
        tool_calls=[call],
        sources=[source],
        attachments=["/tmp/x.txt"],
        model="nanbeige-3b",
        engine="llama_cpp",
        prompt_tokens=120,
        cached_prompt_tokens=100,
        completion_tokens=9,
        timings={"ttft_ms": 80.5},
        status="complete",
    )
    tool = history.add_message(
        chat.id, "tool", "4.83", tool_call_id="c1", tool_name="convert_units", tool_ok=False
    )
    saved = history.messages(chat.id)
    assert saved == [answer, tool]
    assert saved[0].tool_calls == [call] and saved[0].sources == [source]
    assert saved[0].timings == {"ttft_ms": 80.5} and saved[0].cached_prompt_tokens == 100
    assert (saved[1].tool_ok, saved[1].tool_name, saved[1].seq) == (False, "convert_units", 2)
    assert history.add_message(chat.id, "user", "hi").tool_ok is None


def test_streamed_answer_is_saved_as_it_grows(history: HistoryStore) -> None:
    chat = history.create_conversation()
    answer = history.add_message(chat.id, "assistant", status="streaming")
    history.update_message(answer.id, content="Hel", reasoning="think")
    assert history.messages(chat.id)[0].content == "Hel"
    history.update_message(answer.id, content="Hello", status="complete", completion_tokens=2)
    final = history.messages(chat.id)[0]
    assert (final.content, final.reasoning, final.status, final.completion_tokens) == (
        "Hello",
        "think",
        "complete",
        2,
    )


def test_reopening_marks_answers_left_streaming_as_interrupted(tmp_path: Path) -> None:
    first = HistoryStore(tmp_path / "hearth.db")
    chat = first.create_conversation()
    done = first.add_message(chat.id, "assistant", "finished")
    cut = first.add_message(chat.id, "assistant", "half an ans", status="streaming")
    first.close()
    again = HistoryStore(tmp_path / "hearth.db")
    statuses = {m.id: (m.status, m.content) for m in again.messages(chat.id)}
    again.close()
    assert statuses == {done.id: ("complete", "finished"), cut.id: ("interrupted", "half an ans")}


def test_list_puts_pinned_first_then_recent_and_hides_archived(history: HistoryStore) -> None:
    old, middle, new = (history.create_conversation(t) for t in ("old", "middle", "new"))
    history.add_message(middle.id, "user", "bump")  # activity makes it the most recent
    history.set_pinned(old.id, True)
    history.set_archived(new.id, True)
    assert [c.title for c in history.list_conversations()] == ["old", "middle"]
    listed = history.list_conversations(include_archived=True)
    assert [c.title for c in listed] == ["old", "middle", "new"]
    assert listed[0].pinned and listed[2].archived
    history.set_pinned(old.id, False)
    history.set_archived(new.id, False)
    assert [c.title for c in history.list_conversations()] == ["middle", "new", "old"]


def test_rename_keeps_one_clean_line(history: HistoryStore) -> None:
    chat = history.create_conversation()
    history.rename(chat.id, "  Trip\nplanning   for May \n")
    found = history.get_conversation(chat.id)
    assert found is not None and found.title == "Trip planning for May"


def test_answer_model_becomes_the_conversations_model(history: HistoryStore) -> None:
    chat = history.create_conversation()
    history.add_message(chat.id, "user", "hi", model="ignored-for-users")
    history.add_message(chat.id, "assistant", "hello", model="nanbeige-mlx")
    found = history.get_conversation(chat.id)
    assert found is not None and found.model == "nanbeige-mlx"


def test_bad_input_is_refused_clearly_and_writes_nothing(history: HistoryStore) -> None:
    chat = history.create_conversation()
    with pytest.raises(HistoryError, match="role must be one of"):
        history.add_message(chat.id, "robot", "x")
    with pytest.raises(HistoryError, match="unknown message field.*colour"):
        history.add_message(chat.id, "user", "x", colour="red")
    with pytest.raises(HistoryError, match="status must be one of"):
        history.add_message(chat.id, "assistant", "x", status="done")
    with pytest.raises(HistoryError, match="JSON"):
        history.add_message(chat.id, "assistant", "x", timings={"t": object()})
    with pytest.raises(HistoryError, match="unknown message field.*seq"):
        history.add_message(chat.id, "user", "x", seq=7)
    with pytest.raises(NotFound, match="no conversation"):
        history.add_message("nope", "user", "x")
    with pytest.raises(NotFound, match="no message"):
        history.update_message("nope", content="x")
    with pytest.raises(NotFound):
        history.rename("nope", "title")
    with pytest.raises(NotFound):
        history.delete_conversation("nope")
    assert history.messages(chat.id) == []
    assert history.get_conversation("nope") is None


def test_delete_messages_after_supports_regenerate(history: HistoryStore) -> None:
    chat = history.create_conversation()
    question = history.add_message(chat.id, "user", "first question")
    history.add_message(chat.id, "assistant", "first answer zebra")
    history.add_message(chat.id, "user", "second")
    history.delete_messages_after(chat.id, question.seq)
    assert [m.content for m in history.messages(chat.id)] == ["first question"]
    assert history.search("zebra") == []
    retry = history.add_message(chat.id, "assistant", "better answer")
    assert retry.seq == question.seq + 1


def test_answers_kept_by_regenerate_come_back_whole_and_go_with_the_chat(
        history: HistoryStore, tmp_path: Path) -> None:
    chat = history.create_conversation()
    question = history.add_message(chat.id, "user", "first question")
    first = history.add_message(chat.id, "assistant", "answer walrus", sources=[{"citation": 1}])
    history.add_message(chat.id, "user", "follow-up")
    assert history.keep_alternative(chat.id, question.id) == 2
    history.add_message(chat.id, "assistant", "answer heron")
    assert history.keep_alternative(chat.id, question.id) == 3
    history.add_message(chat.id, "assistant", "answer crane")
    assert history.alternatives(chat.id) == {question.id: (3, 3)}
    history.select_alternative(chat.id, question.id, 1)
    back = history.messages(chat.id)
    assert [m.content for m in back] == ["first question", "answer walrus", "follow-up"]
    assert back[1].id == first.id and back[1].sources == [{"citation": 1}]
    assert history.search("walrus")[0].message_id == first.id  # shown again: found again
    assert history.alternatives(chat.id) == {question.id: (1, 3)}
    with pytest.raises(NotFound):
        history.select_alternative(chat.id, question.id, 4)
    history.delete_conversation(chat.id)
    raw = sqlite3.connect(tmp_path / "hearth.db")
    assert raw.execute("select count(*) from answer_alternatives").fetchone() == (0,)
    raw.close()
    history.close()
    on_disk = b"".join(p.read_bytes() for p in tmp_path.glob("hearth.db*") if p.is_file())
    for word in (b"walrus", b"heron", b"crane"):  # kept answers are forgotten with the chat
        assert word not in on_disk, word


@pytest.mark.parametrize("checkpointed", [False, True], ids=["in-wal", "in-main-file"])
def test_delete_removes_conversation_messages_and_the_text_on_disk(
    tmp_path: Path, checkpointed: bool
) -> None:
    path = tmp_path / "hearth.db"
    history = HistoryStore(path)
    keep = history.create_conversation("keep")
    history.add_message(keep.id, "user", "ordinary words")
    secret = history.create_conversation("private")
    history.add_message(secret.id, "user", "my password is xylophonequartz")
    answer = history.add_message(secret.id, "assistant", status="streaming")
    for n in range(1, 20):  # streamed versions leave old copies in freed pages and the WAL
        history.update_message(answer.id, content="noted xylophonequartz " * n)
    if checkpointed:  # into the main file, as SQLite's auto-checkpoint does as the WAL grows
        history._conn.execute("pragma wal_checkpoint(truncate)")
    history.delete_conversation(secret.id)
    assert history.get_conversation(secret.id) is None
    assert history.messages(secret.id) == []
    assert history.search("xylophonequartz") == []
    assert [c.title for c in history.list_conversations()] == ["keep"]
    while_open = _bytes_on_disk(path)  # the app keeps running after a delete
    history.close()
    assert b"xylophonequartz" not in while_open
    assert b"xylophonequartz" not in _bytes_on_disk(path)
    assert b"ordinary words" in _bytes_on_disk(path)


def _bytes_on_disk(path: Path) -> bytes:
    """The database with its WAL and shared-memory files."""
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*") if p.is_file())


def test_needs_title_after_the_first_exchange_only(history: HistoryStore) -> None:
    chat = history.create_conversation()
    assert not history.needs_title(chat.id)
    history.add_message(chat.id, "user", "How far is the moon?")
    answer = history.add_message(chat.id, "assistant", "", status="streaming")
    assert not history.needs_title(chat.id)
    history.update_message(answer.id, content="About 384,000 km.", status="complete")
    assert history.needs_title(chat.id)
    history.rename(chat.id, "Distance to the moon")
    assert not history.needs_title(chat.id)
    assert not history.needs_title("nope")


def test_resolve_id_accepts_a_unique_prefix(history: HistoryStore) -> None:
    chat = history.create_conversation()
    assert history.resolve_id(chat.id[:6]) == chat.id
    assert history.resolve_id(chat.id) == chat.id
    with pytest.raises(NotFound):
        history.resolve_id("%")  # LIKE wildcards are plain characters here
    with pytest.raises(NotFound):
        history.resolve_id("zz")


def test_resolve_id_refuses_an_ambiguous_prefix(history: HistoryStore) -> None:
    ids = [history.create_conversation().id for _ in range(17)]  # 17 ids, 16 hex digits: a clash
    first = next(i[0] for i in ids if sum(j[0] == i[0] for j in ids) > 1)
    with pytest.raises(HistoryError, match="matches several conversations"):
        history.resolve_id(first)


def test_database_is_wal_with_foreign_keys_and_shares_the_file(tmp_path: Path) -> None:
    from skills.common.migrations import Migrations

    path = tmp_path / "hearth.db"
    calendar = Migrations("calendar")  # another component keeps its tables in the same file

    @calendar
    def m001_events(db):  # type: ignore[no-untyped-def]
        db.execute("create table events (id integer primary key, title text)")

    history = HistoryStore(path)
    import sqlite_utils

    other = sqlite_utils.Database(path)
    calendar.apply(other)
    other.execute("insert into events (title) values ('dentist')")
    other.conn.commit()
    history.create_conversation("still works")
    assert history._conn.execute("pragma journal_mode").fetchone()[0] == "wal"
    assert history._conn.execute("pragma foreign_keys").fetchone()[0] == 1
    other.close()
    history.close()
    reopened = HistoryStore(path)
    assert [c.title for c in reopened.list_conversations()] == ["still works"]
    reopened.close()


def test_corrupt_file_gives_a_readable_error(tmp_path: Path) -> None:
    path = tmp_path / "hearth.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(HistoryError, match="cannot open history database"):
        HistoryStore(path)


def test_ui_thread_reads_while_worker_streams(history: HistoryStore) -> None:
    chat = history.create_conversation()
    answer = history.add_message(chat.id, "assistant", status="streaming")
    errors: list[BaseException] = []

    def stream() -> None:
        try:
            for n in range(1, 301):
                history.update_message(answer.id, content="x" * n)
            history.update_message(answer.id, status="complete")
        except BaseException as exc:  # noqa: BLE001 - surfaced below; a thread would swallow it
            errors.append(exc)

    writer = threading.Thread(target=stream)
    writer.start()
    lengths = []
    while writer.is_alive():
        lengths.append(len(history.messages(chat.id)[0].content))
        history.list_conversations()
    writer.join()
    assert errors == []
    assert lengths == sorted(lengths)  # readers never see the text go backwards
    final = history.messages(chat.id)[0]
    assert (final.content, final.status) == ("x" * 300, "complete")


def test_closed_store_refuses_further_use(tmp_path: Path) -> None:
    history = HistoryStore(tmp_path / "hearth.db")
    history.close()
    with pytest.raises(sqlite3.ProgrammingError):
        history.list_conversations()


def test_a_database_locked_too_long_is_a_readable_error(tmp_path: Path) -> None:
    history = HistoryStore(tmp_path / "hearth.db", busy_timeout=0.05)
    chat = history.create_conversation("before")
    other = sqlite3.connect(tmp_path / "hearth.db", isolation_level=None)
    other.execute("begin immediate")  # another process in the middle of a long write
    try:
        with pytest.raises(HistoryError, match="database is locked"):
            history.rename(chat.id, "during")
        assert [c.title for c in history.list_conversations()] == ["before"]  # reads still work
    finally:
        other.execute("rollback")
        other.close()
    history.rename(chat.id, "after")
    assert [c.title for c in history.list_conversations()] == ["after"]
    history.close()


def test_a_file_locked_while_it_opens_is_not_taken_for_a_read_only_one(tmp_path: Path) -> None:
    path = tmp_path / "hearth.db"
    HistoryStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("pragma journal_mode = delete")  # as an older build or another tool left it
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("begin immediate")  # another process in the middle of a long write
    other.execute("delete from conversations")
    try:
        with pytest.raises(HistoryError, match="database is locked") as raised:
            HistoryStore(path, busy_timeout=0.05)
        assert raised.value.kind is FailureKind.BUSY
    finally:
        other.execute("rollback")
        other.close()
    history = HistoryStore(path)
    assert not history.read_only
    history.create_conversation("after the lock")
    history.close()


def test_without_a_lock_folder_the_store_still_works(tmp_path: Path) -> None:
    path = tmp_path / "hearth.db"
    (tmp_path / "hearth.db-writers").write_text("a file where the lock folder would go")
    first = HistoryStore(path)
    chat = first.create_conversation()
    cut = first.add_message(chat.id, "assistant", "partial", status="streaming")
    first.close()
    again = HistoryStore(path)
    assert again.get_message(cut.id).status == "interrupted"  # type: ignore[union-attr]
    again.close()
