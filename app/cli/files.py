"""`hearth files add-root|remove-root|status|scan|search`: local file search from the shell."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.cli.groups import add_action, command_group, dispatch, show
from app.cli.output import emit_json, fail
from app.cli.terminal import control

if TYPE_CHECKING:
    from app.main import Hearth
    from skills.files import FileHit, ScanProgress, ScanReport
    from skills.files import IndexStatus as FilesStatus


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    actions = command_group(sub, "files", "find files in the folders you chose", run)
    adding = add_action(actions, "add-root", "search this folder too (and index it now)",
                        run_add_root)
    adding.add_argument("dir")
    adding.add_argument("--no-scan", action="store_true", help="do not index it now")

    removing = add_action(actions, "remove-root", "stop searching this folder", run_remove_root)
    removing.add_argument("dir")

    add_action(actions, "status", "folders, file counts, last scan", run_status)
    add_action(actions, "scan", "catch up with changes since the last scan", run_scan)

    finding = add_action(actions, "search", "files by words in name or content, and filters",
                         run_search)
    finding.add_argument("query", nargs="?", default="", help="words (prefixes work: 'lea agr')")
    finding.add_argument("--kind", help="document, spreadsheet, presentation, image, audio, "
                         "video, archive, code or other")
    finding.add_argument("--ext", nargs="+", default=[], metavar="E", help="extensions: pdf docx")
    finding.add_argument("--folder", help="only inside this folder")
    finding.add_argument("--after", help="modified on or after (ISO date, e.g. 2026-03-01)")
    finding.add_argument("--before", help="modified before (ISO date)")
    finding.add_argument("--larger-than", help="size, e.g. 10MB")
    finding.add_argument("--smaller-than", help="size, e.g. 500k")
    finding.add_argument("--limit", type=int, default=20)


def run(args: argparse.Namespace, hearth: Hearth) -> int:
    try:
        return dispatch(args, hearth)
    except (ValueError, OSError) as exc:  # bad input or an unreadable folder: one clear line
        return fail(str(exc))


def run_add_root(args: argparse.Namespace, hearth: Hearth) -> int:
    resolved = hearth.files.add_root(args.dir)
    try:
        resolved.encode("utf-8")
    except UnicodeEncodeError:
        hearth.files.remove_root(resolved)
        return fail("a folder whose name is not valid UTF-8 cannot be saved as a search folder")
    if resolved not in hearth.settings.file_roots:
        hearth.settings.file_roots.append(resolved)
        hearth.save_settings()
    report = None if args.no_scan else hearth.files.scan(_progress())
    if args.json:
        emit_json({"root": resolved, "scan": report.to_dict() if report else None})
    else:
        print(f"Added {resolved}")
        if report:
            _print_report(report)
    return 0


def run_remove_root(args: argparse.Namespace, hearth: Hearth) -> int:
    removed = hearth.files.remove_root(args.dir)
    hearth.settings.file_roots = [r for r in hearth.settings.file_roots
                                  if r not in (removed, args.dir)]
    hearth.save_settings()
    return show(args.json, {"removed": removed},
                f"Removed {removed}; its files no longer appear in searches.")


def run_status(args: argparse.Namespace, hearth: Hearth) -> int:
    status = hearth.files.status()
    return show(args.json, status.to_dict(), _status_text(status))


def _status_text(status: FilesStatus) -> str:
    if not status.roots:
        from skills.files.paths import suggested_roots

        return "\n".join(["No folders chosen yet: hearth files add-root DIR",
                          *(f"  suggestion: hearth files add-root {f}" for f in suggested_roots())])
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(status.by_kind.items()))
    last = status.last_scan.isoformat(timespec="seconds") if status.last_scan else "never"
    return "\n".join(["Folders:", *(f"  {r}" for r in status.roots),
                      f"{status.files} files, {status.total_bytes / 1024**2:.1f} MB",
                      f"By kind: {kinds or 'none'}", f"Last scan: {last}"])


def run_scan(args: argparse.Namespace, hearth: Hearth) -> int:
    if not hearth.files.roots:
        return fail("no folders chosen yet: hearth files add-root DIR")
    report = hearth.files.scan(_progress())
    if args.json:
        emit_json(report.to_dict())
    else:
        _print_report(report)
    return 0


def run_search(args: argparse.Namespace, hearth: Hearth) -> int:
    from skills.files.parse import parse_size, parse_when

    if args.limit < 1:
        return fail("--limit must be at least 1")
    filters: dict[str, Any] = {
        "kind": args.kind,
        "extensions": args.ext,
        "folder": args.folder,
        "modified_after": parse_when(args.after) if args.after else None,
        "modified_before": parse_when(args.before) if args.before else None,
        "larger_than": parse_size(args.larger_than) if args.larger_than else None,
        "smaller_than": parse_size(args.smaller_than) if args.smaller_than else None,
    }
    hits = hearth.files.search(args.query or None, limit=args.limit, **filters)
    if args.json:
        emit_json([h.to_dict() for h in hits])
    else:
        _print_hits(hits)
    return 0


def _progress() -> Callable[[ScanProgress], None] | None:
    """A live count on a terminal's stderr (never in pipes, so --json output stays clean)."""
    if not sys.stderr.isatty():
        return None

    def show(progress: ScanProgress) -> None:
        what = "reading text" if progress.phase == "content" else "looking at files"
        control(sys.stderr, "\r")
        sys.stderr.write(f"{what}: {progress.seen} seen, {progress.changed} new or changed ")
        sys.stderr.flush()

    return show


def _print_hits(hits: list[FileHit]) -> None:
    if not hits:
        print("No files matched.", file=sys.stderr)
    for hit in hits:
        when = hit.modified.strftime("%Y-%m-%d %H:%M")
        print(f"{hit.path}\n    {hit.kind}, {hit.size} bytes, modified {when}")
        if hit.snippet:
            print(f"    …{hit.snippet}…")


def _print_report(report: ScanReport) -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    print(f"Scanned {report.seen} files in {report.seconds:.1f}s: {report.added} new, "
          f"{report.updated} changed, {report.removed} gone, {report.unchanged} unchanged.")
    for path, reason in report.errors[:10]:
        print(f"  could not read {path}: {reason}", file=sys.stderr)
