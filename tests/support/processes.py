"""Starting a command as a person's terminal would: with Ctrl+C (SIGINT) at its default.

A shell that starts the tests in the background (`cmd &`, nohup, some CI runners) leaves SIGINT
ignored, children inherit that, and a test of what Ctrl+C does would then hang or lie."""

from __future__ import annotations

import signal
import subprocess
from typing import Any


def popen_with_ctrl_c(argv: list[str], **kwargs: Any) -> subprocess.Popen[Any]:
    """subprocess.Popen(argv, **kwargs), the child starting with SIGINT's default action."""
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        return subprocess.Popen(argv, **kwargs)
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def end_line_server(server: subprocess.Popen[str]) -> None:
    """Stop a helper process that serves one request per line on its stdin: closing stdin
    ends its loop; then wait for it and close its stdout."""
    assert server.stdin is not None and server.stdout is not None
    server.stdin.close()
    server.wait(timeout=60)
    server.stdout.close()
