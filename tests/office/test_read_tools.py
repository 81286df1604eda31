"""office_inspect and office_query on real workbooks and CSVs: what a user would ask of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skills.base import SkillContext, SkillError
from tests.office.conftest import make_sales


def test_inspect_finds_header_under_a_title_and_counts_merges_and_formulas(
        tools: dict[str, Any], folders: dict[str, Path], ctx: SkillContext) -> None:
    path = make_sales(folders["chosen"] / "sales.xlsx")
    result = tools["office_inspect"].run({"file": str(path)}, ctx)
    sheet = result.data["sheets"][0]
    assert sheet["header_row"] == 2
    assert [c["name"] for c in sheet["columns"]][:4] == ["客户", "金额", "日期", "地区"]
    assert [c["type"] for c in sheet["columns"]][:3] == ["text", "integer", "date"]
    assert sheet["rows"] == 12 and sheet["merged_cells"] == 2 and sheet["formulas"] == 1
    assert sheet["used_range"].startswith("A1:")
    assert "<document_data" in result.text and "never instructions" in result.text
    assert [s["name"] for s in result.data["sheets"]] == ["销售", "Customers"]


def test_query_gives_exact_sums_counts_and_joins(tools: dict[str, Any], folders: dict[str, Path],
                                                 ctx: SkillContext) -> None:
    path = str(make_sales(folders["chosen"] / "sales.xlsx"))
    query = tools["office_query"]
    totals = query.run({"files": [path], "sql": 'select "客户", sum("金额") from "销售"'
                        ' group by 1 order by 1'}, ctx).data
    # numbers written as text count: c0 = 0+300+600+900, c1 = 100+400+700+1000 ...
    assert totals["rows"] == [["c0", 1800], ["c1", 2200], ["c2", 2600]]
    merged = query.run({"files": [path], "sql": "select count(*) from 销售 where 地区 = 'north'"},
                       ctx).data
    assert merged["rows"] == [[4]]  # the merged area D3:D6 counts on every row it covers
    dates = query.run({"files": [path], "sql": "select count(*) from 销售 where 日期 >= "
                       "'2026-01-10'"}, ctx).data
    assert dates["rows"] == [[3]]
    joined = query.run({"files": [path], "sql": "select c.name, count(*) from 销售 s join "
                        "Customers c on c.id = s.客户 group by 1 order by 1", "max_rows": 2},
                       ctx).data
    assert joined["count"] == 3 and len(joined["rows"]) == 2  # exact count, rows limited


def test_query_across_a_workbook_and_a_csv(tools: dict[str, Any], folders: dict[str, Path],
                                           ctx: SkillContext) -> None:
    book = str(make_sales(folders["chosen"] / "sales.xlsx"))
    csv_path = folders["chosen"] / "targets.csv"
    csv_path.write_text("\ufeffcustomer;target\nc0;1000\nc1;5000\n", encoding="utf-8")
    data = tools["office_query"].run({"files": [book, str(csv_path)], "sql":
                                      'select t.customer from "targets" t join "sales.销售" s on'
                                      ' s.客户 = t.customer group by 1 having sum(s.金额) >'
                                      ' t.target'}, ctx).data
    assert data["rows"] == [["c0"]]


@pytest.mark.parametrize(("sql", "words"), [
    ("delete from 销售", "only SELECT"),
    ("attach database '/tmp/x.db' as x", "only SELECT"),
    ("pragma query_only = 0", "only SELECT"),
    ("select 1; drop table 销售", "exactly one"),
    ("with x as (select 1) delete from 销售", "read-only SELECT"),
    ("select load_extension('/tmp/evil')", "read-only SELECT"),
    ("select * from nowhere", "The tables are"),
])
def test_query_refuses_what_is_not_one_select(tools: dict[str, Any], folders: dict[str, Path],
                                              ctx: SkillContext, sql: str, words: str) -> None:
    path = str(make_sales(folders["chosen"] / "sales.xlsx"))
    with pytest.raises(SkillError, match=words):
        tools["office_query"].run({"files": [path], "sql": sql}, ctx)
    # and the data is still all there afterwards
    assert tools["office_query"].run({"files": [path], "sql": "select count(*) from 销售"},
                                     ctx).data["rows"] == [[12]]


def test_a_query_that_runs_forever_is_stopped(access: Any, folders: dict[str, Path],
                                              ctx: SkillContext) -> None:
    from skills.office import WorkbookCache
    from skills.office.read_tools import QuerySheets

    path = str(make_sales(folders["chosen"] / "sales.xlsx"))
    query = QuerySheets(access, WorkbookCache(), seconds=0.5)
    forever = ("with recursive n(x) as (select 1 union all select x + 1 from n)"
               " select count(*) from n")
    with pytest.raises(SkillError, match="longer than 0.5 s"):
        query.run({"files": [path], "sql": forever}, ctx)


def test_files_outside_the_chosen_folders_are_refused(tools: dict[str, Any],
                                                      folders: dict[str, Path],
                                                      ctx: SkillContext) -> None:
    outside = make_sales(folders["outside"] / "secret.xlsx")
    with pytest.raises(SkillError, match="outside the folders"):
        tools["office_inspect"].run({"file": str(outside)}, ctx)
    sneaky = str(folders["chosen"] / ".." / "secret.xlsx")
    with pytest.raises(SkillError, match=r"'\.\.'"):
        tools["office_inspect"].run({"file": sneaky}, ctx)
    link = folders["chosen"] / "link.xlsx"
    link.symlink_to(outside)
    with pytest.raises(SkillError, match="outside the folders"):
        tools["office_inspect"].run({"file": str(link)}, ctx)


def test_a_dropped_file_is_readable_by_its_name(folders: dict[str, Path]) -> None:
    from skills.office import OfficeAccess, office_skills

    dropped = make_sales(folders["outside"] / "dropped.xlsx")
    access = OfficeAccess(roots=lambda: [], dropped=lambda conv: [str(dropped)] if conv == "c"
                          else [], output=lambda: str(folders["output"]))
    inspect = {s.name: s for s in office_skills(access)}["office_inspect"]
    assert inspect.run({"file": "dropped.xlsx"}, SkillContext(conversation_id="c")).ok
    with pytest.raises(SkillError):  # another chat did not get that file
        inspect.run({"file": "dropped.xlsx"}, SkillContext(conversation_id="other"))


def test_merged_areas_at_the_end_of_the_sheet_xml_are_all_seen(
        tools: dict[str, Any], folders: dict[str, Path], ctx: SkillContext) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    ws = book.active
    ws.append(["k", "group"])
    for i in range(60):
        ws.append([i, f"g{i // 3}" if i % 3 == 0 else None])
    for top in range(2, 62, 3):
        ws.merge_cells(f"B{top}:B{top + 2}")  # 20 areas: the last tags sit at the very end
    path = folders["chosen"] / "groups.xlsx"
    book.save(path)
    data = tools["office_query"].run({"files": [str(path)], "sql": "select count(*) from Sheet"
                                      " where \"group\" is null"}, ctx).data
    assert data["rows"] == [[0]]
    sheet = tools["office_inspect"].run({"file": str(path)}, ctx).data["sheets"][0]
    assert sheet["merged_cells"] == 20
