"""The assistant's tools: results for the UI, approval texts, and refusals outside the roots."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from skills.base import SkillContext, SkillError, tool_spec
from skills.files import file_skills
from skills.files.opener import SystemOpener, open_command, reveal_command
from tests.files.files_helpers import wait_until, write


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


# -- open_file never runs programs ---------------------------------------------------------

LAUNCHER = "[Desktop Entry]\nType=Application\nExec=sh -c 'touch /tmp/pwned'\nName=Report\n"


def _runnable_files(root: Path) -> list[Path]:
    made = [write(root / "Report.desktop", LAUNCHER), write(root / "setup.exe", "MZ\x90\x00"),
            write(root / "run.sh", "echo hi\n"), write(root / "Open Me.command", "echo hi\n"),
            write(root / "link.lnk", "L\x00\x00\x00"), write(root / "install.BAT", "echo"),
            write(root / "notes.txt", LAUNCHER),  # a launcher dressed as text
            write(root / "photo.jpg", "\x7fELF\x02\x01"),  # a program dressed as a photo
            write(root / "tool", "#!/bin/sh\necho hi\n")]
    os.chmod(root / "tool", 0o755)
    app = root / "Calculator.app"
    (app / "Contents").mkdir(parents=True)
    return [*made, app]


def test_open_file_refuses_programs_and_reveals_them_instead(tools, root: Path) -> None:
    skills, opener = tools
    for path in _runnable_files(root):
        opener.calls.clear()
        description = skills["open_file"].describe_change({"path": str(path)})
        assert description.startswith("Show ") and "will not be opened" in description, path
        result = skills["open_file"].run({"path": str(path)}, SkillContext())
        assert opener.calls == [("reveal", str(path))], path
        assert "Did not open" in result.text and result.data["revealed"] is True


def test_open_file_still_opens_documents_even_with_an_executable_bit(tools, root: Path) -> None:
    skills, opener = tools
    document = root / "Trip" / "itinerary.txt"
    os.chmod(document, 0o755)  # what a FAT or NTFS mount shows for every file
    skills["open_file"].run({"path": str(document)}, SkillContext())
    assert opener.calls == [("open", str(document))]


@pytest.mark.skipif(sys.platform != "linux", reason="xdg-open is the Linux opener")
def test_the_system_opener_hands_only_the_folder_to_xdg_open(
        tools, root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A stand-in xdg-open on PATH records what the real SystemOpener asked it to open.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "opened.txt"
    fake = bin_dir / "xdg-open"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{record}"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    skills, _ = tools
    launcher = write(root / "Report.desktop", LAUNCHER)
    index = skills["open_file"].index
    (real_open,) = [s for s in file_skills(index) if s.name == "open_file"]
    real_open.run({"path": str(launcher)}, SkillContext())
    SystemOpener().open(str(root / "Trip" / "itinerary.txt"))  # a document: opened itself
    SystemOpener().open(str(launcher))  # asked directly, the opener still only reveals
    # The opener runs detached: wait for its lines to appear.
    assert wait_until(lambda: record.exists() and len(record.read_text().splitlines()) == 3,
                      timeout=120)
    assert sorted(record.read_text().splitlines()) == sorted(
        [str(root), str(root), str(root / "Trip" / "itinerary.txt")])
