"""What the file index skips: hidden things, tool folders, environments, caches, user patterns,
and .gitignore rules inside git repositories (gitignore syntax through `pathspec`)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pathspec

# Folders that are never a user's documents: VCS data, dependencies, build and cache output.
IGNORED_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", "node_modules", "__pycache__", "bower_components",
        "site-packages", "$RECYCLE.BIN", "System Volume Information",
    }
)
# A folder holding one of these is an environment or a cache, not documents:
# pyvenv.cfg (Python venv), conda-meta (conda env), CACHEDIR.TAG (the cache-directory standard).
MARKER_FILES = ("pyvenv.cfg", "conda-meta", "CACHEDIR.TAG")
_HIDDEN_ATTRIBUTE = 0x2  # FILE_ATTRIBUTE_HIDDEN on Windows


def _spec(lines: Iterable[str]) -> pathspec.GitIgnoreSpec | None:
    spec = pathspec.GitIgnoreSpec.from_lines([ln for ln in lines if ln.strip()])
    return spec if len(spec) else None


def _read_gitignore(folder: str) -> pathspec.GitIgnoreSpec | None:
    try:
        with open(os.path.join(folder, ".gitignore"), encoding="utf-8", errors="replace") as fh:
            return _spec(fh.read().splitlines())
    except OSError:  # none there, or unreadable: nothing to add
        return None


def _relative(base: str, path: str) -> str:
    """`path` relative to `base` in gitignore form (forward slashes), by slicing: it is hot."""
    rel = path[len(base) :].lstrip(os.sep)
    return rel.replace(os.sep, "/") if os.sep != "/" else rel


@dataclass(frozen=True)
class DirRules:
    """The .gitignore rules in force inside one folder: (folder they came from, spec) pairs."""

    in_repo: bool = False
    specs: tuple[tuple[str, pathspec.GitIgnoreSpec], ...] = ()


class IgnoreRules:
    """Decides, per entry, whether the index skips it. Each .gitignore only ever adds exclusions
    (its own `!` lines work within that file): simpler than git, and errs toward skipping."""

    def __init__(self, patterns: Sequence[str] = ()) -> None:
        self.patterns = list(patterns)
        self._user = _spec(self.patterns)

    def for_root(self, root: str) -> DirRules:
        """Rules at a root; a root inside a repository inherits the .gitignore files above it."""
        chain = [root]
        folder = root
        while not os.path.exists(os.path.join(folder, ".git")):
            parent = os.path.dirname(folder)
            if parent == folder:
                return self.enter(DirRules(), root)
            folder = parent
            chain.append(folder)
        rules = DirRules(in_repo=True)
        for ancestor in reversed(chain[1:]):
            spec = _read_gitignore(ancestor)
            # A .gitignore that excludes the root itself is overruled: the user chose it.
            if spec and not spec.match_file(_relative(ancestor, root) + "/"):
                rules = DirRules(True, (*rules.specs, (ancestor, spec)))
        return self.enter(rules, root)

    def enter(self, parent: DirRules, folder: str) -> DirRules:
        """The rules inside `folder`, given the rules of the folder holding it."""
        in_repo = parent.in_repo or os.path.exists(os.path.join(folder, ".git"))
        return self._with_gitignore(DirRules(in_repo, parent.specs), folder)

    def _with_gitignore(self, rules: DirRules, folder: str) -> DirRules:
        if not rules.in_repo:
            return rules
        spec = _read_gitignore(folder)
        return DirRules(True, (*rules.specs, (folder, spec))) if spec else rules

    def skips(self, rules: DirRules, root: str, path: str, name: str, is_dir: bool,
              attributes: int = 0) -> bool:
        """Whether the entry `path` (named `name`, in a folder governed by `rules`) is skipped."""
        if name.startswith(".") or attributes & _HIDDEN_ATTRIBUTE:
            return True
        if is_dir and (name in IGNORED_DIRS or self.is_environment(path)):
            return True
        suffix = "/" if is_dir else ""
        if self._user is not None and self._user.match_file(_relative(root, path) + suffix):
            return True
        return any(spec.match_file(_relative(base, path) + suffix) for base, spec in rules.specs)

    @staticmethod
    def is_environment(folder: str) -> bool:
        return any(os.path.exists(os.path.join(folder, m)) for m in MARKER_FILES)

    def skips_path(self, root: str, path: str, is_dir: bool) -> bool:
        """The same decision for one path seen alone (a watcher event): checks every folder
        between the root and the path, since an ignored folder hides all it holds."""
        rel = _relative(root, path)
        if not rel:
            return False
        parts = rel.split("/")
        rules = self.for_root(root)
        current = root
        for index, part in enumerate(parts):
            current = os.path.join(current, part)
            last = index == len(parts) - 1
            if self.skips(rules, root, current, part, is_dir if last else True):
                return True
            if not last:
                rules = self.enter(rules, current)
        return False
