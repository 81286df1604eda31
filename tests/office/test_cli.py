"""`hearth office ...` driven through app.main.main like a user would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.core.paths import Paths
from app.core.settings import Settings, save_settings
from app.main import main
from tests.office.conftest import listing, make_sales


def _last(out: str) -> dict[str, Any]:
    return json.loads(out.strip().splitlines()[-1])


@pytest.fixture
def output(tmp_path: Path) -> Path:
    folder = tmp_path / "made"
    save_settings(Settings(office_output_folder=str(folder)), Paths.from_env().ensure().settings_file)
    return folder


def test_inspect_and_query_as_json(tmp_path: Path, output: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    book = make_sales(tmp_path / "sales.xlsx")
    assert main(["office", "inspect", str(book), "--json"]) == 0
    inspected = _last(capsys.readouterr().out)
    assert inspected["sheets"][0]["header_row"] == 2 and "text" not in inspected  # records
    assert main(["office", "query", str(book), "--sql", "select sum(金额) from 销售",
                 "--json"]) == 0
    assert _last(capsys.readouterr().out)["rows"] == [[6600]]
    assert main(["office", "query", str(book), "--sql", "select count(*) as n from 销售"]) == 0
    shown = capsys.readouterr().out
    assert "| 12 |" in shown and "1 row(s)" in shown
    assert "document_data" not in shown and "instructions" not in shown  # nothing for a model
    assert main(["office", "inspect", str(book)]) == 0
    shown = capsys.readouterr().out
    assert "sales.xlsx: 2 sheet(s)" in shown and "header on row 2" in shown
    assert "document_data" not in shown
    assert main(["office", "query", str(book), "--sql", "drop table 销售"]) == 2
    assert "only SELECT" in capsys.readouterr().err


def test_writes_need_yes(tmp_path: Path, output: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = make_sales(tmp_path / "sales.xlsx")
    assert main(["office", "convert", str(book), "--to", "csv", "--json"]) == 2  # stdin: no tty
    assert listing(output) == []
    assert main(["office", "convert", str(book), "--to", "csv", "--yes", "--json"]) == 0
    assert _last(capsys.readouterr().out)["written"] == str(output / "sales.csv")
    md = tmp_path / "r.md"
    md.write_text("# Hi\n\n- a\n", encoding="utf-8")
    assert main(["office", "report", str(md), "--title", "T", "--yes"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("Wrote ") and "T.docx" in said and "the user" not in said.lower()
    slides = tmp_path / "s.json"
    slides.write_text(json.dumps([{"title": "One", "bullets": ["x"]}]))
    assert main(["office", "slides", str(slides), "--yes"]) == 0
    assert main(["office", "clean", str(book), "--ops", '[{"op": "trim"}]', "--yes"]) == 0
    assert listing(output) == ["One.pptx", "T.docx", "sales-clean.xlsx", "sales.csv"]
    assert main(["office", "report", str(md), "--output", "/etc/x.docx", "--yes"]) == 2
    assert "outside the folders" in capsys.readouterr().err
