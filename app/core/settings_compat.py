"""Settings written by other versions: each field checked against its type on its own.

A key this version does not know (a newer Hearth's setting, a hand edit) is kept, so saving
does not lose it, and ignored; a value of the wrong type (a number where a folder belongs) is
replaced by that field's default and never reaches the code using it. Every such problem
becomes a note the user is told once (app/main.py keeps which notes were told).
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, TypeVar

T = TypeVar("T")
UNKNOWN = "unknown"  # the dataclass field holding keys this version does not know
INTERNAL = frozenset({UNKNOWN, "load_notes"})  # never read from or written to the file as-is


class NoteWhy(StrEnum):
    """What was wrong with one setting: a code the window and the CLI each put into words."""

    UNKNOWN_KEY = "unknown_key"  # kept, and ignored
    WRONG_TYPE = "wrong_type"  # its default used
    ITEM_LEFT_OUT = "item_left_out"  # one entry of a list, left out


@dataclass(frozen=True)
class SettingNote:
    """One setting of another version's file: where it is, what was wrong, and the types (in
    English, for the CLI's words)."""

    key: str  # "future_flag", "mcp_servers[0].env"
    why: NoteWhy
    expected: str = ""
    found: str = ""

    @property
    def words(self) -> str:
        """The English line (the CLI's, and what settings_notes_told remembers)."""
        if self.why is NoteWhy.UNKNOWN_KEY:
            return f"{self.key}: not a setting this version knows (kept, ignored)"
        if self.why is NoteWhy.WRONG_TYPE:
            return f"{self.key}: expected {self.expected}, found {self.found}; using the default"
        return f"{self.key}: expected {self.expected}; left out"


class _Bad:
    """A value that does not fit its field."""


BAD = _Bad()


def build(cls: type[T], raw: dict[str, Any], where: str, notes: list[SettingNote]) -> T:
    """An instance of dataclass `cls` from `raw`, keeping unknown keys in its UNKNOWN field."""
    hints = typing.get_type_hints(cls)
    known = {f.name for f in fields(cls)} - INTERNAL  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    unknown: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            unknown[key] = value
            notes.append(SettingNote(f"{where}{key}", NoteWhy.UNKNOWN_KEY))
            continue
        converted = convert(value, hints[key], f"{where}{key}", notes)
        if converted is BAD:
            notes.append(SettingNote(f"{where}{key}", NoteWhy.WRONG_TYPE, describe(hints[key]),
                                     type(value).__name__))
        else:
            values[key] = converted
    instance = cls(**values)
    if unknown:
        setattr(instance, UNKNOWN, unknown)
    return instance


def convert(value: Any, hint: Any, where: str, notes: list[SettingNote]) -> Any:
    """`value` as type `hint`, or BAD. Lists drop (and note) entries that do not fit."""
    origin = typing.get_origin(hint)
    if origin is list:
        if not isinstance(value, list):
            return BAD
        (item,) = typing.get_args(hint)
        kept = []
        for index, entry in enumerate(value):
            converted = convert(entry, item, f"{where}[{index}]", notes)
            if converted is BAD:
                notes.append(SettingNote(f"{where}[{index}]", NoteWhy.ITEM_LEFT_OUT,
                                         describe(item)))
            else:
                kept.append(converted)
        return kept
    if origin in (typing.Union, types.UnionType):
        return BAD  # no optional fields in settings today
    if hint is bool:
        return value if isinstance(value, bool) else BAD
    if hint is int:
        return value if isinstance(value, int) and not isinstance(value, bool) else BAD
    if hint is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return float(value) if ok else BAD
    if hint is str:
        return value if isinstance(value, str) else BAD
    if isinstance(hint, type) and hasattr(hint, "__dataclass_fields__"):
        return _nested(value, hint, where, notes)
    return BAD


def _nested(value: object, cls: type, where: str, notes: list[SettingNote]) -> Any:
    if not isinstance(value, dict):
        return BAD
    try:
        return build(cls, value, f"{where}.", notes)
    except TypeError:  # a required field (an MCP server's name) is missing or unusable
        return BAD


def describe(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is list:
        return f"a list of {describe(typing.get_args(hint)[0])}"
    names = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}
    return names.get(hint, getattr(hint, "__name__", str(hint)))


def plain(instance: Any) -> dict[str, Any]:
    """A dataclass as the file stores it: its fields, then the unknown keys it was read with."""
    out: dict[str, Any] = {}
    for f in fields(instance):
        if f.name in INTERNAL:
            continue
        out[f.name] = _plain_value(getattr(instance, f.name))
    for key, value in getattr(instance, UNKNOWN, {}).items():
        out.setdefault(key, value)
    return out


def _plain_value(value: object) -> Any:
    if hasattr(value, "__dataclass_fields__"):
        return plain(value)
    if isinstance(value, list):
        return [_plain_value(v) for v in value]
    return value
