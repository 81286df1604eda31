"""External skills over MCP: servers from settings, started on demand, their tools as skills."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.mcp.base import McpServers, McpUnavailable, NoServers
from app.core.settings import McpServer

__all__ = ["McpServers", "McpUnavailable", "NoServers", "servers_for"]


def servers_for(configured: Sequence[McpServer]) -> McpServers:
    """A manager for the configured servers; the SDK is imported only when there are some."""
    if not configured:
        return NoServers()
    from app.core.mcp.manager import McpManager

    return McpManager(list(configured))
