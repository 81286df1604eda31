"""The fixed list of cleaning operations on a sheet's rows, each reporting what it changed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from dateutil import parser as dateparser

from skills.base import SkillError, object_schema
from skills.office import columns

Rows = list[list[Any]]


class Table:
    def __init__(self, header: list[str], rows: Rows) -> None:
        self.header = list(header)
        self.rows = [list(r) for r in rows]

    def index(self, name: str) -> int:
        try:
            return self.header.index(name)
        except ValueError:
            raise SkillError(f"no column {name!r}; the columns are: "
                             + ", ".join(self.header)) from None

    def indexes(self, names: list[str] | None) -> list[int]:
        return [self.index(n) for n in names] if names else list(range(len(self.header)))


def apply(table: Table, operations: list[dict[str, Any]]) -> list[str]:
    """Run the operations in order; one line per operation saying what it did."""
    if not operations:
        raise SkillError("give at least one operation: " + ", ".join(OPERATIONS))
    notes = []
    for spec in operations:
        op = str(spec.get("op") or "")
        handler = _HANDLERS.get(op)
        if handler is None:
            raise SkillError(f"unknown operation {op!r}; use one of: {', '.join(OPERATIONS)}")
        notes.append(f"{op}: {handler(table, spec)}")
    return notes


def _trim(table: Table, spec: dict[str, Any]) -> str:
    changed = 0
    for row in table.rows:
        for i in table.indexes(spec.get("columns")):
            value = row[i]
            if isinstance(value, str):
                new = " ".join(value.split())
                if new != value:
                    row[i] = new or None
                    changed += 1
    return f"trimmed {changed} cell(s)"


def _drop_empty(table: Table, spec: dict[str, Any]) -> str:
    before = len(table.rows)
    table.rows = [r for r in table.rows if any(v not in (None, "") for v in r)]
    return f"removed {before - len(table.rows)} empty row(s)"


def _dedupe(table: Table, spec: dict[str, Any]) -> str:
    keys = table.indexes(spec.get("columns"))
    seen: set[tuple[Any, ...]] = set()
    kept = []
    for row in table.rows:
        key = tuple(_key(row[i]) for i in keys)
        if key not in seen:
            seen.add(key)
            kept.append(row)
    removed = len(table.rows) - len(kept)
    table.rows = kept
    return f"removed {removed} duplicate row(s)"


def _key(value: object) -> Any:
    return value.strip().casefold() if isinstance(value, str) else value


def _normalise_dates(table: Table, spec: dict[str, Any]) -> str:
    day_first = bool(spec.get("day_first", False))
    changed, failed = 0, 0
    for i in table.indexes(spec.get("columns")):
        for row in table.rows:
            value = row[i]
            if value is None:
                continue
            parsed = _parse_date(value, day_first)
            if parsed is None:
                failed += 1
                continue
            text = parsed.date().isoformat() if parsed.time() == datetime.min.time() else \
                parsed.isoformat(sep=" ", timespec="minutes")
            if text != value:
                row[i] = text
                changed += 1
    left = f"; {failed} cell(s) were not dates and stay as they were" if failed else ""
    return f"wrote {changed} date(s) as YYYY-MM-DD{left}"


def _parse_date(value: object, day_first: bool) -> datetime | None:
    found = columns.date_of(value)
    if found is not None or not isinstance(value, str):
        return found
    if columns.number_of(value) is not None:
        return None  # a plain number is not a date
    try:
        parsed: datetime = dateparser.parse(value, dayfirst=day_first, fuzzy=False)
        return parsed
    except (ValueError, OverflowError):
        return None


def _to_number(table: Table, spec: dict[str, Any]) -> str:
    changed, failed = 0, 0
    for i in table.indexes(spec.get("columns")):
        for row in table.rows:
            value = row[i]
            if not isinstance(value, str):
                continue
            number = columns.number_of(_strip_money(value))
            if number is None:
                failed += 1
                continue
            row[i] = number
            changed += 1
    left = f"; {failed} cell(s) were not numbers and stay as text" if failed else ""
    return f"converted {changed} cell(s) to numbers{left}"


def _strip_money(text: str) -> str:
    cleaned = text.strip()
    for sign in ("€", "$", "£", "¥", "元", "EUR", "USD", "CNY", "RMB"):
        cleaned = cleaned.replace(sign, "")
    cleaned = cleaned.replace("\u00a0", "").replace(" ", "")
    if cleaned.count(",") == 1 and "." not in cleaned and len(cleaned.split(",")[1]) != 3:
        cleaned = cleaned.replace(",", ".")  # 12,50 written the European way
    return cleaned


def _split(table: Table, spec: dict[str, Any]) -> str:
    column = str(spec.get("column") or "")
    if not column:
        raise SkillError("split_column needs a column")
    i = table.index(column)
    separator = spec.get("separator") or None  # None: any whitespace
    into = [str(n) for n in spec.get("into") or []]
    parts_per_row = [("" if r[i] is None else columns.display_text(r[i])).split(
        separator, max(len(into) - 1, 0) if into else -1) for r in table.rows]
    width = len(into) or max((len(p) for p in parts_per_row), default=1)
    names = into or [f"{column} {n}" for n in range(1, width + 1)]
    for name in names:
        if name in table.header and name != column:
            raise SkillError(f"split_column: there is already a column {name!r}")
    split = 0
    for row, parts in zip(table.rows, parts_per_row, strict=True):
        cells = [p.strip() or None for p in parts] + [None] * (width - len(parts))
        split += len(parts) > 1
        row[i:i + 1] = cells[:width]
    table.header[i:i + 1] = names
    return f"split {split} cell(s) of {column!r} into {', '.join(names)}"


def _fill_down(table: Table, spec: dict[str, Any]) -> str:
    filled = 0
    for i in table.indexes(spec.get("columns")):
        last: Any = None
        for row in table.rows:
            if row[i] in (None, ""):
                if last is not None:
                    row[i] = last
                    filled += 1
            else:
                last = row[i]
    return f"filled {filled} blank cell(s) from the cell above"


def _rename(table: Table, spec: dict[str, Any]) -> str:
    mapping = spec.get("mapping") or {}
    if not isinstance(mapping, dict) or not mapping:
        raise SkillError("rename_columns needs a mapping of old name -> new name")
    for old, new in mapping.items():
        table.header[table.index(str(old))] = str(new)
    if len(set(table.header)) != len(table.header):
        raise SkillError("rename_columns would give two columns the same name")
    return f"renamed {len(mapping)} column(s)"


_HANDLERS: dict[str, Callable[[Table, dict[str, Any]], str]] = {
    "trim": _trim, "drop_empty_rows": _drop_empty, "dedupe": _dedupe,
    "normalise_dates": _normalise_dates, "to_number": _to_number, "split_column": _split,
    "fill_down": _fill_down, "rename_columns": _rename,
}
OPERATIONS = tuple(_HANDLERS)  # in the order the schema lists them

OPERATION_SCHEMA = object_schema({
    "op": {"type": "string", "enum": list(OPERATIONS)},
    "columns": {"type": "array", "items": {"type": "string"},
                "description": "Default: all; dedupe: the keys."},
    "column": {"type": "string", "description": "split_column"},
    "separator": {"type": "string", "description": "split_column"},
    "into": {"type": "array", "items": {"type": "string"},
             "description": "split_column: new names"},
    "mapping": {"type": "object", "additionalProperties": {"type": "string"},
                "description": "rename_columns: old -> new"},
    "day_first": {"type": "boolean", "description": "normalise_dates: 03/04 is 3 April"},
}, required=["op"])
