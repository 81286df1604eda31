"""A folder watched from the Library while Hearth runs (none was watched at start) is watched
at once: a file saved into it afterwards is indexed without a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.ui.shell.main_window import MainWindow
from app.ui.shell.services import Services
from tests.ui.scripts import WAIT_MS


def test_a_folder_added_in_the_library_is_watched_at_once(ctx, qtbot, tmp_path) -> None:
    assert ctx.hearth.settings.watched_folders == []
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    services = Services(ctx, window)  # as the desktop wires them
    window.settings_saved.connect(services.settings_changed)
    services.start()
    try:
        window.show()
        window.show_page("library")
        library: Any = window.pages.currentWidget()
        folder = tmp_path / "Notes"
        folder.mkdir()
        library._change_watch(str(folder), add=True)  # "Watch a folder…", folder picked
        qtbot.waitUntil(lambda: ctx.hearth.documents.watched != [], timeout=WAIT_MS)
        assert ctx.ops.wait(WAIT_MS)
        (folder / "later.txt").write_text("Written after the folder was added: the boiler "
                                          "code is 4471.", encoding="utf-8")
        qtbot.waitUntil(lambda: any(Path(d.path).name == "later.txt"
                                    for d in ctx.hearth.documents.documents()),
                        timeout=WAIT_MS * 2)
    finally:
        services.stop()
        assert ctx.ops.wait(WAIT_MS)
        services.stop()
