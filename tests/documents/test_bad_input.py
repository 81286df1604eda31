"""Hostile and broken files are recorded with a readable reason and never stop indexing."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from skills.documents import DocumentIndex
from skills.documents.worker import Limits, ParserPool
from tests.documents.corpus import bad_folder


def test_bad_files_are_skipped_with_reasons_and_good_ones_indexed(
    tmp_path: Path, make_index: Callable[..., DocumentIndex]
) -> None:
    expected = bad_folder(tmp_path / "inbox")
    index = make_index()
    report = index.add_paths([tmp_path / "inbox"])
    reasons = {Path(f.path).name: f.reason for f in report.failures}
    for name, word in expected.items():
        assert word in reasons.get(name, ""), (name, reasons.get(name))
    assert report.added == 1
    assert index.search("heron weir")[0].title == "good.pdf"
    assert index.search("private notes") == []  # the link out was not followed
    stored = {Path(f.path).name: f.reason for f in index.failures()}
    assert stored == reasons  # kept for the UI's failures list


def test_known_bad_files_are_not_parsed_again(
    tmp_path: Path, make_index: Callable[..., DocumentIndex], pool: object
) -> None:
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / "truncated.pdf").write_bytes(b"%PDF-1.4\n1 0 obj <<")
    index = make_index()
    index.add_paths([folder])
    parsed_before = len(pool.parsed)  # type: ignore[attr-defined]
    again = index.add_paths([folder])
    assert len(pool.parsed) == parsed_before  # type: ignore[attr-defined]
    assert [Path(f.path).name for f in again.failures] == ["truncated.pdf"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file(tmp_path: Path, make_index: Callable[..., DocumentIndex]) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("hidden")
    secret.chmod(0)
    report = make_index().add_paths([secret])
    assert "permission denied" in report.failures[0].reason


def test_a_file_the_system_refuses_to_open_is_skipped_even_when_running_as_root(
    tmp_path: Path, make_index: Callable[..., DocumentIndex], monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins

    from skills.documents import fscheck

    secret = tmp_path / "secret.txt"
    secret.write_text("hidden")
    (tmp_path / "fine.txt").write_text("gannets")
    real_open = builtins.open

    locked = tmp_path / "locked.txt"
    locked.write_text("also hidden")

    def refuse(file: object, *args: object, **kwargs: object) -> object:
        if str(file) == str(locked):  # what EACCES looks like to a non-root user
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(fscheck.os, "access", lambda path, mode: str(path) != str(secret))
    monkeypatch.setattr(builtins, "open", refuse)  # readable by its mode, refused on open
    report = make_index().add_paths([tmp_path])
    assert sorted((Path(f.path).name, f.reason) for f in report.failures) == [
        ("locked.txt", "cannot read file: permission denied"),
        ("secret.txt", "cannot read file: permission denied"),
    ]
    assert report.added == 1


def test_a_parser_that_hangs_is_stopped_and_the_worker_replaced() -> None:
    pool = ParserPool(Limits(seconds=1.0), target="tests.documents.hostile:hang")
    try:
        outcome = pool.parse("stuck")
        assert outcome.error is not None and "longer than 1 s" in outcome.error.words
        assert pool.parse("now ok").value == "fine"
    finally:
        pool.close()


def test_a_parser_that_allocates_without_end_hits_the_memory_limit() -> None:
    limits = Limits(memory_bytes=1024**3, seconds=30)
    pool = ParserPool(limits, target="tests.documents.hostile:allocate")
    try:
        outcome = pool.parse("x")
        assert outcome.error is not None and "memory" in outcome.error.words
    finally:
        pool.close()


def test_a_crashing_parser_is_reported_and_the_next_file_still_parses() -> None:
    pool = ParserPool(Limits(seconds=30), target="tests.documents.hostile:crash")
    try:
        outcome = pool.parse("boom")
        assert outcome.error is not None and "crashed" in outcome.error.words
        assert pool.parse("then ok").value == "fine"
    finally:
        pool.close()


def test_a_large_real_spreadsheet_is_not_mistaken_for_a_bomb(tmp_path: Path) -> None:
    from skills.documents.parsers import check_zip, parse_file
    from tests.documents.corpus import write_xlsx

    rows: list[list[object]] = [["Invoice", "Amount", "Client"]]
    rows += [[f"INV-{i:05d}", 500, "Client A"] for i in range(7_000)]  # ~1.2 MB of sheet XML
    book = write_xlsx(tmp_path / "ledger.xlsx", {"Ledger": rows})
    check_zip(book)
    assert len(parse_file(str(book)).sections[0].lines) == 7_000


def test_closing_never_waits_for_a_parse_and_does_not_blame_the_file(tmp_path: Path) -> None:
    """Quitting (or Ctrl+C on `hearth docs watch`) while a slow file parses: the index closes
    at once, the file is not recorded as failed, and it is read again next time."""
    import threading

    from tests.documents.conftest import wait_for

    slow = tmp_path / "slow.txt"
    slow.write_text("a file whose parser takes its time")
    pool = ParserPool(Limits(seconds=3600), target="tests.documents.hostile:hang_visibly")
    index = DocumentIndex(tmp_path / "index.db", pool=pool)
    adding = threading.Thread(target=index.add_paths, args=([slow],))
    adding.start()
    wait_for(lambda: (tmp_path / "slow.txt.parsing").exists(), timeout=300)
    pool.close()  # what DocumentIndex.close does first for a pool it owns
    index.close()
    adding.join(timeout=300)
    assert not adding.is_alive()  # it did not sit out the hour-long limit
    again = DocumentIndex(tmp_path / "index.db")
    try:
        assert again.failures() == []
        assert [Path(p).name for p, _s, _r in again._indexer.pending()] == ["slow.txt"]
    finally:
        again.close()


def test_ctrl_c_in_the_terminal_does_not_stop_the_parser_worker() -> None:
    import signal

    pool = ParserPool(Limits(seconds=30), target="tests.documents.hostile:hang")
    try:
        assert pool.parse("first ok").value == "fine"
        os.kill(pool._process.pid, signal.SIGINT)  # the terminal signals the whole group
        assert pool.parse("second ok").value == "fine"
        assert pool._process.is_alive()
    finally:
        pool.close()
