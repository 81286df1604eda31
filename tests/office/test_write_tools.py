"""The write tools: files re-opened by the libraries that read them, the write policy, Undo."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from skills.base import SkillContext, SkillError
from skills.office import undo
from tests.office.conftest import listing, make_sales


def test_sheet_to_csv_and_rows_to_xlsx_reopen_with_the_same_contents(
        tools: dict[str, Any], folders: dict[str, Path], ctx: SkillContext) -> None:
    import csv

    import openpyxl

    source = make_sales(folders["chosen"] / "sales.xlsx")
    written = tools["office_convert"].run({"source": str(source), "to": "csv"}, ctx).data
    assert written["written"] == str(folders["output"] / "sales.csv")
    with open(written["written"], encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:4] == ["客户", "金额", "日期", "地区"] and len(rows) == 13
    assert rows[1][:4] == ["c0", "0", "2026-01-01", "north"]

    made = tools["office_convert"].run({"to": "xlsx", "output": "people.xlsx",
                                        "columns": ["name", "amount", "note"],
                                        "rows": [["Ann", "1,200.50", "=HYPERLINK(1)"],
                                                 ["Bo", "7", None]]}, ctx).data
    book = openpyxl.load_workbook(made["written"])
    ws = book.active
    assert ws.freeze_panes == "A2" and ws["A1"].font.bold
    assert [[c.value for c in row] for row in ws.iter_rows()] == [
        ["name", "amount", "note"], ["Ann", 1200.5, "=HYPERLINK(1)"], ["Bo", 7, None]]
    assert ws["C2"].data_type == "s"  # formula-looking text stays text
    assert ws.column_dimensions["A"].width >= 8


def test_clean_reports_what_each_operation_changed(tools: dict[str, Any],
                                                   folders: dict[str, Path],
                                                   ctx: SkillContext) -> None:
    import openpyxl

    source = folders["chosen"] / "list.csv"
    source.write_text("Name,Date,Amount,Full\n  Ann  ,03/04/2026,€12,A B\nAnn,2026-04-03,12,C D\n"
                      ",,,\nBo,,\"1,000\",E F\n", encoding="utf-8")
    ops = [{"op": "trim"}, {"op": "drop_empty_rows"}, {"op": "dedupe", "columns": ["Name"]},
           {"op": "normalise_dates", "columns": ["Date"], "day_first": True},
           {"op": "to_number", "columns": ["Amount"]}, {"op": "fill_down", "columns": ["Date"]},
           {"op": "split_column", "column": "Full", "separator": " ", "into": ["First", "Last"]},
           {"op": "rename_columns", "mapping": {"Name": "Customer"}}]
    result = tools["office_clean"].run({"source": str(source), "operations": ops}, ctx)
    assert "removed 1 duplicate row(s)" in result.text
    assert "removed 1 empty row(s)" in result.text and "trimmed 1 cell(s)" in result.text
    path = result.data["written"]
    assert path.endswith("list-clean.csv") and source.read_text().startswith("Name,")
    with open(path, encoding="utf-8-sig") as handle:
        assert handle.read().splitlines() == [
            "Customer,Date,Amount,First,Last", "Ann,2026-04-03,12,A,B", "Bo,2026-04-03,1000,E,F"]
    xlsx = make_sales(folders["chosen"] / "sales.xlsx")
    out = tools["office_clean"].run({"source": str(xlsx), "operations": [
        {"op": "dedupe", "columns": ["客户"]}]}, ctx).data["written"]
    assert openpyxl.load_workbook(out).active.max_row == 4


def test_report_from_markdown_opens_in_python_docx(tools: dict[str, Any], ctx: SkillContext
                                                   ) -> None:
    import docx

    markdown = ("# Findings\n\nSales **rose** by *12%*.\n\n- North\n- South\n  - inner\n\n"
                "1. first\n2. second\n\n| Region | Total |\n|---|---|\n| North | 1800 |\n\n"
                "\\pagebreak\n\n## Next steps\n\nCall `c0`.\n")
    data = tools["office_report"].run({"title": "Q1 summary", "markdown": markdown}, ctx).data
    assert data["written"].endswith("Q1 summary.docx")
    document = docx.Document(data["written"])
    styles = [(p.style.name, p.text) for p in document.paragraphs if p.text]
    assert ("Title", "Q1 summary") in styles and ("Heading 1", "Findings") in styles
    assert ("Heading 2", "Next steps") in styles and ("List Bullet", "North") in styles
    assert ("List Bullet 2", "inner") in styles and ("List Number", "first") in styles
    bold = [r.text for p in document.paragraphs for r in p.runs if r.bold]
    assert bold == ["rose"]
    assert [[c.text for c in row.cells] for row in document.tables[0].rows] == [
        ["Region", "Total"], ["North", "1800"]]
    assert 'w:br w:type="page"' in document.element.xml
    assert "Outline" in data["preview"] and "Next steps" in data["preview"]


def test_report_uses_the_users_template_styles(tools: dict[str, Any], folders: dict[str, Path],
                                               ctx: SkillContext) -> None:
    import docx
    from docx.shared import Pt

    template = docx.Document()
    template.styles["Normal"].font.size = Pt(15)
    template.add_paragraph("sample text to drop")
    path = folders["chosen"] / "house.docx"
    template.save(str(path))
    data = tools["office_report"].run({"markdown": "Hello", "template": str(path),
                                       "output": "t.docx"}, ctx).data
    document = docx.Document(data["written"])
    assert [p.text for p in document.paragraphs] == ["Hello"]
    assert document.styles["Normal"].font.size == Pt(15)


def test_slides_open_in_python_pptx(tools: dict[str, Any], ctx: SkillContext) -> None:
    from pptx import Presentation

    data = tools["office_slides"].run({"title": "Review", "slides": [
        {"title": "Numbers", "bullets": ["up 12%", "  mostly north"], "notes": "say thanks"},
        {"title": "Table", "table": {"columns": ["a", "b"], "rows": [[1, 2]]}}]}, ctx).data
    deck = Presentation(data["written"])
    assert [s.shapes.title.text for s in deck.slides] == ["Review", "Numbers", "Table"]
    body = deck.slides[1].placeholders[1].text_frame.paragraphs
    assert [(p.text, p.level) for p in body] == [("up 12%", 0), ("mostly north", 1)]
    assert deck.slides[1].notes_slide.notes_text_frame.text == "say thanks"
    table = next(s for s in deck.slides[2].shapes if s.has_table).table
    assert table.cell(1, 1).text == "2"


def test_a_taken_name_gets_a_new_file_and_overwrite_asks_twice_and_keeps_a_backup(
        tools: dict[str, Any], folders: dict[str, Path], ctx: SkillContext) -> None:
    report = tools["office_report"]
    first = report.run({"markdown": "one", "output": "r.docx"}, ctx).data["written"]
    second = report.run({"markdown": "two", "output": "r.docx"}, ctx).data["written"]
    assert first.endswith("r.docx") and second.endswith("r (2).docx")
    args = {"markdown": "three", "output": "r.docx", "overwrite": True}
    asks = report.confirmations(args, ctx)
    assert len(asks) == 2 and "REPLACED" in asks[1] and "backup" in asks[1]
    data = report.run(args, ctx).data
    assert data["written"] == first and os.path.exists(data["backup"])
    import docx

    assert docx.Document(first).paragraphs[0].text == "three"
    assert "restored" in undo(data)
    assert docx.Document(first).paragraphs[0].text == "one"
    assert not os.path.exists(data["backup"])


def test_undo_removes_a_new_file_but_not_one_the_user_edited(
        tools: dict[str, Any], folders: dict[str, Path], ctx: SkillContext) -> None:
    data = tools["office_convert"].run({"to": "csv", "columns": ["a"], "rows": [[1]]}, ctx).data
    edited = tools["office_convert"].run({"to": "csv", "columns": ["a"], "rows": [[2]]}, ctx).data
    undo(data)
    assert not os.path.exists(data["written"])
    Path(edited["written"]).write_text("a\n3\n")
    with pytest.raises(SkillError, match="changed after"):
        undo(edited)
    assert os.path.exists(edited["written"])


@pytest.mark.parametrize("output", ["../escape.docx", "/etc/passwd", "CON.docx", "bad:name.docx",
                                    "trailing.docx.", "/dev/null"])
def test_targets_outside_the_chosen_folders_or_with_bad_names_are_refused(
        tools: dict[str, Any], folders: dict[str, Path], ctx: SkillContext, output: str) -> None:
    before = listing(folders["outside"])
    with pytest.raises(SkillError):
        tools["office_report"].confirmations({"markdown": "x", "output": output}, ctx)
    assert listing(folders["outside"]) == before


def test_links_and_devices_in_the_output_folder_are_never_written(
        tools: dict[str, Any], folders: dict[str, Path], ctx: SkillContext) -> None:
    folders["output"].mkdir()
    (folders["output"] / "out.docx").symlink_to(folders["outside"] / "elsewhere.docx")
    with pytest.raises(SkillError, match="link"):
        tools["office_report"].run({"markdown": "x", "output": "out.docx",
                                    "overwrite": True}, ctx)
    os.mkfifo(folders["output"] / "pipe.csv")
    with pytest.raises(SkillError, match="not a regular file"):
        tools["office_convert"].run({"to": "csv", "columns": ["a"], "rows": [],
                                     "output": "pipe.csv", "overwrite": True}, ctx)
    assert not (folders["outside"] / "elsewhere.docx").exists()


def test_next_to_source_uses_a_suffix(tools: dict[str, Any], folders: dict[str, Path],
                                      ctx: SkillContext) -> None:
    source = make_sales(folders["chosen"] / "sales.xlsx")
    data = tools["office_clean"].run({"source": str(source), "next_to_source": True,
                                      "operations": [{"op": "trim"}]}, ctx).data
    assert data["written"] == str(folders["chosen"] / "sales-clean.xlsx")
