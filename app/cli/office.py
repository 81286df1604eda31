"""`hearth office inspect|query|digest|convert|clean|report|slides`: office tools from the shell.

Files named on the command line count as dropped into the chat; new files go to the output
folder setting (or --output inside a chosen folder). Writes ask first; --yes answers yes."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from app.cli.groups import add_action, command_group, no_action
from app.cli.output import emit_json, fail, fail_on
from app.core.failures import FailureKind, exit_code, kind_of

if TYPE_CHECKING:
    from app.main import Hearth
    from skills.office import OfficeAccess

CLI = "cli"  # the conversation the command line's named files count as dropped into


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    actions = command_group(sub, "office", "spreadsheets, reports and slides", run)
    inspect = add_action(actions, "inspect", "sheets, header, columns, sample rows")
    inspect.add_argument("file")
    inspect.add_argument("--sheet")

    query = add_action(actions, "query", "one SQL SELECT over sheets and CSV files")
    query.add_argument("files", nargs="+", metavar="FILE")
    query.add_argument("--sql", required=True)
    query.add_argument("--max-rows", type=int, default=50)

    digest = add_action(actions, "digest", "summarise every document in a folder")
    digest.add_argument("folder")
    digest.add_argument("--question", default="", help="answer this from the summaries")
    digest.add_argument("--model", help="model file (default: the one in settings)")
    digest.add_argument("--max-files", type=int, default=50)

    convert = add_action(actions, "convert", "sheet -> CSV, CSV/sheet -> XLSX")
    convert.add_argument("source")
    convert.add_argument("--to", choices=["csv", "xlsx"], required=True)
    convert.add_argument("--sheet")

    clean = add_action(actions, "clean", "trim, dedupe, normalise... into a new file")
    clean.add_argument("source")
    clean.add_argument("--sheet")
    clean.add_argument("--ops", required=True,
                       help='JSON list, e.g. \'[{"op": "trim"}, {"op": "dedupe", "columns": '
                            '["Invoice"]}]\'')

    report = add_action(actions, "report", "a Word report from a Markdown file")
    report.add_argument("markdown", help="Markdown file, or - for standard input")
    report.add_argument("--title", default="")
    report.add_argument("--template", help="a .docx whose styles to use")

    slides = add_action(actions, "slides", "a PowerPoint deck from a JSON list of slides")
    slides.add_argument("slides", help='JSON file: [{"title": ..., "bullets": [...], '
                                       '"notes": ..., "table": {...}}], or - for stdin')
    slides.add_argument("--title", default="")

    for command in (convert, clean, report, slides):
        command.add_argument("--output", help="file name, or full path in a chosen folder")
        command.add_argument("--next-to-source", action="store_true")
        command.add_argument("--overwrite", action="store_true",
                             help="replace an existing file (a backup is kept)")
        command.add_argument("--yes", action="store_true", help="write without asking")


def run(args: argparse.Namespace, hearth: Hearth) -> int:
    action = args.action
    if action is None:
        return no_action(args)
    from skills.base import SkillError

    try:
        if action == "digest":
            from app.cli.office_digest import run_digest

            return int(run_digest(args, hearth))
        access = _access(hearth, _named_files(args))
        if action == "inspect":
            return _inspect(args, access)
        if action == "query":
            return _query(args, access, hearth)
        return _write(action, args, access, hearth)
    except (SkillError, ValueError) as exc:  # a refused path, a bad file, bad JSON
        full = kind_of(exc) is FailureKind.DISK_FULL  # or the disk it was written to is full
        return fail(str(exc), exit_code(FailureKind.DISK_FULL if full else FailureKind.BAD_INPUT))
    except OSError as exc:  # the disk: full, read-only...
        return fail_on(exc)


def _named_files(args: argparse.Namespace) -> list[str]:
    names = list(getattr(args, "files", None) or [])
    for attr in ("file", "source", "template"):
        value = getattr(args, attr, None)
        if value:
            names.append(value)
    return [os.path.abspath(os.path.expanduser(n)) for n in names]


def _access(hearth: Hearth, named: list[str]) -> OfficeAccess:
    """What the command may read and write: the chosen folders, plus the files it names."""
    from skills.office import OfficeAccess

    settings = hearth.settings
    return OfficeAccess(roots=lambda: [*settings.file_roots, *settings.watched_folders],
                        dropped=lambda _conversation: named,
                        output=lambda: settings.office_output_folder)


def _inspect(args: argparse.Namespace, access: OfficeAccess) -> int:
    from skills.office.read_tools import describe_sheet, sheet_summary
    from skills.office.sheets import Limits, load_sheets

    path = access.readable(os.path.abspath(args.file), CLI)
    sheets = load_sheets(path, Limits(), (args.sheet or "").strip() or None)
    if args.json:
        emit_json({"file": path, "sheets": [sheet_summary(s) for s in sheets]})
        return 0
    print(f"{os.path.basename(path)}: {len(sheets)} sheet(s)")
    if sheets and sheets[0].external_links:
        print(f"{sheets[0].external_links} link(s) to other workbooks: their values are the ones"
              " last saved (Hearth never opens the linked files)")
    for sheet in sheets:
        print("\n" + describe_sheet(sheet))
    return 0


def _query(args: argparse.Namespace, access: OfficeAccess, hearth: Hearth) -> int:
    from skills.base import SkillError
    from skills.office.read_tools import markdown_table

    if args.max_rows < 1:
        raise ValueError("--max-rows must be at least 1")
    paths = [access.readable(os.path.abspath(name), CLI) for name in args.files]
    database = hearth.workbooks.database(paths)
    if not database.tables:
        raise SkillError("no sheet with data found in " + ", ".join(map(os.path.basename, paths)))
    result = database.query(args.sql, args.max_rows)
    if args.json:
        emit_json({"columns": result.columns, "rows": result.rows, "count": result.count,
                   "files": paths, "limited": result.limited})
        return 0
    if result.rows:
        print(markdown_table(result.columns, result.rows))
    shown = len(result.rows)
    print(f"{result.count} row(s)" + (f"; the first {shown} are shown (--max-rows)"
                                      if shown < result.count else ""))
    if result.limited:
        print("Limited: " + ", ".join(result.limited) + " had more rows than Hearth loads;"
              " the result covers the loaded rows only.")
    return 0


def _write(action: str, args: argparse.Namespace, access: OfficeAccess, hearth: Hearth) -> int:
    """Plan the file, show what will be written and ask, then write it and check it."""
    from skills.base import SkillContext
    from skills.office import office_skills
    from skills.office.drafts import commit
    from skills.office.write_tools import WriteTool

    writer = next(s for s in office_skills(access, hearth.workbooks)
                  if s.name == f"office_{action}")
    assert isinstance(writer, WriteTool)
    arguments = {k: v for k, v in _arguments(action, args).items() if v not in (None, "")}
    context = SkillContext(conversation_id=CLI)
    draft = writer.draft(arguments, context)
    answer = _approved(writer.confirmations(arguments, context), args)
    if answer != "yes":
        if args.json:
            emit_json({"ok": False, "written": None, "reason": answer})
        if answer == "no":
            return fail("nothing was written", exit_code(FailureKind.CANCELLED))
        return fail("nothing was written: add --yes to write without a terminal to ask in",
                    exit_code(FailureKind.BAD_INPUT))
    written = commit(draft)
    if args.json:
        emit_json({"ok": True, **written, "preview": draft.preview, "notes": draft.notes})
    else:
        _print_written(written, draft.notes)
    return 0


def _print_written(written: dict[str, Any], notes: list[str]) -> None:
    from skills.common.formats import human_size
    from skills.files.paths import display

    counts = ", ".join(f"{n} {what}" for what, n in written["counts"].items())
    print(f"Wrote {display(written['written'])} ({human_size(written['size'])};"
          f" opened again and checked: {counts})")
    if written["backup"]:
        print(f"The previous file is kept as {display(written['backup'])}")
    for note in notes:
        print(f"  {note}")


def _arguments(action: str, args: argparse.Namespace) -> dict[str, Any]:
    """A write command's options as its tool's arguments."""
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


def _approved(asks: list[str], args: argparse.Namespace) -> str:
    """"yes", "no" (the person said no) or "no terminal" (nobody to ask, no --yes)."""
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
