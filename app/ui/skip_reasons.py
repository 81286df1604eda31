"""Why a document was skipped, in the UI's language: the one place a SkipWhy code becomes words."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

if TYPE_CHECKING:
    from skills.documents.skips import Skip, SkipWhy


def _sentence(why: SkipWhy) -> str:
    from skills.documents.skips import SkipWhy  # loaded already: a skip came from the index

    translate = QCoreApplication.translate
    return {
        SkipWhy.UNSUPPORTED_TYPE: translate("SkipReason", "unsupported file type %1"),
        SkipWhy.EMPTY: translate("SkipReason", "the file is empty (0 bytes)"),
        SkipWhy.PERMISSION_DENIED: translate(
            "SkipReason", "cannot read the file: permission denied"),
        SkipWhy.OUT_OF_MEMORY: translate(
            "SkipReason", "needed more memory than the parsing limit allows"),
        SkipWhy.DAMAGED: translate("SkipReason", "damaged or unreadable %1 file"),
        SkipWhy.NO_TEXT: translate(
            "SkipReason", "no text found in the file (a scanned document needs OCR)"),
        SkipWhy.ENCRYPTED_PDF: translate("SkipReason", "encrypted PDF (it needs a password)"),
        SkipWhy.NOT_ZIP: translate("SkipReason", "not a valid %1 file"),
        SkipWhy.TOO_MANY_PARTS: translate("SkipReason", "suspicious archive (too many parts)"),
        SkipWhy.ZIP_BOMB: translate(
            "SkipReason", "suspicious archive: %1 expands %2 times (a zip bomb?)"),
        SkipWhy.ARCHIVE_TOO_BIG: translate(
            "SkipReason", "the archive expands beyond the size limit"),
        SkipWhy.BINARY: translate("SkipReason", "binary data, not text"),
        SkipWhy.FOLDER_NOT_FOUND: translate("SkipReason", "watched folder not found"),
        SkipWhy.NAME_NOT_UTF8: translate(
            "SkipReason", "its name is not valid UTF-8 (rename it to index it)"),
        SkipWhy.LINK_OUTSIDE: translate(
            "SkipReason", "the link leads outside the chosen folder; not followed"),
        SkipWhy.NOT_REGULAR: translate("SkipReason", "not a regular file"),
        SkipWhy.TOO_LARGE: translate("SkipReason", "too large (%1; the limit is %2)"),
        SkipWhy.LINK_LOOP: translate("SkipReason", "the symbolic link points back at itself"),
        SkipWhy.NOT_FOUND: translate("SkipReason", "file not found (or a broken link)"),
        SkipWhy.UNREADABLE: translate("SkipReason", "cannot read the file: %1"),
        SkipWhy.TIMEOUT: translate("SkipReason", "reading it took longer than %1 s"),
        SkipWhy.CRASHED: translate("SkipReason", "the reader crashed on this file"),
        SkipWhy.STOPPED: translate("SkipReason", "the reader stopped unexpectedly on this file"),
        SkipWhy.NOT_STARTED: translate("SkipReason", "the document reader could not start"),
        SkipWhy.NOT_RETURNED: translate(
            "SkipReason", "the text was read but could not be passed back"),
        SkipWhy.CLOSED: translate("SkipReason", "indexing stopped"),
        SkipWhy.OTHER: "%1",  # an unexpected error's own words, shown as they came
    }[why]


def skip_reason(skip: Skip) -> str:
    """The reason translated, with its details (a library's message stays in `technical`)."""
    details = (*skip.details, "", "")
    return re.sub(r"%([12])", lambda found: details[int(found[1]) - 1], _sentence(skip.why))


def technical(skip: Skip) -> str:
    """The untranslated words a library or the system gave, for a tooltip ("" when none)."""
    from skills.documents.skips import SkipWhy

    if skip.why is SkipWhy.DAMAGED and len(skip.details) > 1:
        return skip.details[1]
    return skip.details[0] if skip.why is SkipWhy.NOT_RETURNED and skip.details else ""
