"""A list of slides (title, bullets, notes, an optional table) to a PowerPoint file."""

from __future__ import annotations

import io
from typing import Any

from skills.base import SkillError, object_schema
from skills.office.columns import xml_safe

MAX_SLIDES = 200
SLIDE_SCHEMA = object_schema({
    "title": {"type": "string"},
    "bullets": {"type": "array", "items": {"type": "string"},
                "description": "Two leading spaces indent one."},
    "notes": {"type": "string"},
    "table": {"type": "object", "properties": {
        "columns": {"type": "array", "items": {"type": "string"}},
        "rows": {"type": "array", "items": {"type": "array"}}}},
}, required=["title"])
_TITLE_ONLY, _TITLE_AND_CONTENT, _TITLE_SLIDE = 5, 1, 0


def pptx_bytes(slides: list[dict[str, Any]], title: str = "") -> tuple[bytes, dict[str, int],
                                                                     list[str]]:
    from pptx import Presentation
    from pptx.util import Inches

    if not slides and not title:
        raise SkillError("give at least one slide")
    if len(slides) > MAX_SLIDES:
        raise SkillError(f"at most {MAX_SLIDES} slides at a time")
    deck = Presentation()
    deck.slide_width, deck.slide_height = Inches(13.333), Inches(7.5)  # 16:9, as Office does
    titles = []
    if title.strip():
        cover = deck.slides.add_slide(deck.slide_layouts[_TITLE_SLIDE])
        cover.shapes.title.text = xml_safe(title.strip())
        titles.append(title.strip())
    titles += [_add(deck, spec) for spec in slides]
    buffer = io.BytesIO()
    deck.save(buffer)
    return buffer.getvalue(), {"slides": len(titles)}, titles


def _add(deck: Any, spec: dict[str, Any]) -> str:
    from pptx.util import Inches, Pt

    table = spec.get("table") or None
    bullets = [xml_safe(str(b)) for b in spec.get("bullets") or []]
    layout = _TITLE_ONLY if table and not bullets else _TITLE_AND_CONTENT
    slide = deck.slides.add_slide(deck.slide_layouts[layout])
    title = xml_safe(str(spec.get("title") or "").strip())
    slide.shapes.title.text = title
    top = Inches(1.5)
    if layout == _TITLE_AND_CONTENT:
        body = slide.placeholders[1]
        body.left, body.width = Inches(0.6), deck.slide_width - Inches(1.2)
        frame = body.text_frame
        frame.clear()
        for n, line in enumerate(bullets):
            paragraph = frame.paragraphs[0] if n == 0 else frame.add_paragraph()
            stripped = line.lstrip(" ")
            paragraph.text = stripped.lstrip("-•* ").strip() if stripped[:2] in ("- ", "* ",
                                                                                  "• ") else stripped
            paragraph.level = min((len(line) - len(stripped)) // 2, 4)
        if table:
            body.height = Inches(2.2)
            top = Inches(3.9)
    if table:
        _table(slide, table, top, deck.slide_width, Inches, Pt)
    notes = xml_safe(str(spec.get("notes") or "").strip())
    if notes:
        slide.notes_slide.notes_text_frame.text = notes
    return title


def _table(slide: Any, spec: dict[str, Any], top: Any, width: Any, inches: Any, pt: Any) -> None:
    header = [xml_safe(str(c)) for c in spec.get("columns") or []]
    rows = [list(r) for r in spec.get("rows") or []][:30]
    cols = len(header) or max((len(r) for r in rows), default=0)
    if not cols:
        return
    count = len(rows) + (1 if header else 0)
    shape = slide.shapes.add_table(count, cols, inches(0.6), top, width - inches(1.2),
                                   inches(0.4) * count)
    grid = shape.table
    all_rows = ([header] if header else []) + rows
    for r, cells in enumerate(all_rows):
        for c in range(cols):
            value = cells[c] if c < len(cells) else ""
            cell = grid.cell(r, c)
            cell.text = "" if value is None else xml_safe(str(value))
            for paragraph in cell.text_frame.paragraphs:
                for run in paragraph.runs:
                    run.font.size = pt(14)


def pptx_counts(path: str) -> dict[str, int]:
    from pptx import Presentation

    return {"slides": len(Presentation(path).slides)}
