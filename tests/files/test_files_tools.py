"""The assistant's tools: results for the UI, approval texts, and refusals outside the roots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from files_helpers import write

from skills.base import SkillContext, SkillError, tool_spec
from skills.files import file_skills
from skills.files.opener import open_command, reveal_command


class RecordingOpener:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def open(self, path: str) -> None:
        self.calls.append(("open", path))

    def reveal(self, path: str) -> None:
        self.calls.append(("reveal", path))


@pytest.fixture
def tools(root: Path, make_index):  # type: ignore[no-untyped-def]
    write(root / "Trip" / "itinerary.txt", "flight to Lisbon on Friday")
    write(root / "Trip" / "budget.csv", "hotel,300")
    index = make_index(root)
    index.scan()
    opener = RecordingOpener()
    return {s.name: s for s in file_skills(index, opener)}, opener


def test_search_files_returns_a_clickable_list_and_readable_text(tools, root: Path) -> None:
    skills, _ = tools
    result = skills["search_files"].run({"query": "lisbon"}, SkillContext())
    assert [d["name"] for d in result.data] == ["itinerary.txt"]
    row = result.data[0]
    assert set(row) == {"path", "name", "kind", "size", "modified", "snippet"}
    assert row["path"] == str(root / "Trip" / "itinerary.txt")
    assert "+" in row["modified"] or "-" in row["modified"][10:]  # ISO 8601 with offset
    assert "itinerary.txt" in result.text and "**Lisbon**" in result.text


def test_search_files_filters_and_reports_bad_arguments(tools) -> None:
    skills, _ = tools
    search = skills["search_files"]
    result = search.run({"kind": "spreadsheet", "modified_after": "2000-01-01"}, SkillContext())
    assert [d["name"] for d in result.data] == ["budget.csv"]
    assert search.run({"query": "nothing-like-this"}, SkillContext()).data == []
    for bad in ({"modified_after": "last tuesday"}, {"kind": "boat"}, {"larger_than": "big"}):
        with pytest.raises(SkillError):
            search.run(bad, SkillContext())


def test_open_and_reveal_need_approval_and_use_the_opener(tools, root: Path) -> None:
    skills, opener = tools
    path = str(root / "Trip" / "itinerary.txt")
    assert not skills["search_files"].changes_things and not skills["file_info"].changes_things
    for name in ("open_file", "reveal_file"):
        skill = skills[name]
        assert skill.changes_things
        assert path in skill.describe_change({"path": path})
        assert path in skill.run({"path": path}, SkillContext()).text
    assert opener.calls == [("open", path), ("reveal", path)]


def test_paths_outside_the_roots_are_refused(tools, root: Path, tmp_path: Path) -> None:
    skills, opener = tools
    secret = write(tmp_path / "secret.txt", "keys")
    os.symlink(secret, root / "sneaky.txt")  # inside by name, outside once resolved
    for target in (str(secret), str(root / "sneaky.txt"), str(root / ".." / "secret.txt")):
        for name in ("open_file", "reveal_file", "file_info"):
            with pytest.raises(SkillError, match="outside the folders"):
                skills[name].run({"path": target}, SkillContext())
    with pytest.raises(SkillError, match="path is required"):
        skills["open_file"].run({}, SkillContext())
    assert opener.calls == []


def test_file_info_describes_a_file(tools, root: Path) -> None:
    skills, _ = tools
    result = skills["file_info"].run({"path": str(root / "Trip" / "budget.csv")}, SkillContext())
    assert result.data["kind"] == "spreadsheet" and result.data["size"] == 9
    assert result.data["indexed"] is True


def test_tool_specs_are_valid_json_schema(tools) -> None:
    import jsonschema

    skills, _ = tools
    for skill in skills.values():
        jsonschema.Draft202012Validator.check_schema(skill.parameters)
        assert tool_spec(skill)["function"]["name"] == skill.name


@pytest.mark.parametrize(("platform", "opened", "revealed"), [
    ("darwin", ["open", "/d/f.pdf"], ["open", "-R", "/d/f.pdf"]),
    ("linux", ["xdg-open", "/d/f.pdf"], ["xdg-open", "/d"]),
    ("win32", None, ["explorer", "/select,/d/f.pdf"]),
])
def test_platform_commands(platform: str, opened, revealed) -> None:  # type: ignore[no-untyped-def]
    assert open_command("/d/f.pdf", platform) == opened
    assert reveal_command("/d/f.pdf", platform) == revealed


def test_paths_relative_to_a_root_are_accepted(tools, root: Path) -> None:
    skills, opener = tools
    result = skills["search_files"].run({"folder": "Trip", "query": "hotel"}, SkillContext())
    assert [d["name"] for d in result.data] == ["budget.csv"]
    skills["open_file"].run({"path": "Trip/itinerary.txt"}, SkillContext())
    assert opener.calls == [("open", str(root / "Trip" / "itinerary.txt"))]
    write(root.parent / "outside.txt", "exists, but outside")
    for escape in ("../outside.txt", "Nowhere/else.txt"):
        with pytest.raises(SkillError):
            skills["open_file"].run({"path": escape}, SkillContext())
    assert len(opener.calls) == 1
