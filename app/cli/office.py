"""`hearth office inspect|query|digest|convert|clean|report|slides`: office tools from the shell.

Files named on the command line count as dropped into the chat; new files go to the output
folder setting (or --output inside a chosen folder). Writes ask first; --yes answers yes."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from app.cli.output import emit_json, fail, fail_on
from app.core.failures import FailureKind, exit_code

if TYPE_CHECKING:
    from app.main import Hearth
    from skills.base import Skill

ACTIONS = ("inspect", "query", "digest", "convert", "clean", "report", "slides")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("office", help="spreadsheets, reports and slides")
    parser.set_defaults(func=run)
    actions = parser.add_subparsers(dest="action")

    inspect = actions.add_parser("inspect", help="sheets, header, columns, sample rows")
    inspect.add_argument("file")
    inspect.add_argument("--sheet")

    query = actions.add_parser("query", help="one SQL SELECT over sheets and CSV files")
    query.add_argument("files", nargs="+", metavar="FILE")
    query.add_argument("--sql", required=True)
    query.add_argument("--max-rows", type=int, default=50)

    digest = actions.add_parser("digest", help="summarise every document in a folder")
    digest.add_argument("folder")
    digest.add_argument("--question", default="", help="answer this from the summaries")
    digest.add_argument("--model", help="model file (default: the one in settings)")
    digest.add_argument("--max-files", type=int, default=50)

    convert = actions.add_parser("convert", help="sheet -> CSV, CSV/sheet -> XLSX")
    convert.add_argument("source")
    convert.add_argument("--to", choices=["csv", "xlsx"], required=True)
    convert.add_argument("--sheet")

    clean = actions.add_parser("clean", help="trim, dedupe, normalise... into a new file")
    clean.add_argument("source")
    clean.add_argument("--sheet")
    clean.add_argument("--ops", required=True,
                       help='JSON list, e.g. \'[{"op": "trim"}, {"op": "dedupe", "columns": '
                            '["Invoice"]}]\'')

    report = actions.add_parser("report", help="a Word report from a Markdown file")
    report.add_argument("markdown", help="Markdown file, or - for standard input")
    report.add_argument("--title", default="")
    report.add_argument("--template", help="a .docx whose styles to use")

    slides = actions.add_parser("slides", help="a PowerPoint deck from a JSON list of slides")
    slides.add_argument("slides", help='JSON file: [{"title": ..., "bullets": [...], '
                                       '"notes": ..., "table": {...}}], or - for stdin')
    slides.add_argument("--title", default="")

    for command in (convert, clean, report, slides):
        command.add_argument("--output", help="file name, or full path in a chosen folder")
        command.add_argument("--next-to-source", action="store_true")
        command.add_argument("--overwrite", action="store_true",
                             help="replace an existing file (a backup is kept)")
        command.add_argument("--yes", action="store_true", help="write without asking")
    for command in (inspect, query, digest, convert, clean, report, slides):
        command.add_argument("--json", action="store_true", help="machine-readable output")
        command.set_defaults(handler=command.prog.split()[-1])


def run(args: argparse.Namespace, hearth: Hearth) -> int:
    action = getattr(args, "handler", None)
    if action not in ACTIONS:
        return fail("choose one of: office " + ", ".join(ACTIONS))
    from skills.base import SkillError

    try:
        if action == "digest":
            from app.cli.office_digest import run_digest

            return int(run_digest(args, hearth))
        return _run_tool(action, args, hearth)
    except (SkillError, ValueError) as exc:  # a refused path, a bad file, bad JSON
        return fail(str(exc), exit_code(FailureKind.BAD_INPUT))
    except OSError as exc:  # the disk: full, read-only...
        return fail_on(exc)


def _named_files(action: str, args: argparse.Namespace) -> list[str]:
    names = list(getattr(args, "files", None) or [])
    for attr in ("file", "source", "template"):
        value = getattr(args, attr, None)
        if value:
            names.append(value)
    return [os.path.abspath(os.path.expanduser(n)) for n in names]


def _skills(hearth: Hearth, named: list[str]) -> dict[str, Skill]:
    from skills.office import OfficeAccess, office_skills

    settings = hearth.settings
    access = OfficeAccess(roots=lambda: [*settings.file_roots, *settings.watched_folders],
                          dropped=lambda _conversation: named,
                          output=lambda: settings.office_output_folder)
    return {s.name: s for s in office_skills(access, hearth.workbooks)}


def _arguments(action: str, args: argparse.Namespace) -> dict[str, Any]:
    if action == "inspect":
        return {"file": os.path.abspath(args.file), "sheet": args.sheet}
    if action == "query":
        return {"files": [os.path.abspath(f) for f in args.files], "sql": args.sql,
                "max_rows": args.max_rows}
    placement = {"output": args.output or "", "next_to_source": args.next_to_source,
                 "overwrite": args.overwrite}
    if action == "convert":
        return {"source": os.path.abspath(args.source), "to": args.to, "sheet": args.sheet,
                **placement}
    if action == "clean":
        try:
            operations = json.loads(args.ops)
        except ValueError as exc:
            raise ValueError(f"--ops is not valid JSON: {exc}") from exc
        return {"source": os.path.abspath(args.source), "sheet": args.sheet,
                "operations": operations if isinstance(operations, list) else [operations],
                **placement}
    if action == "report":
        return {"markdown": _read_input(args.markdown), "title": args.title,
                "template": os.path.abspath(args.template) if args.template else "", **placement}
    loaded = json.loads(_read_input(args.slides))
    slides = loaded.get("slides", []) if isinstance(loaded, dict) else loaded
    return {"slides": slides, "title": args.title, **placement}


def _read_input(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    with open(name, encoding="utf-8-sig") as handle:
        return handle.read()


def _run_tool(action: str, args: argparse.Namespace, hearth: Hearth) -> int:
    from skills.base import SkillContext

    skill = _skills(hearth, _named_files(action, args))[f"office_{action}"]
    arguments = {k: v for k, v in _arguments(action, args).items() if v not in (None, "")}
    context = SkillContext(conversation_id="cli")
    if skill.changes_things:
        answer = _approved(skill, arguments, context, args)
        if answer != "yes":
            if args.json:
                emit_json({"ok": False, "written": None, "reason": answer})
            if answer == "no":
                return fail("nothing was written", exit_code(FailureKind.CANCELLED))
            return fail("nothing was written: add --yes to write without a terminal to ask in",
                        exit_code(FailureKind.BAD_INPUT))
    result = skill.run(arguments, context)
    if args.json:
        emit_json({"ok": result.ok, "text": result.text, "data": result.data})
    else:
        print(_for_people(result.text))
    return 0 if result.ok else 1


def _for_people(text: str) -> str:
    """The tool's text without the fences and notes that are there for the model."""
    from skills.office.read_tools import DATA_NOTE

    kept = [line for line in text.replace(DATA_NOTE, "").splitlines()
            if not line.startswith(("<document_data", "</document_data>"))]
    return "\n".join(kept).strip()


def _approved(skill: Skill, arguments: dict[str, Any], context: Any,
              args: argparse.Namespace) -> str:
    """"yes", "no" (the person said no) or "no terminal" (nobody to ask, no --yes)."""
    asks = skill.confirmations(arguments, context)  # type: ignore[attr-defined]
    for text in asks:
        if not args.json:
            print(text, file=sys.stderr)
        if args.yes:
            continue
        if not sys.stdin.isatty():
            return "no terminal"
        if input("Write it? [y/N] ").strip().lower() not in ("y", "yes"):
            return "no"
    return "yes"
