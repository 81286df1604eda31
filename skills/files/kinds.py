"""File kinds by extension, and which files carry text worth indexing.

Kinds (what a user asks for): document, spreadsheet, presentation, image, audio, video,
archive, code, other. Presentations get their own kind because people ask for "the slides"
as often as for "the spreadsheet"; everything unknown is "other"."""

from __future__ import annotations

from skills.common.formats import NEEDS_PARSER

KINDS = (
    "document",
    "spreadsheet",
    "presentation",
    "image",
    "audio",
    "video",
    "archive",
    "code",
    "other",
)

_BY_KIND: dict[str, str] = {
    "document": "pdf doc docx odt rtf txt text md markdown rst tex epub pages wpd log org adoc",
    "spreadsheet": "xls xlsx xlsm ods csv tsv numbers",
    "presentation": "ppt pptx odp key",
    "image": "jpg jpeg png gif bmp tif tiff webp heic heif svg ico raw cr2 nef arw dng psd",
    "audio": "mp3 wav flac aac m4a ogg oga opus wma aiff aif mid midi",
    "video": "mp4 m4v mov avi mkv webm wmv flv mpg mpeg 3gp",
    "archive": "zip tar gz tgz bz2 xz 7z rar zst dmg iso",
    "code": (
        "py pyi ipynb js mjs cjs ts tsx jsx java kt kts c h cc cpp cxx hpp hh cs go rs rb php"
        " swift m mm scala sh bash zsh fish ps1 bat cmd pl lua r jl dart sql html htm css scss"
        " sass less vue svelte json yaml yml toml ini cfg conf xml gradle cmake mk makefile"
        " dockerfile proto graphql hs ml ex exs erl clj el vim"
    ),
}

KIND_OF: dict[str, str] = {ext: kind for kind, exts in _BY_KIND.items() for ext in exts.split()}

# Read as plain text (UTF-8, errors replaced). Everything of kind "code" plus these.
_PLAIN_TEXT = {"txt", "text", "md", "markdown", "rst", "tex", "log", "org", "adoc", "csv", "tsv"}
PARSED = NEEDS_PARSER  # formats whose text only the document parsers can extract


def extension(name: str) -> str:
    """Lower-case extension without the dot; a bare 'Makefile' or 'Dockerfile' counts as one."""
    stem, dot, ext = name.rpartition(".")
    if dot and stem:
        return ext.lower()
    lowered = name.lower()
    return lowered if lowered in ("makefile", "dockerfile") else ""


def kind_of(ext: str) -> str:
    return KIND_OF.get(ext.lower(), "other")


def is_plain_text(ext: str) -> bool:
    return ext in _PLAIN_TEXT or KIND_OF.get(ext) == "code"


def has_text(ext: str) -> bool:
    """Whether the file's content is indexed (plain text, or a format the parsers read)."""
    return is_plain_text(ext) or ext in PARSED


def normalize_kind(kind: str) -> str:
    """Accept 'Spreadsheets', ' PDF '... loosely; raise ValueError naming the valid kinds."""
    word = kind.strip().lower()
    aliases = {"slides": "presentation", "doc": "document", "photo": "image", "picture": "image",
               "music": "audio", "movie": "video", "source": "code", "text": "document"}
    word = aliases.get(word, word)
    if word not in KINDS and word.endswith("s"):
        word = word[:-1]
    if word not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; use one of: {', '.join(KINDS)}")
    return word
