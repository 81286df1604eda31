"""Rows to CSV or XLSX bytes (bold frozen header, fitted column widths), and reading them back."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime
from typing import Any

from skills.office import columns

MAX_WIDTH = 60


def typed_rows(header: list[str], rows: list[list[Any]]) -> list[list[Any]]:
    """Numbers written as text become numbers and ISO dates become dates, per column, so the
    spreadsheet can sum and sort them; other columns stay as they are."""
    kinds = [columns.infer([r[i] for r in rows]) for i in range(len(header))]
    out: list[list[Any]] = []
    for row in rows:
        cells: list[Any] = []
        for kind, value in zip(kinds, row, strict=False):
            if value is None:
                cells.append(None)
            elif kind in ("integer", "real"):
                cells.append(columns.number_of(value))
            elif kind == "date":
                found = columns.date_of(value)
                cells.append(found.date() if found and found.time() == datetime.min.time()
                             else found)
            else:
                cells.append(value)
        out.append(cells)
    return out


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet may run as a formula at the start of a CSV cell (OWASP's list)."""


def csv_bytes(header: list[str], rows: list[list[Any]]) -> bytes:
    """UTF-8 with a BOM: Excel then opens Chinese and accented text correctly. Text that a
    spreadsheet would run (=HYPERLINK, =DDE, @SUM, +1, -1) is written quoted behind an
    apostrophe, OWASP's rule; numbers stay numbers."""
    lines = [_csv_line([_csv_text(v) for v in header])]
    lines += [_csv_line(["" if v is None else _csv_text(v) for v in row]) for row in rows]
    return "".join(lines).encode("utf-8-sig")


def _csv_text(value: object) -> str:
    if isinstance(value, str):
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    return columns.display_text(value)  # a number's "-5" is a number, not a formula


def _csv_line(fields: list[str]) -> str:
    """One CSV record as csv.writer writes it, except that protected cells are always quoted."""
    if fields == [""]:
        return '""\r\n'
    return ",".join(
        '"' + f.replace('"', '""') + '"'
        if f.startswith("'") and f[1:].startswith(FORMULA_STARTS) or any(
            ch in f for ch in ',"\r\n') else f for f in fields) + "\r\n"


def xlsx_bytes(header: list[str], rows: list[list[Any]], sheet: str = "Sheet1") -> bytes:
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    book = Workbook(write_only=True)
    ws = book.create_sheet(safe_sheet_name(sheet))
    widths = [len(str(h)) for h in header]
    for row in rows[:2000]:  # widths from the first rows: enough to fit, cheap on big sheets
        for i, value in enumerate(row[: len(widths)]):
            widths[i] = max(widths[i], len(columns.display_text(value)) if value is not None else 0)
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = min(MAX_WIDTH, max(8, width + 2))
    ws.freeze_panes = "A2"
    bold, fill = Font(bold=True), PatternFill("solid", fgColor="DDE4EE")
    cells = []
    for name in header:
        cell = WriteOnlyCell(ws, value=columns.xml_safe(str(name)))
        cell.font, cell.fill = bold, fill
        cell.alignment = Alignment(vertical="center")
        cells.append(cell)
    ws.append(cells)
    for row in rows:
        ws.append([_excel_value(v, ws) for v in row])
    if header:
        ws.auto_filter.ref = f"A1:{get_column_letter(len(header))}{len(rows) + 1}"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _excel_value(value: object, ws: object) -> Any:
    if isinstance(value, str):
        value = columns.xml_safe(value)
    if isinstance(value, (datetime, date)):
        from openpyxl.cell import WriteOnlyCell

        cell = WriteOnlyCell(ws, value=value)
        cell.number_format = "yyyy-mm-dd" if not isinstance(value, datetime) or \
            value.time() == datetime.min.time() else "yyyy-mm-dd hh:mm"
        return cell
    if isinstance(value, str) and value.startswith(("=", "+", "-", "@")) and len(value) > 1:
        # Text from a CSV or the model that looks like a formula is kept as text, never run.
        from openpyxl.cell import WriteOnlyCell

        cell = WriteOnlyCell(ws, value=value)
        cell.data_type = "s"
        return cell
    return value


def safe_sheet_name(name: str) -> str:
    cleaned = "".join("_" if ch in '[]:*?/\\' else ch for ch in name).strip("'") or "Sheet1"
    return cleaned[:31]


def csv_counts(path: str) -> dict[str, int]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    return {"rows": max(0, len(rows) - 1), "columns": len(rows[0]) if rows else 0}


def xlsx_counts(path: str) -> dict[str, int]:
    from openpyxl import load_workbook

    book = load_workbook(path, read_only=True)
    try:
        ws = book.worksheets[0]
        rows = list(ws.iter_rows(values_only=True))
    finally:
        book.close()
    return {"rows": max(0, len(rows) - 1), "columns": len(rows[0]) if rows else 0}
