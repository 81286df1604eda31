"""One MCP server connection, driven by a task on the manager's asyncio loop thread.

The SDK's transports use anyio task groups that must be entered and left by the same task, so
each server gets one long-lived task that owns its Client and serves calls from a queue."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import tempfile
import threading
import time
from typing import Any, TextIO, cast

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types import REQUEST_TIMEOUT, CallToolResult, Tool

from app.core.mcp.base import McpUnavailable
from app.core.mcp.login_path import login_shell_path, server_env
from app.core.settings import McpServer

MAX_PAGES = 20  # a server that paginates forever still gives us its first tools
_Call = tuple[str, dict[str, Any], "concurrent.futures.Future[CallToolResult]"]


class Connection:
    """A started (or starting) server. `ready` resolves to its tools or to McpUnavailable."""

    def __init__(self, config: McpServer, loop: asyncio.AbstractEventLoop,
                 call_timeout: float) -> None:
        self.config = config
        self.loop = loop
        self.call_timeout = call_timeout
        self.ready: concurrent.futures.Future[list[Tool]] = concurrent.futures.Future()
        self._queue: asyncio.Queue[_Call | None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._scope: anyio.CancelScope | None = None  # what stop() cancels, once serving
        self._closing = False
        self.ended = threading.Event()  # set once its task has left the transport
        self.started_at = time.monotonic()
        # The server's stderr goes here, not onto the user's terminal; its tail explains a
        # failed start. Closed with this object (the file has no name to leak).
        self._errlog = cast(TextIO, tempfile.TemporaryFile(  # noqa: SIM115
            "w+", encoding="utf-8", errors="replace"))
        loop.call_soon_threadsafe(self._start)

    @property
    def alive(self) -> bool:
        """False once it failed, stopped or decided to leave (a new call then restarts it)."""
        if self._closing or (self._task is not None and self._task.done()):
            return False
        return not (self.ready.done() and self.ready.exception() is not None)

    def overdue(self, start_timeout: float) -> bool:
        """Still not ready this long after it was started."""
        return not self.ready.done() and time.monotonic() - self.started_at >= start_timeout

    def call(self, tool: str, arguments: dict[str, Any]) -> CallToolResult:
        """Call a tool from any thread; raises McpUnavailable on timeout or a dead server."""
        future: concurrent.futures.Future[CallToolResult] = concurrent.futures.Future()
        self.loop.call_soon_threadsafe(self._put, (tool, arguments, future))
        try:
            return future.result(timeout=self.call_timeout + 5)
        except concurrent.futures.TimeoutError:
            self.stop()  # it may be stuck for good: the next call starts it afresh
            raise self._timed_out() from None

    def stop(self) -> None:
        self._closing = True
        self.loop.call_soon_threadsafe(self._stop)

    def stderr_tail(self, limit: int = 300) -> str:
        """The last words the server wrote on stderr (why it failed to start, usually)."""
        try:
            self._errlog.flush()
            self._errlog.seek(0)
            text = " ".join(self._errlog.read().split())
        except (OSError, ValueError):
            return ""
        return text[-limit:]

    # -- on the loop thread ---------------------------------------------------------------
    def _start(self) -> None:
        self._queue = asyncio.Queue()
        self._task = self.loop.create_task(self._serve())
        # A callback, not a finally: a task cancelled before its first step never runs one.
        self._task.add_done_callback(self._ended)

    def _put(self, item: _Call) -> None:
        if self._queue is None or self._task is None or self._task.done():
            item[2].set_exception(McpUnavailable(f"The tool server '{self.config.name}' "
                                                 f"is not running."))
        else:
            self._queue.put_nowait(item)

    def _stop(self) -> None:
        # Through an anyio scope, never task.cancel(): the SDK ends the server process inside
        # a cancel shield, which a native cancel breaks through, leaving the process running
        # with nobody to end it. A task not started yet has no scope and nothing to end.
        if self._scope is not None:
            self._scope.cancel()
        elif self._task is not None:
            self._task.cancel()

    def _target(self) -> Any:
        if self.config.url:
            return self.config.url
        if not self.config.command:
            raise McpUnavailable("it has neither a command nor a URL in settings")
        command = self.config.command[0]
        env = server_env(command, os.environ.get("PATH", ""), login_shell_path)
        params = StdioServerParameters(command=command, args=list(self.config.command[1:]),
                                       env=env)
        return stdio_client(params, errlog=self._errlog)

    async def _serve(self) -> None:
        with anyio.CancelScope() as self._scope:
            try:
                async with Client(self._target(),
                                  read_timeout_seconds=self.call_timeout) as client:
                    self.ready.set_result(await _list_tools(client))
                    await self._answer(client)
            except BaseException as exc:
                self._fail(exc)
                if isinstance(exc, asyncio.CancelledError):
                    raise  # the scope takes its own cancellation back

    def _ended(self, _task: asyncio.Task[None]) -> None:
        self._fail(McpUnavailable(f"The tool server '{self.config.name}' has stopped."))
        self.ended.set()

    async def _answer(self, client: Client) -> None:
        assert self._queue is not None
        while True:
            item = await self._queue.get()
            if item is None:
                return
            tool, arguments, future = item
            try:
                future.set_result(await client.call_tool(tool, arguments))
            except MCPError as exc:
                if exc.code != REQUEST_TIMEOUT:
                    future.set_exception(exc)
                    continue
                future.set_exception(self._timed_out())
                self._closing = True
                return  # it may be stuck for good: leaving restarts it on the next call
            except Exception as exc:  # noqa: BLE001 - handed to the caller
                future.set_exception(exc)

    def _timed_out(self) -> McpUnavailable:
        return McpUnavailable(f"The tool server '{self.config.name}' did not answer within "
                              f"{self.call_timeout:.0f} s.")

    def _fail(self, exc: BaseException) -> None:
        if not self.ready.done():
            self.ready.set_exception(McpUnavailable(describe_failure(exc)))
        while self._queue is not None and not self._queue.empty():
            item = self._queue.get_nowait()
            if item is not None and not item[2].done():
                item[2].set_exception(McpUnavailable(
                    f"The tool server '{self.config.name}' stopped: {describe_failure(exc)}"))


async def _list_tools(client: Client) -> list[Tool]:
    tools: list[Tool] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools += page.tools
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


def describe_failure(exc: BaseException) -> str:
    """A readable reason from whatever the SDK raised (often an ExceptionGroup)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, asyncio.CancelledError):
        return "it was stopped"
    if isinstance(exc, FileNotFoundError):
        return f"its command was not found ({exc.filename or exc})"
    text = str(exc).strip() or type(exc).__name__
    return text if isinstance(exc, McpUnavailable) else f"{type(exc).__name__}: {text}"
