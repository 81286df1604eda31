"""Text content for the index: plain text read directly (a capped read), PDF/DOCX/XLSX/PPTX/HTML
through the documents area's parsers in the same limited worker process documents use
(skills/documents/worker.py: time, memory and size limits), so a hostile file costs a worker
restart and its content, never the scan."""

from __future__ import annotations

import logging
import os

from skills.documents.worker import Limits, ParserPool
from skills.files.kinds import PARSED, is_plain_text

log = logging.getLogger(__name__)

TEXT_READ_CAP = 256 * 1024  # bytes of a plain-text file that are read and indexed
PARSE_SIZE_CAP = 20 * 1024 * 1024  # larger documents are indexed by name only
CONTENT_CAP = 256 * 1024  # characters kept from any one file
PARSE_TARGET = "skills.files.content:parsed_text"
# Content is a bonus for file search (the name is always indexed): tighter than documents.
LIMITS = Limits(max_bytes=PARSE_SIZE_CAP, seconds=20.0, memory_bytes=1024 * 1024 * 1024)


def content_pool() -> ParserPool:
    """The worker that file search parses documents in (started on first use)."""
    return ParserPool(LIMITS, PARSE_TARGET)


def extract(path: str, ext: str, size: int, pool: ParserPool) -> str:
    """The indexed text of a file, or '' when it has none we can read cheaply and safely."""
    try:
        if ext in PARSED and size <= PARSE_SIZE_CAP:
            outcome = pool.parse(path, pool.limits.seconds + size / 1e6)
            if outcome.error is not None:
                log.info("no content for %r: %s", path, outcome.error.words)
            text = str(outcome.value or "")
            if text or not is_plain_text(ext):  # HTML falls back to its raw text
                return text[:CONTENT_CAP]
        if is_plain_text(ext):
            return _plain(path)
    except Exception as exc:  # noqa: BLE001 - a bad file must never stop the index; it keeps its name
        log.debug("no content for %r: %s", path, exc)
    return ""


def _plain(path: str) -> str:
    with open(path, "rb") as fh:
        data = fh.read(TEXT_READ_CAP)
    if b"\0" in data[:8192]:  # binary despite its extension
        return ""
    return data.decode("utf-8", errors="replace")


def parsed_text(path: str) -> str:
    """In the worker process: the text the document parsers find, capped. Nothing is
    opened that is not a regular file (a FIFO would block the worker until its time limit)."""
    if not os.path.isfile(path):
        return ""
    from skills.documents.parsers import parse_file

    return _joined(parse_file(path))


def _joined(parsed: object) -> str:
    parts: list[str] = []
    size = 0
    for section in getattr(parsed, "sections", []):
        lines = getattr(section, "lines", [])
        header = getattr(section, "header", "")  # a table's column names are searched too
        for line in [header, *lines] if header else lines:
            parts.append(str(line))
            size += len(parts[-1]) + 1
            if size > CONTENT_CAP:
                return "\n".join(parts)
    return "\n".join(parts)
