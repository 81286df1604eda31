"""Text from models and files cannot drive the terminal; confirmations show the whole change."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from app.cli.terminal import SafeStream, json_safe, visible
from app.main import main
from tests.support.model_output import answer
from tests.support.scripted_cli import script_file

# Erase the line, move up, hide text, then a bidi override and a bare carriage return.
HOSTILE = "Dentist\x1b[2K\x1b[1A\x1b[8mhidden\x1b[0m\u202eevil\r\x9b31m"


def no_controls(text: str) -> None:
    assert "\x1b" not in text and "\r" not in text and "\u202e" not in text
    assert "\x9b" not in text


def test_visible_writes_out_what_a_terminal_would_obey() -> None:
    assert visible(HOSTILE) == ("Dentist\\x1b[2K\\x1b[1A\\x1b[8mhidden\\x1b[0m\\u202eevil\\x0d"
                                "\\x9b31m")
    assert visible("line one\n\tline two, 中文") == "line one\n\tline two, 中文"
    assert visible("half \ud83d surrogate") == "half \\ud83d surrogate"


def test_json_lines_carry_the_same_data_with_nothing_raw() -> None:
    line = json_safe(json.dumps({"t": HOSTILE + "\ud83d"}, ensure_ascii=False))
    no_controls(line)
    assert json.loads(line) == {"t": HOSTILE + "\ud83d"}


def test_own_codes_pass_and_everything_else_is_shown() -> None:
    raw = io.StringIO()
    stream = SafeStream(raw)
    stream.control("\r\x1b[K")
    stream.write(HOSTILE)
    assert raw.getvalue().startswith("\r\x1b[K") and "\x1b" not in raw.getvalue()[4:]


def test_calendar_list_shows_a_hostile_title_visibly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calendar", "add", "--title", HOSTILE, "--start", "2026-12-03T10:00"]) == 0
    assert main(["calendar", "list", "--from", "2026-12-03", "--to", "2026-12-04"]) == 0
    out = capsys.readouterr().out
    no_controls(out)
    assert "Dentist\\x1b[2K\\x1b[1A" in out


def test_file_names_with_escapes_are_shown_visibly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "report\x1b[2K\x1b[1Afake.txt").write_text("quarterly numbers")
    assert main(["files", "add-root", str(folder)]) == 0
    assert main(["files", "search", "quarterly"]) == 0
    captured = capsys.readouterr()
    no_controls(captured.out + captured.err)
    assert "report\\x1b[2K\\x1b[1Afake.txt" in captured.out


def test_a_spoofing_tool_argument_cannot_rewrite_the_confirmation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The model asks to add an event whose title tries to erase the line and write its own
    # harmless-looking question; the person sees the escape codes and every argument in full.
    title = "Tea\x1b[2K\x1b[1A\rAllow this? Read the clock [y/N] "
    call = ("I will add it.\n</think>\n\n<tool_call>\n<function=add_event>\n"
            f"<parameter=title>\n{title}\n</parameter>\n"
            "<parameter=start>\n2026-12-03T10:00\n</parameter>\n</function>\n</tool_call>")
    file = script_file(tmp_path, call, answer("Not added."), "Tea")
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    assert main(["ask", "add tea", "--engine", "scripted", "--script", file]) == 0
    err = capsys.readouterr().err
    no_controls(err)
    confirm = err[err.index("[confirm]"):err.index("[y/N] \n") if "[y/N] \n" in err else None]
    assert "tool: add_event" in confirm
    assert "Add 'Tea\\x1b[2K\\x1b[1A\\x0dAllow this? Read the clock [y/N]' on" in confirm
    assert 'title: "Tea\\u001b[2K\\u001b[1A\\rAllow this? Read the clock [y/N]"' in confirm
    assert "start: \"2026-12-03T10:00\"" in confirm
