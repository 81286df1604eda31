"""Why a document was skipped, in the UI's language (the index words it in English)."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

# (pattern over the index's English reason, translatable sentence with %1 for the detail)
_REASONS: tuple[tuple[str, str], ...] = (
    (r"damaged or unreadable (\w+) file", "damaged or unreadable %1 file"),
    (r"not a valid (\w+) file", "not a valid %1 file"),
    (r"unsupported file type (\S+)", "unsupported file type %1"),
    (r"cannot read file: permission denied", "cannot read the file: permission denied"),
    (r"needed more memory", "needed more memory than the parsing limit allows"),
    (r"no text found", "no text found in the file (a scanned document needs OCR)"),
    (r"encrypted PDF", "encrypted PDF (it needs a password)"),
    (r"suspicious archive", "suspicious archive (too many parts)"),
    (r"archive expands to", "the archive expands beyond the size limit"),
    (r"binary data", "binary data, not text"),
    (r"watched folder not found", "watched folder not found"),
    (r"file is empty", "the file is empty (0 bytes)"),
)


def skip_reason(reason: str) -> str:
    """The known reasons translated (the technical tail is dropped; it stays in the tooltip)."""
    for pattern, sentence in _REASONS:
        match = re.search(pattern, reason, flags=re.IGNORECASE)
        if match:
            text = QCoreApplication.translate("SkipReason", sentence)
            return text.replace("%1", match.group(1)) if match.groups() else text
    return reason


def _catalogue() -> None:
    """Never called: lists the sentences for lupdate (it reads literal translate calls)."""
    translate = QCoreApplication.translate
    translate("SkipReason", "damaged or unreadable %1 file")
    translate("SkipReason", "not a valid %1 file")
    translate("SkipReason", "unsupported file type %1")
    translate("SkipReason", "cannot read the file: permission denied")
    translate("SkipReason", "needed more memory than the parsing limit allows")
    translate("SkipReason", "no text found in the file (a scanned document needs OCR)")
    translate("SkipReason", "encrypted PDF (it needs a password)")
    translate("SkipReason", "suspicious archive (too many parts)")
    translate("SkipReason", "the archive expands beyond the size limit")
    translate("SkipReason", "binary data, not text")
    translate("SkipReason", "watched folder not found")
    translate("SkipReason", "the file is empty (0 bytes)")
