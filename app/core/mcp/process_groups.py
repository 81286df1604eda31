"""The process groups of the stdio MCP servers this process started, found by what they run,
so stopping Hearth ends a server's own children too (POSIX; nothing to do on Windows, where
the SDK puts each server in a job object that ends with it)."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path


def server_groups(commands: set[str]) -> set[int]:
    """Our children that lead a process group of their own (the SDK starts every stdio server
    in a new session) and run one of `commands` (their first word, as in settings)."""
    if os.name != "posix" or not commands:
        return set()
    me = os.getpid()
    return {pid for pid, parent, group, first in _processes()
            if parent == me and group == pid and first in commands}


def end_groups(groups: set[int]) -> None:
    """SIGKILL what is left of each group: the server has had its say (stdin closed, then
    SIGTERM) by the time this runs; its children were never told."""
    for group in groups:
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            continue


def _processes() -> list[tuple[int, int, int, str]]:
    """(pid, parent, process group, first word of the command line) of every process."""
    proc = Path("/proc")
    if (proc / "self" / "stat").exists():
        return list(filter(None, (_from_proc(entry) for entry in proc.iterdir()
                                  if entry.name.isdigit())))
    try:  # macOS and other BSDs
        listed = subprocess.run(["ps", "-A", "-o", "pid=,ppid=,pgid=,comm="], check=True,
                                capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found = []
    for line in listed.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4 and parts[0].isdigit():
            found.append((int(parts[0]), int(parts[1]), int(parts[2]), parts[3]))
    return found


def _from_proc(entry: Path) -> tuple[int, int, int, str] | None:
    try:
        stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
        first = (entry / "cmdline").read_bytes().split(b"\0", 1)[0].decode(errors="replace")
    except OSError:  # gone meanwhile, or not ours to read
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    return int(entry.name), int(fields[1]), int(fields[2]), first
