"""The office write tools: convert, clean, report (DOCX) and slides (PPTX). Each shows the user
the target, the size and a preview first, and writes only after the user approved."""

from __future__ import annotations

import json
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from skills.base import SkillContext, SkillError, SkillResult, object_schema
from skills.files.paths import display
from skills.office import clean, report, slides, tables
from skills.office.access import OfficeAccess, free_name
from skills.office.digest import Digester, digest_markdown
from skills.office.drafts import Draft, commit
from skills.office.read_tools import markdown_table
from skills.office.sheets import Limits, Sheet, load_sheets, sheet_kind

PREVIEW_ROWS = 5
# Sent with every write tool: kept short (the approval itself shows the target and the backup).
_PLACEMENT: dict[str, Any] = {
    "output": {"type": "string", "description": "File name or full path (default folder: output)."},
    "next_to_source": {"type": "boolean", "description": "Write beside the source."},
    "overwrite": {"type": "boolean", "description": "Replace an existing file of that name."},
}
# The source a sheet tool reads (office_convert, office_clean).
_SOURCE: dict[str, Any] = {
    "source": {"type": "string", "description": "Workbook or CSV."},
    "sheet": {"type": "string"},
}
OVERWRITE_TEXT = ("Second approval: {path} already exists and will be REPLACED. The current file"
                  " is kept as a backup beside it, and Undo puts it back.")


class WriteTool:
    """Plans a Draft (cached, so what the user approved is exactly what is written)."""

    name = ""
    action = ""
    changes_things = True
    parameters: dict[str, Any] = {}
    description = ""

    def __init__(self, access: OfficeAccess, limits: Limits | None = None) -> None:
        self.access = access
        self.limits = limits or Limits()
        self._drafts: OrderedDict[str, Draft] = OrderedDict()
        self._lock = threading.Lock()

    def plan(self, arguments: dict[str, Any], context: SkillContext) -> Draft:
        raise NotImplementedError

    def draft(self, arguments: dict[str, Any], context: SkillContext) -> Draft:
        key = context.conversation_id + json.dumps(arguments, sort_keys=True, default=str)
        with self._lock:
            found = self._drafts.get(key)
        if found is not None:
            return found
        made = self.plan(arguments, context)
        with self._lock:
            self._drafts[key] = made
            while len(self._drafts) > 4:
                self._drafts.popitem(last=False)
        return made

    def confirmations(self, arguments: dict[str, Any], context: SkillContext) -> list[str]:
        """What the user approves, once for a new file and a second time for an overwrite."""
        made = self.draft(arguments, context)
        asks = [made.describe(self.action)]
        if made.overwrite:
            asks.append(OVERWRITE_TEXT.format(path=display(made.path)))
        return asks

    def describe_change(self, arguments: dict[str, Any]) -> str:
        return f"{self.action}: write a new file ({json.dumps(arguments, ensure_ascii=False)[:300]})"

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        made = self.draft(arguments, context)
        with self._lock:  # a draft is written once; asking again plans it again
            for key in [k for k, v in self._drafts.items() if v is made]:
                del self._drafts[key]
        written = commit(made)
        counts = ", ".join(counted(v, k) for k, v in made.counts.items())
        lines = [f"Wrote {display(made.path)} ({written['size']} bytes; re-opened and checked:"
                 f" {counts})."]
        if written["backup"]:
            lines.append(f"The previous file is kept as {display(written['backup'])}.")
        lines += made.notes
        lines.append("The user can open it, show it in its folder, or undo it from the chat.")
        data = {**written, "preview": made.preview, "notes": made.notes}
        return SkillResult("\n".join(lines), data=data)

    # -- shared planning ------------------------------------------------------------------
    def place(self, arguments: dict[str, Any], default_name: str, source: str = "") -> tuple[
            str, bool]:
        """The target path and whether it replaces an existing file."""
        path = self.access.target(str(arguments.get("output") or ""), default_name, source,
                                  bool(arguments.get("next_to_source")))
        if os.path.exists(path) and bool(arguments.get("overwrite")):
            return path, True
        return free_name(path), False

    def source_sheet(self, arguments: dict[str, Any], context: SkillContext) -> Sheet:
        path = self.access.readable(str(arguments.get("source") or ""), context.conversation_id)
        wanted = str(arguments.get("sheet") or "").strip() or None
        found = load_sheets(path, self.limits, wanted)
        if not found:
            raise SkillError(f"{os.path.basename(path)} has no sheets")
        sheet = found[0]
        if sheet.truncated:
            raise SkillError(f"{os.path.basename(path)} sheet {sheet.name!r} has more rows than"
                             f" the {self.limits.max_rows} Hearth loads; it would be cut, so"
                             " nothing is written")
        return sheet


def write_parameters(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """A write tool's JSON schema: its own properties, then where to write (_PLACEMENT)."""
    return object_schema({**properties, **_PLACEMENT}, required)


def name_from(title: str, fallback: str) -> str:
    cleaned = re.sub(r'[<>:"/\\|?*\x00-\x1f]+', "-", title).strip(" .-")[:80].strip(" .")
    return cleaned or fallback


def table_draft(path: str, header: list[str], rows: list[list[Any]], overwrite: bool,
                notes: list[str], sheet_name: str = "Sheet1") -> Draft:
    kind = os.path.splitext(path)[1].lower().lstrip(".")
    verify: Callable[[str], dict[str, int]]
    if kind == "csv":
        content, verify = tables.csv_bytes(header, rows), tables.csv_counts
    elif kind == "xlsx":
        content = tables.xlsx_bytes(header, tables.typed_rows(header, rows), sheet_name)
        verify = tables.xlsx_counts
    else:
        raise SkillError("the output must end in .csv or .xlsx")
    preview = f"{len(rows)} rows × {len(header)} columns. First rows:\n" + markdown_table(
        header, rows[:PREVIEW_ROWS])
    return Draft(path, kind, content, preview, {"rows": len(rows), "columns": len(header)},
                 verify, overwrite, notes)


class ConvertSheet(WriteTool):
    name = "office_convert"
    action = "Convert"
    description = "Write a sheet, a CSV or rows you give as a new CSV or XLSX file."
    parameters = write_parameters({
        **_SOURCE,
        "to": {"type": "string", "enum": ["csv", "xlsx"]},
        "columns": {"type": "array", "items": {"type": "string"},
                    "description": "Header of rows."},
        "rows": {"type": "array", "items": {"type": "array"},
                 "description": "Rows to write instead of a source."},
    }, required=["to"])

    def plan(self, arguments: dict[str, Any], context: SkillContext) -> Draft:
        to = str(arguments.get("to") or "").lower().lstrip(".")
        if to not in ("csv", "xlsx"):
            raise SkillError("'to' must be csv or xlsx")
        if arguments.get("source"):
            sheet = self.source_sheet(arguments, context)
            stem = os.path.splitext(os.path.basename(sheet.source))[0]
            many = sheet_kind(sheet.source) == "xlsx" and arguments.get("sheet")
            default = f"{stem}-{sheet.name}.{to}" if many else f"{stem}.{to}"
            path, overwrite = self.place(arguments, default, sheet.source)
            if os.path.realpath(path) == os.path.realpath(sheet.source) and not overwrite:
                raise SkillError("the output would be the source itself")
            return table_draft(path, sheet.header, sheet.rows, overwrite, [], sheet.name)
        rows = [list(r) for r in arguments.get("rows") or []]
        header = [str(c) for c in arguments.get("columns") or []]
        if not header and rows:
            header, rows = [str(c) for c in rows[0]], rows[1:]
        if not header:
            raise SkillError("give a source file, or columns and rows")
        width = len(header)
        rows = [(r + [None] * width)[:width] for r in rows]
        path, overwrite = self.place(arguments, f"Table.{to}")
        return table_draft(path, header, rows, overwrite, [])


class CleanSheet(WriteTool):
    name = "office_clean"
    action = "Clean"
    description = ("Clean a sheet or CSV with operations applied in order, into a NEW file (the"
                   " source is not changed).")
    parameters = write_parameters({
        **_SOURCE,
        "operations": {"type": "array", "items": clean.OPERATION_SCHEMA, "minItems": 1},
    }, required=["source", "operations"])

    def plan(self, arguments: dict[str, Any], context: SkillContext) -> Draft:
        sheet = self.source_sheet(arguments, context)
        table = clean.Table(sheet.header, sheet.rows)
        notes = clean.apply(table, list(arguments.get("operations") or []))
        stem, ext = os.path.splitext(os.path.basename(sheet.source))
        ext = ".csv" if ext.lower() in (".csv", ".tsv") else ".xlsx"
        path, overwrite = self.place(arguments, f"{stem}-clean{ext}", sheet.source)
        return table_draft(path, table.header, table.rows, overwrite, notes, sheet.name)


class WriteReport(WriteTool):
    name = "office_report"
    action = "Create a Word report"
    description = ("Create a Word (.docx) report from Markdown (# headings, lists, | tables |,"
                   " **bold**, *italic*, \\pagebreak on its own line).")
    parameters = write_parameters({
        "title": {"type": "string"},
        "markdown": {"type": "string"},
        "template": {"type": "string", "description": "A .docx whose styles to use."},
        "digest": {"type": "string", "description": "A folder digested by office_digest:"
                   " adds its summaries as sources."},
    }, required=["markdown"])

    def __init__(self, access: OfficeAccess, limits: Limits | None = None,
                 digester: Digester | None = None) -> None:
        super().__init__(access, limits)
        self.digester = digester

    def plan(self, arguments: dict[str, Any], context: SkillContext) -> Draft:
        title = str(arguments.get("title") or "")
        template = str(arguments.get("template") or "")
        if template:
            template = self.access.readable(template, context.conversation_id)
            report.check_template(template)
        markdown = str(arguments.get("markdown") or "")
        if arguments.get("digest"):
            markdown += "\n\n\\pagebreak\n\n" + self._digest(str(arguments["digest"]))
        if not markdown.strip() and not title.strip():
            raise SkillError("the report is empty: give its Markdown")
        content, counts, outline = report.docx_bytes(markdown, title, template)
        path, overwrite = self.place(arguments, name_from(title, "Report") + ".docx")
        if not path.lower().endswith(".docx"):
            raise SkillError("the output must end in .docx")
        preview = "Outline:\n" + "\n".join(f"- {h}" for h in outline[:30]) if outline else \
            f"{counts['paragraphs']} paragraphs"
        return Draft(path, "docx", content, preview, counts, report.docx_counts, overwrite)

    def _digest(self, folder: str) -> str:
        if self.digester is None:
            raise SkillError("folder digests are not available here")
        summaries = self.digester.cached(self.access.readable_folder(folder))
        if not summaries:
            raise SkillError("that folder has no digest yet: run office_digest on it first")
        return digest_markdown(summaries)


class WriteSlides(WriteTool):
    name = "office_slides"
    action = "Create a PowerPoint deck"
    description = "Create a PowerPoint (.pptx) deck; each slide has a title, bullets, notes, a table."
    parameters = write_parameters({
        "title": {"type": "string", "description": "Adds a title slide."},
        "slides": {"type": "array", "items": slides.SLIDE_SCHEMA, "minItems": 1},
    }, required=["slides"])

    def plan(self, arguments: dict[str, Any], context: SkillContext) -> Draft:
        title = str(arguments.get("title") or "")
        content, counts, titles = slides.pptx_bytes(list(arguments.get("slides") or []), title)
        first = title or (titles[0] if titles else "")
        path, overwrite = self.place(arguments, name_from(first, "Slides") + ".pptx")
        if not path.lower().endswith(".pptx"):
            raise SkillError("the output must end in .pptx")
        preview = "Slides:\n" + "\n".join(f"{n}. {t}" for n, t in enumerate(titles, 1))
        return Draft(path, "pptx", content, preview, counts, slides.pptx_counts, overwrite)


def counted(number: int, things: str) -> str:
    """"1 table", "2 tables": the count keys are plural nouns (rows, columns, tables...)."""
    return f"{number} {things.removesuffix('s') if number == 1 else things}"
