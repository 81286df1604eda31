"""Markdown to a Word document: headings, lists, tables, emphasis, page breaks, user template."""

from __future__ import annotations

import io
import re
from typing import Any

from skills.base import SkillError
from skills.office.columns import xml_safe

PAGE_BREAK = re.compile(r"^\s*(\\pagebreak|\\newpage|<!--\s*pagebreak\s*-->)\s*$",
                        re.IGNORECASE | re.MULTILINE)
_BREAK_MARK = "HEARTHPAGEBREAK7F3A"


def docx_bytes(markdown: str, title: str = "", template: str = "") -> tuple[bytes, dict[str, int],
                                                                            list[str]]:
    """The document, the counts re-opening must find, and its outline (headings)."""
    import docx
    from markdown_it import MarkdownIt

    document = docx.Document(template) if template else docx.Document()
    if template:
        _clear_body(document)
    writer = _Writer(document)
    if title.strip():
        writer.heading(xml_safe(title.strip()), 0)
    text = PAGE_BREAK.sub(f"\n\n{_BREAK_MARK}\n\n", xml_safe(markdown))
    tokens = MarkdownIt("commonmark").enable("table").enable("strikethrough").parse(text)
    writer.render(tokens)
    buffer = io.BytesIO()
    document.save(buffer)
    counts = {"paragraphs": writer.paragraphs, "tables": writer.tables}
    return buffer.getvalue(), counts, writer.outline


def _clear_body(document: Any) -> None:
    """A template gives styles, headers and footers; its sample body text is not the report."""
    body = document.element.body
    for child in list(body):
        if not child.tag.endswith("}sectPr"):
            body.remove(child)


class _Writer:
    def __init__(self, document: Any) -> None:
        self.doc = document
        self.styles = {s.name for s in document.styles}
        self.paragraphs = 0
        self.tables = 0
        self.outline: list[str] = []
        self.lists: list[str] = []  # "bullet" | "ordered", innermost last

    def style(self, wanted: str, fallback: str = "Normal") -> str | None:
        if wanted in self.styles:
            return wanted
        return fallback if fallback in self.styles else None

    def heading(self, text: str, level: int) -> None:
        style = "Title" if level == 0 else f"Heading {min(level, 9)}"
        self.doc.add_paragraph(text, style=self.style(style))
        self.paragraphs += 1
        self.outline.append(("  " * max(level - 1, 0)) + text)

    def render(self, tokens: list[Any]) -> None:
        i = 0
        while i < len(tokens):
            token = tokens[i]
            kind = token.type
            if kind == "heading_open":
                self._inline_paragraph(tokens[i + 1], self.style(f"Heading {token.tag[1:]}"),
                                       heading=int(token.tag[1:]))
                i += 3
                continue
            if kind in ("bullet_list_open", "ordered_list_open"):
                self.lists.append("bullet" if kind.startswith("bullet") else "ordered")
            elif kind in ("bullet_list_close", "ordered_list_close"):
                self.lists.pop()
            elif kind == "paragraph_open":
                inline = tokens[i + 1]
                if inline.content.strip() == _BREAK_MARK:
                    self._page_break()
                else:
                    self._inline_paragraph(inline, self._paragraph_style())
                i += 3
                continue
            elif kind == "table_open":
                i = self._table(tokens, i)
                continue
            elif kind in ("fence", "code_block"):
                for line in token.content.rstrip("\n").split("\n"):
                    paragraph = self.doc.add_paragraph(style=self.style("No Spacing"))
                    run = paragraph.add_run(line)
                    run.font.name = "Consolas"
                    self.paragraphs += 1
            elif kind == "hr":
                self.doc.add_paragraph("―" * 20, style=self.style("Normal"))
                self.paragraphs += 1
            i += 1

    def _paragraph_style(self) -> str | None:
        if not self.lists:
            return self.style("Normal")
        base = "List Bullet" if self.lists[-1] == "bullet" else "List Number"
        depth = len(self.lists)
        return self.style(f"{base} {depth}" if depth > 1 else base, "List Paragraph") or \
            self.style(base)

    def _page_break(self) -> None:
        from docx.enum.text import WD_BREAK

        self.doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
        self.paragraphs += 1

    def _inline_paragraph(self, inline: Any, style: str | None, heading: int = 0) -> None:
        paragraph = self.doc.add_paragraph(style=style)
        add_inline(paragraph, inline.children or [])
        self.paragraphs += 1
        if heading:
            self.outline.append(("  " * (heading - 1)) + inline.content)

    def _table(self, tokens: list[Any], i: int) -> int:
        rows: list[list[Any]] = []
        header_rows = 0
        in_head = False
        while tokens[i].type != "table_close":
            t = tokens[i]
            if t.type == "thead_open":
                in_head = True
            elif t.type == "thead_close":
                in_head = False
            elif t.type == "tr_open":
                rows.append([])
                header_rows += in_head
            elif t.type == "inline":
                rows[-1].append(t)
            i += 1
        width = max((len(r) for r in rows), default=0)
        if rows and width:
            table = self.doc.add_table(rows=len(rows), cols=width)
            style = self.style("Table Grid", "")
            if style:
                table.style = style
            for r, cells in enumerate(rows):
                for c, inline in enumerate(cells):
                    paragraph = table.cell(r, c).paragraphs[0]
                    add_inline(paragraph, inline.children or [], bold=r < header_rows)
            self.tables += 1
        return i + 1


def add_inline(paragraph: Any, children: list[Any], bold: bool = False) -> None:
    """Runs for **bold**, *italic*, `code` and ~~strike~~; links keep their text."""
    state = {"strong": bold, "em": False, "s": False}
    for child in children:
        kind = child.type
        if kind in ("strong_open", "em_open", "s_open"):
            state[kind[:-5]] = True
        elif kind in ("strong_close", "em_close", "s_close"):
            state[kind[:-6]] = bold if kind == "strong_close" else False
        elif kind in ("text", "code_inline", "html_inline"):
            run = paragraph.add_run(child.content)
            run.bold = state["strong"] or None
            run.italic = state["em"] or None
            run.font.strike = state["s"] or None
            if kind == "code_inline":
                run.font.name = "Consolas"
        elif kind in ("softbreak", "hardbreak"):
            paragraph.add_run().add_break() if kind == "hardbreak" else paragraph.add_run(" ")


def docx_counts(path: str) -> dict[str, int]:
    import docx

    document = docx.Document(path)
    return {"paragraphs": len(document.paragraphs), "tables": len(document.tables)}


def check_template(path: str) -> None:
    if not path.lower().endswith(".docx"):
        raise SkillError("the template must be a .docx file (save a .dotx as .docx first)")
