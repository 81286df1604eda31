"""Read the sheets of a workbook or CSV as a header and rows, within limits on size and rows."""

from __future__ import annotations

import csv
import io
import os
import re
import zipfile
from dataclasses import dataclass, field
from typing import Any

from skills.base import SkillError
from skills.common.limits import LIMITS
from skills.documents.parsers import ParseError, check_zip
from skills.office.textcsv import decode_csv

SHEET_KINDS = {".xlsx": "xlsx", ".xlsm": "xlsx", ".csv": "csv", ".tsv": "csv"}
HEADER_SCAN_ROWS = 15


@dataclass(frozen=True)
class Limits:
    """Per load: file size first, then rows per sheet and cells in all (memory stays bounded);
    the defaults are Hearth's limits table (skills/common/limits.py)."""

    max_bytes: int = 200_000_000
    max_rows: int = LIMITS.sheet_rows
    max_cells: int = LIMITS.sheet_cells


@dataclass
class Sheet:
    """One sheet: `header` names the columns, `rows` are the data rows below it, cells as read
    (str, int, float, datetime, bool or None); merged areas carry their top-left value."""

    source: str
    name: str
    header_row: int  # 1-based row number of the header in the file (0: no header found)
    header: list[str]
    rows: list[list[Any]]
    used_range: str = ""
    merged: int = 0
    formulas: int = 0
    external_links: int = 0
    truncated: bool = False  # more rows than the limit: only the first max_rows are here
    stated_rows: int = 0  # the rows the file says it has (xlsx dimension), for the message
    notes: list[str] = field(default_factory=list)


def sheet_kind(path: str) -> str:
    kind = SHEET_KINDS.get(os.path.splitext(path)[1].lower())
    if kind is None:
        raise SkillError(f"{os.path.basename(path)}: not a workbook or CSV (.xlsx, .xlsm, .csv)")
    return kind


def load_sheets(path: str, limits: Limits | None = None, only: str | None = None) -> list[Sheet]:
    """Every sheet of the file (or the one named `only`); SkillError with a reason on bad input."""
    limits = limits or Limits()
    kind = sheet_kind(path)
    size = os.path.getsize(path)
    if size > limits.max_bytes:
        raise SkillError(f"{os.path.basename(path)} is {size / 1e6:.0f} MB; the limit is"
                         f" {limits.max_bytes / 1e6:.0f} MB")
    try:
        if kind == "csv":
            return [_load_csv(path, limits)]
        return _load_xlsx(path, limits, only)
    except (SkillError, MemoryError):
        raise
    except ParseError as exc:
        raise SkillError(f"{os.path.basename(path)}: {exc}") from exc
    except Exception as exc:  # every library raises its own types; the reason is what matters
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        raise SkillError(f"{os.path.basename(path)}: damaged or unreadable file ({first})") from exc


# --- CSV --------------------------------------------------------------------------------------


def _load_csv(path: str, limits: Limits) -> Sheet:
    with open(path, "rb") as handle:
        data = handle.read()
    text, notes = decode_csv(data)
    sample = text[:65536]
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel_tab if path.lower().endswith(".tsv") else csv.excel
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    grid: list[list[Any]] = []
    truncated = False
    width = cut = 0
    for row in reader:
        cut += max(0, len(row) - LIMITS.sheet_columns)
        width = max(width, min(len(row), LIMITS.sheet_columns))
        # as wide as its widest row once padded: the limit is on that, not on what is stored
        if len(grid) >= limits.max_rows + HEADER_SCAN_ROWS or (len(grid) + 1) * width > \
                limits.max_cells:
            truncated = True
            break
        grid.append([cell if cell != "" else None for cell in row[:LIMITS.sheet_columns]])
    name = os.path.splitext(os.path.basename(path))[0]
    sheet = _from_grid(path, name, grid, limits)
    sheet.truncated = sheet.truncated or truncated
    sheet.notes += notes
    if cut:
        sheet.notes.append(f"{cut} cells right of column {column_letter(LIMITS.sheet_columns)}"
                           " (Hearth's sheet_columns limit) were left out")
    width = max((len(r) for r in grid), default=0)
    sheet.used_range = f"A1:{column_letter(width)}{len(grid)}" if grid else ""
    return sheet


# --- XLSX -------------------------------------------------------------------------------------


def _load_xlsx(path: str, limits: Limits, only: str | None) -> list[Sheet]:
    from skills.common.xlsx_cells import Workbook

    check_zip_file(path)
    with zipfile.ZipFile(path) as archive:
        book = Workbook(archive)
        names = [s.name for s in book.sheets]
        wanted = book.sheets
        if only is not None:
            wanted = [s for s in book.sheets if s.name == only]
            if not wanted:
                raise SkillError(f"{os.path.basename(path)} has no sheet {only!r}; its sheets:"
                                 f" {', '.join(names)}")
        externals = sum(1 for n in book.names
                        if n.startswith("xl/externalLinks/") and n.endswith(".xml"))
        sheets = []
        budget = limits.max_cells
        for ref in wanted:
            if not ref.member:
                sheets.append(Sheet(path, ref.name, 0, [], [], notes=["a chart sheet: no cells"]))
                continue
            cells = book.cells(ref, limits.max_rows + HEADER_SCAN_ROWS, budget)
            sheet = _from_grid(path, ref.name, cells.grid, limits, cells.merged)
            sheet.truncated = sheet.truncated or cells.truncated
            sheet.merged, sheet.formulas = len(cells.merged), cells.formulas
            sheet.stated_rows, sheet.external_links = cells.stated_rows, externals
            sheet.used_range = _used_range(cells.grid)
            if cells.cut_cells:
                sheet.notes.append(f"{cells.cut_cells} cells right of column "
                                   f"{column_letter(LIMITS.sheet_columns)} (Hearth's "
                                   "sheet_columns limit) were left out")
            budget -= sum(len(r) for r in sheet.rows)
            sheets.append(sheet)
        return sheets


def check_zip_file(path: str) -> None:
    """The documents parser's zip-bomb check, before anything is expanded."""
    from pathlib import Path

    check_zip(Path(path))


def _fill_merged(grid: list[list[Any]], merged: list[tuple[int, int, int, int]],
                 below: int) -> None:
    """The top-left value fills its merged area, as a reader of the sheet sees it (only in the
    data below the header: a merged title or group heading above it names no cells)."""
    for top, first, bottom, last in merged:
        if top <= below or top > len(grid) or (bottom - top + 1) * (last - first + 1) > 100_000:
            continue
        row = grid[top - 1]
        value = row[first - 1] if first - 1 < len(row) else None
        for r in range(top, min(bottom, len(grid)) + 1):
            cells = grid[r - 1]
            if len(cells) < last:
                cells.extend([None] * (last - len(cells)))
            for c in range(first, last + 1):
                cells[c - 1] = value


def _used_range(grid: list[list[Any]]) -> str:
    width = max((len(r) for r in grid), default=0)
    while width and all(len(r) < width or r[width - 1] is None for r in grid):
        width -= 1
    height = len(grid)
    while height and not any(v is not None for v in grid[height - 1]):
        height -= 1
    return f"A1:{column_letter(width)}{height}" if width and height else ""


# --- header and rows --------------------------------------------------------------------------


def _from_grid(path: str, name: str, grid: list[list[Any]], limits: Limits,
               merged: list[tuple[int, int, int, int]] | None = None) -> Sheet:
    header_at = detect_header(grid)
    _fill_merged(grid, merged or [], header_at)
    width = max((len(r) for r in grid), default=0)
    if header_at:
        header = names_for(grid[header_at - 1], width)
        body = grid[header_at:]
    else:
        header = names_for([], width)
        body = grid
    rows = [_padded(r, len(header)) for r in body]
    while rows and all(v is None for v in rows[-1]):
        rows.pop()  # formatting below the data is not rows
    truncated = len(rows) > limits.max_rows
    return Sheet(path, name, header_at, header, rows[: limits.max_rows], truncated=truncated)


def _padded(row: list[Any], width: int) -> list[Any]:
    # the per-cell work of a 100,000-row load: kept to one comprehension
    cells = [None if v.__class__ is str and not v.strip() else v for v in row[:width]]
    return cells + [None] * (width - len(cells))


def detect_header(grid: list[list[Any]]) -> int:
    """The 1-based row that names the columns: the first of the top rows that is mostly text
    and nearly as wide as the table (a title line above it is skipped). 0 when none is."""
    top = grid[:HEADER_SCAN_ROWS]
    widths = [sum(1 for v in r if v not in (None, "")) for r in top]
    if not widths or max(widths) == 0:
        return 0
    widest = max(widths)
    for i, row in enumerate(top):
        filled = [v for v in row if v not in (None, "")]
        if len(filled) < max(1, widest * 0.6) or (widest > 1 and len(filled) < 2):
            continue
        texts = [v for v in filled if isinstance(v, str) and not _numberish(v)]
        if len(texts) == len(filled) and len(set(map(str, filled))) == len(filled):
            return i + 1
        return 0  # the first full row holds data: the sheet has no header
    return 0


def _numberish(text: str) -> bool:
    return bool(re.fullmatch(r"\s*[-+]?[\d.,]+\s*%?\s*", text))


def names_for(cells: list[Any], width: int) -> list[str]:
    """Column names from header cells: blanks become column_N, repeats get _2, _3."""
    names: list[str] = []
    seen: dict[str, int] = {}
    for i in range(width):
        raw = cells[i] if i < len(cells) else None
        text = " ".join(str(raw).split()) if raw not in (None, "") else f"column_{i + 1}"
        key = text.lower()
        if key in seen:
            seen[key] += 1
            text = f"{text}_{seen[key]}"
        else:
            seen[key] = 1
        names.append(text)
    return names


def column_letter(index: int) -> str:
    letters = ""
    while index > 0:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters or "A"
