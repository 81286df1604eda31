"""Turn one file into text sections with provenance (page, sheet, slide, heading path)."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from skills.common.formats import FORMATS
from skills.common.limits import LIMITS
from skills.documents.skips import SkipWhy, skip

# Office files are zip archives: refuse ones that would expand into something huge.
MAX_UNZIPPED_BYTES = 400 * 1024 * 1024
MAX_ZIP_RATIO = 200  # real OOXML parts compress ~5-50x; bombs compress ~1000x
MAX_ZIP_MEMBERS = 20_000
BINARY_SNIFF_BYTES = 8192


class ParseError(Exception):
    """Why a file was skipped: a code and its details (`skip`); str() words it in English."""

    def __init__(self, why: SkipWhy, *details: object) -> None:
        self.skip = skip(why, *details)
        super().__init__(self.skip.words)


@dataclass
class Section:
    """A run of text from one place in a document.

    `header` (spreadsheets, CSV) is repeated at the top of every chunk cut from `lines`."""

    location: str  # "page 3", "sheet Budget", "slide 2", "Scope > Dates", ""
    lines: list[str]
    page: int | None = None  # 1-based page or slide number, to open the file there
    header: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Parsed:
    """The result of parsing one file."""

    kind: str
    title: str
    sections: list[Section]
    pages: int = 0  # pages, slides or sheets: what a user would count




def kind_of(path: Path) -> str | None:
    """The document kind for a file name, or None when Hearth does not index it."""
    return FORMATS.get(path.suffix.lower())


def parse_file(path_str: str) -> Parsed:
    """Parse a supported file; raises ParseError with a readable reason on bad input."""
    path = Path(path_str)
    kind = kind_of(path)
    if kind is None:
        raise ParseError(SkipWhy.UNSUPPORTED_TYPE, path.suffix or "(none)")
    parser = _PARSERS[kind]
    try:
        if path.stat().st_size == 0:  # nothing to read: not damaged, and no OCR would help
            raise ParseError(SkipWhy.EMPTY)
        sections, pages = parser(path)
    except ParseError:
        raise
    except PermissionError as exc:
        raise ParseError(SkipWhy.PERMISSION_DENIED) from exc
    except MemoryError as exc:
        raise ParseError(SkipWhy.OUT_OF_MEMORY) from exc
    except Exception as exc:  # every library raises its own types; the reason is what matters
        raise ParseError(SkipWhy.DAMAGED, kind.upper(), _short(exc)) from exc
    sections = [s for s in sections if any(line.strip() for line in s.lines)]
    if not sections:
        raise ParseError(SkipWhy.NO_TEXT)
    return Parsed(kind=kind, title=path.name, sections=sections, pages=pages)


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]


# --- PDF ---------------------------------------------------------------------------------------


def _parse_pdf(path: Path) -> tuple[list[Section], int]:
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    if reader.is_encrypted:
        try:  # many "protected" PDFs only restrict printing and open with an empty password
            opened = reader.decrypt("")
        except Exception as exc:
            raise ParseError(SkipWhy.ENCRYPTED_PDF) from exc
        if not opened:
            raise ParseError(SkipWhy.ENCRYPTED_PDF)
    sections = []
    for number, page in enumerate(reader.pages, start=1):
        text = page.extract_text() or ""
        sections.append(Section(f"page {number}", text.splitlines(), page=number))
    return sections, len(reader.pages)


# --- Office (zip) files ------------------------------------------------------------------------


def check_zip(path: Path) -> None:
    """Refuse zip bombs before any library expands them."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except zipfile.BadZipFile as exc:
        kind = path.suffix.lstrip(".").upper()
        raise ParseError(SkipWhy.NOT_ZIP, kind) from exc
    if len(members) > MAX_ZIP_MEMBERS:
        raise ParseError(SkipWhy.TOO_MANY_PARTS, len(members))
    total = 0
    for member in members:
        total += member.file_size
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size > 1024 * 1024 and ratio > MAX_ZIP_RATIO:
            raise ParseError(SkipWhy.ZIP_BOMB, member.filename, f"{ratio:.0f}")
    if total > MAX_UNZIPPED_BYTES:
        raise ParseError(SkipWhy.ARCHIVE_TOO_BIG, f"{total / 1e6:.0f}")


_HEADING = re.compile(r"^(?:Heading|Überschrift|Titre)\s*(\d)$", re.IGNORECASE)


def _parse_docx(path: Path) -> tuple[list[Section], int]:
    import docx
    from docx.table import Table

    check_zip(path)
    document = docx.Document(str(path))
    # Style ids -> names once: python-docx's paragraph.style scans every style on each call.
    names = {style.style_id: style.name or "" for style in document.styles}
    heads: list[str] = []
    sections = [Section("", [])]
    for block in document.iter_inner_content():  # body order: paragraphs and tables interleaved
        if isinstance(block, Table):
            sections[-1].lines.extend(_table_lines(block))
            continue
        text = block.text.strip()
        if not text:
            continue
        ppr = block._p.pPr
        style = names.get(ppr.style or "", "") if ppr is not None else ""
        level = _heading_level(style)
        if level:
            heads = [*heads[: level - 1], text]
            sections.append(Section(" > ".join(heads), [text]))
        elif style.startswith("List") or (ppr is not None and ppr.numPr is not None):
            sections[-1].lines.append("- " + text)
        else:
            sections[-1].lines.append(text)
    return sections, 0


def _heading_level(style: str) -> int:
    if style == "Title":
        return 1
    match = _HEADING.match(style)
    return int(match.group(1)) if match else 0


def _table_lines(table: Any) -> list[str]:
    lines = []
    for row in table.rows:
        cells: list[str] = []
        for cell in row.cells:
            text = cell.text.strip()
            if not cells or cells[-1] != text:  # merged cells repeat; say them once
                cells.append(text)
        if any(cells):
            lines.append(" | ".join(cells))
    return lines


def _parse_xlsx(path: Path) -> tuple[list[Section], int]:
    from skills.common.xlsx_cells import SheetCells, Workbook

    check_zip(path)
    with zipfile.ZipFile(path) as archive:
        book = Workbook(archive)
        # The rows each sheet stores, streamed by the office tools' own reader: never the
        # range a sheet claims (a few KB can claim A1:XFD1048576, 17 billion empty cells).
        sections = [_sheet_section(f"sheet {ref.name}", (row for _, row in book.stored_rows(
            ref, SheetCells([]), LIMITS.index_columns))) for ref in book.sheets]
    return sections, len(sections)


def _sheet_section(location: str, rows: Iterator[Sequence[Any]]) -> Section:
    section = Section(location, [], extra={"table": True})
    for row in rows:
        cells = ["" if v is None else str(v).strip() for v in row]
        while cells and not cells[-1]:
            cells.pop()
        if not any(cells):
            continue
        line = " | ".join(cells)
        if not section.header:
            section.header = line  # the first filled row names the columns
        else:
            section.lines.append(line)
    if section.header and not section.lines:
        section.lines.append(section.header)
        section.header = ""
    return section


def _parse_pptx(path: Path) -> tuple[list[Section], int]:
    from pptx import Presentation

    check_zip(path)
    deck = Presentation(str(path))
    sections = []
    for number, slide in enumerate(deck.slides, start=1):
        lines = []
        for shape in slide.shapes:
            lines.extend(_shape_lines(shape))
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame
            if notes is not None and notes.text.strip():
                lines.append("Notes: " + notes.text.strip())
        sections.append(Section(f"slide {number}", lines, page=number))
    return sections, len(sections)


def _shape_lines(shape: Any) -> list[str]:
    if getattr(shape, "has_text_frame", False) and shape.text_frame.text.strip():
        return [p.text for p in shape.text_frame.paragraphs if p.text.strip()]
    if getattr(shape, "has_table", False):
        return _table_lines(shape.table)
    if hasattr(shape, "shapes"):  # a group: its children in order
        return [line for child in shape.shapes for line in _shape_lines(child)]
    return []


# --- Plain text formats ------------------------------------------------------------------------


def read_text(path: Path) -> str:
    """Decode a text file, refusing binary data that merely has a text name."""
    raw = path.read_bytes()
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16")
    sample = raw[:BINARY_SNIFF_BYTES]
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    if b"\x00" in sample or (sample and controls / len(sample) > 0.05):
        raise ParseError(SkipWhy.BINARY)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")  # old Windows text is the usual culprit


def _parse_text(path: Path) -> tuple[list[Section], int]:
    return [Section("", read_text(path).splitlines())], 0


_MD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


def _parse_markdown(path: Path) -> tuple[list[Section], int]:
    heads: list[str] = []
    sections = [Section("", [])]
    fenced = False
    for line in read_text(path).splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        match = None if fenced else _MD_HEADING.match(line)
        if match:
            level, title = len(match.group(1)), match.group(2)
            heads = [*heads[: level - 1], title]
            sections.append(Section(" > ".join(heads), [title]))
        else:
            sections[-1].lines.append(line)
    return sections, 0


class _HtmlText(HTMLParser):
    """Collects visible text, starting a new section at each h1-h6."""

    SKIP = {"script", "style", "noscript", "template", "head"}
    BLOCK = {"p", "div", "li", "tr", "br", "section", "article", "blockquote", "pre", "td", "th"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections = [Section("", [])]
        self.heads: list[str] = []
        self._skip = 0
        self._level = 0
        self._buffer: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self._skip += 1
        elif re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self._level = int(tag[1])
        elif tag in self.BLOCK:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self._skip = max(0, self._skip - 1)
        elif re.fullmatch(r"h[1-6]", tag) and self._level:
            title = " ".join("".join(self._buffer).split())
            self._buffer = []
            if title:
                self.heads = [*self.heads[: self._level - 1], title]
                self.sections.append(Section(" > ".join(self.heads), [title]))
            self._level = 0
        elif tag in self.BLOCK:
            self._flush()

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._buffer.append(data)

    def _flush(self) -> None:
        if self._level:
            return
        text = " ".join("".join(self._buffer).split())
        self._buffer = []
        if text:
            self.sections[-1].lines.append(text)

    def close(self) -> None:
        super().close()
        self._level = 0
        self._flush()


def _parse_html(path: Path) -> tuple[list[Section], int]:
    parser = _HtmlText()
    parser.feed(read_text(path))
    parser.close()
    return parser.sections, 0


def _parse_csv(path: Path) -> tuple[list[Section], int]:
    text = read_text(path)
    try:
        dialect: Any = csv.Sniffer().sniff(text[:4096], delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    rows = (tuple(row) for row in csv.reader(io.StringIO(text), dialect))
    return [_sheet_section("", rows)], 0


_PARSERS: dict[str, Callable[[Path], tuple[list[Section], int]]] = {
    "pdf": _parse_pdf,
    "docx": _parse_docx,
    "xlsx": _parse_xlsx,
    "pptx": _parse_pptx,
    "text": _parse_text,
    "markdown": _parse_markdown,
    "html": _parse_html,
    "csv": _parse_csv,
}
