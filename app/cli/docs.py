"""`hearth docs add|watch|status|search|list|remove`: the document index from the command line."""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import TYPE_CHECKING, Any

from app.cli.groups import add_action, command_group, show
from app.cli.interrupts import until_interrupted
from app.cli.output import emit_json, fail
from app.cli.terminal import control

if TYPE_CHECKING:
    from app.main import Hearth
    from skills.documents import IndexReport, IndexStatus, Passage, Progress


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    actions = command_group(sub, "docs", "index, watch and search your documents")
    adding = add_action(actions, "add", "index files or folders now", run_add)
    adding.add_argument("paths", nargs="+", metavar="PATH")

    watching = add_action(actions, "watch", "watch a folder: index it now and on changes",
                          run_watch)
    watching.add_argument("folder", metavar="DIR")
    watching.add_argument("--foreground", action="store_true",
                          help="keep watching until Ctrl+C")

    unwatching = add_action(actions, "unwatch", "stop watching a folder", run_unwatch)
    unwatching.add_argument("folder", metavar="DIR")

    add_action(actions, "status", "documents, passages and files skipped", run_status)

    searching = add_action(actions, "search", "passages that match a query", run_search)
    searching.add_argument("query")
    searching.add_argument("--limit", type=int, default=8)

    listing = add_action(actions, "list", "indexed documents", run_list)
    listing.add_argument("filter", nargs="?", help="only names containing this")

    removing = add_action(actions, "remove", "drop files or folders from the index", run_remove)
    removing.add_argument("paths", nargs="+", metavar="PATH")


def run_add(args: argparse.Namespace, hearth: Hearth) -> int:
    missing = [p for p in args.paths if not os.path.lexists(p)]
    if missing:
        return fail(f"no such file or folder: {missing[0]}")
    report = hearth.documents.add_paths(args.paths, progress=_progress_printer(args))
    _print_report(report, args.json)
    return 0


def run_watch(args: argparse.Namespace, hearth: Hearth) -> int:
    folder = os.path.abspath(os.path.expanduser(args.folder))
    if not os.path.isdir(folder):
        return fail(f"not a folder: {args.folder}")
    index = hearth.documents
    index.watch(folder)
    if folder not in hearth.settings.watched_folders:
        hearth.settings.watched_folders.append(folder)
        hearth.save_settings()
    report = index.add_paths([folder], progress=_progress_printer(args))
    _print_report(report, args.json)
    if args.foreground:
        index.start_watching()
        try:  # from the line saying so on, Ctrl+C is the way to stop: exit 0
            if not args.json:
                print(f"Watching {folder}; press Ctrl+C to stop.", flush=True)
            until_interrupted()
        except KeyboardInterrupt:
            pass  # Hearth.close() ends a parse in flight first, then the watcher
    return 0


def run_unwatch(args: argparse.Namespace, hearth: Hearth) -> int:
    folder = os.path.abspath(os.path.expanduser(args.folder))
    if folder not in hearth.settings.watched_folders:
        return fail(f"not a watched folder: {args.folder}")
    hearth.settings.watched_folders.remove(folder)
    hearth.save_settings()
    hearth.documents.unwatch(folder)
    return show(args.json, {"unwatched": folder}, f"No longer watching {folder}.")


def run_status(args: argparse.Namespace, hearth: Hearth) -> int:
    status = hearth.documents.status()
    return show(args.json, status.to_dict(), _status_text(status))


def _status_text(status: IndexStatus) -> str:
    lines = [f"{_count(status.documents, 'document')}, {_count(status.chunks, 'passage')} "
             "indexed."]
    lines += [f"Watching {folder}" for folder in status.watching]
    if status.failures:
        lines.append(f"{_count(len(status.failures), 'file')} skipped:")
        lines += [f"  {failure.path}: {failure.reason}" for failure in status.failures]
    return "\n".join(lines)


def run_search(args: argparse.Namespace, hearth: Hearth) -> int:
    if not args.query.strip():
        return fail("give some words to search for")
    passages = hearth.documents.search(args.query, limit=max(1, args.limit))
    for number, passage in enumerate(passages, start=1):
        if args.json:
            emit_json(search_result(number, passage))
        else:
            text = " ".join(passage.text.split())
            print(f"[{number}] {passage.title}, {passage.location}  ({passage.score:.2f})")
            print(f"    {text[:300]}{'...' if len(text) > 300 else ''}")
    if not passages and not args.json:
        print("No matching passages.")
    return 0


def run_list(args: argparse.Namespace, hearth: Hearth) -> int:
    # Every indexed document, also those dropped into a chat only: what `docs status` counts.
    wanted = (args.filter or "").lower()
    documents = [d for d in hearth.documents.catalog() if d.status == "ok"
                 and (wanted in d.title.lower() or wanted in d.path.lower())]
    for info in documents:
        size = (_count(info.pages, "page") if info.pages else _count(info.chunks, "passage"))
        where = "" if info.in_library else "  (only in a chat)"
        show(args.json, info.__dict__, f"{info.title}  ({info.kind}, {size})  {info.path}{where}")
    if not documents and not args.json:
        print("No documents indexed. Add some with: hearth docs add PATH")
    return 0


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def run_remove(args: argparse.Namespace, hearth: Hearth) -> int:
    removed = sum(hearth.documents.remove(path) for path in args.paths)
    return show(args.json, {"removed": removed},
                f"Removed {_count(removed, 'document')} from the index.")


def search_result(citation: int, passage: Passage) -> dict[str, Any]:
    """A search hit as the CLI prints it: where it is (page, sheet, slide or section)."""
    place: dict[str, Any] = {"page": None, "sheet": None, "slide": None, "section": None}
    location = passage.location
    if match := re.fullmatch(r"page (\d+)", location):
        place["page"] = int(match.group(1))
    elif match := re.fullmatch(r"slide (\d+)", location):
        place["slide"] = int(match.group(1))
        place["page"] = passage.page
    elif match := re.match(r"sheet (.+?)(?:, rows \d+-\d+)?$", location):
        place["sheet"] = match.group(1)
    elif location:
        place["section"] = location
    return {"citation": citation, "document": passage.document, "title": passage.title,
            **place, "location": location, "text": passage.text, "score": passage.score}


def _progress_printer(args: argparse.Namespace) -> Any:
    if args.json or not sys.stderr.isatty():
        return None

    def show(progress: Progress) -> None:
        name = os.path.basename(progress.current)
        control(sys.stderr, "\r\x1b[K")
        sys.stderr.write(f"{progress.done}/{progress.total} {name}")
        if progress.done == progress.total:
            control(sys.stderr, "\r\x1b[K")
        sys.stderr.flush()

    return show


def _print_report(report: IndexReport, as_json: bool) -> None:
    if as_json:
        emit_json(report.to_dict())
        return
    print(f"Indexed {report.added} new and {report.updated} changed documents;"
          f" {report.unchanged} unchanged, {report.removed} removed.")
    if report.failures:
        print(f"Skipped {_count(report.failed, 'file')}:")
        for failure in report.failures:
            print(f"  {failure.path}: {failure.reason}")
