"""Content snippets computed in Python from the stored text: asking FTS5 for snippet() re-reads
every posting of a prefix (thousands for a short one), this reads only the rows shown."""

from __future__ import annotations

import re
import unicodedata

from skills.common.cjk import CJK_RUN, pieces

BEFORE = 50  # characters of context before the first match
AFTER = 110  # and after it
FOLD_LIMIT = 64 * 1024  # accent-folded search (rare fallback) looks this far


def _pattern(terms: list[str]) -> re.Pattern[str]:
    # A term matches at the start of a token, as in FTS5 (unicode61 also splits at "_"); a word
    # with CJK in it matches its parts anywhere, as its character pairs do in the index.
    plain = [t for t in terms if not CJK_RUN.search(t)]
    parts = {p for t in terms if CJK_RUN.search(t) for p in pieces(t)}
    alternatives = [rf"(?<![^\W_])(?:{_either(plain)})[^\W_]*"] if plain else []
    if parts:
        alternatives.append(_either(list(parts)))
    return re.compile("|".join(alternatives), re.IGNORECASE)


def _either(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def fold(text: str) -> str:
    """Accents removed, length kept (so match offsets still point into the original)."""
    return "".join(unicodedata.normalize("NFKD", ch)[0] for ch in text)


def make_snippet(text: str, terms: list[str]) -> str:
    """A short window of `text` around the first match, every match in it in **bold**;
    '' when no term occurs (e.g. the words matched only the file name)."""
    if not terms or not text:
        return ""
    pattern = _pattern(terms)
    match = pattern.search(text)
    haystack = text
    if match is None:  # "resume" finds "résumé" in the index: look again without accents
        haystack = fold(text[:FOLD_LIMIT])
        pattern = _pattern([fold(t) for t in terms])
        match = pattern.search(haystack)
        if match is None:
            return ""
    start = max(0, match.start() - BEFORE)
    end = min(len(text), match.start() + AFTER)
    if start > 0:  # do not start or end in the middle of a word
        start = _word_edge(text, start, forward=True)
    if end < len(text):
        end = _word_edge(text, end, forward=False)
    window, folded = text[start:end], haystack[start:end]
    pieces: list[str] = []
    last = 0
    for found in pattern.finditer(folded):
        pieces += [window[last : found.start()], "**", window[found.start() : found.end()], "**"]
        last = found.end()
    pieces.append(window[last:])
    return " ".join("".join(pieces).split())


def _word_edge(text: str, index: int, forward: bool) -> int:
    step = 1 if forward else -1
    limit = 20  # give up on very long tokens and cut mid-word instead
    position = index
    while 0 < position < len(text) and not text[position].isspace() and limit:
        position += step
        limit -= 1
    return position if limit else index
