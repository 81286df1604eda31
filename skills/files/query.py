"""Search over the file index: FTS5 prefix matching on names and content, filters, and the
ranking users expect (name hits first, then content hits; newer before older)."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from skills.common import cjk, fts
from skills.files.models import FileHit, local_time
from skills.files.paths import text_range
from skills.files.snippet import make_snippet


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
    return [w.lower() for w in fts.words(query)]


def fts_query(terms: list[str], column: str | None = None, joiner: str = "AND") -> str:
    """Every word must match as a prefix (in any column, or only in `column` and its
    CJK pair column); words with Chinese or Japanese in them match anywhere (see _atoms)."""
    expr = f" {joiner} ".join(f"({' AND '.join(_atoms(t))})" for t in terms)
    return f"{{{column} {column}_cjk}} : ({expr})" if column else expr


def _atoms(term: str) -> list[str]:
    """FTS5 conditions for one word: a prefix, or for a CJK run of 2+ characters the phrase
    of its character pairs, which matches exactly where the run occurs inside longer text."""
    if not cjk.CJK_RUN.search(term):
        return [fts.prefix(term)]
    out = []
    for piece in cjk.pieces(term):
        if cjk.is_cjk(piece) and len(piece) > 1:
            out.append(fts.quote(" ".join(cjk.bigrams(piece))))
        else:
            out.append(fts.prefix(piece))
    return out


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


BROAD = 2000  # matches beyond which a tier walks the modification-time index instead
_COLUMNS = "f.id, f.raw, f.path, f.name, f.kind, f.size, f.mtime_ns, f.has_content"


def search(conn: sqlite3.Connection, query: str | None, filters: Filters,
           limit: int) -> list[FileHit]:
    where, params = filter_sql(filters)
    terms = words(query or "")
    if not terms:
        rows = conn.execute(
            f"select {_COLUMNS} from file_index f where {where}"
            " order by f.mtime_ns desc, f.id desc limit ?", [*params, limit],
        ).fetchall()
        return [_hit(r, "") for r in rows]
    # Two passes, one per tier: name hits alone usually fill the page, and ranking a tier
    # touches only its own matches (a broad prefix can match thousands).
    name_query = fts_query(terms, "name")
    rows = conn.execute(_tier_sql(conn, name_query, "", where),
                        [name_query, *params, limit]).fetchall()
    if len(rows) < limit:
        all_query = fts_query(terms)
        not_name = "and f.id not in (select rowid from file_index_fts where file_index_fts match ?)"
        rows += conn.execute(_tier_sql(conn, all_query, not_name, where),
                             [all_query, name_query, *params, limit - len(rows)]).fetchall()
    snippets = _snippets(conn, terms, [r[0] for r in rows if r[7] == 1])
    return [_hit(r, snippets.get(r[0], "")) for r in rows]


def _tier_sql(conn: sqlite3.Connection, match: str, extra: str, where: str) -> str:
    """SQL for one tier. With many matches and no filter, walking files newest-first and
    stopping at the limit beats fetching and sorting every match (the usual plan)."""
    plan = ""
    if where == "1":
        count = conn.execute(
            "select count(*) from file_index_fts where file_index_fts match ?", [match]
        ).fetchone()[0]
        plan = "indexed by file_index_mtime" if count > BROAD else ""
    return (
        f"select {_COLUMNS} from file_index f {plan} where f.id in (select rowid from"
        f" file_index_fts where file_index_fts match ?) {extra} and {where}"
        " order by f.mtime_ns desc, f.id desc limit ?"
    )


def _snippets(conn: sqlite3.Connection, terms: list[str], ids: list[int]) -> dict[int, str]:
    """Content snippets for the few rows shown that have text."""
    if not ids:
        return {}
    rows = conn.execute(
        "select rowid, content from file_index_fts"
        f" where rowid in ({','.join('?' for _ in ids)})", ids,
    ).fetchall()
    return {r[0]: make_snippet(r[1], terms) for r in rows}


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
