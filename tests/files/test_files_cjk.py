"""Chinese and Japanese: any 2+ character piece of a name or text finds the file, with the
usual ranking, highlighted snippets, and an index from before this still upgrading in place."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlite_utils
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skills.files import FileIndex
from skills.files.query import Filters, search
from skills.files.store import FileStore, migrations
from tests.files.files_helpers import write

DAY = 86_400
NOW = datetime.now(UTC).timestamp()


@pytest.fixture
def index(root: Path, make_index) -> FileIndex:  # type: ignore[no-untyped-def]
    write(root / "年度会议记录.txt", "议程", mtime=NOW - 200 * DAY)
    write(root / "notes" / "周报.md", "今天的会议记录很重要，下周继续。", mtime=NOW - 3 * DAY)
    write(root / "notes" / "old.md", "上个月的会议记录", mtime=NOW - 60 * DAY)
    write(root / "日本語" / "旅行の計画.txt", "京都で紅葉を見る予定です", mtime=NOW - DAY)
    write(root / "Q3会议v2.txt", "", mtime=NOW - 5 * DAY)
    built: FileIndex = make_index(root)
    built.scan()
    return built


def names(hits) -> list[str]:  # type: ignore[no-untyped-def]
    return [h.name for h in hits]


def test_chinese_inside_a_name_or_sentence_is_found_names_first_then_newest(index) -> None:
    assert names(index.search("会议记录")) == ["年度会议记录.txt", "周报.md", "old.md"]
    assert names(index.search("记录")) == ["年度会议记录.txt", "周报.md", "old.md"]


def test_japanese_names_and_content_match_anywhere(index) -> None:
    assert names(index.search("計画")) == ["旅行の計画.txt"]
    assert names(index.search("紅葉")) == ["旅行の計画.txt"]
    assert names(index.search("京都 予定")) == ["旅行の計画.txt"]


def test_only_the_characters_in_that_order_match(index) -> None:
    assert index.search("录记") == []  # both pairs absent: reversed text is another word
    assert index.search("会议重要") == []  # both words occur, but not side by side


def test_latin_glued_to_chinese_is_found_on_its_own(index) -> None:
    assert names(index.search("v2")) == ["Q3会议v2.txt"]
    assert names(index.search("q3会议")) == ["Q3会议v2.txt"]


def test_snippet_bolds_the_chinese_match(index) -> None:
    [hit] = [h for h in index.search("会议记录") if h.name == "周报.md"]
    assert hit.snippet == "今天的**会议记录**很重要，下周继续。"


def test_edited_text_is_searched_as_it_is_now(index, root: Path) -> None:
    write(root / "notes" / "周报.md", "改成预算讨论", mtime=NOW)
    index.scan()
    assert "周报.md" not in names(index.search("会议记录"))
    assert names(index.search("预算")) == ["周报.md"]


def test_an_index_from_before_upgrades_and_finds_old_rows_by_any_piece(tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    db = sqlite_utils.Database(path)
    migrations.apply(db, upto="files_001_index")
    db.execute(
        "insert into file_index (id, raw, path, folder, name, ext, kind, size, mtime_ns, created,"
        " has_content) values (7, ?, '/h/周报.md', '/h', '周报.md', '.md', 'text', 3, 1, 0, 1)",
        [b"/h/\xe5\x91\xa8\xe6\x8a\xa5.md"],
    )
    db.execute("insert into file_index_fts (rowid, name, content) values (7, '周报.md',"
               " '今天的会议记录很重要')")
    db.conn.commit()
    db.close()
    store = FileStore(path)  # opening applies the new migration (no roots: nothing pruned)
    try:
        [hit] = search(store.conn, "会议", Filters(), limit=5)
        assert hit.name == "周报.md" and hit.snippet == "今天的**会议**记录很重要"
        store.remove([b"/h/\xe5\x91\xa8\xe6\x8a\xa5.md"])  # the delete trigger came back
        assert store.conn.execute("select count(*) from file_index_fts").fetchone()[0] == 0
        assert migrations.applied(store.db) == migrations.names
    finally:
        store.close()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(query=st.text(alphabet=st.sampled_from('会议记录的v2 "*:()-^ーの計画한국'), max_size=12))
def test_any_mix_of_scripts_and_syntax_searches_without_error(index, query: str) -> None:
    for hit in index.search(query):  # FTS syntax in the text is never passed through
        assert hit.name
