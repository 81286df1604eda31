"""A loopback port for a test server to listen on."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port on 127.0.0.1 that was free a moment ago (nothing listens on it now)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
