"""Freedesktop desktop entries: an Exec= line quoted as the Desktop Entry spec requires."""

from __future__ import annotations

# Characters the spec reserves: an argument holding any of them goes in double quotes.
_RESERVED = frozenset(" \t\n\"'\\><~|&;$*?#()`")


def exec_arg(arg: str) -> str:
    """One argument of an Exec= value, as it is written in the file.

    Inside double quotes `"`, backquote, `$` and backslash take a backslash; `%` is doubled
    (field codes); then the file's string escapes double every backslash once more, which is
    why a literal backslash ends up as four (the spec says so in as many words)."""
    quoted = arg
    if not arg or _RESERVED & set(arg):
        escaped = "".join(f"\\{c}" if c in '"`$\\' else c for c in arg)
        quoted = f'"{escaped}"'
    return quoted.replace("%", "%%").replace("\\", "\\\\").replace("\n", "\\n")


def exec_line(args: list[str]) -> str:
    """The Exec= value that runs `args` (not a shell: no single quotes, which the spec rejects)."""
    return " ".join(exec_arg(a) for a in args)
