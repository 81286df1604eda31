"""`hearth routines add|list|delete|run|run-due|pending|approve|deny`: scheduled asks headless
(cron runs `hearth routines run-due` every few minutes on a machine without the app open)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from app.cli.engine_options import add_engine_options
from app.cli.groups import Actions, add_action, command_group, dispatch_input, show
from app.cli.output import fail_on
from app.cli.when import cli_when
from backends.errors import BackendError
from skills.base import SkillError

if TYPE_CHECKING:
    from app.core.routines import Run
    from app.main import Hearth


def register(sub: Actions) -> None:
    actions = command_group(sub, "routines", "questions Hearth asks itself on a schedule",
                            dispatch_input)
    add = add_action(actions, "add", "add a routine", _add)
    add.add_argument("--ask", required=True, help="what to ask when it runs")
    add.add_argument("--at", required=True, type=cli_when,
                     help="HH:MM, an ISO date and time, or e.g. 'tomorrow 07:30'")
    add.add_argument("--every", help="day, weekday, week, month or an RRULE (default: once)")
    add.add_argument("--title", default="", help="its name (default: the start of the ask)")
    add.add_argument("--tz", help="IANA time zone (default: this machine's)")
    add_action(actions, "list", "routines, their schedule and next run", _list)
    delete = add_action(actions, "delete", "delete a routine (its conversations stay)", _delete)
    delete.add_argument("id")
    run_now = add_action(actions, "run", "run a routine now", _run)
    run_now.add_argument("id")
    due = add_action(actions, "run-due", "run every routine whose time has come, once", _run_due)
    history = add_action(actions, "history", "the latest runs", _history)
    history.add_argument("id", nargs="?", help="one routine's runs")
    add_action(actions, "pending", "changes routines asked for, waiting for approval", _pending)
    for name, text in (("approve", "make a held change"), ("deny", "drop a held change")):
        decide = add_action(actions, name, text, _decide)
        decide.add_argument("approval", type=int, help="its id (from `routines pending`)")
    for parser in (run_now, due):
        add_engine_options(parser)


def _add(args: argparse.Namespace, hearth: Hearth) -> int:
    from app.core.routines import Schedule, parse_at, repetition
    from skills.calendar.timeutil import zone
    from skills.common.clock import local_timezone_name

    tz = args.tz or local_timezone_name()
    now = hearth.scheduler.now()
    zone(tz)
    start = parse_at(args.at, tz, now, repeating=bool(args.every))
    schedule = Schedule(start, tz, repetition(args.every, start, tz))
    routine = hearth.routines.add(args.title, args.ask, schedule, now)
    record = routine.to_json(now)
    return show(args.json, record, f"Routine {routine.id} added: {schedule.describe()}; next "
                                   f"run {record['next']}.")


def _list(args: argparse.Namespace, hearth: Hearth) -> int:
    now = hearth.scheduler.now()
    routines = hearth.routines.all()
    for routine in routines:
        record = routine.to_json(now)
        state = " (paused)" if routine.paused else f"; next {record['next']}"
        show(args.json, record, f"{routine.id}  {routine.title}: {record['schedule']}{state}")
    if not routines and not args.json:
        print("No routines yet: hearth routines add --ask TEXT --at HH:MM [--every day]")
    return 0


def _delete(args: argparse.Namespace, hearth: Hearth) -> int:
    routine = hearth.routines.delete(args.id)
    return show(args.json, {"id": routine.id, "deleted": True}, f"Deleted routine {routine.id}.")


def _run(args: argparse.Namespace, hearth: Hearth) -> int:
    try:
        hearth.routines.get(args.id)
        _load(args, hearth)
        run = hearth.scheduler.run_now(args.id)
    except (SkillError, BackendError) as exc:
        return fail_on(exc)
    _show_run(args.json, run)
    return _code(run)


def _run_due(args: argparse.Namespace, hearth: Hearth) -> int:
    if not hearth.scheduler.due():
        if not args.json:
            print("Nothing is due.")
        return 0  # the model is only loaded when something runs (cron calls this often)
    try:
        _load(args, hearth)
    except BackendError as exc:
        return fail_on(exc)
    runs = hearth.scheduler.run_due()
    for run in runs:
        _show_run(args.json, run)
    return max((_code(run) for run in runs), default=0)


def _history(args: argparse.Namespace, hearth: Hearth) -> int:
    routine_id = hearth.routines.get(args.id).id if args.id else None
    for run in hearth.routines.runs(routine_id):
        _show_run(args.json, run)
    return 0


def _pending(args: argparse.Namespace, hearth: Hearth) -> int:
    for held in hearth.approvals.pending():
        show(args.json, held.to_json(), f"{held.id}  {held.description}  "
                                        f"(conversation {held.conversation_id})")
    return 0


def _decide(args: argparse.Namespace, hearth: Hearth) -> int:
    decided = (hearth.approvals.approve(args.approval) if args.action == "approve"
               else hearth.approvals.deny(args.approval))
    show(args.json, decided.to_json(), f"{decided.status}: {decided.description}"
         + (f"\n{decided.result}" if decided.result else ""))
    return 0 if decided.status != "failed" else 1


def _load(args: argparse.Namespace, hearth: Hearth) -> None:
    from app.cli.ask.commands import _load_model

    _load_model(args, hearth)


def _show_run(as_json: bool, run: Run) -> None:
    note = f" {run.note}" if run.note else ""
    show(as_json, run.to_json(), f"{run.routine_id}  due {run.due.isoformat(timespec='minutes')}"
         f"  {run.status}  conversation {run.conversation_id}{note}")


def _code(run: Run) -> int:
    return 0 if run.status in ("done", "waiting_approval") else 1
