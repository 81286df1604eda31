"""`hearth todo add|list|done|delete`: the calendar's to-dos from the terminal."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from app.cli.groups import Actions, add_action, command_group, dispatch_input, show
from app.cli.when import cli_when

if TYPE_CHECKING:
    from app.main import Hearth


def register(sub: Actions) -> None:
    actions = command_group(sub, "todo", "your to-dos (kept with the calendar)", dispatch_input)
    add = add_action(actions, "add", "add a to-do", _add)
    add.add_argument("title")
    add.add_argument("--due", type=cli_when,
                     help="a date or time: 2026-12-03, 2026-12-03T17:00, tomorrow, today 17:00")
    add.add_argument("--priority", type=int, default=0, help="1 high, 5 medium, 9 low")
    add.add_argument("--tz", help="IANA zone of --due (default: this machine's)")
    listing = add_action(actions, "list", "open to-dos", _list)
    listing.add_argument("--all", action="store_true", help="include those done")
    done = add_action(actions, "done", "mark a to-do done", _done)
    done.add_argument("id")
    delete = add_action(actions, "delete", "delete a to-do", _delete)
    delete.add_argument("id")


def _add(args: argparse.Namespace, hearth: Hearth) -> int:
    from skills.calendar.timeutil import zone
    from skills.calendar.todo_tools import build_todo, todo_line
    from skills.common.clock import local_timezone_name

    tz = args.tz or local_timezone_name()
    zone(tz)
    todo = hearth.calendar.todos.add(build_todo(
        {"title": args.title, "due": args.due, "priority": args.priority}, tz))
    return show(args.json, todo.to_json(), f"Added {todo_line(todo)[2:]}")


def _list(args: argparse.Namespace, hearth: Hearth) -> int:
    from skills.calendar.todo_tools import todo_line

    todos = hearth.calendar.todos.all(include_done=args.all)
    for todo in todos:
        show(args.json, todo.to_json(), todo_line(todo)[2:])
    if not todos and not args.json:
        print("No to-dos." if args.all else "No open to-dos.")
    return 0


def _done(args: argparse.Namespace, hearth: Hearth) -> int:
    todo = hearth.calendar.todos.complete(args.id)
    return show(args.json, todo.to_json(), f"Done: {todo.title}")


def _delete(args: argparse.Namespace, hearth: Hearth) -> int:
    todo = hearth.calendar.todos.delete(args.id)
    return show(args.json, {"id": todo.uid, "deleted": True}, f"Deleted: {todo.title}")
