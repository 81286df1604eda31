"""`hearth history list|search|export|archive|delete`: the saved conversations from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.groups import add_action, command_group, confirm_all, dispatch, show
from app.cli.memory import Taught
from app.cli.output import emit_json, fail, fail_on, local_time
from app.cli.terminal import raw
from app.core.conversations import Forgotten
from app.core.failures import FailureKind, exit_code, kind_of
from app.core.history import Conversation, HistoryError
from app.core.history.records import UNTITLED

if TYPE_CHECKING:
    from app.main import Hearth

BAD_INPUT = exit_code(FailureKind.BAD_INPUT)
SHORT_ID = 8  # enough to tell conversations apart; any unique prefix is accepted back


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    actions = command_group(sub, "history",
                            "list, search, export, archive or delete saved conversations", run)
    listing = add_action(actions, "list", "conversations, pinned first, newest first", run_list)
    listing.add_argument("--all", action="store_true", help="include archived conversations")

    finding = add_action(actions, "search", "messages containing all these words", run_search)
    finding.add_argument("words", help="words to find (quote several)")
    finding.add_argument("--limit", type=int, default=50)

    exporting = add_action(actions, "export", "one conversation or all, as Markdown or JSON",
                           run_export)
    exporting.add_argument(
        "--format", choices=("md", "json"), help="md by default; json with --json"
    )
    exporting.add_argument("--conversation", metavar="ID", help="only this one (id or prefix)")
    exporting.add_argument("--output", metavar="FILE", help="write here instead of stdout")

    archiving = add_action(actions, "archive", "leave a conversation out of the list (list --all "
                           "shows it; search still finds it)", run_archive)
    archiving.add_argument("id", help="conversation id (or a unique prefix)")
    archiving.add_argument("--undo", action="store_true", help="list it again")

    deleting = add_action(
        actions, "delete",
        "delete a conversation for good (its messages, documents and model cache)", run_delete)
    deleting.add_argument("id", nargs="?", help="conversation id (or a unique prefix)")
    deleting.add_argument("--all", action="store_true", help="delete every conversation")
    deleting.add_argument("--yes", action="store_true", help="do not ask before --all")
    deleting.add_argument("--forget-memories", action="store_true",
                          help="also forget what Hearth remembers from it (see hearth memory)")

    recovering = add_action(
        actions, "recover", "copy what can be read from a damaged hearth.db into a new file and "
        "use it (the damaged file is kept beside it)", run_recover)
    recovering.add_argument("--force", action="store_true",
                            help="recover even when the file passes SQLite's checks")


def run(args: argparse.Namespace, hearth: Hearth) -> int:
    try:
        return dispatch(args, hearth)
    except HistoryError as exc:  # a bad id, or the database itself: one line, its exit code
        return fail_on(exc)


def run_list(args: argparse.Namespace, hearth: Hearth) -> int:
    conversations = hearth.history.list_conversations(include_archived=args.all)
    for conversation in conversations:
        show(args.json, conversation.__dict__, _list_line(conversation))
    if not conversations and not args.json:
        print("No conversations yet.")
    return 0


def _list_line(conversation: Conversation) -> str:
    marks = ("*" if conversation.pinned else " ") + ("a" if conversation.archived else " ")
    when = local_time(conversation.updated)
    return f"{conversation.id[:SHORT_ID]} {marks} {when}  {conversation.title or UNTITLED}"


def run_search(args: argparse.Namespace, hearth: Hearth) -> int:
    hits = hearth.history.search(args.words, limit=args.limit)
    highlight = sys.stdout.isatty() and not args.json
    for hit in hits:
        if args.json:
            emit_json(hit.__dict__)
            continue
        snippet = " ".join(hit.snippet.split())
        if highlight:
            snippet = snippet.replace("[[", "\033[1m").replace("]]", "\033[0m")
        title = hit.conversation_title or UNTITLED
        print(f"{hit.conversation_id[:SHORT_ID]}  {title}  [{hit.role}] {snippet}")
    if not hits and not args.json:
        print("Nothing matches.")
    return 0


def run_export(args: argparse.Namespace, hearth: Hearth) -> int:
    store = hearth.history
    form = args.format or ("json" if args.json else "md")
    chosen = store.resolve_id(args.conversation) if args.conversation else None
    if form == "json":
        text = json.dumps(store.export_json(chosen), ensure_ascii=False, indent=2) + "\n"
    else:
        text = store.export_markdown(chosen)
    if not args.output:  # exact data into a pipe or file; made visible on a terminal
        (sys.stdout if sys.stdout.isatty() else raw(sys.stdout)).write(text)
        return 0
    try:
        Path(args.output).expanduser().write_text(text, encoding="utf-8")
    except OSError as exc:
        return fail(f"cannot write {args.output}: {exc.strerror or exc}",
                    exit_code(kind_of(exc)))
    return show(args.json, {"written": str(args.output), "format": form, "conversation": chosen},
                f"Exported to {args.output}")


def run_archive(args: argparse.Namespace, hearth: Hearth) -> int:
    cid = hearth.history.resolve_id(args.id)
    hearth.history.set_archived(cid, not args.undo)
    return show(args.json, {"conversation": cid, "archived": not args.undo},
                f"{'Listed again' if args.undo else 'Archived'}: {cid[:SHORT_ID]}")


def run_delete(args: argparse.Namespace, hearth: Hearth) -> int:
    if args.all == (args.id is not None):
        return fail("give a conversation id, or --all", BAD_INPUT)
    if args.all:
        return _delete_all(args, hearth)
    cid = hearth.history.resolve_id(args.id)
    taught = Taught(hearth, [cid], args.forget_memories)
    _report_deleted([hearth.conversations.delete(cid)], args.json, taught)
    return 0


def _delete_all(args: argparse.Namespace, hearth: Hearth) -> int:
    count = len(hearth.history.list_conversations(include_archived=True))
    stop = confirm_all(count, args.yes, f"Delete all {count} conversations for good? [y/N] ",
                       f"this deletes all {count} conversations for good; add --yes to confirm",
                       "Nothing deleted.")
    if stop is not None:
        return stop
    everything = [c.id for c in hearth.history.list_conversations(include_archived=True)]
    taught = Taught(hearth, everything, args.forget_memories)
    _report_deleted(hearth.conversations.delete_all(), args.json, taught)
    return 0


def _report_deleted(gone: list[Forgotten], as_json: bool, taught: Taught) -> None:
    for item in gone:
        show(as_json, {"deleted": item.conversation_id, "title": item.title,
                       **taught.record(item.conversation_id)},
             f"Deleted {item.conversation_id[:SHORT_ID]} {item.title or UNTITLED}")
    taught.settle()


def run_recover(args: argparse.Namespace, hearth: Hearth) -> int:
    """`hearth history recover`: never opens hearth.db for writing, never deletes it."""
    import sqlite3

    from app.core.history.lease import WriterLease
    from app.core.recovery import recover
    from skills.index_health import problem

    path = hearth.paths.history_db
    if not path.exists():
        return fail(f"there is no history database at {path}", BAD_INPUT)
    lease = WriterLease(path.parent / (path.name + "-writers"))
    try:
        if lease.alive_tokens() - {lease.token}:
            return fail("Hearth is running: close it before recovering its history",
                        exit_code(FailureKind.BUSY))
    finally:
        lease.release()
    reason = problem(path, deep=True)
    if reason is None and not args.force:
        print(f"{path} passes SQLite's checks: nothing to recover (--force copies it anyway)")
        return 0
    try:
        result = recover(path)
    except sqlite3.DatabaseError as exc:
        return fail(f"nothing could be recovered from {path} ({exc}); it is unchanged",
                    exit_code(FailureKind.STORAGE))
    return show(args.json, {"type": "recovered", "path": str(result.copy), "rows": result.rows,
                            "damaged_tables": result.damaged_tables,
                            "kept_as": str(result.kept_as)}, result.summary())
