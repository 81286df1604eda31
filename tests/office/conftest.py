"""Workbooks and folders for the office tests, made with openpyxl the way users' files look."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from skills.base import SkillContext
from skills.office import OfficeAccess, office_skills


def make_sales(path: Path) -> Path:
    """A title line merged above the header, Chinese headers, numbers as text, blanks, a
    vertically merged region, a formula."""
    import openpyxl

    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "销售"
    ws.append(["Quarterly sales 2026"])
    ws.merge_cells("A1:D1")
    ws.append(["客户", "金额", "日期", "地区"])
    for i in range(12):
        amount: Any = str(100 * i) if i % 2 else 100 * i
        ws.append([f"c{i % 3}", amount, datetime(2026, 1, i + 1), "north" if i == 0 else None])
    ws.merge_cells("D3:D6")  # rows 3-6 are all "north"
    ws["E3"] = "=B3*2"
    other = book.create_sheet("Customers")
    other.append(["id", "name"])
    for i in range(3):
        other.append([f"c{i}", f"Customer {i}"])
    book.save(path)
    return path


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    chosen = tmp_path / "chosen"
    output = tmp_path / "out"
    chosen.mkdir()
    return {"chosen": chosen, "output": output, "outside": tmp_path}


@pytest.fixture
def access(folders: dict[str, Path]) -> OfficeAccess:
    return OfficeAccess(roots=lambda: [str(folders["chosen"])],
                        output=lambda: str(folders["output"]))


@pytest.fixture
def tools(access: OfficeAccess) -> dict[str, Any]:
    return {s.name: s for s in office_skills(access)}


@pytest.fixture
def ctx() -> SkillContext:
    return SkillContext(conversation_id="conv")


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []
