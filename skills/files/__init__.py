"""Local file search: an index of the user's chosen folders and the tools that query it."""

from __future__ import annotations

from skills.files.index import FileIndex
from skills.files.models import FileHit, FileInfo, IndexStatus, ScanProgress, ScanReport
from skills.files.tools import file_skills

__all__ = [
    "FileHit",
    "FileIndex",
    "FileInfo",
    "IndexStatus",
    "ScanProgress",
    "ScanReport",
    "file_skills",
]
