"""`hearth mcp serve`: Hearth's document, file and calendar tools for other agents (MCP, stdio).

Add it to an MCP client as the command `hearth mcp serve`. Reads stay inside the folders chosen
in Hearth; calendar changes are proposals the person approves in the running Hearth."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from skills.base import SkillError

if TYPE_CHECKING:
    from app.main import Hearth


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("mcp", help="Hearth's tools for other agents (MCP)")
    actions = parser.add_subparsers(dest="mcp_command", required=True)
    serve = actions.add_parser("serve", help="serve the tools over stdio (for MCP clients)")
    serve.set_defaults(func=run_mcp_serve)


def run_mcp_serve(args: argparse.Namespace, hearth: Hearth) -> int:
    from app import __version__
    from app.core.mcp.server import HearthTools, serve_stdio
    from app.core.server.guard import local_address
    from app.core.server.proposals import NOT_RUNNING, propose_to_app
    from skills.common.clock import local_timezone_name

    settings = hearth.settings
    roots = [*settings.watched_folders, *settings.file_roots]
    host = local_address(settings.server_host)  # where the app's server can be reached
    if settings.server_enabled and settings.server_api_key:
        propose = propose_to_app(host, settings.server_port, settings.server_api_key)
    else:
        def propose(tool: str, arguments: dict[str, Any]) -> str:
            raise SkillError(NOT_RUNNING)
    tools = HearthTools(hearth.skills(), roots, local_timezone_name(), propose)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C is how a person stops it
        asyncio.run(serve_stdio(tools, __version__))
    return 0
