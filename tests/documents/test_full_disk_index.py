"""After a full disk, index.db is judged by SQLite, not by its header: a file a cut-short
checkpoint left shorter than its header says (every page still in the -wal) is kept with its
queue; a really damaged one is set aside and its queue goes to the new file."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from skills.index_health import problem, set_aside_if_damaged
from tests.support.full_disk import fill, small_tmpfs


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    with small_tmpfs(tmp_path / "disk", 6) as mount:
        yield mount


def checkpoint_cut_by_a_full_disk(path: Path, queued: int) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.execute("pragma journal_mode = wal")
    conn.execute("pragma wal_autocheckpoint = 0")
    conn.execute("create table doc_documents (id integer primary key, path text, "
                 "in_library integer)")
    conn.execute("create table doc_queue (path text, scope text, root text)")
    conn.execute("create table filler (x)")
    conn.commit()
    conn.execute("pragma wal_checkpoint(truncate)")
    with conn:
        conn.executemany("insert into filler values (?)", [(os.urandom(1000),)] * 2500)
        conn.executemany("insert into doc_queue values (?, '', '/r')",
                         [(f"/r/doc{i}.txt",) for i in range(queued)])
    fill(path.with_name("filler"))
    with pytest.raises(sqlite3.OperationalError, match="full"):
        conn.execute("pragma wal_checkpoint(truncate)")
    return conn


def test_a_healthy_index_after_a_full_disk_is_kept_with_its_queue(small_disk: Path) -> None:
    index = small_disk / "index.db"
    conn = checkpoint_cut_by_a_full_disk(index, 384)
    try:
        assert problem(index) is None
        assert set_aside_if_damaged(index) is None and index.exists()
        reader = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
        assert reader.execute("select count(*) from doc_queue").fetchone()[0] == 384
        reader.close()
    finally:
        conn.close()


def test_a_really_damaged_one_is_set_aside_and_its_queue_goes_on(tmp_path: Path) -> None:
    index = tmp_path / "index.db"
    conn = sqlite3.connect(index)
    conn.execute("create table doc_documents (id integer primary key, path text, "
                 "in_library integer)")
    conn.execute("create table filler (x)")
    conn.execute("create table doc_queue (path text, scope text, root text)")
    with conn:
        conn.executemany("insert into filler values (?)", [(os.urandom(1000),)] * 500)
        conn.executemany("insert into doc_queue values (?, '', '/r')",
                         [(f"/r/doc{i}.txt",) for i in range(384)])
    conn.close()
    with index.open("r+b") as handle:  # one page of the filler table becomes noise
        handle.seek(40 * 4096)
        handle.write(os.urandom(4096))
    aside = set_aside_if_damaged(index)
    assert aside is not None and "damaged" in aside.reason.words
    assert {d for d in aside.documents} >= {(f"/r/doc{i}.txt", "") for i in range(384)}
