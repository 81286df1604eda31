"""Every CSV Hearth writes is one a spreadsheet cannot run: text starting with =, +, -, @, tab
or CR is written quoted behind an apostrophe (OWASP), and `clean` never strips that away."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from skills.base import SkillContext
from skills.office.tables import FORMULA_STARTS

LIVE = ["=HYPERLINK(\"http://evil\",\"x\")", "=cmd|' /C calc'!A0", "@SUM(1+1)", "+1+1", "-2+3",
        "\t=1+1", "\r=1+1"]


def written_rows(path: str) -> list[list[str]]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))


def assert_inert(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            assert not cell.startswith(FORMULA_STARTS) or _number(cell), (cell, row)


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_formula_text_is_written_behind_an_apostrophe(tools: dict[str, Any],
                                                      ctx: SkillContext) -> None:
    made = tools["office_convert"].run({"to": "csv", "output": "live.csv", "columns": ["v", "n"],
                                        "rows": [[v, -5] for v in LIVE]}, ctx).data
    rows = written_rows(made["written"])
    assert_inert(rows)
    assert [r[0] for r in rows[1:]] == ["'" + v for v in LIVE]  # nothing else changed
    assert {r[1] for r in rows[1:]} == {"-5"}  # a negative number stays a number
    raw = Path(made["written"]).read_text(encoding="utf-8-sig")
    assert "\"'@SUM(1+1)\"" in raw  # quoted as well, as OWASP asks


def test_clean_keeps_the_protection(tools: dict[str, Any], folders: dict[str, Path],
                                    ctx: SkillContext) -> None:
    source = folders["chosen"] / "protected.csv"
    # Protected the old way (a leading tab or CR): trim must not make them live.
    source.write_text('name,formula\nAnn,"\t=HYPERLINK(""http://evil"")"\nBo," \r@SUM(1)"\n'
                      "Cy,'=kept\n", encoding="utf-8")
    result = tools["office_clean"].run({"source": str(source), "operations": [
        {"op": "trim"}]}, ctx)
    rows = written_rows(result.data["written"])
    assert_inert(rows)
    assert [r[1] for r in rows[1:]] == ["'=HYPERLINK(\"http://evil\")", "'@SUM(1)", "'=kept"]
