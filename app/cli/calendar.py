"""`hearth calendar list|add|import|export|delete`: the local calendar from the terminal."""

from __future__ import annotations

import argparse
import sys
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli.groups import show
from app.cli.output import emit_json, fail
from app.cli.when import cli_when
from app.core.failures import exit_code
from backends.errors import FailureKind
from skills.base import SkillError

if TYPE_CHECKING:
    from app.main import Hearth
    from skills.calendar.listing import Listing
    from skills.calendar.model import Occurrence


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("calendar", help="your local calendar")
    actions = parser.add_subparsers(dest="action", required=True)
    listing = actions.add_parser("list", help="events in a range (default: the next 7 days)")
    listing.add_argument("--from", dest="start", type=cli_when,
                         help="ISO date or time, or today, tomorrow... (default: today)")
    listing.add_argument("--to", dest="end", type=cli_when,
                         help="the last day (or a time), e.g. tomorrow (default: a week from today)")
    listing.add_argument("--query", default="")
    listing.add_argument("--tz", help="IANA zone to show times in (default: this machine's)")
    listing.add_argument("--limit", type=int, default=None,
                         help="occurrences to list (default 200); the rest are counted")
    add = actions.add_parser("add", help="add an event")
    add.add_argument("--title", required=True)
    add.add_argument("--start", required=True, type=cli_when,
                     help="ISO date or time, or e.g. 'tomorrow 09:30'")
    add.add_argument("--end", type=cli_when)
    add.add_argument("--all-day", action="store_true")
    add.add_argument("--location")
    add.add_argument("--notes")
    add.add_argument("--rrule", help="e.g. FREQ=WEEKLY;BYDAY=MO")
    add.add_argument("--tz", help="IANA time zone (default: this machine's)")
    add.add_argument("--alarm", type=int, help="minutes before start")
    imp = actions.add_parser("import", help="import an .ics file (again: no duplicates)")
    imp.add_argument("file", type=Path)
    imp.add_argument("--tz", help="IANA zone for times without one (default: this machine's)")
    imp.add_argument("--remove-missing", action="store_true",
                     help="a re-imported subscription: remove its events the file no longer has")
    imp.add_argument("--on-conflict", choices=("ask", "mine", "theirs", "both"), default="ask",
                     help="an event changed both in Hearth and in the file: keep yours, take "
                          "the file's, or keep both (default: ask; without a terminal, "
                          "nothing is imported until you choose)")
    exp = actions.add_parser("export", help="export every event to an .ics file")
    exp.add_argument("file", type=Path)
    delete = actions.add_parser("delete", help="delete an event (a whole series) by UID")
    delete.add_argument("uid")
    for p in (listing, add, imp, exp, delete):
        p.add_argument("--json", action="store_true", help="machine-readable output")
        p.set_defaults(func=run)


def run(args: argparse.Namespace, hearth: Hearth) -> int:
    from skills.calendar.timeutil import zone
    from skills.common.clock import local_timezone_name

    tz = getattr(args, "tz", None) or local_timezone_name()
    try:
        zone(tz)
        return ACTIONS[args.action](args, hearth, tz)
    except SkillError as exc:  # a bad date, zone or uid: the person's input
        return fail(str(exc), exit_code(FailureKind.BAD_INPUT))
    except OSError as exc:
        return fail(f"{exc.strerror or exc}: {exc.filename or ''}".strip(": "))


def _list(args: argparse.Namespace, hearth: Hearth, tz: str) -> int:
    from skills.calendar.listing import DEFAULT_LIMIT

    if args.limit is not None and args.limit < 1:
        return fail("--limit must be at least 1", code=exit_code(FailureKind.BAD_INPUT))
    lo, hi = _span(args, tz)
    page = hearth.calendar.listing(lo, hi, args.query, limit=args.limit or DEFAULT_LIMIT)
    if args.json:
        for occurrence in page.occurrences:
            emit_json(occurrence.to_json())
        if not page.complete:
            emit_json(page.to_json())
        return 0
    print(_agenda_text(page, lo, hi, tz))
    return 0


def _agenda_text(page: Listing, lo: datetime, hi: datetime, tz: str) -> str:
    from skills.calendar.timeutil import describe

    found = page.occurrences
    if not found:
        return f"No events from {describe(lo)} to {describe(hi)}."
    lines = [f"{len(found)} event(s) from {describe(lo)} to {describe(hi)}:",
             agenda(found, tz)]
    if page.more:
        count = f"more than {page.more:,}" if page.more_at_least else f"{page.more:,}"
        start = page.next_start.isoformat() if page.next_start is not None else ""
        lines.append(f"{count} more not listed. Next page: "
                     f"hearth calendar list --from {start} --to {hi.isoformat()}")
    lines += [f"Limited: {cut}; ask for a shorter range to see every repetition."
              for cut in page.cuts]
    return "\n".join(lines)


def _span(args: argparse.Namespace, tz: str) -> tuple[datetime, datetime]:
    """--from/--to as aware times; a date --to names the last day shown ("--to tomorrow" shows
    tomorrow), as a person reads it; by default the seven days from today."""
    from skills.calendar.timeutil import as_aware, parse_when

    today = datetime.now().astimezone().date()
    lo = as_aware(parse_when(args.start or today.isoformat(), tz), tz)
    end = parse_when(args.end or (today + timedelta(days=6)).isoformat(), tz)
    if not isinstance(end, datetime):
        end += timedelta(days=1)  # up to the end of that day
    hi = as_aware(end, tz)
    if hi <= lo:
        raise SkillError("--to must be after --from")
    return lo, hi


def agenda(occurrences: list[Occurrence], tz: str) -> str:
    """Occurrences under a heading per day, times in the user's zone, each with its uid."""
    lines: list[str] = []
    day = None
    for occurrence in occurrences:
        first, when = _when(occurrence, tz)
        if first != day:
            day = first
            lines.append(f"{first:%a %d %b %Y}")
        event = occurrence.event
        marks = "".join((f" @ {event.location}" if event.location else "",
                         " (repeats)" if occurrence.recurrence_id is not None else "",
                         " (cancelled)" if event.cancelled else ""))
        lines.append(f"  {when}  {event.title}{marks}  [uid {event.uid}]")
    return "\n".join(lines)


def _when(occurrence: Occurrence, tz: str) -> tuple[date, str]:
    """The day it is listed under and its times (all-day events keep their own dates)."""
    from skills.calendar.display import view_days, view_times

    if occurrence.event.all_day:
        days = view_days(occurrence)
        return days.first, ("all day" if days.first == days.last
                            else f"all day, until {days.last:%a %d %b}")
    shown = view_times(occurrence, tz)
    when = f"{shown.start:%H:%M}-{shown.end:%H:%M} {shown.start:%Z}".strip()
    if shown.end.date() != shown.start.date():
        when = f"{shown.start:%H:%M} - {shown.end:%a %d %b %H:%M} {shown.start:%Z}".strip()
    if shown.own_zone:
        when += f" ({shown.own_zone} {shown.own_start:%H:%M})"
    return shown.start.date(), when


def _add(args: argparse.Namespace, hearth: Hearth, tz: str) -> int:
    from skills.calendar.tools import build_event, summary

    given = {"end": args.end, "location": args.location, "notes": args.notes,
             "recurrence": args.rrule, "alarm_minutes": args.alarm}
    arguments: dict[str, Any] = {"title": args.title, "start": args.start, "all_day": args.all_day,
                                 **{k: v for k, v in given.items() if v is not None}}
    event = hearth.calendar.add(build_event(arguments, tz))
    return show(args.json, {"uid": event.uid, "title": event.title,
                            "start": event.start.isoformat(), "end": event.end.isoformat(),
                            "all_day": event.all_day, "location": event.location},
                f"Added {summary(event)} (uid {event.uid})")


def _import(args: argparse.Namespace, hearth: Hearth, tz: str) -> int:
    from skills.calendar.ical import import_file

    source = Path(args.file).expanduser()
    if source.exists() and not source.is_file():  # a FIFO or device would block the read
        return fail(f"Nothing imported from {args.file}: not a regular file", code=2)
    choices = _conflict_choices(args, hearth, tz)
    if choices is None:
        return fail(f"Nothing imported from {args.file}: events changed both in Hearth and in "
                    "the file; choose with --on-conflict mine|theirs|both",
                    code=exit_code(FailureKind.BAD_INPUT))
    report = import_file(hearth.calendar, args.file, tz, remove_missing=args.remove_missing,
                         choices=choices)
    if not (report.added or report.updated or report.unchanged) and report.skipped:
        return fail(f"Nothing imported from {args.file}: {report.skipped[0]}",
                    code=exit_code(FailureKind.BAD_INPUT))
    if args.json:
        emit_json({"file": str(args.file), **report.to_json()})
    else:
        print(f"Imported {args.file}: {report.summary()}")
        for kept in report.kept:
            print(f"  {kept.reason}")
        for issue in report.repaired:
            print(f"  repaired {issue}")
        for issue in report.skipped:
            print(f"  skipped {issue}")
    return 0


def _conflict_choices(args: argparse.Namespace, hearth: Hearth,
                      tz: str) -> dict[tuple[str, str], str] | None:
    """The answer for each event changed on both sides: --on-conflict, or asked one by one
    at a terminal; None when it must be asked and there is no one to ask."""
    from skills.calendar.ical import conflicts_on_reimport

    conflicts = conflicts_on_reimport(hearth.calendar, args.file, tz)
    if args.on_conflict != "ask":
        return {c.ident: args.on_conflict for c in conflicts}
    if conflicts and (args.json or not sys.stdin.isatty()):
        return None
    answers = {"m": "mine", "t": "theirs", "b": "both"}
    choices: dict[tuple[str, str], str] = {}
    for conflict in conflicts:
        print(f"Changed in both: {conflict}")
        answer = ""
        while answer not in answers:
            answer = input("  [m]ine / [t]ake the file's / [b]oth? ").strip()[:1].lower()
        choices[conflict.ident] = answers[answer]
    return choices


def _export(args: argparse.Namespace, hearth: Hearth, tz: str) -> int:
    from skills.calendar.ical import export_ics

    events = hearth.calendar.all_events()
    todos = hearth.calendar.todos.all(include_done=True)
    data = export_ics(events, todos=todos)
    tmp = args.file.with_name(args.file.name + ".part")
    tmp.write_bytes(data)  # written whole, then moved into place: never half a file
    tmp.replace(args.file)
    return show(args.json, {"file": str(args.file), "events": len(events), "todos": len(todos)},
                f"Exported {len(events)} event(s) and {len(todos)} to-do(s) to {args.file}")


def _delete(args: argparse.Namespace, hearth: Hearth, tz: str) -> int:
    event = hearth.calendar.delete(args.uid)
    return show(args.json, {"uid": event.uid, "deleted": True},
                f"Deleted '{event.title}' ({event.uid})")


ACTIONS = {"list": _list, "add": _add, "import": _import, "export": _export, "delete": _delete}
