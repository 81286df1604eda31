"""External skills over MCP: servers from settings, started on demand, their tools as skills."""

from app.core.mcp.connection import McpUnavailable
from app.core.mcp.manager import McpManager, McpSkill

__all__ = ["McpManager", "McpSkill", "McpUnavailable"]
