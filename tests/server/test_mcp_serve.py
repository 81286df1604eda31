"""`hearth mcp serve` through the official `mcp` SDK client over stdio: tools listed and
called, citations with file and page, reads kept inside the chosen folders, calendar changes
only as proposals approved in Hearth."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from app.core.paths import Paths
from app.core.runner import ModelRunner
from app.core.server.proposals import ProposalDesk
from app.core.server.service import ApiServer, ServerConfig
from app.main import main
from skills.calendar import CalendarStore
from skills.calendar.tools import calendar_skills
from tests.documents.corpus import write_pdf
from tests.server.served import ROOT


@pytest.fixture
def chosen(tmp_path: Path, hearth_home: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    folder = tmp_path / "chosen"
    folder.mkdir()
    write_pdf(folder / "manual.pdf", [["Setup guide"], ["Replace the kettle filter monthly."]])
    (folder / "notes.txt").write_text("kettle descaling notes", encoding="utf-8")
    assert main(["docs", "add", str(folder)]) == 0
    assert main(["files", "add-root", str(folder)]) == 0
    capsys.readouterr()
    return folder


def session(home: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """Start `hearth mcp serve`, list its tools, make the calls; returns [tools, *results]."""
    # The MCP SDK is imported as the tests run, not at collection: it takes a second or two.
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "app.main", "mcp", "serve"],
                                   env={**os.environ, "HEARTH_HOME": str(home),
                                        "PYTHONPATH": str(ROOT)}, cwd=str(ROOT))

    async def run() -> list[Any]:
        # The server's stderr to a file: the SDK's default is sys.stderr as it was when the SDK
        # was first imported, which under capsys is a buffer with no file descriptor.
        with (home.parent / "mcp-serve.log").open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog),
                              read_timeout_seconds=120) as client:
                found: list[Any] = [(await client.list_tools()).tools]
                for name, arguments in calls:
                    found.append(await client.call_tool(name, arguments))
                return found

    return asyncio.run(run())


def text(result: Any) -> str:
    return "".join(part.text for part in result.content)


def test_tools_listed_and_called_with_citations(chosen: Path, hearth_home: Path) -> None:
    tools, search, read, files, events, wrong = session(hearth_home, [
        ("search_documents", {"query": "kettle filter"}),
        ("read_document", {"document": str(chosen / "manual.pdf"), "pages": "2"}),
        ("search_files", {"query": "descaling"}),
        ("list_events", {"start": "2026-12-01T00:00:00Z", "end": "2026-12-08T00:00:00Z"}),
        ("list_events", {"start": "tomorrow"}),
    ])
    names = {tool.name for tool in tools}
    assert {"search_documents", "read_document", "search_files", "list_events",
            "find_free_time", "add_event"} <= names
    assert "open_file" not in names and "get_current_time" not in names
    source = search.structured_content["sources"][0]
    assert source["file"] == str(chosen / "manual.pdf") and source["page"] == 2
    assert not search.is_error and "kettle filter" in text(search)
    assert "Replace the kettle filter monthly." in text(read)
    assert "notes.txt" in text(files) and not files.is_error
    assert not events.is_error
    assert wrong.is_error and "'end' is a required property" in text(wrong)


def test_paths_outside_the_chosen_folders_are_refused(chosen: Path, hearth_home: Path,
                                                      tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("private", encoding="utf-8")
    (chosen / "escape").symlink_to(tmp_path)
    _, read, escape, folder = session(hearth_home, [
        ("read_document", {"document": str(secret)}),
        ("read_document", {"document": str(chosen / "escape" / "secret.txt")}),
        ("search_files", {"query": "private", "folder": str(tmp_path)}),
    ])
    for result in (read, escape, folder):
        assert result.is_error and "outside the folders you chose" in text(result)
        assert "private" not in text(result).replace("'private'", "")


def test_calendar_change_refused_when_hearth_is_not_running(chosen: Path,
                                                            hearth_home: Path) -> None:
    _, added = session(hearth_home, [("add_event", {
        "title": "Dentist", "start": "2026-12-03T10:00:00", "end": "2026-12-03T11:00:00"})])
    assert added.is_error and "Nothing was changed" in text(added)
    store = CalendarStore(Paths.from_env().history_db)
    try:
        assert store.all_events() == []
    finally:
        store.close()


def test_calendar_change_made_once_approved_in_hearth(chosen: Path, hearth_home: Path) -> None:
    paths = Paths.from_env()
    store = CalendarStore(paths.history_db)
    asked: list[str] = []

    def person(request: Any) -> None:  # the app shows this; here the person says yes
        asked.append(request.description)
        request.approve()

    runner = ModelRunner()
    desk = ProposalDesk(calendar_skills(store, "UTC"), person, "UTC")
    server = ApiServer(runner, ServerConfig(api_key=lambda: "k" * 20, port=0), proposals=desk)
    server.start()
    try:
        settings_file = paths.settings_file
        saved = json.loads(settings_file.read_text()) if settings_file.exists() else {}
        saved |= {"server_enabled": True, "server_port": server.port, "server_api_key": "k" * 20}
        settings_file.write_text(json.dumps(saved))
        _, added = session(hearth_home, [("add_event", {
            "title": "Dentist", "start": "2026-12-03T10:00:00Z",
            "end": "2026-12-03T11:00:00Z"})])
    finally:
        server.stop()
        runner.close()
    try:
        assert not added.is_error, text(added)
        assert len(asked) == 1 and "Another program asks" in asked[0] and "Dentist" in asked[0]
        assert [e.title for e in store.all_events()] == ["Dentist"]
    finally:
        store.close()


def test_tools_as_clients_expect_them(chosen: Path, hearth_home: Path) -> None:
    """Arguments in the wrong JSON type but of one meaning are taken, unknown ones refused by
    name; every tool says what it returns and whether it changes anything; the text a client
    shows its model keeps the <document_data> frame beside the structured result."""
    tools, read, found, typo, search = session(hearth_home, [
        ("read_document", {"document": str(chosen / "manual.pdf"), "pages": 2}),
        ("search_files", {"query": "descaling", "limit": "3"}),
        ("search_documents", {"query": "kettle", "limt": 3}),
        ("search_documents", {"query": "kettle filter"}),
    ])
    assert not read.is_error and "Replace the kettle filter monthly." in text(read)
    assert not found.is_error and "notes.txt" in text(found)
    assert typo.is_error and "no argument 'limt'" in text(typo) and "limit" in text(typo)
    by_name = {tool.name: tool for tool in tools}
    for tool in tools:
        assert tool.output_schema is not None and tool.annotations is not None
        assert tool.annotations.read_only_hint is (tool.name not in (
            "add_event", "update_event", "delete_event"))
    assert by_name["delete_event"].annotations.destructive_hint is True
    assert by_name["add_event"].annotations.destructive_hint is False
    assert search.structured_content["sources"] and "<document_data" in text(search)
