"""The streaming XLSX reader gives the values openpyxl's read-only mode gives."""

from __future__ import annotations

import zipfile
from datetime import date, datetime, time
from pathlib import Path

from skills.common.xlsx_cells import Workbook


def openpyxl_rows(path: Path) -> list[list[object]]:
    import openpyxl

    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    rows = [list(r) for r in book.active.iter_rows(values_only=True)]
    book.close()
    return rows


def ours(path: Path) -> list[list[object]]:
    with zipfile.ZipFile(path) as archive:
        book = Workbook(archive)
        grid = book.cells(book.sheets[0], 1000, 10_000).grid
    width = max(len(r) for r in grid)
    return [r + [None] * (width - len(r)) for r in grid]


def test_values_match_openpyxl(tmp_path: Path) -> None:
    import openpyxl
    from openpyxl.cell.rich_text import CellRichText, TextBlock
    from openpyxl.cell.text import InlineFont

    book = openpyxl.Workbook()
    ws = book.active
    ws.append(["text", "int", "float", "bool", "date", "datetime", "pct", "rich", "big"])
    ws.append(["héllo & <b>", 42, 3.25, True, date(2026, 3, 1), datetime(2026, 3, 1, 14, 30),
               0.125, CellRichText(["a", TextBlock(InlineFont(b=True), "b")]), 12345678901234])
    ws["G2"].number_format = "0.0%"
    ws["E2"].number_format = "dd/mm/yyyy"
    ws.append([None, None, "  spaced  ", False])
    ws["C5"] = "after a gap"
    ws["D6"] = time(8, 15)
    path = tmp_path / "types.xlsx"
    book.save(path)
    assert ours(path) == openpyxl_rows(path)


def test_a_1904_workbook_dates(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    book.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904
    book.active.append([datetime(2026, 1, 2)])
    path = tmp_path / "mac.xlsx"
    book.save(path)
    assert ours(path) == openpyxl_rows(path) == [[datetime(2026, 1, 2)]]
