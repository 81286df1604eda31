"""The computer's clock: its IANA time zone, as every part of Hearth names it, and the stores'
UTC timestamps read on it."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def local_timezone_name() -> str:
    """The machine's IANA zone (tzlocal, which knows Windows and macOS too; then TZ,
    /etc/localtime, /etc/timezone), always a name zoneinfo accepts: "UTC" when unknown."""
    candidates: list[str] = []
    try:
        import tzlocal

        candidates.append(str(tzlocal.get_localzone_name() or ""))
    except Exception:  # noqa: BLE001 - an odd system setup: fall back to the files below
        pass
    candidates.append(os.environ.get("TZ", "").lstrip(":"))
    localtime = Path("/etc/localtime")
    if localtime.is_symlink():
        target = str(localtime.resolve())
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    try:
        candidates.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    except OSError:
        pass
    for name in candidates:
        if name and valid_zone(name):
            return "UTC" if name in ("Etc/UTC", "Etc/Universal", "Universal", "Zulu") else name
    return "UTC"


def valid_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def stored_moment(text: str) -> datetime | None:
    """A time the stores keep as ISO text (UTC), on this computer's clock; None if unreadable.
    Its local date is the one to show: "[:10]" of the UTC text is yesterday east of Greenwich."""
    try:
        return datetime.fromisoformat(text).astimezone()
    except ValueError:
        return None
