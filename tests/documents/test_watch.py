"""Watched folders follow the disk; indexing resumes after a restart without re-parsing."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

from skills.documents import DocumentIndex, Progress
from tests.documents.conftest import CountingPool, wait_for


def _titles(index: DocumentIndex, query: str) -> list[str]:
    return [p.title for p in index.search(query)]


def test_new_changed_moved_and_deleted_files_reach_the_index(
    tmp_path: Path, make_index: Callable[..., DocumentIndex], pool: CountingPool
) -> None:
    folder = tmp_path / "watched"
    (folder / "sub").mkdir(parents=True)
    (folder / "first.txt").write_text("the otter sleeps")
    index = make_index()
    index.watch(folder)
    index.start_watching()
    wait_for(lambda: _titles(index, "otter") == ["first.txt"])

    (folder / "sub" / "new.md").write_text("# Notes\n\nthe badger digs")
    (folder / "sub" / "~$lock.docx").write_bytes(b"Office lock file")  # never a document
    wait_for(lambda: _titles(index, "badger") == ["new.md"])

    # an in-place edit that keeps size and modification time: only the content says so
    target = folder / "first.txt"
    stat = target.stat()
    target.write_text("the walrus sleeps")
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    wait_for(lambda: _titles(index, "walrus") == ["first.txt"])
    assert _titles(index, "otter") == []

    parsed = len(pool.parsed)
    (folder / "sub" / "new.md").rename(folder / "renamed.md")
    wait_for(lambda: [d.title for d in index.documents()] == ["first.txt", "renamed.md"])
    assert index.search("badger")[0].document == str(folder / "renamed.md")
    assert len(pool.parsed) == parsed  # a move renames; it does not parse again

    (folder / "first.txt").unlink()
    wait_for(lambda: _titles(index, "walrus") == [])
    index.stop()
    assert index.failures() == []


def test_restart_catches_up_and_never_reparses_unchanged_files(
    tmp_path: Path, make_index: Callable[..., DocumentIndex], pool: CountingPool
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(5):
        (folder / f"note-{i}.txt").write_text(f"note number {i} about lighthouses")
    first = make_index(watched=[str(folder)])
    assert first.sync().added == 5
    first.close()

    (folder / "note-1.txt").write_text("note one now about harbours")
    (folder / "note-2.txt").unlink()
    (folder / "note-9.txt").write_text("a new note about ferries")
    (folder / "note-3.txt").touch()  # newer time, same content
    pool.parsed.clear()
    second = make_index(watched=[str(folder)])
    report = second.sync()
    assert (report.added, report.updated, report.removed, report.unchanged) == (1, 1, 1, 3)
    assert sorted(Path(p).name for p in pool.parsed) == ["note-1.txt", "note-9.txt"]
    assert _titles(second, "harbours") == ["note-1.txt"]
    assert second.status().documents == 5


def test_progress_reports_files_done_out_of_total(
    tmp_path: Path, make_index: Callable[..., DocumentIndex]
) -> None:
    for i in range(3):
        (tmp_path / f"f{i}.txt").write_text(f"file {i}")
    seen: list[Progress] = []
    make_index().add_paths([tmp_path], progress=seen.append)
    assert [(p.done, p.total) for p in seen] == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert [Path(p.current).name for p in seen[:3]] == ["f0.txt", "f1.txt", "f2.txt"]


def test_pause_holds_indexing_until_resumed(
    tmp_path: Path, make_index: Callable[..., DocumentIndex]
) -> None:
    (tmp_path / "a.txt").write_text("alpha")
    index = make_index()
    index.pause()
    worker = threading.Thread(target=index.add_paths, args=([tmp_path],))
    worker.start()
    wait_for(lambda: index.status().in_progress is not None)
    assert index.status().paused and index.status().documents == 0
    index.resume()
    worker.join(timeout=30)
    assert index.status().documents == 1 and not index.status().paused


def test_a_file_dropped_into_a_chat_is_visible_only_there(
    tmp_path: Path, make_index: Callable[..., DocumentIndex]
) -> None:
    dropped = tmp_path / "contract.txt"
    dropped.write_text("the tenant pays rent monthly")
    index = make_index()
    report = index.add_paths([dropped], scope="chat-1")
    assert report.added == 1
    assert index.search("tenant rent", scope="chat-1")[0].title == "contract.txt"
    assert index.search("tenant rent", scope="chat-2") == []
    assert index.search("tenant rent") == []
    index.add_paths([dropped])  # added to the library later: no parse, now visible everywhere
    assert index.search("tenant rent", scope="chat-2")[0].title == "contract.txt"


def test_adding_a_folder_again_brings_it_up_to_date(
    tmp_path: Path, make_index: Callable[..., DocumentIndex], pool: CountingPool
) -> None:
    (tmp_path / "a.txt").write_text("storm petrels")
    (tmp_path / "b.txt").write_text("shearwaters")
    index = make_index()
    index.add_paths([tmp_path])
    (tmp_path / "a.txt").unlink()
    pool.parsed.clear()
    report = index.add_paths([tmp_path])
    assert (report.removed, report.unchanged, pool.parsed) == (1, 1, [])
    assert [d.title for d in index.documents()] == ["b.txt"]


def test_reindex_and_remove(
    tmp_path: Path, make_index: Callable[..., DocumentIndex], pool: CountingPool
) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text("gannets dive")
    index = make_index()
    index.add_paths([doc])
    assert index.reindex(doc).updated == 1
    assert [Path(p).name for p in pool.parsed] == ["a.txt", "a.txt"]
    assert index.remove(doc) == 1
    assert index.search("gannets") == [] and index.documents() == []


def test_a_deleted_subfolder_and_unwatching_drop_their_documents(
    tmp_path: Path, make_index: Callable[..., DocumentIndex]
) -> None:
    import shutil

    folder = tmp_path / "w"
    (folder / "old").mkdir(parents=True)
    (folder / "old" / "a.txt").write_text("puffins")
    (folder / "keep.txt").write_text("razorbills")
    index = make_index()
    index.watch(folder)
    index.start_watching()
    wait_for(lambda: len(index.documents()) == 2)
    shutil.rmtree(folder / "old")
    wait_for(lambda: [d.title for d in index.documents()] == ["keep.txt"])
    index.unwatch(folder)
    assert index.documents() == [] and index.status().watching == []
    index.stop()


def test_a_missing_watched_folder_keeps_its_documents_and_does_not_stop_watching(
    tmp_path: Path, make_index: Callable[..., DocumentIndex]
) -> None:
    drive = tmp_path / "usb"
    drive.mkdir()
    (drive / "a.txt").write_text("kittiwakes")
    first = make_index(watched=[str(drive)])
    first.sync()
    first.close()
    drive.rename(tmp_path / "unplugged")
    second = make_index(watched=[str(drive), str(tmp_path / "never-existed")])
    report = second.sync()
    assert [f.reason for f in report.failures] == ["watched folder not found"] * 2
    assert _titles(second, "kittiwakes") == ["a.txt"]  # kept for when the drive returns
    second.start_watching()  # does not raise
    second.stop()


def test_files_left_unindexed_by_a_quit_are_indexed_next_time(
    tmp_path: Path, make_index: Callable[..., DocumentIndex]
) -> None:
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.txt").write_text(f"fulmar {name}")
    first = make_index()
    first.pause()
    worker = threading.Thread(target=first.add_paths, args=([tmp_path],), kwargs={"scope": "chat"})
    worker.start()
    wait_for(lambda: first.status().in_progress is not None)
    first.close()  # the user quits while indexing is paused
    worker.join(timeout=30)
    second = make_index()
    assert second.documents(scope="chat") == []
    report = second.resume_pending()
    assert report.added == 3
    assert [d.title for d in second.documents(scope="chat")] == ["a.txt", "b.txt", "c.txt"]
    assert second.resume_pending().added == 0  # done is done
