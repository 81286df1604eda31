"""Damaged state: index.db is moved aside and rebuilt; hearth.db is read, recovered, never lost."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from app.core.history import HistoryStore
from app.core.paths import Paths
from app.main import main
from skills.documents import DocumentIndex
from skills.index_health import problem
from tests.support.model_output import answer
from tests.support.scripted_cli import script_file


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def indexed_home(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Paths, Path]:
    folder = tmp_path / "papers"
    folder.mkdir()
    for i in range(30):
        (folder / f"paper{i}.txt").write_text(f"granite orchard number {i} " * 400)
    assert run(capsys, "docs", "add", str(folder))[0] == 0
    assert run(capsys, "files", "add-root", str(folder))[0] == 0
    return Paths.from_env(), folder


def aside_files(paths: Paths) -> list[Path]:
    return sorted(p for p in paths.cache.glob("index.db.damaged-*")
                  if not p.name.endswith(("-wal", "-shm")))


@pytest.mark.parametrize("damage", ["random", "truncated", "foreign"])
def test_a_damaged_or_foreign_index_is_set_aside_and_its_documents_queued(
        damage: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths, folder = indexed_home(tmp_path, capsys)
    index_db = paths.index_db
    sqlite3.connect(index_db).execute("pragma wal_checkpoint(truncate)").close()
    original = index_db.read_bytes()
    if damage == "random":
        index_db.write_bytes(os.urandom(len(original)))
    elif damage == "truncated":
        index_db.write_bytes(original[: len(original) // 2])
    else:
        index_db.unlink()
        other = sqlite3.connect(index_db)
        other.execute("create table photos (id integer primary key, caption text)")
        other.commit()
        other.close()
    for command in (["docs", "status"], ["files", "status"], ["ask", "hi", "--engine",
                                                              "scripted", "--script",
                                                              script_file(tmp_path, answer("Hi."))]):
        code, _, err = run(capsys, *command)
        assert code == 0, (command, err)
    (moved,) = aside_files(paths)  # set aside once, kept for inspection, never deleted
    assert moved.stat().st_size > 0
    assert problem(index_db) is None
    rebuilt = DocumentIndex(index_db)
    try:
        queued = rebuilt.resume_pending()
        # Random bytes and another program's file hold nothing to salvage; a file cut in
        # half loses its schema pages (SQLite then reads nothing): folders rebuild it all.
        assert queued.added == 0
    finally:
        rebuilt.close()


def test_the_notice_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths, _ = indexed_home(tmp_path, capsys)
    paths.index_db.write_bytes(b"not a database at all" * 100)
    code, _, err = run(capsys, "docs", "status")
    assert code == 0
    (line,) = err.strip().splitlines()
    assert line.startswith("hearth: the search index was not a SQLite database; it was moved to")


def damaged_history(tmp_path: Path) -> tuple[Path, int]:
    path = Paths.from_env().ensure().history_db
    store = HistoryStore(path)
    for i in range(60):
        conversation = store.create_conversation(f"Trip {i}")
        for j in range(5):
            store.add_message(conversation.id, "user", f"pack boots {i}.{j} " * 50)
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("pragma wal_checkpoint(truncate)")
    pages = conn.execute("pragma page_count").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for number in range(pages // 2, pages // 2 + 3):  # three pages in the middle: garbage
        data[number * page:(number + 1) * page] = os.urandom(page)
    path.write_bytes(bytes(data))
    return path, pages


def test_a_damaged_history_is_recovered_into_a_new_file_and_the_original_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = damaged_history(tmp_path)
    damaged = path.read_bytes()
    code, out, err = run(capsys, "history", "list")
    assert code == 0 or (len(err.strip().splitlines()) == 1 and "history recover" in err)
    assert path.read_bytes() == damaged  # reading never writes to a damaged file
    code, out, err = run(capsys, "history", "recover")
    assert code == 0, err
    assert "recovered" in out and "kept as" in out
    (kept,) = path.parent.glob("hearth.damaged-*.db")
    assert kept.read_bytes() == damaged
    store = HistoryStore(path)
    try:
        conversations = store.list_conversations()
        assert len(conversations) > 30  # most of the 60 survive three damaged pages
        assert store.search("boots")
    finally:
        store.close()
    assert run(capsys, "history", "recover")[1].startswith(str(path) + " passes")


def test_recover_refuses_while_hearth_has_the_history_open(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = Paths.from_env().ensure().history_db
    live = HistoryStore(path)  # as the window would hold it
    try:
        code, _, err = run(capsys, "history", "recover", "--force")
        assert code == 9 and "close it before recovering" in err
        assert not list(path.parent.glob("hearth.damaged-*"))
    finally:
        live.close()
