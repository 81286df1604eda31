"""Hearth's one table of input limits: every reader of outside input meets its limit here,
before the input meets memory (the server, settings, sheets, SQL, tool results, the logs)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Limits:
    """Each limit and why it is that size; a limit hit is one line naming it and what to do."""

    body_bytes: int = 16 * 2**20
    """An API request body, counted as it arrives (chunked or not): past it, 413."""
    json_depth: int = 64
    """Nesting of a JSON request body or settings.json (a tool schema needs about 10)."""
    sheet_rows: int = 200_000
    """Data rows loaded per sheet (office questions are asked about 100,000-row sheets)."""
    sheet_cells: int = 2_000_000
    """Cells per workbook load as the table stands in memory (rows times width), never the
    range a file claims: about 400 MB at most while loading."""
    sheet_columns: int = 1_000
    """Columns per sheet: a cell further right (a 4.8 KB file can hold one at XFD) is left out
    and said, not padded to a 16,384-wide table."""
    index_columns: int = 16_384
    """Columns the search indexes read per sheet: all a workbook can have (each stored row is
    indexed as its text and let go, never held as a table)."""
    sql_value_bytes: int = 64 * 2**20
    """One string or blob a read-only query may build (SQLite's SQLITE_LIMIT_LENGTH)."""
    sql_heap_bytes: int = 1 * 2**30
    """All of SQLite's memory in the process (its hard heap limit): a query that needs more
    fails with "out of memory" instead of taking the machine's."""
    tool_result_bytes: int = 64 * 1024
    """One tool result kept in a chat's history (and so in the model's context): the rest is
    cut with a note saying how to ask for less."""
    tools_per_server: int = 128
    """Tools taken from one MCP server; the rest are left out with a note."""
    log_field_bytes: int = 300
    """One text field of the request log (an error message, a client name)."""


LIMITS = Limits()
"""The limits in force; tests and benchmarks pass their own Limits where a reader takes one."""


def deeper_than(value: object, depth: int) -> bool:
    """Whether lists and dicts nest more than `depth` levels (iterative: never recurses)."""
    stack: list[tuple[Iterable[Any], int]] = [((value,), 0)]
    while stack:
        items, level = stack.pop()
        for item in items:
            if isinstance(item, dict | list):
                if level + 1 > depth:
                    return True
                stack.append((item.values() if isinstance(item, dict) else item, level + 1))
    return False


def cut_text(text: str, limit: int) -> str:
    """`text` in at most `limit` UTF-8 bytes, marked with … where cut (never a half character)."""
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return text
    return data[: max(0, limit - 3)].decode("utf-8", "ignore") + "…"
