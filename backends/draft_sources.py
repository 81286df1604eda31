"""Texts for prompt-lookup drafts beyond the prompt: what it holds, written as answers rewrite it.

An answer that reformats what it read copies the values but not the separators between them:
asked for a CSV sheet as a Markdown table, it writes `| North | Q1 | 12500 |` where the sheet
has `North,Q1,12500`, so what follows any two tokens of the sheet is a comma where the answer
has a bar, and the prompt drafts one value at most. The same rows rendered as the answer will
write them give the drafter (backends/prompt_lookup.py) that continuation. Rendered as text and
tokenized by the model's tokenizer, not mapped token by token, since the tokens around a value
change with its separator (`,Q` + `1` against ` Q` + `1 |`).

A tool call has the same trouble: its values come from the question (a folder, a file name, a
quoted title) but start a line of the call where the question had a space or a quote before
them, and the call's frame (`<function=...>`, `<parameter=...>`) is in no earlier message
before the model's first call. So when tools are offered, the values the question names are
rendered as a call writes them, one by one and a folder joined with a file name, and each
tool's frame with its parameters in the schema's order.

They are only ever drafts: the model checks every drafted token, so what it writes is the same
with or without them (at temperature 0 token for token). Built once per prompt from its text,
in one pass over its lines, and bounded: a huge pasted sheet gives its first rows."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator, Sequence
from typing import Any

MAX_CHARS = 16_000  # rendered text per prompt, in all: a few thousand tokens to search
MIN_ROWS = 2  # lines in a row with the same number of fields, a header and a row at least
DELIMITERS = (",", "\t", ";")  # CSV, TSV, and the CSV of locales with a decimal comma
MAX_LINE = 2_000  # characters: a longer line is prose or data no answer rewrites as a row

MAX_TOOL_CHARS = 4_000  # tool-call frames and values per prompt, in all
TAIL = 4_000  # characters at the prompt's end whose values a tool call may copy (the question)
MAX_VALUES = 8  # of each kind (quoted, folder, file name): the latest ones
JOINS = 3  # latest folders and file names joined into paths
# A value the question names: a quoted span (not an apostrophe in a word), a path, a file name.
QUOTED = re.compile(r"(?<!\w)(['\"`“‘])([^'\"`“”‘’\n]{1,200})(['\"`”’])(?!\w)")
PATH = re.compile(r"(?<![\w.<])(?:~|\.{1,2})?/[^\s'\"`<>]+|(?<!\w)[A-Za-z]:\\[^\s'\"`<>]+")
FILE_NAME = re.compile(r"(?<![\w./\\-])[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,7}(?![\w/\\])")
TRAILING = ".,;:!?)]}>"  # punctuation that ends a sentence, not the path before it

Rows = list[list[str]]


def draft_texts(prompt: str, tools: Sequence[dict[str, Any]] = (),
                call_format: str = "xml") -> list[str]:
    """All the texts to draft from besides the prompt: its tables rewritten, and when tools
    are offered (in the XML call format the model writes), their frames and the values the
    question names."""
    texts = renderings(prompt)
    if tools and call_format == "xml":
        texts = _within([*call_frames(tools), *call_values(prompt[-TAIL:])], MAX_TOOL_CHARS) + texts
    return texts


def call_frames(tools: Sequence[dict[str, Any]]) -> list[str]:
    """Each tool's call with empty values, as the model writes it (../shared/nanbeige):
    `<tool_call>\\n<function=NAME>\\n<parameter=KEY>\\n</parameter>\\n...`."""
    frames = []
    for tool in tools:
        function = tool.get("function", tool)
        names = list((function.get("parameters") or {}).get("properties") or {})
        lines = ["<tool_call>", f"<function={function.get('name', '')}>"]
        for name in names:
            lines += [f"<parameter={name}>", "</parameter>"]
        frames.append("\n".join([*lines, "</function>", "</tool_call>"]) + "\n")
    return frames


def call_values(text: str) -> list[str]:
    """The values `text` names, each as a call's parameter holds it: on a line of its own,
    then the parameter's end; a folder and a file name are also joined (a path to write).
    The latest last (of equal matches the drafter takes the latest)."""
    quoted = [match.group(2) for match in QUOTED.finditer(text)][-MAX_VALUES:]
    paths = [match.group(0).rstrip(TRAILING) for match in PATH.finditer(text)][-MAX_VALUES:]
    names = [match.group(0) for match in FILE_NAME.finditer(text)][-MAX_VALUES:]
    folders = [path for path in paths if not FILE_NAME.search(path.rsplit("/", 1)[-1])]
    joined = [f"{folder.rstrip('/')}/{name}" for folder in folders[-JOINS:] for name in
              names[-JOINS:]]
    # Joined paths last: of equal matches the drafter takes the latest, and a file tool is
    # likelier to be given the file's path than the folder's.
    values = dict.fromkeys([*quoted, *names, *paths, *joined][::-1])  # latest first, once
    return [f"\n{value}\n</parameter>\n" for value in values][::-1]


def _within(texts: list[str], budget: int) -> list[str]:
    """The last of `texts` that fit in `budget` characters together (the latest values; a
    long list of tools loses its first frames)."""
    kept: list[str] = []
    for text in reversed(texts):
        if len(text) > budget:
            break
        kept.append(text)
        budget -= len(text)
    return kept[::-1]


def renderings(prompt: str, budget: int = MAX_CHARS) -> list[str]:
    """The prompt's delimited blocks as Markdown tables and its Markdown tables as CSV, the
    latest last (the one an answer most likely rewrites), `budget` characters in all."""
    texts: list[str] = []
    for lines, kind in _blocks(prompt.splitlines()):  # the latest block first
        if budget <= 0:
            break
        rows = _rows(lines, kind, budget)
        if len(rows) < MIN_ROWS:  # a Markdown table's header and its `|---|` line only
            continue
        text = _clipped(as_csv(rows) if kind == "|" else as_markdown(rows), budget)
        texts.append(text)
        budget -= len(text)
    return texts[::-1]


def as_markdown(rows: Rows) -> str:
    """Rows as a Markdown table, the first row its header: `| a | b |`, as models write them."""
    width = len(rows[0])
    lines = [_markdown_row(rows[0]), "|" + "---|" * width]
    lines.extend(_markdown_row(row) for row in rows[1:])
    return "\n".join(lines) + "\n"


def as_csv(rows: Rows) -> str:
    """Rows as CSV lines (a field that holds a comma or a quote is quoted)."""
    lines = []
    for row in rows:
        lines.append(",".join(f'"{cell.replace(chr(34), chr(34) * 2)}"'
                              if "," in cell or '"' in cell else cell for cell in row))
    return "\n".join(lines) + "\n"


def _markdown_row(cells: list[str]) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def _clipped(text: str, budget: int) -> str:
    """`text` cut after its last whole line within `budget` characters (its first rows)."""
    if len(text) <= budget:
        return text
    return text[:text.rfind("\n", 0, budget) + 1]


def _blocks(lines: list[str]) -> Iterator[tuple[list[str], str]]:
    """Runs of MIN_ROWS or more lines with the same number of fields, the latest first, each
    with its delimiter (`|` for a Markdown table). Reading backwards, a run ends at a line that
    does not continue it, which may start the next one. Fields are only counted here (in C,
    but for a line with quotes): a huge sheet is parsed no further than its rendered rows."""
    run: list[str] = []
    kind, width = "", 0  # the run's delimiter and fields a line
    for line in reversed(lines):
        line = line.strip()
        if run and _width(line, kind) == width:
            run.append(line)
            continue
        if len(run) >= MIN_ROWS:
            yield run[::-1], kind
        kind, width = _kind(line)
        run = [line] if kind else []
    if len(run) >= MIN_ROWS:
        yield run[::-1], kind


def _kind(line: str) -> tuple[str, int]:
    """The line's delimiter and number of fields (two or more), ("", 0) for a line that is
    no row."""
    for kind in ("|", *DELIMITERS):
        width = _width(line, kind)
        if width >= 2:
            return kind, width
    return "", 0


def _width(line: str, kind: str) -> int:
    """How many fields `line` has, split at `kind`; 0 when it is no row of that kind."""
    if len(line) > MAX_LINE or _sentence(line):
        return 0
    if kind == "|":
        is_row = len(line) > 1 and line[0] == line[-1] == "|"
        return line.count("|") - 1 if is_row else 0
    if kind not in line:
        return 0
    return len(_split(line, kind)) if '"' in line else line.count(kind) + 1


def _split(line: str, kind: str) -> list[str]:
    if kind == "|":
        return [cell.strip() for cell in line[1:-1].split("|")]
    try:
        cells = next(csv.reader([line], delimiter=kind))
    except csv.Error:  # a stray NUL or the like: the plain split is near enough for drafts
        cells = line.split(kind)
    return [cell.strip() for cell in cells]


def _rows(lines: list[str], kind: str, budget: int) -> Rows:
    """The block's first rows, as many as `budget` characters can render (a Markdown table
    without its `|---|` line)."""
    rows: Rows = []
    for line in lines:
        if budget <= 0:
            break
        cells = _split(line, kind)
        if kind == "|" and all(cell and set(cell) <= set(":- ") for cell in cells):
            continue
        rows.append(cells)
        budget -= len(line) + 2 * len(cells) + 2  # what a row grows by, as the other one
    return rows


def _sentence(line: str) -> bool:
    """Whether the line ends as prose does (a word, then `.`, `!`, `?` or `:`): no row."""
    return len(line) > 1 and line[-1] in ".!?:" and line[-2].isalpha()
