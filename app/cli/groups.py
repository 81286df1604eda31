"""Commands made of actions (`hearth docs add|search|...`): their parsers, --json and dispatch."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

from app.cli.output import emit_json, fail
from app.core.failures import FailureKind, exit_code

if TYPE_CHECKING:
    from app.main import Hearth

Handler = Callable[[argparse.Namespace, "Hearth"], int]
Actions: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"  # generic to mypy only


def command_group(sub: Actions, name: str, help: str, run: Handler | None = None) -> Actions:
    """`hearth NAME ACTION ...`; `run` (default: `dispatch`) runs whichever action was given."""
    parser = sub.add_parser(name, help=help)
    actions: Actions = parser.add_subparsers(dest="action")
    parser.set_defaults(func=run or dispatch, group=name, group_actions=actions)
    return actions


def add_action(actions: Actions, name: str, help: str,
               handler: Handler | None = None) -> argparse.ArgumentParser:
    """One action, with the --json every action has."""
    parser: argparse.ArgumentParser = actions.add_parser(name, help=help)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    if handler is not None:
        parser.set_defaults(handler=handler)
    return parser


def dispatch(args: argparse.Namespace, hearth: Hearth) -> int:
    handler = getattr(args, "handler", None)
    if handler is None:
        return no_action(args)
    result: int = handler(args, hearth)
    return result


def dispatch_input(args: argparse.Namespace, hearth: Hearth) -> int:
    """`dispatch`, a SkillError (a bad date, zone, rule or id: the person's input) said on one
    line with the bad-input exit code."""
    from skills.base import SkillError

    try:
        return dispatch(args, hearth)
    except SkillError as exc:
        return fail(str(exc), exit_code(FailureKind.BAD_INPUT))


def no_action(args: argparse.Namespace) -> int:
    names = ", ".join(args.group_actions.choices)
    return fail(f"choose one of: {args.group} {names}", exit_code(FailureKind.BAD_INPUT))


def show(as_json: bool, record: object, text: str) -> int:
    """The typed record as one JSON line, or the sentence for a person; exit code 0."""
    if as_json:
        emit_json(record)
    else:
        print(text)
    return 0


def confirm_all(count: int, yes: bool, question: str, needs_yes: str,
                nothing: str) -> int | None:
    """Before an --all that cannot be undone: None to go on (nothing there, --yes, or a yes at
    the terminal); else the exit code (no terminal to ask: refused; a no: nothing done)."""
    if not count or yes:
        return None
    if not sys.stdin.isatty():
        return fail(needs_yes, exit_code(FailureKind.BAD_INPUT))
    if input(question).strip().lower() in ("y", "yes"):
        return None
    print(nothing)
    return 0
