"""Live updates: files created, edited, moved and deleted show up in searches by themselves."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.files.files_helpers import wait_until, write

# watchdog's inotify emitter warns when a folder made in a burst is registered twice (its own
# race, harmless: the callback is replaced); it is not ours to fix and only adds noise here.
pytestmark = pytest.mark.filterwarnings("ignore:Callback with id:RuntimeWarning")


@pytest.fixture
def watched(root: Path, make_index):  # type: ignore[no-untyped-def]
    write(root / "existing.txt", "original words")
    index = make_index(root)
    index.scan()
    index.start_watching()
    assert index.status().watching
    yield index
    index.stop()


def found(index, query: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [h.name for h in index.search(query)]


def test_created_and_edited_files_become_searchable(watched, root: Path) -> None:
    write(root / "fresh" / "minutes.txt", "quarterly meeting minutes")
    assert wait_until(lambda: found(watched, "quarterly") == ["minutes.txt"])
    write(root / "existing.txt", "now mentions zebras")
    assert wait_until(lambda: found(watched, "zebras") == ["existing.txt"])
    assert found(watched, "original") == []


def test_moves_and_deletes_are_followed(watched, root: Path) -> None:
    os.rename(root / "existing.txt", root / "renamed.txt")
    assert wait_until(lambda: found(watched, "original") == ["renamed.txt"])
    (root / "renamed.txt").unlink()
    assert wait_until(lambda: found(watched, "original") == [])


def test_a_folder_moved_in_is_indexed_whole(watched, root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "album"
    write(outside / "a.txt", "holiday snaps list")
    write(outside / "deeper" / "b.txt", "holiday packing list")
    shutil.move(str(outside), str(root / "album"))
    assert wait_until(lambda: sorted(found(watched, "holiday")) == ["a.txt", "b.txt"])
    shutil.rmtree(root / "album")
    assert wait_until(lambda: found(watched, "holiday") == [])


def test_ignored_places_stay_ignored_while_watching(watched, root: Path) -> None:
    write(root / "node_modules" / "pkg" / "readme.txt", "ignored marmalade")
    write(root / ".config" / "app.txt", "ignored marmalade")
    write(root / "visible.txt", "visible marmalade")
    assert wait_until(lambda: found(watched, "marmalade") == ["visible.txt"])
    assert found(watched, "marmalade") == ["visible.txt"]


def test_stop_ends_live_updates(watched, root: Path) -> None:
    watched.stop()
    assert not watched.status().watching
    write(root / "late.txt", "after stop")
    assert watched.scan().added == 1  # the catch-up scan still finds it


def test_a_missing_root_does_not_stop_watching_the_others(root: Path, tmp_path: Path,
                                                          make_index) -> None:
    gone = tmp_path / "usb-stick"
    gone.mkdir()
    index = make_index(root, gone)
    gone.rmdir()  # unplugged after it was chosen
    index.start_watching()
    try:
        write(root / "still.txt", "watched regardless")
        assert wait_until(lambda: found(index, "regardless") == ["still.txt"])
    finally:
        index.stop()
