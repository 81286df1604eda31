"""Document formats by file extension: what Hearth's parsers read. The document index parses
them; file search reads the text of the ones plain text cannot give (one list for both). And
a file's size as the tools say it."""

from __future__ import annotations

FORMATS: dict[str, str] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".pptx": "pptx",
    ".txt": "text",
    ".text": "text",
    ".log": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
    ".csv": "csv",
}
PLAIN_FORMATS = frozenset({"text", "markdown", "csv"})  # readable as they are
NEEDS_PARSER = frozenset(ext[1:] for ext, fmt in FORMATS.items() if fmt not in PLAIN_FORMATS)
"""Extensions (without the dot) whose text only the parsers can extract."""

# Files a chat about them runs in office mode for (thinking on, the office instructions).
OFFICE_SUFFIXES = (".xlsx", ".xlsm", ".csv", ".tsv", ".docx", ".pptx")


def is_office_file(path: str) -> bool:
    return str(path).lower().endswith(OFFICE_SUFFIXES)


def human_size(size: int) -> str:
    """A file size for the model and the CLI: "512 B", "1.5 KB", "2.0 MB" (1024 per step)."""
    value = float(size)
    for unit in ("B", "KB", "MB"):
        if value < 1024:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"
