"""Sheets as tables of an in-memory SQLite database, and one guarded read-only SELECT on them."""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from skills.base import SkillError
from skills.common.limits import LIMITS
from skills.office import columns
from skills.office.sheets import Sheet

PROGRESS_OPS = 20_000  # VM steps between looks at the clock: cheap, and stops within ms
_ALLOWED = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
            getattr(sqlite3, "SQLITE_RECURSIVE", 33)}
_DENIED_FUNCTIONS = {"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"}
_COMMENT = re.compile(r"(--[^\n]*\n?|/\*.*?\*/)", re.DOTALL)


@dataclass
class Table:
    name: str
    sheet: Sheet
    columns: list[str]
    types: list[str]


@dataclass
class QueryResult:
    columns: list[str]
    rows: list[list[Any]]
    count: int  # every row the query gives, not only the ones returned
    seconds: float
    limited: list[str] = field(default_factory=list)  # tables cut at the row limit


class SheetDatabase:
    """Built once from loaded sheets; queries run one at a time under a lock."""

    def __init__(self, sheets: Sequence[Sheet]) -> None:
        self.conn = sqlite3.connect(":memory:", check_same_thread=False)
        self.tables: list[Table] = []
        self._lock = threading.Lock()
        names: set[str] = set()
        multi_file = len({s.source for s in sheets}) > 1
        for sheet in sheets:
            if not sheet.header:
                continue
            name = table_name(sheet, multi_file, names)
            names.add(name.lower())
            self.tables.append(self._create(name, sheet))
        self.conn.execute("pragma query_only = 1")
        _bound_memory(self.conn)
        self.conn.set_authorizer(_authorize)

    def _create(self, name: str, sheet: Sheet) -> Table:
        width = len(sheet.header)
        values = list(zip(*sheet.rows, strict=True)) if sheet.rows else [()] * width
        types = [columns.infer(v) for v in values]
        # Column by column with map(): the per-cell cost of a 100,000-row sheet stays small.
        converted = [list(map(columns.converter(t, t == "date" and columns.has_time(v)), v))
                     for t, v in zip(types, values, strict=True)]
        del values
        cols = ", ".join(f"{quote(c)} {columns.sql_type(t)}".rstrip()
                         for c, t in zip(sheet.header, types, strict=True))
        self.conn.execute(f"create table {quote(name)} ({cols})")
        marks = ", ".join("?" * width)
        self.conn.executemany(f"insert into {quote(name)} values ({marks})", zip(*converted,
                                                                                strict=True))
        return Table(name, sheet, list(sheet.header), types)

    def schema_text(self) -> str:
        """What the model needs to write a query: tables, columns with types, row counts."""
        lines = []
        for t in self.tables:
            cols = ", ".join(f"{quote(c)} {k}" for c, k in zip(t.columns, t.types, strict=True))
            cut = " (LIMITED: only the first rows were loaded)" if t.sheet.truncated else ""
            lines.append(f"- {quote(t.name)} ({len(t.sheet.rows)} rows{cut}): {cols}")
        return "\n".join(lines)

    def query(self, sql: str, max_rows: int = 50, seconds: float = 5.0,
              should_stop: Callable[[], bool] = lambda: False) -> QueryResult:
        statement = check_select(sql)
        deadline = time.monotonic() + seconds
        stopped: list[str] = []

        def progress() -> int:
            if should_stop():
                stopped.append("cancelled")
                return 1
            if time.monotonic() > deadline:
                stopped.append("time")
                return 1
            return 0

        started = time.monotonic()
        with self._lock:
            self.conn.set_progress_handler(progress, PROGRESS_OPS)
            try:
                cursor = self.conn.execute(statement)
                names = [d[0] for d in cursor.description or []]
                rows: list[list[Any]] = []
                count = 0
                for row in cursor:
                    if count < max_rows:
                        rows.append(list(row))
                    count += 1
            except sqlite3.DatabaseError as exc:
                raise SkillError(self._explain(exc, stopped, seconds)) from exc
            except MemoryError as exc:  # SQLite's hard heap limit, as Python's sqlite3 says it
                raise SkillError(f"the query needed more than Hearth's "
                                 f"{LIMITS.sql_heap_bytes // 2**20} MiB for SQLite "
                                 "(sql_heap_bytes) and was stopped; add a WHERE or a LIMIT") \
                    from exc
            finally:
                self.conn.set_progress_handler(None, 0)
        limited = [t.name for t in self.tables if t.sheet.truncated]
        return QueryResult(names, rows, count, time.monotonic() - started, limited)

    def _explain(self, exc: sqlite3.DatabaseError, stopped: list[str], seconds: float) -> str:
        text = str(exc)
        if "too big" in text:
            return (f"the query built a value over Hearth's {LIMITS.sql_value_bytes // 2**20} "
                    "MiB limit (sql_value_bytes) and was stopped; ask for less (length(), "
                    "substr(), fewer rows in group_concat)")
        if "time" in stopped:
            return (f"the query ran longer than {seconds:g} s and was stopped; make it simpler"
                    " (no cross joins, fewer subqueries)")
        if "cancelled" in stopped:
            return "the query was cancelled"
        if "not authorized" in text or "prohibited" in text:
            return ("only one read-only SELECT is allowed (no ATTACH, PRAGMA, INSERT, UPDATE,"
                    " DELETE, CREATE or extension functions)")
        if "no such table" in text or "no such column" in text:
            return f"{text}. The tables are:\n{self.schema_text()}"
        return f"SQL error: {text}. The tables are:\n{self.schema_text()}"

    def close(self) -> None:
        self.conn.close()


def _bound_memory(conn: sqlite3.Connection) -> None:
    """SQLite's own limits, from the limits table: one string or blob (randomblob(1e9) would
    take a gigabyte), and all of SQLite's heap in this process (sorts, big joins). The heap
    limit is process-wide, so it is only ever lowered to ours, never raised."""
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, LIMITS.sql_value_bytes)
    current = int(conn.execute("pragma hard_heap_limit").fetchone()[0])
    if current == 0 or current > LIMITS.sql_heap_bytes:
        conn.execute(f"pragma hard_heap_limit = {LIMITS.sql_heap_bytes}")


def check_select(sql: str) -> str:
    """One statement that starts with SELECT or WITH; anything else is refused with why."""
    text = _COMMENT.sub(" ", str(sql or "")).strip().rstrip(";").strip()
    if not text:
        raise SkillError("give an SQL SELECT statement")
    if not sqlite3.complete_statement(text + ";") or _has_second_statement(text):
        raise SkillError("give exactly one SQL statement (one SELECT)")
    first = text.split(None, 1)[0].lower()
    if first not in ("select", "with"):
        raise SkillError(f"only SELECT queries are allowed, not {first.upper()}: the sheets are"
                         " read-only here (use office_clean or office_convert to change data)")
    return text


def _has_second_statement(text: str) -> bool:
    # A ';' outside quotes means a second statement follows.
    quote_char = ""
    for ch in text:
        if quote_char:
            if ch == quote_char:
                quote_char = ""
        elif ch in "'\"`[":
            quote_char = "]" if ch == "[" else ch
        elif ch == ";":
            return True
    return False


def _authorize(action: int, arg1: str | None, arg2: str | None, db: str | None,
               trigger: str | None) -> int:
    if action not in _ALLOWED:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in _DENIED_FUNCTIONS:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_READ and db not in (None, "main"):
        return sqlite3.SQLITE_DENY  # temp or attached schemas
    return sqlite3.SQLITE_OK


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def table_name(sheet: Sheet, multi_file: bool, taken: set[str]) -> str:
    """The sheet's name (the file's name before it when several files are loaded)."""
    import os

    stem = os.path.splitext(os.path.basename(sheet.source))[0]
    base = sheet.name if not multi_file or sheet.name == stem else f"{stem}.{sheet.name}"
    name, n = base, 1
    while name.lower() in taken:
        n += 1
        name = f"{base}_{n}"
    return name
