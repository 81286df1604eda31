"""Path helpers: display text for any OS path, prefix ranges for SQL, and the check that keeps
every file access inside the folders the user chose."""

from __future__ import annotations

import os
from collections.abc import Sequence


class OutsideRootsError(ValueError):
    """A path that is not inside any folder the user chose (after resolving symlinks)."""


def display(path: str) -> str:
    """Text that SQLite and JSON accept for any OS path: bytes that are not valid UTF-8 (kept by
    Python as lone surrogates) become U+FFFD. The exact bytes are stored beside it."""
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        return os.fsencode(path).decode("utf-8", errors="replace")


def text_range(prefix: str) -> tuple[str, str]:
    """Bounds (lo, hi) such that lo < p < hi for every path p strictly inside folder `prefix`."""
    base = prefix.rstrip(os.sep)
    return base + os.sep, base + chr(ord(os.sep) + 1)


def bytes_range(prefix: bytes) -> tuple[bytes, bytes]:
    sep = os.fsencode(os.sep)
    base = prefix.rstrip(sep)
    return base + sep, base + bytes([sep[0] + 1])


def normalize_root(path: str) -> str:
    """The real absolute path of a folder the user chose (~ expanded, symlinks resolved)."""
    return os.path.realpath(os.path.abspath(os.path.expanduser(path)))


def is_inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def root_of(path: str, roots: Sequence[str]) -> str | None:
    """The outermost root holding `path`, or None."""
    holding = [r for r in roots if is_inside(path, r)]
    return min(holding, key=len) if holding else None


def outer_roots(roots: Sequence[str]) -> list[str]:
    """Roots not inside another root: scanning these covers all of them exactly once."""
    unique = sorted(set(roots), key=len)
    kept: list[str] = []
    for root in unique:
        if not any(is_inside(root, k) for k in kept):
            kept.append(root)
    return kept


def check_inside(path: str, roots: Sequence[str]) -> str:
    """The resolved path if it lies inside a root, else OutsideRootsError in plain words."""
    if not roots:
        raise OutsideRootsError("no folders are chosen for file search yet; add one first")
    resolved = os.path.realpath(path)
    if root_of(resolved, roots) is None:
        raise OutsideRootsError(
            f"{display(path)} is outside the folders chosen for file search "
            f"({', '.join(display(r) for r in roots)})"
        )
    return resolved


def suggested_roots() -> list[str]:
    """The folders offered to a new user: Documents, Desktop and Downloads, where they exist."""
    import platformdirs

    found: list[str] = []
    for getter in (platformdirs.user_documents_dir, platformdirs.user_desktop_dir,
                   platformdirs.user_downloads_dir):
        folder = normalize_root(getter())
        if os.path.isdir(folder) and folder not in found:
            found.append(folder)
    return found
