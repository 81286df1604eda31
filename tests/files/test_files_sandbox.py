"""File search parses documents in the documents' limited worker: a bomb costs its content only."""

from __future__ import annotations

import os
from pathlib import Path

import openpyxl

from skills.documents.worker import Limits, ParserPool
from skills.files import FileIndex, content
from tests.files.files_helpers import write


def xlsx_bomb(path: Path) -> Path:
    """A few KB claiming a sheet out to XFD1048576: 17 billion empty cells to walk."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"] = "start"
    sheet["XFD1048576"] = "end"
    book.save(path)
    return path


def test_a_spreadsheet_bomb_is_read_as_the_cells_it_stores(tmp_path: Path) -> None:
    """Its two cells are indexed at once: the 17 billion it claims are never walked (the time
    limit, a minute here, would stop that; a busy machine reads two cells well within it)."""
    root = tmp_path / "home"
    root.mkdir()
    bomb = xlsx_bomb(root / "budget.xlsx")
    write(root / "notes.txt", "the walrus budget")
    good = openpyxl.Workbook()
    good.active["A1"] = "quarterly pineapple"
    good.save(root / "fruit.xlsx")
    pool = ParserPool(Limits(max_bytes=content.PARSE_SIZE_CAP, seconds=60,
                             memory_bytes=1024 ** 3), content.PARSE_TARGET)
    index = FileIndex(tmp_path / "index.db", roots=[str(root)], pool=pool)
    try:
        report = index.scan()
        assert report.seen == 3
        assert [h.name for h in index.search("walrus")] == ["notes.txt"]
        assert [h.name for h in index.search("pineapple")] == ["fruit.xlsx"]
        assert {h.name for h in index.search("budget")} == {"budget.xlsx", "notes.txt"}
        assert [h.name for h in index.search("start")] == ["budget.xlsx"]
        assert [h.name for h in index.search("end")] == ["budget.xlsx"]
        assert os.path.getsize(bomb) < 10_000
    finally:
        index.close()
        pool.close()


def test_a_fifo_named_like_a_document_never_blocks_the_scan(tmp_path: Path) -> None:
    root = tmp_path / "home"
    root.mkdir()
    os.mkfifo(root / "report.pdf")
    write(root / "notes.txt", "walrus")
    index = FileIndex(tmp_path / "index.db", roots=[str(root)])
    try:
        index.scan()
        assert [h.name for h in index.search("walrus")] == ["notes.txt"]
    finally:
        index.close()
