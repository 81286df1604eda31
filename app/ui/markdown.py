"""Markdown -> the HTML subset QTextDocument understands, with Pygments-highlighted code.

markdown-it-py parses (GitHub tables, strikethrough; raw HTML from the model is escaped, never
rendered). Code blocks become a tinted table with a "Copy" link (`copy:N`) and citations [n]
become `cite:n` links, so the chat view can copy code and open sources.

Both libraries take a few hundred milliseconds to import and the first frame needs neither, so
the window loads them on a thread of their own once it is up (`start_loading`). Meanwhile the
GUI thread shows text as it is (`loading()`) rather than render: an import on the GUI thread
while the loader holds the same modules' locks would stall it for the whole import."""

from __future__ import annotations

import html
import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from pygments.formatters import HtmlFormatter
    from pygments.lexer import Lexer

_CITE = re.compile(r"\[(\d{1,3})\]")
_PRE_SPLIT = re.compile(r"(<pre.*?</pre>)", re.DOTALL)


@dataclass
class Rendered:
    """The HTML, plus the raw text of each code block (index = N in `copy:N`)."""

    html: str
    code_blocks: list[str] = field(default_factory=list)


# The libraries' import state is the process's (sys.modules), so whether they are loaded is too.
_loaded = threading.Event()  # set once the libraries are imported and warmed up
_loader_lock = threading.Lock()
_loader: threading.Thread | None = None


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False, "breaks": False}).enable(
        ["table", "strikethrough"]
    )


@lru_cache(maxsize=2)
def _formatter(dark: bool) -> HtmlFormatter:
    from pygments.formatters import HtmlFormatter

    style = "github-dark" if dark else "friendly"
    return HtmlFormatter(noclasses=True, nowrap=True, style=style)


@lru_cache(maxsize=64)
def _lexer(lang: str) -> Lexer:
    """Looking a lexer up by name scans Pygments' registry: do it once per language."""
    from pygments.lexers import TextLexer, get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(lang) if lang else TextLexer()
    except ClassNotFound:
        return TextLexer()


def _highlight(code: str, lang: str, dark: bool) -> str:
    from pygments import highlight

    lexer = _lexer(lang.lower())
    return str(highlight(code, lexer, _formatter(dark))).rstrip("\n")


def _code_table(code: str, lang: str, index: int, dark: bool, copy_label: str) -> str:
    # A one-cell table is the only way to give a block padding and a background in Qt's subset.
    bg, fg = ("#1f2328", "#8b949e") if dark else ("#f3f4f6", "#6b7280")
    label = html.escape(lang or "text")
    body = _highlight(code, lang, dark)
    return (
        f'<table width="100%" cellspacing="0" cellpadding="8" border="0" bgcolor="{bg}" '
        f'style="margin-top:6px; margin-bottom:6px;"><tr><td bgcolor="{bg}">'
        f'<p style="margin:0; color:{fg}; font-size:small;">{label}&nbsp;&nbsp;·&nbsp;&nbsp;'
        f'<a href="copy:{index}" style="color:{fg};">{html.escape(copy_label)}</a></p>'
        f'<pre style="margin:0;">{body}</pre></td></tr></table>'
    )


def _link_citations(body: str) -> str:
    parts = _PRE_SPLIT.split(body)
    for i, part in enumerate(parts):
        if not part.startswith("<pre"):
            parts[i] = _CITE.sub(r'<a href="cite:\1">[\1]</a>', part)
    return "".join(parts)


def render(text: str, dark: bool = False, copy_label: str = "Copy") -> Rendered:
    """Render Markdown (complete or still streaming: an open fence renders as code so far)."""
    tokens = _parser().parse(text)
    blocks: list[str] = []
    for token in tokens:
        if token.type in ("fence", "code_block"):
            lang = token.info.strip().split(" ")[0] if token.info else ""
            blocks.append(token.content)
            # Swap the token for an html_block so the renderer emits our table verbatim.
            token.type = "html_block"
            token.content = _code_table(token.content, lang, len(blocks) - 1, dark, copy_label)
    # The parser escapes model-written HTML; only our own html_block tokens pass through.
    body = _parser().renderer.render(tokens, _parser().options, {})
    # Markdown tables get their borders as attributes, so our code tables stay borderless.
    line = "#3d434b" if dark else "#b4bac3"  # visible on the warm light background
    body = body.replace("<table>", f'<table border="1" cellspacing="0" cellpadding="5" '
                                   f'style="border-collapse: collapse; border-style: solid; '
                                   f'border-color: {line};">')
    return Rendered(_link_citations(body), blocks)


def table_css(dark: bool) -> str:
    """Default stylesheet for message documents (tables with borders, quiet block quotes)."""
    head = "#2a2f36" if dark else "#eef0f3"
    return (
        f"table {{ border-collapse: collapse; }}"
        f"th {{ background-color: {head}; padding: 4px 8px; }}"
        f"blockquote {{ margin-left: 12px; color: gray; }}"
        f"h1, h2, h3 {{ margin-top: 10px; margin-bottom: 4px; }}"
    )


def plain(text: str) -> Rendered:
    """`text` as it is, line breaks kept: what a message shows until Markdown is ready."""
    return Rendered(f'<p style="white-space: pre-wrap;">{html.escape(text)}</p>')


def loading() -> bool:
    """The libraries are being loaded on their thread: render() would wait for that import
    (where nothing started loading them, render() imports them itself)."""
    return _loader is not None and not _loaded.is_set()


def start_loading() -> None:
    """Load and warm the libraries on a thread of their own, once (later calls do nothing)."""
    global _loader
    with _loader_lock:
        if _loader is None and not _loaded.is_set():
            _loader = threading.Thread(target=warm_up, name="markdown-loader", daemon=True)
            _loader.start()


def warm_up() -> None:
    """Import the lexers and compile the parser's patterns ahead of time, off the GUI thread,
    so the first answer does not pay for it while it streams."""
    render("# a\n\n*b* [1]\n\n| a |\n|---|\n| 1 |\n\n```python\nx = 1\n```\n", dark=False)
    try:
        render("```\nx\n```", dark=True)
    finally:  # a failure shows where render() is called, not as plain text for ever
        _loaded.set()
