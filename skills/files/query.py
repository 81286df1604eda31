"""Search over the file index: FTS5 prefix matching on names and content, filters, and the
ranking users expect (name hits first, then content hits; newer before older)."""

from __future__ import annotations

import os
import re
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from skills.files.models import FileHit, local_time
from skills.files.paths import text_range

_WORD = re.compile(r"\w+", re.UNICODE)
_MARK_OPEN, _MARK_CLOSE = "\x02", "\x03"  # never in text; turned into ** after snippet()


@dataclass
class Filters:
    """Everything a search can narrow by; None means "any"."""

    kind: str | None = None
    extensions: list[str] = field(default_factory=list)
    folder: str | None = None
    modified_after: datetime | None = None
    modified_before: datetime | None = None
    larger_than: int | None = None
    smaller_than: int | None = None


def words(query: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(query)]


def fts_query(terms: list[str], column: str | None = None, joiner: str = "AND") -> str:
    """Every word must match as a prefix (in any column, or only in `column`)."""
    expr = f" {joiner} ".join(f'"{t}"*' for t in terms)
    return f"{column} : ({expr})" if column else expr


def _ns(moment: datetime) -> int:
    return int(moment.timestamp() * 1_000_000_000)


def filter_sql(filters: Filters) -> tuple[str, list[Any]]:
    """SQL conditions on `f` (file_index) and their parameters."""
    clauses: list[str] = []
    params: list[Any] = []
    if filters.kind:
        clauses.append("f.kind = ?")
        params.append(filters.kind)
    if filters.extensions:
        clauses.append(f"f.ext in ({','.join('?' for _ in filters.extensions)})")
        params += filters.extensions
    if filters.folder:
        clauses.append("f.path > ? and f.path < ?")
        params += text_range(filters.folder)
    if filters.modified_after is not None:
        clauses.append("f.mtime_ns >= ?")
        params.append(_ns(filters.modified_after))
    if filters.modified_before is not None:
        clauses.append("f.mtime_ns < ?")
        params.append(_ns(filters.modified_before))
    if filters.larger_than is not None:
        clauses.append("f.size > ?")
        params.append(filters.larger_than)
    if filters.smaller_than is not None:
        clauses.append("f.size < ?")
        params.append(filters.smaller_than)
    return (" and ".join(clauses) or "1"), params


_COLUMNS = "f.id, f.raw, f.path, f.name, f.kind, f.size, f.mtime_ns, f.has_content"


def search(conn: sqlite3.Connection, query: str | None, filters: Filters,
           limit: int) -> list[FileHit]:
    where, params = filter_sql(filters)
    terms = words(query or "")
    if not terms:
        rows = conn.execute(
            f"select {_COLUMNS} from file_index f where {where}"
            " order by f.mtime_ns desc, f.id limit ?", [*params, limit],
        ).fetchall()
        return [_hit(r, "") for r in rows]
    # Two passes, one per tier: name hits alone are usually enough to fill the page, and
    # ranking a tier touches only its own matches (a broad prefix can match thousands).
    tier = (
        f"select {_COLUMNS} from file_index f where f.id in"
        " (select rowid from file_index_fts where file_index_fts match ?) {extra} and {where}"
        " order by f.mtime_ns desc, f.id limit ?"
    )
    name_query = fts_query(terms, "name")
    rows = conn.execute(tier.format(extra="", where=where),
                        [name_query, *params, limit]).fetchall()
    if len(rows) < limit:
        not_name = "and f.id not in (select rowid from file_index_fts where file_index_fts match ?)"
        rows += conn.execute(tier.format(extra=not_name, where=where),
                             [fts_query(terms), name_query, *params, limit - len(rows)]).fetchall()
    snippets = _snippets(conn, terms, [r[0] for r in rows if r[7] == 1])
    return [_hit(r, snippets.get(r[0], "")) for r in rows]


def _snippets(conn: sqlite3.Connection, terms: list[str], ids: list[int]) -> dict[int, str]:
    """Content snippets for the few rows shown that have text (computing them for every
    match, or for files without text, costs a pass over the words' postings each time)."""
    if not ids:
        return {}
    rows = conn.execute(
        "select rowid, snippet(file_index_fts, 1, ?, ?, '…', 12) from file_index_fts"
        f" where file_index_fts match ? and rowid in ({','.join('?' for _ in ids)})",
        [_MARK_OPEN, _MARK_CLOSE, fts_query(terms, "content", "OR"), *ids],
    ).fetchall()
    return {r[0]: _clean(r[1]) for r in rows}


def _clean(snippet: str) -> str:
    flat = " ".join(snippet.split())
    return flat.replace(_MARK_OPEN, "**").replace(_MARK_CLOSE, "**")


def _hit(row: tuple[Any, ...], snippet: str) -> FileHit:
    return FileHit(
        path=row[2],
        name=row[3],
        kind=row[4],
        size=row[5],
        modified=local_time(row[6] / 1_000_000_000),
        snippet=snippet,
        os_path=os.fsdecode(bytes(row[1])),
    )
