"""McpManager starts the configured servers on first use and offers their tools as skills."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from mcp_types import CallToolResult, TextContent, Tool
from pydantic import ValidationError

from app.core.mcp.base import McpUnavailable
from app.core.mcp.connection import Connection
from app.core.mcp.process_groups import end_groups, server_groups
from app.core.settings import McpServer
from skills.base import SkillContext, SkillError, SkillResult
from skills.common.limits import LIMITS

START_TIMEOUT_S = 30.0
CALL_TIMEOUT_S = 120.0
RETRY_AFTER_S = 60.0  # a server that failed to start is tried again after this long
CANCEL_POLL_S = 0.05  # how often a start wait looks at the turn's cancel flag
# How long close() lets each server's transport shut down. The SDK bounds its own steps (close
# stdin and wait 2 s, SIGTERM the tree and wait 2 s, SIGKILL and reap 2 s); stopping the loop
# before they finish would leave the server running with no parent.
SHUTDOWN_S = 10.0
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def _never() -> bool:
    return False


def skill_name(server: str, tool: str) -> str:
    """server__tool, with characters the model's tool format dislikes replaced."""
    return f"{_UNSAFE.sub('_', server).strip('_')}__{_UNSAFE.sub('_', tool).strip('_')}"


class McpSkill:
    """One MCP tool as a Hearth skill; asks for confirmation unless the server is trusted."""

    def __init__(self, manager: McpManager, server: McpServer, tool: Tool) -> None:
        self._manager = manager
        self.server = server.name
        self.tool = tool.name
        self.name = skill_name(server.name, tool.name)
        self.description = (tool.description or f"The '{tool.name}' tool.").strip() + (
            f" (From the external tool server '{server.name}'.)")
        schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
        self.parameters: dict[str, Any] = schema or {"type": "object", "properties": {}}
        self.changes_things = not server.trusted

    def describe_change(self, arguments: dict[str, Any]) -> str:
        shown = json.dumps(arguments, ensure_ascii=False)
        return (f"Let the external tool server '{self.server}' run its tool '{self.tool}' with "
                f"{shown}. Hearth cannot see what that tool changes.")

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        try:
            result = self._manager.call(self.server, self.tool, arguments)
        except McpUnavailable as exc:
            raise SkillError(str(exc)) from exc
        except ValidationError as exc:
            raise SkillError(f"The tool server '{self.server}' answered with something that is "
                             f"not a valid MCP result ({exc.error_count()} problems).") from exc
        except Exception as exc:  # MCPError and transport failures: readable, never a crash
            raise SkillError(f"The tool server '{self.server}' failed: {exc}") from exc
        return _to_result(result)


def _to_result(result: CallToolResult) -> SkillResult:
    parts: list[str] = []
    for block in result.content:
        if isinstance(block, TextContent):
            parts.append(block.text)
        else:
            parts.append(f"[{getattr(block, 'type', 'content')} not shown]")
    text = "\n".join(parts).strip()
    if not text and result.structured_content is not None:
        text = json.dumps(result.structured_content, ensure_ascii=False, default=str)
    structured = result.structured_content
    if structured is not None and len(json.dumps(structured, default=str)) > \
            LIMITS.tool_result_bytes:
        structured = None  # its text carries it to the model; the card shows the kept part
    data = {"structured": structured, "is_error": result.is_error}
    return SkillResult(text=text or "(no output)", data=data, ok=not result.is_error)


class McpManager:
    """Owns an asyncio loop thread (only once a server is needed) and one connection per server."""

    def __init__(self, servers: list[McpServer], start_timeout: float = START_TIMEOUT_S,
                 call_timeout: float = CALL_TIMEOUT_S) -> None:
        self.servers = {server.name: server for server in servers}
        self.start_timeout = start_timeout
        self.call_timeout = call_timeout
        self._connections: dict[str, Connection] = {}
        # Every connection whose task may still own a process, including ones given up on (a
        # failed start, a stuck call): close() waits for all of them to leave their transports.
        self._started: list[Connection] = []
        self._failed: dict[str, tuple[str, float]] = {}  # name -> (reason, when)
        self._too_many: dict[str, int] = {}  # name -> tools offered past tools_per_server
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def skills(self, should_stop: Callable[[], bool] | None = None) -> list[McpSkill]:
        """Tools of every server that starts; failures are remembered for notes().

        should_stop (the turn's cancel flag) ends the wait for first starts at once; servers
        still starting then go on starting in the background (a turn the user sends next will
        want them, and stopping them would only make it wait the whole start again); their
        tools come on a later turn, and close() stops them cleanly."""
        found: list[McpSkill] = []
        for name, connection in self._start_all(should_stop or _never).items():
            try:
                tools = connection.ready.result(timeout=0)
            except Exception:  # noqa: BLE001 - recorded in _start_all
                continue
            if len(tools) > LIMITS.tools_per_server:
                self._too_many[name] = len(tools)
            found += [McpSkill(self, self.servers[name], tool)
                      for tool in tools[:LIMITS.tools_per_server]]
        return found

    def notes(self) -> list[str]:
        """System-prompt lines about servers that are down, so the model can tell the user."""
        return [f"The external tool server '{name}' is unavailable ({reason}); its tools cannot "
                f"be used right now." for name, (reason, _) in sorted(self._failed.items())] + [
            f"The external tool server '{name}' offers {count} tools; Hearth gives you its "
            f"first {LIMITS.tools_per_server} (its tools_per_server limit): if the user needs "
            "another, tell them to split the server's tools." for name, count
            in sorted(self._too_many.items())]

    def status(self) -> dict[str, str]:
        """name -> "running", "starting", "not started" or why it failed (for settings)."""
        out = {}
        for name in self.servers:
            connection = self._connections.get(name)
            if name in self._failed:
                out[name] = self._failed[name][0]
            elif connection is None or not connection.alive:
                out[name] = "not started"
            else:
                out[name] = "running" if connection.ready.done() else "starting"
        return out

    def call(self, server: str, tool: str, arguments: dict[str, Any]) -> CallToolResult:
        connection = self._connection(server)
        # A server a cancelled turn left starting has only the rest of its start time.
        left = connection.started_at + self.start_timeout - time.monotonic()
        self._wait_ready(server, connection, max(0.0, left))
        return connection.call(tool, arguments)

    def close(self) -> None:
        """Stop every server started, and wait until each process is gone, then the loop."""
        with self._lock:
            connections, self._started = self._started, []
            self._connections.clear()
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        # Before they stop: a server that exits when its stdin closes leaves its children
        # running in its process group, which the SDK then never ends.
        groups = server_groups({c.config.command[0] for c in connections if c.config.command})
        for connection in connections:
            connection.stop()
        if loop is not None and thread is not None:
            deadline = time.monotonic() + SHUTDOWN_S
            for connection in connections:
                connection.ended.wait(max(0.0, deadline - time.monotonic()))
            loop.call_soon_threadsafe(loop.stop)
            thread.join(5)
            if not thread.is_alive():
                loop.close()
        end_groups(groups)

    # -- internals ------------------------------------------------------------------------
    def _start_all(self, should_stop: Callable[[], bool]) -> dict[str, Connection]:
        """Start what is not running. A first start is waited for (up to start_timeout after
        it began, or until should_stop); a retry of a server that failed before runs in the
        background, so a broken server never holds up a turn more than once."""
        now = time.monotonic()
        wanted = [name for name in self.servers
                  if name not in self._failed or now - self._failed[name][1] > RETRY_AFTER_S]
        started = {name: self._connection(name) for name in wanted}
        first = [c for name, c in started.items() if name not in self._failed]
        self._wait_started(first, should_stop)  # they start in parallel; wait for all at once
        for name, connection in started.items():
            if connection.ready.done() or connection.overdue(self.start_timeout):
                self._wait_ready(name, connection, 0.0, raise_error=False)
            # else: cancelled, or a retry still starting: its tools come on a later turn
        return started

    def _wait_started(self, connections: list[Connection], should_stop: Callable[[], bool]
                      ) -> None:
        """Until each is ready or failed, its start time is up, or should_stop says so.

        Polled in short slices because a cancel flag cannot be waited on together with the
        futures; a wait that ends early (all ready) returns at once, so a slice costs nothing."""
        pending = {connection.ready for connection in connections}
        deadline = max((c.started_at for c in connections), default=0.0) + self.start_timeout
        while pending and not should_stop():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            _, pending = concurrent.futures.wait(pending, timeout=min(left, CANCEL_POLL_S))

    def _wait_ready(self, name: str, connection: Connection, timeout: float,
                    raise_error: bool = True) -> None:
        try:
            connection.ready.result(timeout=timeout)
            self._failed.pop(name, None)
            return
        except concurrent.futures.TimeoutError:
            connection.stop()
            reason = f"it did not start within {self.start_timeout:.0f} s"
        except McpUnavailable as exc:
            reason = str(exc)
        tail = connection.stderr_tail()
        if tail:
            reason += f"; it said: {tail}"
        self._failed[name] = (reason, time.monotonic())
        with self._lock:
            if self._connections.get(name) is connection:
                del self._connections[name]
        if raise_error:
            raise McpUnavailable(f"The tool server '{name}' is unavailable: {reason}")

    def _connection(self, name: str) -> Connection:
        with self._lock:
            connection = self._connections.get(name)
            if connection is not None and connection.alive:
                return connection
            if name not in self.servers:
                raise McpUnavailable(f"There is no tool server named '{name}' in settings.")
            connection = Connection(self.servers[name], self._ensure_loop(), self.call_timeout)
            self._connections[name] = connection
            self._started = [c for c in self._started if not c.ended.is_set()] + [connection]
            return connection

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="hearth-mcp", daemon=True)
            thread.start()
            self._loop, self._thread = loop, thread
        return self._loop
