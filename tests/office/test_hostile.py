"""Hostile inputs: huge sheets, zip bombs, external links, mixed encodings. Each is refused or
limited with a clear message; nothing is written and the tools keep working."""

from __future__ import annotations

import resource
import zipfile
from pathlib import Path
from typing import Any

import pytest

from skills.base import SkillContext, SkillError
from skills.office import Limits, OfficeAccess, office_skills


def huge_xlsx(path: Path, rows: int) -> Path:
    """A real workbook with `rows` rows, written as raw XML (openpyxl would take minutes)."""
    import openpyxl

    openpyxl.Workbook().save(path)  # the package parts, then a big sheet in place of sheet1
    with zipfile.ZipFile(path) as src:
        parts = {n: src.read(n) for n in src.namelist()}
    head = ('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats'
            f'.org/spreadsheetml/2006/main"><dimension ref="A1:B{rows + 1}"/><sheetData>'
            '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr">'
            "<is><t>name</t></is></c></row>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in parts.items():
            if name != "xl/worksheets/sheet1.xml":
                out.writestr(name, data)
        with out.open("xl/worksheets/sheet1.xml", "w") as sheet:  # streamed: memory stays small
            sheet.write(head.encode())
            for start in range(2, rows + 2, 10_000):
                sheet.write("".join(
                    f'<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="B{r}" t="inlineStr"><is><t>'
                    f"n{r % 7}</t></is></c></row>"
                    for r in range(start, min(start + 10_000, rows + 2))).encode())
            sheet.write(b"</sheetData></worksheet>")
    return path


@pytest.fixture
def small(folders: dict[str, Path]) -> dict[str, Any]:
    access = OfficeAccess(roots=lambda: [str(folders["chosen"])],
                          output=lambda: str(folders["output"]))
    return {s.name: s for s in office_skills(access, limits=Limits(max_rows=5000))}


def test_a_million_row_workbook_is_limited_with_a_clear_message(
        small: dict[str, Any], folders: dict[str, Path], ctx: SkillContext) -> None:
    path = huge_xlsx(folders["chosen"] / "huge.xlsx", 1_000_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    inspected = small["office_inspect"].run({"file": str(path)}, ctx)
    assert "LIMITED" in inspected.text and "1000001" in inspected.text
    result = small["office_query"].run({"files": [str(path)], "sql": "select count(*) from"
                                        " Sheet"}, ctx)
    assert result.data["rows"] == [[5000]] and "LIMITED" in result.text
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 300  # reading stopped at the limit: memory did not follow the file
    with pytest.raises(SkillError, match="more rows than"):  # never writes a cut copy
        small["office_convert"].run({"source": str(path), "to": "csv"}, ctx)
    assert not folders["output"].exists()


def test_a_zip_bomb_xlsx_is_refused_before_it_expands(
        tools: dict[str, Any], folders: dict[str, Path], ctx: SkillContext) -> None:
    path = folders["chosen"] / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (60 * 1024 * 1024))
    for name, args in (("office_inspect", {"file": str(path)}),
                       ("office_query", {"files": [str(path)], "sql": "select 1"})):
        with pytest.raises(SkillError, match="zip bomb"):
            tools[name].run(args, ctx)
    with pytest.raises(SkillError, match="zip bomb"):
        tools["office_convert"].confirmations({"source": str(path), "to": "csv"}, ctx)


def test_formulas_with_external_links_are_counted_and_never_followed(
        tools: dict[str, Any], folders: dict[str, Path], ctx: SkillContext) -> None:
    import openpyxl
    from openpyxl.packaging.relationship import Relationship
    from openpyxl.workbook.external_link.external import ExternalBook, ExternalLink

    book = openpyxl.Workbook()
    ws = book.active
    ws.append(["item", "price"])
    ws.append(["tea", "=[1]Prices!B2"])
    link = ExternalLink(externalBook=ExternalBook(id="rId1"))
    link.file_link = Relationship(type="externalLinkPath", Target="file:///etc/passwd",
                                  TargetMode="External", Id="rId1")
    book._external_links.append(link)
    path = folders["chosen"] / "linked.xlsx"
    book.save(path)
    result = tools["office_inspect"].run({"file": str(path)}, ctx)
    assert "1 link(s) to other workbooks" in result.text and "never opens" in result.text
    assert result.data["sheets"][0]["formulas"] == 1
    rows = tools["office_query"].run({"files": [str(path)], "sql": "select * from Sheet"},
                                     ctx).data["rows"]
    assert rows == [["tea", None]]  # the saved value (none), not the linked file's


def test_csv_with_a_bom_and_lines_in_another_encoding(
        tools: dict[str, Any], folders: dict[str, Path], ctx: SkillContext) -> None:
    bom = folders["chosen"] / "bom.csv"
    bom.write_bytes("\ufeff城市,人口\n北京,21\n".encode())
    data = tools["office_query"].run({"files": [str(bom)], "sql": "select 城市, 人口 from bom"},
                                     ctx).data
    assert data["rows"] == [["北京", 21]]
    mixed = folders["chosen"] / "mixed.csv"
    mixed.write_bytes("name,city\nZoë,Zürich\n".encode() + "Renée,Besançon\n".encode("cp1252"))
    result = tools["office_inspect"].run({"file": str(mixed)}, ctx)
    assert "1 line(s) were not UTF-8" in result.text
    rows = tools["office_query"].run({"files": [str(mixed)], "sql": "select name from mixed"},
                                     ctx).data["rows"]
    assert rows == [["Zoë"], ["Renée"]]


def test_garbage_files_give_one_line_reasons(tools: dict[str, Any], folders: dict[str, Path],
                                             ctx: SkillContext) -> None:
    fake = folders["chosen"] / "fake.xlsx"
    fake.write_bytes(b"this is not a workbook")
    with pytest.raises(SkillError, match="not a valid XLSX") as error:
        tools["office_inspect"].run({"file": str(fake)}, ctx)
    assert "\n" not in str(error.value)
    text = folders["chosen"] / "notes.txt"
    text.write_text("hello")
    with pytest.raises(SkillError, match="not a workbook or CSV"):
        tools["office_inspect"].run({"file": str(text)}, ctx)
    with pytest.raises(SkillError, match="not a regular file"):
        tools["office_inspect"].run({"file": str(folders["chosen"])}, ctx)
