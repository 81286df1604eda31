"""The explicit list of CLI command modules; each adds its subcommand with `register(sub)`."""

from __future__ import annotations

import argparse
import importlib

# Each module defines register(subparsers) and sets `func(args, hearth) -> int` as default.
MODULES = (
    "app.cli.ask",  # ask, chat
    "app.cli.history",
    "app.cli.docs",
    "app.cli.files",
    "app.cli.calendar",
    "app.cli.memory",
    "app.cli.office",
    "app.cli.models",
    "app.cli.selftest",
    "app.cli.serve",
    "app.cli.mcp",  # mcp serve
    "app.cli.routines",
    "app.cli.todo",
    "app.cli.desktop",  # desktop install|remove (Linux app menu)
)


def register_all(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    for name in MODULES:
        importlib.import_module(name).register(sub)
