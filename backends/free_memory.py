"""How much memory a new process can use without swapping, on each platform."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

from backends.kv_size import KIB


def free_memory_bytes() -> int | None:
    """Memory a new process can use without swapping, or None when the OS will not say."""
    try:
        if sys.platform.startswith("linux"):
            return _linux_free()
        if sys.platform == "darwin":
            return _macos_free()
        if sys.platform == "win32":
            return _windows_free()
    except (OSError, ValueError, subprocess.SubprocessError):
        pass  # fall through to the portable estimate
    return _sysconf_free()


def _linux_free(meminfo: Path = Path("/proc/meminfo"),
                cgroup: Path = Path("/sys/fs/cgroup")) -> int | None:
    fields = {}
    for line in meminfo.read_text().splitlines():
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[name] = int(parts[0]) * KIB
    available = fields.get("MemAvailable")
    if available is None:  # kernels before 3.14
        available = sum(fields.get(k, 0) for k in ("MemFree", "Buffers", "Cached")) or None
    limit = _cgroup_room(cgroup)
    if available is None:
        return limit
    return available if limit is None else min(available, limit)


def _cgroup_room(root: Path) -> int | None:
    # In a container the cgroup limit, not the host's RAM, decides when the OOM killer comes.
    try:
        limit = (root / "memory.max").read_text().strip()
        used = int((root / "memory.current").read_text().strip())
    except (OSError, ValueError):
        return None
    return None if limit == "max" or not limit.isdigit() else max(int(limit) - used, 0)


def _macos_free() -> int | None:
    out = subprocess.run(["vm_stat"], capture_output=True, text=True, timeout=5, check=True)
    lines = out.stdout.splitlines()
    page = int(lines[0].split("page size of")[1].split()[0]) if "page size of" in lines[0] else 4096
    pages = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if value.strip().rstrip(".").isdigit():
            pages[name.strip()] = int(value.strip().rstrip("."))
    # Inactive and purgeable pages are given back on demand, as Activity Monitor counts them.
    keys = ("Pages free", "Pages inactive", "Pages speculative", "Pages purgeable")
    return sum(pages.get(k, 0) for k in keys) * page or None


class _MemoryStatusEx(ctypes.Structure):
    _fields_ = [("dwLength", ctypes.c_ulong), ("dwMemoryLoad", ctypes.c_ulong),
                ("ullTotalPhys", ctypes.c_ulonglong), ("ullAvailPhys", ctypes.c_ulonglong),
                ("ullTotalPageFile", ctypes.c_ulonglong), ("ullAvailPageFile", ctypes.c_ulonglong),
                ("ullTotalVirtual", ctypes.c_ulonglong), ("ullAvailVirtual", ctypes.c_ulonglong),
                ("ullAvailExtendedVirtual", ctypes.c_ulonglong)]


def _windows_free() -> int | None:
    status = _MemoryStatusEx()
    status.dwLength = ctypes.sizeof(_MemoryStatusEx)
    if not ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):  # type: ignore[attr-defined]
        return None
    return int(status.ullAvailPhys)


def _sysconf_free() -> int | None:
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return None
