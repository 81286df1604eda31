"""The one XLSX cell reader (expat, streaming) of the office tools and both indexes: the values
openpyxl's read-only mode gives, at a fraction of its cost, plus merged areas, formula count and
the stated dimension in the same pass. It reads the cells a sheet stores, never the range the
sheet claims (a 4.8 KB file can claim A1:XFD1048576), within skills/common/limits.py."""

from __future__ import annotations

import posixpath
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from xml.parsers import expat

from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format
from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900, from_excel

from skills.common.limits import LIMITS

_BLOCK = 1 << 16


@dataclass
class SheetRef:
    name: str
    member: str  # the zip member of its XML ("" for a chart sheet)


@dataclass
class SheetCells:
    grid: list[list[Any]]
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)
    formulas: int = 0
    stated_rows: int = 0
    truncated: bool = False  # rows or cells past the limits were not read
    cut_cells: int = 0  # stored cells right of the column limit, left out


def _local(tag: str) -> str:
    return tag.rsplit(":", 1)[-1] if ":" in tag else tag


def _parse(data: bytes, start: Callable[..., None], end: Callable[..., None] | None = None,
           text: Callable[[str], None] | None = None) -> None:
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.StartElementHandler = start
    if end is not None:
        parser.EndElementHandler = end
    if text is not None:
        parser.CharacterDataHandler = text
    parser.Parse(data, True)


class Workbook:
    """Sheet list, shared strings and date styles of one .xlsx, read with expat."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.archive = archive
        self.names = set(archive.namelist())
        self.date1904 = False
        self.sheets = self._sheets()
        self.strings = self._shared_strings()
        self.date_styles = self._date_styles()

    def _read(self, member: str) -> bytes:
        return self.archive.read(member) if member in self.names else b""

    def _sheets(self) -> list[SheetRef]:
        rels: dict[str, str] = {}

        def on_rel(tag: str, attrs: dict[str, str]) -> None:
            if _local(tag) == "Relationship":
                target = attrs.get("Target", "")
                rels[attrs.get("Id", "")] = (target.lstrip("/") if target.startswith("/")
                                             else posixpath.normpath(posixpath.join("xl",
                                                                                    target)))

        _parse(self._read("xl/_rels/workbook.xml.rels"), on_rel)
        found: list[SheetRef] = []

        def on_book(tag: str, attrs: dict[str, str]) -> None:
            name = _local(tag)
            if name == "workbookPr" and attrs.get("date1904") in ("1", "true"):
                self.date1904 = True
            if name == "sheet":
                rid = next((v for k, v in attrs.items() if k.endswith("id") and k != "sheetId"),
                           "")
                member = rels.get(rid, "")
                found.append(SheetRef(attrs.get("name", ""), member if "worksheets/" in member
                                      else ""))

        _parse(self._read("xl/workbook.xml"), on_book)
        return found

    def _shared_strings(self) -> list[str]:
        strings: list[str] = []
        parts: list[str] = []
        state = {"t": False, "phonetic": 0}

        def start(tag: str, attrs: dict[str, str]) -> None:
            name = _local(tag)
            if name == "si":
                parts.clear()
            elif name == "rPh":  # phonetic guides (furigana) are not the cell's text
                state["phonetic"] += 1
            elif name == "t" and not state["phonetic"]:
                state["t"] = True

        def end(tag: str) -> None:
            name = _local(tag)
            if name == "si":
                strings.append("".join(parts))
            elif name == "rPh":
                state["phonetic"] -= 1
            elif name == "t":
                state["t"] = False

        def text(data: str) -> None:
            if state["t"]:
                parts.append(data)

        member = next((n for n in ("xl/sharedStrings.xml", "xl/SharedStrings.xml")
                       if n in self.names), "")
        if member:
            _parse(self._read(member), start, end, text)
        return strings

    def _date_styles(self) -> set[int]:
        custom: dict[int, str] = {}
        xf_formats: list[int] = []
        state = {"xfs": False}

        def start(tag: str, attrs: dict[str, str]) -> None:
            name = _local(tag)
            if name == "numFmt":
                custom[int(attrs.get("numFmtId", "0"))] = attrs.get("formatCode", "")
            elif name == "cellXfs":
                state["xfs"] = True
            elif name == "xf" and state["xfs"]:
                xf_formats.append(int(attrs.get("numFmtId", "0")))

        def end(tag: str) -> None:
            if _local(tag) == "cellXfs":
                state["xfs"] = False

        _parse(self._read("xl/styles.xml"), start, end)
        dates = set()
        for index, fmt_id in enumerate(xf_formats):
            code = custom.get(fmt_id) or BUILTIN_FORMATS.get(fmt_id, "")
            if code and is_date_format(code):
                dates.add(index)
        return dates

    def stored_rows(self, sheet: SheetRef, out: SheetCells,
                    max_columns: int = LIMITS.sheet_columns) -> Iterator[tuple[int, list[Any]]]:
        """(row number, cells) for each row the sheet stores, as it is parsed; cells right of
        `max_columns` are counted in `out.cut_cells`, not kept."""
        if not sheet.member:
            return
        reader = _SheetReader(self, out, max_columns)
        parser = expat.ParserCreate()
        parser.buffer_text = True
        parser.StartElementHandler = reader.start
        parser.EndElementHandler = reader.end
        parser.CharacterDataHandler = reader.text
        with self.archive.open(sheet.member) as handle:
            for block in iter(lambda: handle.read(_BLOCK), b""):
                parser.Parse(block, False)
                yield from reader.take()
            parser.Parse(b"", True)
            yield from reader.take()

    def cells(self, sheet: SheetRef, max_rows: int, max_cells: int) -> SheetCells:
        """The sheet as a grid (gaps between stored rows are empty rows), until it would be
        `max_rows` rows or `max_cells` cells as wide as its widest row."""
        out = SheetCells([])
        grid = out.grid
        width = 0
        for number, row in self.stored_rows(sheet, out):
            width = max(width, len(row))
            if number > max_rows or number * width > max_cells:
                out.truncated = True
                break
            while len(grid) < number - 1:
                grid.append([])
            grid.append(row)
        return out


class _SheetReader:
    """expat callbacks for one worksheet: collects each finished row for `take`."""

    def __init__(self, book: Workbook, out: SheetCells, max_columns: int) -> None:
        self.book = book
        self.out = out
        self.max_columns = max_columns
        self.ready: list[tuple[int, list[Any]]] = []
        self.row: list[Any] = []
        self.row_number = 0
        self.col = 0
        self.kind = ""
        self.style = 0
        self.text_parts: list[str] | None = None
        self.value_parts: list[str] = []
        self.in_value = False
        self.epoch = CALENDAR_MAC_1904 if book.date1904 else CALENDAR_WINDOWS_1900

    def take(self) -> list[tuple[int, list[Any]]]:
        ready, self.ready = self.ready, []
        return ready

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        name = _local(tag)
        if name == "c":
            ref = attrs.get("r")
            self.col = _column(ref) if ref else self.col + 1
            self.kind = attrs.get("t", "n")
            self.style = int(attrs.get("s", "0"))
            self.value_parts = []
        elif name == "v" or name == "t" and self.kind == "inlineStr":
            self.in_value = True
        elif name == "row":
            number = attrs.get("r")
            self.row_number = int(number) if number else self.row_number + 1
            self.row = []
            self.col = 0
        elif name == "f":
            self.out.formulas += 1
        elif name == "mergeCell":
            self._merge(attrs.get("ref", ""))
        elif name == "dimension":
            last = attrs.get("ref", "").split(":")[-1]
            digits = "".join(ch for ch in last if ch.isdigit())
            self.out.stated_rows = int(digits) if digits else 0

    def text(self, data: str) -> None:
        if self.in_value:
            self.value_parts.append(data)

    def end(self, tag: str) -> None:
        name = _local(tag)
        if name in ("v", "t"):
            self.in_value = False
        elif name == "c":
            if self.col > self.max_columns:
                self.out.cut_cells += 1
                return
            value = self._value()
            row = self.row
            if len(row) < self.col - 1:
                row.extend([None] * (self.col - 1 - len(row)))
            row.append(value)
        elif name == "row":
            self.ready.append((self.row_number, self.row))

    def _value(self) -> Any:
        raw = "".join(self.value_parts)
        kind = self.kind
        if not raw and kind != "inlineStr":
            return None
        if kind == "n":
            number: float | int = float(raw) if ("." in raw or "E" in raw or "e" in raw) \
                else int(raw)
            if self.style in self.book.date_styles:
                return from_excel(number, self.epoch)
            return number
        if kind == "s":
            return self.book.strings[int(raw)]
        if kind in ("str", "inlineStr", "e"):
            return raw
        if kind == "b":
            return raw in ("1", "true")
        if kind == "d":
            from datetime import datetime

            return datetime.fromisoformat(raw.rstrip("Z"))
        return raw

    def _merge(self, ref: str) -> None:
        first, _, last = ref.partition(":")
        last = last or first
        try:
            top, left = _row_of(first), _column(first)
            bottom, right = _row_of(last), _column(last)
        except ValueError:
            return
        self.out.merged.append((top, left, bottom, right))


def _column(ref: str) -> int:
    n = 0
    for ch in ref:
        if "A" <= ch <= "Z":
            n = n * 26 + ord(ch) - 64
        else:
            break
    return n


def _row_of(ref: str) -> int:
    digits = "".join(ch for ch in ref if ch.isdigit())
    if not digits:
        raise ValueError(ref)
    return int(digits)
