"""index.db is shared with the file index: our schema is one named migration component."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils

from skills.common.migrations import Migrations
from skills.documents import store


def test_documents_and_files_components_share_index_db(tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    other = Migrations("files")

    @other
    def m001_files(db: sqlite_utils.Database) -> None:
        db.execute("create table files (path text primary key)")

    db = sqlite_utils.Database(sqlite3.connect(str(path)))
    other.apply(db)
    db.execute("insert into files values ('/x')")
    db.conn.commit()
    ours = store.connect(path)
    ours_again = store.connect(path)  # a second process opening it: nothing re-runs
    assert ours.execute("pragma journal_mode").fetchone()[0] == "wal"
    assert store.migrations.applied(ours) == store.migrations.names
    assert other.applied(ours) == ["m001_files"]
    assert ours.execute("select path from files").fetchall() == [("/x",)]
    for conn in (ours.conn, ours_again.conn, db.conn):
        conn.close()


def test_query_text_is_never_fts_syntax() -> None:
    expression = store.match_expression('budget" OR title:* NEAR( -x AND')
    assert expression.startswith('text : ("budget"')
    assert '"near"' in expression  # quoted words, not operators


def test_an_index_from_the_first_release_upgrades_in_place(tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    old = sqlite_utils.Database(sqlite3.connect(str(path)))
    assert store.migrations.apply(old, upto="m001_documents") == ["m001_documents"]
    old.execute("insert into doc_documents (path, title) values ('/d/a.pdf', 'a.pdf')")
    old.conn.commit()
    old.conn.close()
    db = store.connect(path)
    assert store.migrations.applied(db) == store.migrations.names
    assert db.execute("select title from doc_documents").fetchall() == [("a.pdf",)]
    assert "doc_queue" in db.table_names()
    db.conn.close()


def test_reasons_stored_as_english_sentences_are_read_into_codes_once(tmp_path: Path) -> None:
    """An index written before reasons were codes: its sentences become codes on upgrade, so a
    Chinese window can word them; a sentence no code matches is kept as it was."""
    from skills.documents.skips import Skip, SkipWhy

    path = tmp_path / "index.db"
    old = sqlite_utils.Database(sqlite3.connect(str(path)))
    store.migrations.apply(old, upto="m002_queue")
    for name, sentence in [("a.pdf", "damaged or unreadable PDF file: EOF marker not found"),
                           ("b.txt", "too large (250 MB; the limit is 200 MB)"),
                           ("c.txt", "something a later version said")]:
        old.execute("insert into doc_documents (path, status, error) values (?, 'failed', ?)",
                    [f"/d/{name}", sentence])
    old.conn.commit()
    old.conn.close()
    db = store.connect(path)
    rows = db.execute("select path, skip_code, skip_details from doc_documents order by path")
    found = {p: Skip.stored(code, details) for p, code, details in rows.fetchall()}
    assert found == {
        "/d/a.pdf": Skip(SkipWhy.DAMAGED, ("PDF", "EOF marker not found")),
        "/d/b.txt": Skip(SkipWhy.TOO_LARGE, ("250 MB", "200 MB")),
        "/d/c.txt": Skip(SkipWhy.OTHER, ("something a later version said",)),
    }
    assert found["/d/a.pdf"].words == "damaged or unreadable PDF file: EOF marker not found"
    db.conn.close()
