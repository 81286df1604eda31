"""Why a file was skipped: a code and its details (what the index stores), worded in English once."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum


class SkipWhy(StrEnum):
    """Why a file was not indexed: a code the UI and the CLI each put into words."""

    UNSUPPORTED_TYPE = "unsupported_type"  # details: the suffix
    EMPTY = "empty"
    PERMISSION_DENIED = "permission_denied"
    OUT_OF_MEMORY = "out_of_memory"
    DAMAGED = "damaged"  # details: the kind (PDF, DOCX...), the library's message
    NO_TEXT = "no_text"
    ENCRYPTED_PDF = "encrypted_pdf"
    NOT_ZIP = "not_zip"  # details: the kind
    TOO_MANY_PARTS = "too_many_parts"  # details: how many parts
    ZIP_BOMB = "zip_bomb"  # details: the part, how many times it expands
    ARCHIVE_TOO_BIG = "archive_too_big"  # details: megabytes
    BINARY = "binary"
    FOLDER_NOT_FOUND = "folder_not_found"
    NAME_NOT_UTF8 = "name_not_utf8"
    LINK_OUTSIDE = "link_outside"
    NOT_REGULAR = "not_regular"
    TOO_LARGE = "too_large"  # details: its size, the limit (both with their unit)
    LINK_LOOP = "link_loop"
    NOT_FOUND = "not_found"
    UNREADABLE = "unreadable"  # details: the system's words
    TIMEOUT = "timeout"  # details: seconds
    CRASHED = "crashed"  # details: the signal number
    STOPPED = "stopped"
    NOT_STARTED = "not_started"
    NOT_RETURNED = "not_returned"  # details: the error
    CLOSED = "closed"  # indexing stopped under the parse: not the file's fault
    OTHER = "other"  # details: the text as it came (an unexpected error)


# The English words for the CLI, the tools and logs; the window translates the code itself.
_WORDS = {
    SkipWhy.UNSUPPORTED_TYPE: "unsupported file type {0}",
    SkipWhy.EMPTY: "the file is empty (0 bytes)",
    SkipWhy.PERMISSION_DENIED: "cannot read file: permission denied",
    SkipWhy.OUT_OF_MEMORY: "needed more memory than the parsing limit allows",
    SkipWhy.DAMAGED: "damaged or unreadable {0} file: {1}",
    SkipWhy.NO_TEXT: "no text found in the file (a scanned document needs OCR)",
    SkipWhy.ENCRYPTED_PDF: "encrypted PDF (it needs a password)",
    SkipWhy.NOT_ZIP: "not a valid {0} file (not a zip archive)",
    SkipWhy.TOO_MANY_PARTS: "suspicious archive: {0} parts",
    SkipWhy.ZIP_BOMB: "suspicious archive (zip bomb?): {0} expands {1}x",
    SkipWhy.ARCHIVE_TOO_BIG: "archive expands to {0} MB, over the limit",
    SkipWhy.BINARY: "binary data, not text",
    SkipWhy.FOLDER_NOT_FOUND: "watched folder not found",
    SkipWhy.NAME_NOT_UTF8: "its name is not valid UTF-8 (rename it to index it)",
    SkipWhy.LINK_OUTSIDE: "link leads outside the chosen folder; not followed",
    SkipWhy.NOT_REGULAR: "not a regular file",
    SkipWhy.TOO_LARGE: "too large ({0}; the limit is {1})",
    SkipWhy.LINK_LOOP: "symbolic link loop",
    SkipWhy.NOT_FOUND: "file not found (or a broken link)",
    SkipWhy.UNREADABLE: "cannot read file: {0}",
    SkipWhy.TIMEOUT: "parsing took longer than {0} s; skipped",
    SkipWhy.CRASHED: "the parser crashed on this file (signal {0}); skipped",
    SkipWhy.STOPPED: "the parser stopped unexpectedly on this file; skipped",
    SkipWhy.NOT_STARTED: "the document parser could not start; skipped",
    SkipWhy.NOT_RETURNED: "could not return the parsed text: {0}",
    SkipWhy.CLOSED: "indexing stopped",
    SkipWhy.OTHER: "{0}",
}


@dataclass(frozen=True)
class Skip:
    """Why one file was skipped: the code, and the details its sentence needs."""

    why: SkipWhy
    details: tuple[str, ...] = ()

    @property
    def words(self) -> str:
        """The English sentence (the CLI's and the model's; the window words the code itself)."""
        return _WORDS[self.why].format(*self.details, *([""] * 2))

    def details_json(self) -> str:
        return json.dumps(list(self.details), ensure_ascii=False)

    @classmethod
    def stored(cls, code: str, details: str) -> Skip:
        """A skip as index.db keeps it (a code unknown to this version reads as its code)."""
        values = tuple(str(d) for d in json.loads(details or "[]"))
        try:
            return cls(SkipWhy(code), values)
        except ValueError:
            return cls(SkipWhy.OTHER, (code,))


def skip(why: SkipWhy, *details: object) -> Skip:
    return Skip(why, tuple(str(d) for d in details))


def from_words(sentence: str) -> Skip:
    """The code of an English sentence the index stored before it stored codes (read once, by
    the migration that moves old rows to codes); a sentence no code words reads as OTHER."""
    for why, template in _WORDS.items():
        if why is SkipWhy.OTHER:
            continue
        pattern = re.escape(template).replace(r"\{0\}", "(.+?)").replace(r"\{1\}", "(.+?)")
        match = re.fullmatch(pattern, sentence, flags=re.DOTALL)
        if match:
            return Skip(why, match.groups())
    return Skip(SkipWhy.OTHER, (sentence,))
