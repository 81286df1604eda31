"""`hearth desktop install|remove`: Hearth in the Linux application menu, with its icon.

The unpacked bundle's install.sh runs it: the entry names the executable by its absolute path,
so it works whether or not the folder is on the session's PATH."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.desktop_entry import install_launcher, remove_launcher

if TYPE_CHECKING:
    from app.main import Hearth


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("desktop", help="add Hearth to (or remove it from) the app menu")
    parser.add_argument("action", choices=("install", "remove"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, hearth: Hearth) -> int:
    data_home = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    if args.action == "remove":
        remove_launcher(data_home)
        print("Hearth is no longer in the application menu.")
        return 0
    import resources

    entry = install_launcher(data_home, Path(resources.__file__).parent / "icons" / "hearth.svg")
    print(f"Hearth is in the application menu ({entry}).")
    return 0
