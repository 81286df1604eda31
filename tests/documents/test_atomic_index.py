"""A full disk while indexing documents: a clear line, and no file listed with passages it lacks."""

from __future__ import annotations

import os
import random
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from skills.documents import DocumentIndex, store
from skills.documents.worker import Limits, ParserPool

ROOT = Path(__file__).resolve().parents[2]


def corpus(folder: Path, files: int = 8) -> list[Path]:
    rng = random.Random(7)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9)))
             for _ in range(4000)]
    folder.mkdir()
    made = []
    for i in range(files):
        path = folder / f"doc{i:02}.txt"
        text = " ".join(rng.choice(words) for _ in range(40000))
        path.write_text(f"marker{i:02} {text}", encoding="utf-8")
        made.append(path)
    return made


def consistent(index_db: Path) -> list[tuple[str, str, int, int]]:
    """Every document row next to the passages it really has."""
    conn = sqlite3.connect(f"file:{index_db}?mode=ro", uri=True)
    try:
        assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"
        return conn.execute(
            "select path, status, chunks, (select count(*) from doc_chunks c"
            " where c.document_id = d.id) from doc_documents d order by path").fetchall()
    finally:
        conn.close()


def docs_add(home: Path, folder: Path, file_limit: int | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:  # the process may not grow any file past file_limit: a full disk
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))
    env = {**os.environ, "HEARTH_HOME": str(home), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", "import signal, sys; "
                           "signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
                           "from app.main import main; sys.exit(main(sys.argv[1:]))",
                           "docs", "add", str(folder)],
                          env=env, capture_output=True, text=True, preexec_fn=limit, check=False)


def check_disk_full_run(home: Path, folder: Path, first: subprocess.CompletedProcess[str]) -> None:
    assert first.returncode in (10, 11), first.stderr  # disk full, or the I/O error it causes
    assert "Traceback" not in first.stderr and len(first.stderr.strip().splitlines()) == 1
    index_db = home / "cache" / "index.db"
    for path, status, claimed, stored in consistent(index_db):
        assert status != "ok" or claimed == stored, path  # never listed with missing passages
    second = docs_add(home, folder)  # space again: everything is indexed, nothing "unchanged"
    assert second.returncode == 0, second.stderr
    rows = consistent(index_db)
    assert len(rows) == 8 and all(s == "ok" and c == n > 0 for _, s, c, n in rows)
    index = DocumentIndex(index_db)
    try:
        for i in range(8):
            assert index.search(f"marker{i:02}"), i
    finally:
        index.close()


def test_a_file_size_limit_mid_run(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    corpus(folder)
    home = tmp_path / "home"
    check_disk_full_run(home, folder, docs_add(home, folder, file_limit=1_500_000))


@pytest.mark.skipif(os.geteuid() != 0 or sys.platform != "linux", reason="mounting needs root")
def test_a_really_full_disk(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    corpus(folder)
    home = tmp_path / "home"
    home.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1500k", "tmpfs", str(home)], check=True)
    try:
        first = docs_add(home, folder)
        subprocess.run(["mount", "-o", "remount,size=64m", str(home)], check=True)
        check_disk_full_run(home, folder, first)
    finally:
        subprocess.run(["umount", "-l", str(home)], check=False)


def test_rows_left_without_their_passages_are_indexed_again(tmp_path: Path) -> None:
    # What an older version (or a crash inside SQLite) could leave: a row that claims passages.
    (folder := tmp_path / "docs").mkdir()
    (folder / "a.txt").write_text("alpha bravo charlie", encoding="utf-8")
    pool = ParserPool(Limits())
    try:
        index = DocumentIndex(tmp_path / "index.db", pool=pool)
        index.add_paths([folder])
        with index.db.conn:
            index.db.execute("delete from doc_fts")
            index.db.execute("delete from doc_chunks")
        index.close()
        reopened = DocumentIndex(tmp_path / "index.db", pool=pool)
        report = reopened.add_paths([folder])
        assert (report.added, report.updated, report.unchanged) == (0, 1, 0)
        assert reopened.search("bravo")
        reopened.close()
    finally:
        pool.close()


def test_seal_refuses_a_document_whose_passages_are_missing(tmp_path: Path) -> None:
    db = store.connect(tmp_path / "index.db")
    with db.conn:
        db.execute("insert into doc_documents (path, status, chunks) values ('/a', 'indexing', 2)")
    with db.conn:
        assert not store.seal(db.conn, 1, "hash", 2)
    assert db.execute("select status, sha256 from doc_documents").fetchone() == ("indexing", "")
    db.conn.close()
