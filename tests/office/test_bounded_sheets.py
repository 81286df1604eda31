"""A workbook claiming 17 billion cells is read as the cells it stores: `office inspect`,
`office query` and both indexes (one reader, skills/common/xlsx_cells.py) stay small."""

from __future__ import annotations

from pathlib import Path

import pytest

from skills.common.limits import LIMITS
from tests.support.capped import hearth_env, run_capped


def claimed_range_bomb(path: Path) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["name", "amount"])
    book.active.append(["tea", 3])
    book.active["XFD1048576"] = "end"  # 4.8 KB claiming A1:XFD1048576
    book.save(path)
    return path


@pytest.fixture
def bomb(tmp_path: Path) -> Path:
    folder = tmp_path / "chosen"
    folder.mkdir()
    return claimed_range_bomb(folder / "claims.xlsx")


@pytest.mark.parametrize("argv", [
    ["office", "inspect", "{file}"],
    ["office", "query", "{file}", "--sql", "select name, amount from Sheet"],
    ["docs", "add", "{folder}"],
])
def test_a_claimed_range_is_not_memory(tmp_path: Path, bomb: Path, argv: list[str]) -> None:
    args = [a.format(file=bomb, folder=bomb.parent) for a in argv]
    ran = run_capped(["-m", "app.main", *args], hearth_env(tmp_path / "home"), timeout=300)
    assert ran.code == 0, ran.err
    assert "Traceback" not in ran.err
    assert ran.peak_mb < 1024, ran.peak_mb
    if argv[1] == "query":
        assert "tea" in ran.out
    if argv[1] == "inspect":
        assert "sheet_columns" in ran.out  # the far cell is said to be left out


def test_the_column_limit_is_said_once_per_sheet(bomb: Path) -> None:
    from skills.office.sheets import load_sheets

    sheet = load_sheets(str(bomb))[0]
    assert [r[:2] for r in sheet.rows] == [["tea", 3]]
    assert len(sheet.header) <= LIMITS.sheet_columns
    assert sum("sheet_columns" in n for n in sheet.notes) == 1


@pytest.mark.parametrize("sql, limit", [
    ("select length(randomblob(1e9)) from Sheet", "sql_value_bytes"),
    ("select length(group_concat(zeroblob(1000000))) from (with recursive n(i) as "
     "(select 1 union all select i + 1 from n where i < 2000) select i from n)",
     "sql_value_bytes"),
])
def test_a_read_only_query_cannot_take_the_memory(tmp_path: Path, bomb: Path, sql: str,
                                                  limit: str) -> None:
    ran = run_capped(["-m", "app.main", "office", "query", str(bomb), "--sql", sql],
                     hearth_env(tmp_path / "home"), timeout=300)
    assert ran.code == 2, (ran.out, ran.err)  # bad input, as the README's exit codes say
    assert limit in ran.err and len(ran.err.strip().splitlines()) == 1
    assert ran.peak_mb < 1024
