"""The Files view: as-you-type search over the chosen folders, filters, open, drag into a
chat, and the way in from quick ask (issue 16)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.ui.pages.files import FilesView
from tests.ui.scripts import WAIT_MS


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "Projects"
    (root / "Trip").mkdir(parents=True)
    (root / "Trip" / "budget.csv").write_text("item,cost\nferry,120\n")
    (root / "Trip" / "packing list.txt").write_text("passport, charger, the blue budget pen")
    (root / "holiday.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"0" * (2 * 1024 * 1024))
    old = root / "old notes.md"
    old.write_text("# Notes from long ago")
    year_ago = time.time() - 400 * 86400
    os.utime(old, (year_ago, year_ago))
    return root


@pytest.fixture
def view(ctx: Any, qtbot: Any, folder: Path) -> FilesView:
    ctx.hearth.settings.file_roots = [str(folder)]
    ctx.hearth.files.add_root(str(folder))
    ctx.hearth.files.scan()
    page = FilesView(ctx)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitUntil(lambda: page.model.rowCount() == 4, timeout=WAIT_MS)
    return page


def names(view: FilesView) -> list[str]:
    return sorted(hit.name for hit in view.model.hits)


def test_results_follow_typing_and_filters(view, qtbot) -> None:
    with qtbot.waitSignal(view.searched, timeout=WAIT_MS,
                          check_params_cb=lambda q: q == "budg"):
        qtbot.keyClicks(view.query, "budg")  # one search once typing pauses, off the GUI thread
    assert names(view) == ["budget.csv", "packing list.txt"]  # by name, then by content
    assert view.model.hits[0].name == "budget.csv"
    view.kind.setCurrentIndex(view.kind.findData("document"))
    qtbot.waitUntil(lambda: names(view) == ["packing list.txt"], timeout=WAIT_MS)
    view.query.clear()
    view.kind.setCurrentIndex(0)
    view.size_filter.setCurrentIndex(view.size_filter.findData("medium"))
    qtbot.waitUntil(lambda: names(view) == ["holiday.png"], timeout=WAIT_MS)
    view.size_filter.setCurrentIndex(0)
    view.when.setCurrentIndex(view.when.findData(31))
    qtbot.waitUntil(lambda: len(view.model.hits) == 3, timeout=WAIT_MS)
    assert "old notes.md" not in names(view)
    assert view.status.text() == "3 files"


def test_an_older_search_never_replaces_a_newer_one(view, qtbot) -> None:
    view.query.setText("holiday")
    view.search_now()
    view.query.setText("budget")
    with qtbot.waitSignal(view.searched, timeout=WAIT_MS,
                          check_params_cb=lambda q: q == "budget"):
        view.search_now()
    assert view.ctx.ops.wait(WAIT_MS)
    qtbot.wait(50)
    assert "holiday.png" not in names(view)


def test_results_drag_as_file_urls_and_join_the_chat(view, ctx, qtbot, folder) -> None:
    from app.ui.shell.main_window import MainWindow

    row = next(i for i, h in enumerate(view.model.hits) if h.name == "budget.csv")
    mime = view.model.mimeData([view.model.index(row, 0)])
    assert [u.toLocalFile() for u in mime.urls()] == [str(folder / "Trip" / "budget.csv")]
    assert not view.model.supportedDragActions() & Qt.DropAction.MoveAction

    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    window.show_files("packing")
    files: Any = window.pages.currentWidget()
    qtbot.waitUntil(lambda: names(files) == ["packing list.txt"], timeout=WAIT_MS)
    files.add_to_chat.emit([files.model.path(0)])  # "Add to chat" in the row's menu
    qtbot.waitUntil(lambda: window.indexer.running == 0 and "ready" in
                    window.chat.banner_text.text(), timeout=WAIT_MS)
    cid = window.chat.conversation_id
    assert [Path(d.path).name for d in ctx.hearth.documents.documents(scope=cid)] == [
        "packing list.txt"]


def test_quick_ask_finds_files_without_the_model(ctx, qtbot, folder, app_desktop) -> None:
    desktop = app_desktop
    ctx.hearth.settings.file_roots = [str(folder)]
    ctx.hearth.files.add_root(str(folder))
    ctx.hearth.files.scan()
    desktop.quick.summon()
    qtbot.keyClicks(desktop.quick.input, "budget")
    qtbot.mouseClick(desktop.quick.files_button, Qt.MouseButton.LeftButton)
    assert not desktop.quick.isVisible() and desktop.window.isVisible()
    files: Any = desktop.window.pages.currentWidget()
    qtbot.waitUntil(lambda: names(files) == ["budget.csv", "packing list.txt"],
                    timeout=WAIT_MS)
    desktop.ctx.ops.wait(WAIT_MS)
    desktop.window.hide()
