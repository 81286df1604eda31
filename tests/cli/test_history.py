"""`hearth history list|search|export|delete`, driven through app.main.main like a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.history import HistoryStore
from app.core.paths import Paths
from app.main import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def chats(hearth_home: Path) -> dict[str, str]:
    """Three saved conversations in the HEARTH_HOME the CLI will open."""
    store = HistoryStore(Paths.from_env().ensure().history_db)
    ids = {}
    for title, text in [
        ("Garden", "When to plant tulips?"),
        ("Taxes", "Deadline for taxes"),
        ("Old", "an archived tulip question"),
    ]:
        chat = store.create_conversation(title)
        store.add_message(chat.id, "user", text)
        store.add_message(chat.id, "assistant", f"Answer about {title.lower()}")
        ids[title] = chat.id
    store.set_pinned(ids["Garden"], True)
    store.close()
    assert main(["history", "archive", ids["Old"][:8]]) == 0
    return ids


def _lines(out: str) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in out.splitlines()]


def test_list_shows_pinned_first_and_hides_archived(chats, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["history", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[-1] for line in lines] == ["Garden", "Taxes"]
    assert lines[0].startswith(chats["Garden"][:8])
    assert main(["history", "list", "--all", "--json"]) == 0
    listed = _lines(capsys.readouterr().out)
    assert [c["title"] for c in listed] == ["Garden", "Old", "Taxes"]  # Old was made last
    assert listed[0]["pinned"] is True and listed[1]["archived"] is True


def test_list_shows_when_on_this_computers_clock(chats, capsys, far_east) -> None:  # type: ignore[no-untyped-def]
    import sqlite3

    with sqlite3.connect(Paths.from_env().history_db) as conn:
        conn.execute("update conversations set updated = ? where id = ?",
                     ["2026-12-02T20:00:00.000+00:00", chats["Taxes"]])
    capsys.readouterr()
    assert main(["history", "list"]) == 0
    (taxes,) = [line for line in capsys.readouterr().out.splitlines() if line.endswith("Taxes")]
    assert "2026-12-03 10:00" in taxes  # UTC+14 here, not the UTC "2026-12-02 20:00"


def test_an_archived_conversation_is_listed_again_with_undo(chats, capsys) -> None:  # type: ignore[no-untyped-def]
    capsys.readouterr()
    assert main(["history", "archive", chats["Old"], "--undo", "--json"]) == 0
    assert _lines(capsys.readouterr().out) == [{"conversation": chats["Old"], "archived": False}]
    assert main(["history", "list"]) == 0
    assert [line.split()[-1] for line in capsys.readouterr().out.splitlines()] == [
        "Garden", "Old", "Taxes"]


def test_list_on_a_new_install_says_so(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["history", "list"]) == 0
    assert capsys.readouterr().out == "No conversations yet.\n"
    assert main(["history", "list", "--json"]) == 0
    assert capsys.readouterr().out == ""


def test_search_prints_hits_with_highlights(chats, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["history", "search", "tulip", "--json"]) == 0
    hits = _lines(capsys.readouterr().out)
    assert {h["conversation_title"] for h in hits} == {"Garden", "Old"}
    assert all("[[tulip" in h["snippet"] for h in hits)
    assert main(["history", "search", "taxes"]) == 0
    out = capsys.readouterr().out
    assert "Taxes" in out and "[[taxes]]" in out  # not a terminal: markers kept
    assert main(["history", "search", "zucchini"]) == 0
    assert capsys.readouterr().out == "Nothing matches.\n"


def test_export_one_conversation_as_markdown_to_stdout(chats, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["history", "export", "--conversation", chats["Taxes"][:6]]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Taxes\n") and "Deadline for taxes" in out and "Garden" not in out


def test_export_with_json_flag_prints_json(chats, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["history", "export", "--json", "--conversation", chats["Garden"]]) == 0
    [exported] = json.loads(capsys.readouterr().out)
    assert exported["title"] == "Garden" and exported["messages"][0]["role"] == "user"


def test_export_all_as_json_to_a_file(chats, capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "all.json"
    assert main(["history", "export", "--format", "json", "--output", str(target), "--json"]) == 0
    assert _lines(capsys.readouterr().out) == [
        {"written": str(target), "format": "json", "conversation": None}
    ]
    exported = json.loads(target.read_text(encoding="utf-8"))
    assert {c["title"] for c in exported} == {"Garden", "Taxes", "Old"}
    assert all(len(c["messages"]) == 2 for c in exported)


def test_delete_removes_it_from_list_and_search(chats, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["history", "delete", chats["Garden"][:8], "--json"]) == 0
    assert _lines(capsys.readouterr().out) == [{"deleted": chats["Garden"], "title": "Garden"}]
    main(["history", "list", "--all", "--json"])
    assert [c["title"] for c in _lines(capsys.readouterr().out)] == ["Old", "Taxes"]
    main(["history", "search", "plant", "--json"])
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["history", "delete", "nope"], "hearth: no conversation with id 'nope'\n"),
        (
            ["history", "export", "--conversation", "nope"],
            "hearth: no conversation with id 'nope'\n",
        ),
        (["history"], "hearth: choose one of: history list, search, export, archive, delete, recover\n"),
    ],
)
def test_mistakes_give_one_line_and_an_error_code(chats, capsys, argv, message) -> None:  # type: ignore[no-untyped-def]
    assert main(argv) == 2  # bad input (README: exit codes)
    captured = capsys.readouterr()
    assert captured.err == message and captured.out == ""


def test_unwritable_output_is_reported(chats, capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "missing-folder" / "out.md"
    assert main(["history", "export", "--output", str(target)]) == 11  # storage
    err = capsys.readouterr().err
    assert err.startswith(f"hearth: cannot write {target}") and err.count("\n") == 1


def test_empty_id_is_refused(chats, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["history", "delete", ""]) == 2
    assert capsys.readouterr().err == "hearth: no conversation id given\n"


# Each costs tens to hundreds of milliseconds to import and no list needs it: the assistant, its
# tool schemas and chat template, the engines.
NOT_FOR_A_LIST = ("app.core.assistant", "jsonschema", "jinja2", "backends.llama_cpp",
                  "backends.mlx_backend", "llama_cpp", "skills.documents")


def test_listing_does_not_load_the_assistant(chats) -> None:  # type: ignore[no-untyped-def]
    # A fresh process, as a person runs it: `hearth history list` answered in ~0.9 s, most of it
    # importing `hearth ask`'s assistant while building the command line.
    script = ("import json, sys\nfrom app.main import main\ncode = main(['history', 'list'])\n"
              "print('MODULES ' + json.dumps(sorted(sys.modules)))\nsys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=True)
    listing, modules = done.stdout.split("MODULES ")
    assert [line.split()[-1] for line in listing.splitlines()] == ["Garden", "Taxes"]
    assert sorted(set(json.loads(modules)) & set(NOT_FOR_A_LIST)) == []
