"""A small MCP server for the tests.

`python mcp_server_fixture.py [normal|many|hang|crash|garbage|http PORT|gated PORT] [--pidfile PATH]`.

--pidfile PATH: add this process's id to that file first thing (a test checks it is gone later).

gated PORT: a server slow to start, on the test's command. It connects to the test's socket on
PORT, says "starting", and speaks MCP only once the test sends a line (or closes the socket)."""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path
from typing import Any


def build(mode: str) -> Any:
    # Imported here: the failure modes below must fail at once, not after the SDK's import.
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer("fixture")

    @server.tool()
    def add(a: int, b: int) -> str:
        """Add two whole numbers."""
        return str(a + b)

    @server.tool()
    def shout(text: str) -> str:
        """Repeat the text in capitals."""
        return text.upper()

    @server.tool()
    def fail(reason: str) -> str:
        """Always fails with the given reason."""
        raise ToolError(reason)

    @server.tool()
    def sleep(seconds: float) -> str:
        """Wait a while before answering (to test timeouts)."""
        time.sleep(seconds)
        return "awake"

    @server.tool()
    def blob(size: int) -> str:
        """A result of `size` characters (to test the history's limit)."""
        return "x" * size

    @server.tool()
    def spawn(pidfile: str) -> str:
        """Start a child process that outlives the call (its id goes to pidfile)."""
        import subprocess

        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        with Path(pidfile).open("a", encoding="ascii") as handle:
            handle.write(f"{child.pid}\n")
        return "spawned"

    if mode == "many":  # far more tools than anyone should offer in one request
        for i in range(3000):
            server.add_tool(lambda: "ok", name=f"t{i}", description=f"Tool {i}.")
    return server


def main() -> None:
    args = sys.argv[1:]
    if "--pidfile" in args:
        at = args.index("--pidfile")
        with Path(args[at + 1]).open("a", encoding="ascii") as pidfile:
            pidfile.write(f"{os.getpid()}\n")
        del args[at:at + 2]
    mode = args[0] if args else "normal"
    if mode == "crash":
        sys.stderr.write("fixture: cannot start, the configuration is missing\n")
        sys.exit(3)
    if mode == "hang":
        time.sleep(3600)  # never speaks the protocol
    if mode == "garbage":
        sys.stdout.write("this is not json-rpc\n{broken\n")
        sys.stdout.flush()
        time.sleep(3600)
    if mode == "gated":
        with socket.create_connection(("127.0.0.1", int(args[1])), timeout=120) as gate:
            gate.sendall(b"starting\n")
            gate.recv(16)  # blocks until the test lets it go on (or goes away)
    if mode == "http":  # python mcp_server_fixture.py http PORT
        build(mode).run("streamable-http", host="127.0.0.1", port=int(args[1]))
        return
    build(mode).run()


if __name__ == "__main__":
    main()
