"""The history schema upgrades from a blank file and from every earlier schema, keeping data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlite_utils

from app.core.history import HistoryStore
from app.core.history.schema import MIGRATIONS

# Rows as an early user would have had them; each schema gets the columns it has.
CONVERSATION = {
    "id": "c0ffee",
    "title": "Old chat",
    "created": "2026-01-01T10:00:00.000+00:00",
    "updated": "2026-01-01T10:05:00.000+00:00",
    "pinned": 1,
    "archived": 0,
    "model": "nb",
    "activity": 1,
}
MESSAGES = [
    {"id": "m1", "seq": 1, "role": "user", "content": "Which glacier is longest?"},
    {
        "id": "m2",
        "seq": 2,
        "role": "assistant",
        "content": "The Lambert glacier.",
        "reasoning": "Antarctica",
        "tool_calls": '[{"id": "t", "name": "x", "arguments": {}}]',
        "status": "streaming",
    },
]


def _insert(db: sqlite_utils.Database, table: str, row: dict[str, Any]) -> None:
    columns = {c.name for c in db[table].columns}  # type: ignore[union-attr]
    kept = {k: v for k, v in row.items() if k in columns}
    names = ", ".join(kept)
    db.execute(
        f"insert into {table} ({names}) values ({', '.join('?' for _ in kept)})",
        list(kept.values()),
    )


def _schema_at(path: Path, upto: str) -> set[str]:
    db = sqlite_utils.Database(path)
    MIGRATIONS.apply(db, upto=upto)
    tables = set(db.table_names())
    if "conversations" in tables:
        _insert(db, "conversations", CONVERSATION)
    if "messages" in tables:
        for message in MESSAGES:
            row = {"conversation_id": CONVERSATION["id"], "created": CONVERSATION["created"]}
            _insert(db, "messages", {**row, **message})
    db.conn.commit()
    db.close()
    return tables


def test_blank_database_gets_the_whole_schema(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "hearth.db")
    store.close()
    db = sqlite_utils.Database(tmp_path / "hearth.db")
    assert MIGRATIONS.applied(db) == MIGRATIONS.names
    assert {"conversations", "messages", "messages_fts"} <= set(db.table_names())
    db.close()


def test_reopening_applies_nothing_twice(tmp_path: Path) -> None:
    HistoryStore(tmp_path / "hearth.db").close()
    db = sqlite_utils.Database(tmp_path / "hearth.db")
    assert MIGRATIONS.apply(db) == []
    db.close()


@pytest.mark.parametrize("upto", MIGRATIONS.names)
def test_upgrade_from_each_earlier_schema_keeps_data(tmp_path: Path, upto: str) -> None:
    path = tmp_path / "hearth.db"
    tables = _schema_at(path, upto)
    store = HistoryStore(path)
    try:
        assert MIGRATIONS.applied(store._db.db) == MIGRATIONS.names
        found = store.get_conversation(CONVERSATION["id"])
        assert found is not None and (found.title, found.pinned) == ("Old chat", True)
        # Titles saved before title search existed are searchable, and a rename re-indexes.
        [hit] = store.search("old chat")
        assert (hit.conversation_id, hit.role, hit.snippet) == ("c0ffee", "title", "[[Old]] [[chat]]")
        store.rename("c0ffee", "Ice facts")
        assert store.search("old chat") == []
        assert [h.role for h in store.search("facts")] == ["title"]
        if "messages" not in tables:
            return
        saved = store.messages(CONVERSATION["id"])
        assert [(m.id, m.content) for m in saved] == [(m["id"], m["content"]) for m in MESSAGES]
        assert saved[1].status == "interrupted"  # left streaming by the old version
        assert saved[1].tool_calls[0]["name"] == "x"
        # Search covers messages written before search existed.
        assert sorted(hit.message_id for hit in store.search("glacier")) == ["m1", "m2"]
        assert [hit.message_id for hit in store.search("antarctica")] == ["m2"]
    finally:
        store.close()


def test_a_failing_migration_leaves_no_half_schema(tmp_path: Path) -> None:
    from app.core.history.schema import _atomic
    from skills.common.migrations import Migrations

    steps = Migrations("test")

    @steps
    @_atomic
    def m001_broken(db: sqlite_utils.Database) -> None:
        db.execute("create table half (id integer)")
        raise RuntimeError("power cut")

    db = sqlite_utils.Database(tmp_path / "t.db")
    with pytest.raises(RuntimeError):
        steps.apply(db)
    assert "half" not in db.table_names() and steps.applied(db) == []
    db.close()
