"""Cut parsed sections into search-sized chunks that remember where they came from."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from skills.common.cjk import run_bigrams
from skills.documents.parsers import Section, parse_file

TARGET_CHARS = 900  # a few paragraphs: enough context for the model, precise enough to cite
MAX_LINE_CHARS = 1200



@dataclass(frozen=True)
class Chunk:
    """One indexed passage; char_start/char_end index the document's full text."""

    ordinal: int
    text: str
    location: str
    page: int | None
    char_start: int
    char_end: int
    cjk: str = ""  # CJK character pairs for the FTS column that matches Chinese


@dataclass(frozen=True)
class Prepared:
    """A parsed and chunked document: what the worker process sends back."""

    kind: str
    title: str
    pages: int
    chunks: list[Chunk]


def parse_and_chunk(path: str) -> Prepared:
    """The worker's job: all CPU work per file happens there, the app only stores rows."""
    parsed = parse_file(path)
    return Prepared(parsed.kind, parsed.title, parsed.pages, chunk_sections(parsed.sections))


def chunk_sections(sections: list[Section], target: int = TARGET_CHARS) -> list[Chunk]:
    """Group lines of each section into chunks of about `target` characters.

    Chunks never cross a section (page, sheet, heading), so each cites one place. Offsets
    count the document text as the sections joined by blank lines."""
    chunks: list[Chunk] = []
    offset = 0
    for section in sections:
        lines = [piece for line in section.lines for piece in _split_long(line.strip()) if piece]
        header = section.header
        start = offset + (len(header) + 1 if header else 0)
        for group, rows in _groups(lines, target, header):
            prefix = f"{header}\n" if header and rows else ""
            text = prefix + "\n".join(group)
            location = section.location
            if rows:
                location = f"{location}, rows {rows[0]}-{rows[1]}".lstrip(", ")
            size = len("\n".join(group))
            chunks.append(Chunk(len(chunks), text, location, section.page, start, start + size,
                                run_bigrams(text)))
            start += size + 1
        offset += len(section_text(section)) + 2
    return chunks


def section_text(section: Section) -> str:
    """The text of a section as offsets count it (header first for tables)."""
    lines = [section.header] if section.header else []
    lines += [piece for line in section.lines for piece in _split_long(line.strip()) if piece]
    return "\n".join(lines)


def _groups(
    lines: list[str], target: int, header: str
) -> Iterator[tuple[list[str], tuple[int, int] | None]]:
    group: list[str] = []
    size = 0
    first_row = 2  # row 1 is the header
    total = sum(len(line) + 1 for line in lines)
    pieces = max(1, -(-total // target))
    target = -(-total // pieces)  # even pieces: no tiny last chunk that BM25 would favour
    for index, line in enumerate(lines):
        if group and size + len(line) > target:
            yield group, _rows(header, first_row, index)
            group, size, first_row = [], 0, index + 2
        group.append(line)
        size += len(line) + 1
    if group:
        yield group, _rows(header, first_row, len(lines))


def _rows(header: str, first: int, end_index: int) -> tuple[int, int] | None:
    return (first, end_index + 1) if header else None


def _split_long(line: str) -> Iterator[str]:
    """Split a very long line at sentence ends, then at spaces, then anywhere."""
    while len(line) > MAX_LINE_CHARS:
        window = line[:MAX_LINE_CHARS]
        cut = max(window.rfind(". "), window.rfind("。"), window.rfind("\n"))
        if cut < MAX_LINE_CHARS // 2:
            cut = window.rfind(" ")
        if cut < MAX_LINE_CHARS // 2:
            cut = MAX_LINE_CHARS - 1
        yield line[: cut + 1].strip()
        line = line[cut + 1 :].strip()
    yield line


