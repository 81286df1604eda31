"""Catch-up scans: what gets indexed, what is skipped, and surviving a hostile disk."""

from __future__ import annotations

import inspect
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from skills.files import content, scanner
from skills.files import index as index_module
from tests.files.files_helpers import write


def names(index) -> set[str]:  # type: ignore[no-untyped-def]
    return {h.name for h in index.search(limit=1000)}


def test_scan_indexes_files_with_kind_size_and_content(root: Path, make_index) -> None:
    write(root / "Trip" / "budget.xlsx", "")
    write(root / "notes.txt", "Pack the passports and the lease agreement")
    index = make_index(root)
    report = index.scan()
    assert report.added == 2 and report.errors == []
    hit = index.search("passports")[0]
    assert hit.name == "notes.txt" and hit.kind == "document"
    assert hit.size == (root / "notes.txt").stat().st_size
    assert hit.modified.tzinfo is not None
    assert index.search(kind="spreadsheet")[0].path == str(root / "Trip" / "budget.xlsx")


def test_rescan_reads_only_new_and_changed_files(root: Path, make_index, monkeypatch) -> None:
    for n in range(5):
        write(root / f"note{n}.txt", f"note number {n}")
    index = make_index(root)
    index.scan()
    read: list[str] = []
    real = content.extract
    monkeypatch.setattr(content, "extract",
                        lambda p, e, s, pool: read.append(p) or real(p, e, s, pool))
    write(root / "note1.txt", "rewritten with the word pineapple", mtime=1_700_000_000)
    write(root / "new.txt", "brand new")
    (root / "note2.txt").unlink()
    report = index.scan()
    assert sorted(Path(p).name for p in read) == ["new.txt", "note1.txt"]
    assert (report.added, report.updated, report.removed, report.unchanged) == (1, 1, 1, 3)
    assert [h.name for h in index.search("pineapple")] == ["note1.txt"]
    assert "note2.txt" not in names(index)


def test_ignore_rules_skip_hidden_tools_envs_caches_and_user_patterns(
        root: Path, make_index) -> None:
    write(root / "keep.txt")
    write(root / ".secret.txt")
    write(root / ".hidden" / "inside.txt")
    write(root / "node_modules" / "lib.js")
    write(root / "__pycache__" / "mod.pyc")
    write(root / "env" / "pyvenv.cfg")
    write(root / "env" / "lib" / "site.py")
    write(root / "build-cache" / "CACHEDIR.TAG")
    write(root / "build-cache" / "blob.txt")
    write(root / "drafts" / "draft.tmp")
    write(root / "drafts" / "final.txt")
    index = make_index(root, ignore=["*.tmp"])
    index.scan()
    assert names(index) == {"keep.txt", "final.txt"}


def test_gitignore_is_respected_inside_repositories_only(root: Path, make_index) -> None:
    repo = root / "project"
    (repo / ".git").mkdir(parents=True)
    write(repo / ".gitignore", "*.log\nbuild/\n")
    write(repo / "src" / ".gitignore", "generated_*.py\n")
    write(repo / "src" / "main.py")
    write(repo / "src" / "generated_api.py")
    write(repo / "debug.log")
    write(repo / "build" / "out.txt")
    write(root / "not-a-repo" / ".gitignore", "*.txt\n")
    write(root / "not-a-repo" / "kept.txt")
    index = make_index(root)
    index.scan()
    assert names(index) == {"main.py", "kept.txt"}


def test_a_root_inside_a_repository_follows_its_gitignore_unless_it_is_the_root(
        tmp_path: Path, make_index) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write(repo / ".gitignore", "*.log\nscratch/\n")
    write(repo / "src" / "app.py")
    write(repo / "src" / "trace.log")
    write(repo / "scratch" / "idea.txt")
    src = make_index(repo / "src")
    src.scan()
    assert names(src) == {"app.py"}
    scratch = make_index(repo / "scratch")  # chosen explicitly, so not hidden by its repo
    scratch.scan()
    assert names(scratch) == {"idea.txt"}


def test_symlinks_are_never_followed(root: Path, tmp_path: Path, make_index) -> None:
    outside = tmp_path / "outside"
    write(outside / "private.txt", "bank statement")
    os.symlink(outside, root / "link-dir")
    os.symlink(outside / "private.txt", root / "link-file.txt")
    write(root / "real.txt", "ok")
    index = make_index(root)
    index.scan()
    assert names(index) == {"real.txt"}
    assert index.search("bank") == []


def test_scan_survives_unreadable_folders_and_vanishing_files(
        root: Path, make_index, monkeypatch) -> None:
    write(root / "locked" / "a.txt")
    write(root / "open" / "gone.txt")
    write(root / "open" / "stays.txt")
    real_scandir = os.scandir

    def hostile(path):  # type: ignore[no-untyped-def]
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        listing = real_scandir(path)
        if str(path).endswith("open"):
            (root / "open" / "gone.txt").unlink(missing_ok=True)  # listed, then deleted
        return listing

    monkeypatch.setattr(scanner.os, "scandir", hostile)
    index = make_index(root)
    report = index.scan()
    assert names(index) == {"stays.txt"}
    assert any(p.endswith("locked") and "denied" in r for p, r in report.errors)


@pytest.mark.skipif(sys.platform != "linux", reason="byte file names are a POSIX thing")
def test_names_that_are_not_utf8_are_indexed_and_resolvable(root: Path, make_index) -> None:
    raw = os.path.join(os.fsencode(root), b"caf\xe9-menu.txt")
    with open(raw, "wb") as fh:
        fh.write(b"daily specials")
    index = make_index(root)
    index.scan()
    hit = index.search("specials")[0]
    assert hit.name == "caf\ufffd-menu.txt"  # shown with a replacement character
    assert os.fsencode(index.resolve(hit.path)) == raw  # yet opens the real file
    assert index.info(hit.path).size == len(b"daily specials")


def test_very_deep_trees_do_not_hit_the_recursion_limit(root: Path, make_index) -> None:
    # 300 levels under a recursion limit that leaves ~100 frames: a recursive walk would fail.
    # (Kept modest so pytest's own recursive cleanup of tmp_path still copes.)
    deep = os.path.join(str(root), *(["d"] * 300))
    os.makedirs(deep)
    write(Path(deep) / "bottom.txt", "found at the bottom")
    index = make_index(root)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 100)
    try:
        index.scan()
    finally:
        sys.setrecursionlimit(limit)
    assert [h.name for h in index.search("bottom")] == ["bottom.txt"]


def test_removed_root_disappears_from_results(root: Path, tmp_path: Path, make_index) -> None:
    other = tmp_path / "other"
    write(root / "mine.txt", "shared word")
    write(other / "theirs.txt", "shared word")
    index = make_index(root, other)
    index.scan()
    assert len(index.search("shared")) == 2
    index.remove_root(str(other))
    assert [h.name for h in index.search("shared")] == ["mine.txt"]
    reopened = make_index(root)  # a later run with fewer roots forgets the rest too
    assert [h.name for h in reopened.search("shared")] == ["mine.txt"]


def test_add_root_rejects_what_is_not_a_folder(root: Path, make_index) -> None:
    index = make_index()
    with pytest.raises(ValueError, match="not a folder"):
        index.add_root(str(root / "missing"))
    with pytest.raises(ValueError, match="not one of the folders"):
        index.remove_root(str(root))


def test_scan_reports_progress_and_stops_early(root: Path, make_index, monkeypatch) -> None:
    monkeypatch.setattr(index_module, "PROGRESS_EVERY", 50)
    for n in range(120):
        write(root / f"f{n // 10}" / f"file{n}.txt")
    index = make_index(root)
    seen: list[int] = []

    def progress(p) -> None:  # type: ignore[no-untyped-def]
        seen.append(p.seen)
        if p.seen >= 50:
            index.stop()

    report = index.scan(progress)
    assert report.stopped and 50 <= report.seen < 120
    assert seen[0] == 50
    assert report.removed == 0
    assert index.scan().seen == 120  # the next scan finishes the job


def test_names_come_first_and_a_stopped_content_pass_resumes(
        root: Path, make_index, monkeypatch) -> None:
    for n in range(100):
        write(root / f"memo{n}.txt", f"walrus sighting {n}")
    index = make_index(root)
    names_at_first_read: list[int] = []
    real = content.extract

    def reading(path: str, ext: str, size: int, pool: Any) -> str:
        if not names_at_first_read:
            names_at_first_read.append(len(index.search("memo", limit=1000)))
        if len(names_at_first_read) == 1 and len(read) == 10:
            index.stop()
        read.append(path)
        return real(path, ext, size, pool)

    read: list[str] = []
    monkeypatch.setattr(content, "extract", reading)
    report = index.scan()
    assert names_at_first_read == [100]  # every name searchable before any text is read
    assert report.stopped and 0 < len(index.search("walrus", limit=1000)) < 100
    report = index.scan()
    assert report.added == 0 and len(index.search("walrus", limit=1000)) == 100
    assert len(read) == 100  # nothing read twice


def test_search_works_from_another_thread_while_a_scan_runs(root: Path, make_index) -> None:
    import threading

    for n in range(300):
        write(root / f"d{n // 50}" / f"report{n}.txt", "annual figures")
    index = make_index(root)
    scanning = threading.Thread(target=index.scan)
    scanning.start()
    counts = []
    while scanning.is_alive():
        counts.append(len(index.search("report", limit=1000)))
    scanning.join()
    assert counts == sorted(counts)  # results only grow while the scan adds files
    assert len(index.search("annual", limit=1000)) == 300


def test_scan_waits_for_another_writer_of_index_db(root: Path, tmp_path: Path,
                                                   make_index) -> None:
    """The documents index writes to the same file: a held write lock delays, never fails."""
    import sqlite3
    import threading

    write(root / "a.txt", "shared database")
    index = make_index(root)
    other = sqlite3.connect(tmp_path / "cache" / "index.db", check_same_thread=False)
    other.execute("create table if not exists documents_probe (x)")
    other.commit()
    other.execute("begin immediate")  # the other component is mid-transaction
    other.execute("insert into documents_probe values (1)")
    release = threading.Timer(0.3, other.commit)
    release.start()
    report = index.scan()
    release.join()
    other.close()
    assert report.added == 1 and [h.name for h in index.search("shared")] == ["a.txt"]


def test_office_documents_are_searchable_by_their_text(root: Path, make_index) -> None:
    pytest.importorskip("skills.documents.parsers")  # the documents area's parsers
    import docx

    document = docx.Document()
    document.add_paragraph("Tenancy terms for the harbour flat")
    document.save(str(root / "contract.docx"))
    write(root / "broken.pdf", "not really a pdf")
    index = make_index(root)
    report = index.scan()
    assert report.added == 2 and report.errors == []  # a damaged file is no error: name only
    hit = index.search("harbour")[0]
    assert hit.name == "contract.docx" and "**harbour**" in hit.snippet
    assert index.info(str(root / "contract.docx")).has_content
    assert not index.info(str(root / "broken.pdf")).has_content
    assert [h.name for h in index.search("broken")] == ["broken.pdf"]


def test_status_tells_what_is_indexed(root: Path, make_index) -> None:
    write(root / "a.txt", "x")
    write(root / "b.png", "xy")
    index = make_index(root)
    before = index.status()
    assert before.files == 0 and before.last_scan is None and not before.watching
    index.scan()
    after = index.status()
    assert (after.files, after.total_bytes, after.by_kind) == (2, 3, {"document": 1, "image": 1})
    assert after.last_scan is not None and after.roots == [str(root)]


def test_changed_ignore_patterns_apply_at_the_next_scan(root: Path, make_index) -> None:
    write(root / "draft.tmp")
    write(root / "final.txt")
    index = make_index(root)
    index.scan()
    index.set_ignore_patterns(["*.tmp"])
    assert index.scan().removed == 1 and names(index) == {"final.txt"}
    index.set_ignore_patterns([])
    assert index.scan().added == 1 and names(index) == {"final.txt", "draft.tmp"}
