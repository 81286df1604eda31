"""Fail when a Mach-O file in the app needs a newer macOS than the app's minimum.

Usage: python packaging/macos/check_minos.py Hearth.app 14.0
A wheel built for the build host's macOS (mlx, mlx-metal, numpy...) would otherwise make the
app crash at launch on older systems that LSMinimumSystemVersion lets it start on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

MACHO_MAGIC = {b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe", b"\xbe\xba\xfe\xca"}


def is_macho(path: Path) -> bool:
    with path.open("rb") as f:
        return f.read(4) in MACHO_MAGIC


def minimum_os(path: Path) -> tuple[int, ...] | None:
    """The arm64 slice's minos (LC_BUILD_VERSION) or version (LC_VERSION_MIN_MACOSX)."""
    out = subprocess.run(["otool", "-arch", "arm64", "-l", str(path)], capture_output=True,
                         text=True).stdout
    command = ""
    for line in out.splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == "cmd":
            command = words[1]
        elif len(words) == 2 and (command, words[0]) in (("LC_BUILD_VERSION", "minos"),
                                                         ("LC_VERSION_MIN_MACOSX", "version")):
            return tuple(int(p) for p in words[1].split("."))
    return None


def main(argv: list[str]) -> int:
    app, minimum = Path(argv[1]), tuple(int(p) for p in argv[2].split("."))
    too_new = []
    for path in sorted(app.rglob("*")):
        if path.is_file() and not path.is_symlink() and is_macho(path):
            found = minimum_os(path)
            if found and found > minimum:
                too_new.append(f"{path.relative_to(app)} needs macOS {'.'.join(map(str, found))}")
    for line in too_new:
        print(line)
    print(f"{len(too_new)} binaries need a macOS newer than {argv[2]}")
    return 1 if too_new else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
