"""Decode CSV bytes the way a spreadsheet app would: BOMs, UTF-8, and lines in other encodings."""

from __future__ import annotations

import codecs

_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
         (codecs.BOM_UTF16_BE, "utf-16-be"))


def decode_csv(data: bytes) -> tuple[str, list[str]]:
    """The text, and notes for the user (which encodings were found, lines that needed a guess).

    Files pasted together from several exports mix UTF-8 with a legacy code page line by line,
    so lines that are not UTF-8 are decoded with the best guess for those lines alone."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(encoding, errors="replace"), [f"{encoding} with BOM"]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    lines = data.split(b"\n")
    bad = [i for i, line in enumerate(lines) if not _is_utf8(line)]
    guess = _guess(b"\n".join(lines[i] for i in bad))
    out = []
    wrong = set(bad)
    for i, line in enumerate(lines):
        if i in wrong:
            out.append(line.decode(guess, errors="replace"))
        else:
            out.append(line.decode("utf-8"))
    note = f"{len(bad)} line(s) were not UTF-8 and were read as {guess}"
    return "\n".join(out), [note]


def _is_utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _guess(sample: bytes) -> str:
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(sample[:200_000]).best()
        if best is not None and best.encoding:
            return str(best.encoding)
    except ImportError:  # an optional helper; cp1252 is what most legacy exports use
        pass
    return "cp1252"
