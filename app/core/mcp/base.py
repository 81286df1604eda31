"""What the assistant needs from MCP, without importing the (slow to import) MCP SDK."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from skills.base import Skill


class McpUnavailable(Exception):
    """The server could not be started, stopped answering or answered garbage (readable)."""


class McpServers(Protocol):
    """The external tool servers of one Assistant."""

    def skills(self, should_stop: Callable[[], bool] | None = None) -> Sequence[Skill]:
        """Their tools; waits for first starts unless should_stop (the turn's cancel flag)."""
        ...

    def notes(self) -> list[str]: ...

    def status(self) -> dict[str, str]: ...

    def close(self) -> None: ...


class NoServers:
    """No servers configured: nothing to start, and the SDK is never imported."""

    def skills(self, should_stop: Callable[[], bool] | None = None) -> Sequence[Skill]:
        return []

    def notes(self) -> list[str]:
        return []

    def status(self) -> dict[str, str]:
        return {}

    def close(self) -> None:
        return None
