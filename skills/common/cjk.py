"""CJK text as character pairs: unicode61 keeps a run of Chinese or Japanese as one token, so
without these "会议" would be found only at the start of "今天的会议记录"."""

from __future__ import annotations

import re

# Ideographs (with Extensions A to F and the compatibility block), kana and hangul: scripts
# written without spaces between words. History, file search and documents all use this one.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f"
CJK_RUN = re.compile(f"[{_CJK}]+")
_SPLIT = re.compile(f"([{_CJK}]+)")
_WORD = re.compile(r"\w+")


def pieces(token: str) -> list[str]:
    """A word cut into its CJK runs and the other parts: 'Q3会议v2' -> ['Q3', '会议', 'v2']."""
    return [p for p in _SPLIT.split(token) if p]


def is_cjk(piece: str) -> bool:
    return CJK_RUN.fullmatch(piece) is not None


def bigrams(run: str) -> list[str]:
    """Overlapping character pairs of one CJK run (a single character stays itself)."""
    return [run] if len(run) < 2 else [run[i : i + 2] for i in range(len(run) - 1)]


def run_bigrams(text: str) -> str:
    """Every CJK run of `text` as its character pairs, space-separated (the documents index)."""
    return " ".join(pair for run in CJK_RUN.findall(text) for pair in bigrams(run))


def index_terms(text: str) -> str:
    """What the *_cjk columns hold: for each word with CJK in it, its runs as pairs and its
    other parts as words (so "v2" is found inside "会议v2"). '' for text without CJK, which is
    nearly all of it: one regex scan decides."""
    if not CJK_RUN.search(text):
        return ""
    out: list[str] = []
    for token in _WORD.findall(text):
        if CJK_RUN.search(token):
            for piece in pieces(token):
                out.extend(bigrams(piece) if is_cjk(piece) else [piece])
    return " ".join(out)


def sql_index_terms(text: object) -> str:
    """index_terms as an SQLite function (the migration backfills existing rows in SQL)."""
    return index_terms(text) if isinstance(text, str) else ""
