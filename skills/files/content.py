"""Text content for the index: plain text read directly, PDF/DOCX/XLSX/PPTX through the
document parsers when that package is present, always within size caps."""

from __future__ import annotations

import importlib
import logging
from typing import Any

from skills.files.kinds import PARSED, is_plain_text

log = logging.getLogger(__name__)

TEXT_READ_CAP = 256 * 1024  # bytes of a plain-text file that are read and indexed
PARSE_SIZE_CAP = 20 * 1024 * 1024  # larger documents are indexed by name only
CONTENT_CAP = 256 * 1024  # characters kept from any one file


def extract(path: str, ext: str, size: int) -> str:
    """The indexed text of a file, or '' when it has none we can read cheaply and safely."""
    try:
        if ext in PARSED and size <= PARSE_SIZE_CAP:
            text = _parsed(path)
            if text or not is_plain_text(ext):  # HTML falls back to its raw text
                return text[:CONTENT_CAP]
        if is_plain_text(ext):
            return _plain(path)
    except Exception as exc:  # a bad file must never stop the index; it keeps its name
        log.debug("no content for %r: %s", path, exc)
    return ""


def _plain(path: str) -> str:
    with open(path, "rb") as fh:
        data = fh.read(TEXT_READ_CAP)
    if b"\0" in data[:8192]:  # binary despite its extension
        return ""
    return data.decode("utf-8", errors="replace")


def _parsed(path: str) -> str:
    """Text from skills.documents.parsers (the documents area's parsers), or '' when that
    package is absent or the file is damaged."""
    try:
        parsers = importlib.import_module("skills.documents.parsers")
    except ImportError:
        return ""
    parse_file = getattr(parsers, "parse_file", None)
    if not callable(parse_file):
        return ""
    # A damaged PDF makes pypdf log a warning per file; while indexing thousands, that is noise.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    return _joined(parse_file(path))


def _joined(parsed: Any) -> str:
    parts: list[str] = []
    size = 0
    for section in getattr(parsed, "sections", []):
        for line in getattr(section, "lines", []):
            parts.append(str(line))
            size += len(parts[-1]) + 1
            if size > CONTENT_CAP:
                return "\n".join(parts)
    return "\n".join(parts)
