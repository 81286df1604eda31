"""Column types inferred from the cells (numbers written as text count as numbers), and the
values converted for SQL: integers, reals, ISO dates, text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, time
from typing import Any

_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")
_GROUPED = re.compile(r"[-+]?\d{1,3}(,\d{3})+(\.\d+)?")
_NUMBER_START = frozenset("0123456789+-.")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?")

# XML 1.0 cannot hold these: Word, Excel and PowerPoint files would not save or open.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def number_of(value: object) -> int | float | None:
    """A number from a cell (42, 4.5, "1,234.50", " 7 "), or None. Text with a leading zero
    ("007", a code) is not a number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text or text[0] not in _NUMBER_START:  # most text cells: no regex needed
        return None
    if _GROUPED.fullmatch(text):
        text = text.replace(",", "")
    elif not _NUMBER.fullmatch(text):
        return None
    digits = text.lstrip("+-")
    if len(digits) > 1 and digits[0] == "0" and digits[1].isdigit():
        return None
    if re.fullmatch(r"[-+]?\d+", text):
        return int(text)
    return float(text)


def date_of(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime.combine(value, time())
    if isinstance(value, str) and value.strip()[:1].isdigit() and _ISO_DATE.fullmatch(value.strip()):
        try:
            return datetime.fromisoformat(value.strip())
        except ValueError:
            return None
    return None


def infer(values: Sequence[Any]) -> str:
    """The type of a column from its non-blank cells; text among other kinds is "mixed"."""
    kinds: set[str] = set()
    for value in values:
        if value is None:
            continue
        kinds.add(_kind(value))
        if "text" in kinds and len(kinds) > 1:
            return "mixed"
    if not kinds:
        return "empty"
    if kinds <= {"integer", "real"}:
        return "integer" if kinds == {"integer"} else "real"
    return kinds.pop() if len(kinds) == 1 else "mixed"


def _kind(value: object) -> str:
    cls = value.__class__  # the common cell types first: this runs for every cell
    if cls is int:
        return "integer"
    if cls is float:
        return "real"
    if cls is datetime or cls is date:
        return "date"
    number = number_of(value)
    if number is not None:
        return "integer" if isinstance(number, int) else "real"
    return "date" if date_of(value) is not None else "text"


def sql_type(kind: str) -> str:
    """The declared SQLite type: affinity keeps numbers numbers, and mixed columns as given."""
    return {"integer": "INTEGER", "real": "REAL", "date": "TEXT", "text": "TEXT"}.get(kind, "")


def converter(kind: str, dates_with_time: bool) -> Any:
    """value -> what SQLite stores for a column of this type."""
    if kind in ("integer", "real"):
        return _as_number
    if kind == "date":
        return _as_datetime if dates_with_time else _as_date
    if kind == "text":
        return _as_text
    return _as_given


def has_time(values: Sequence[Any]) -> bool:
    for value in values:
        found = date_of(value) if value is not None else None
        if found is not None and found.time() != time():
            return True
    return False


def _as_number(value: object) -> Any:
    if value is None or value.__class__ is int or value.__class__ is float:
        return value
    return number_of(value)


def _as_date(value: object) -> Any:
    found = date_of(value) if value is not None else None
    return None if found is None else found.date().isoformat()


def _as_datetime(value: object) -> Any:
    found = date_of(value) if value is not None else None
    return None if found is None else found.isoformat(sep=" ", timespec="seconds")


def _as_text(value: object) -> Any:
    if value is None or value.__class__ is str:
        return value
    return display_text(value)


def _as_given(value: object) -> Any:
    if value is None or isinstance(value, (int, float, str)):
        return value
    if isinstance(value, (datetime, date)):
        return _as_datetime(value) if isinstance(value, datetime) and value.time() != time() \
            else _as_date(value)
    return display_text(value)


def display_text(value: object) -> str:
    """How a cell reads as text: 42 not 42.0, dates without a midnight time."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time() else \
            value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def xml_safe(text: str) -> str:
    """Text an OOXML file can store: control characters (from a model or a CSV) removed."""
    return _NOT_XML.sub("", text)
