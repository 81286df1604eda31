"""A tiny stand-in for the Hugging Face Hub on 127.0.0.1: HEAD metadata and ranged GETs."""

from __future__ import annotations

import hashlib
import http.server
import os
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pytest


class FakeHub:
    """Serves one payload for any `/{repo}/resolve/main/{file}`; records Range headers."""

    def __init__(self, size: int = 4 << 20, delay: float = 0.01, chunk: int = 64 << 10,
                 tls: ssl.SSLContext | None = None) -> None:
        """tls: serve HTTPS with this context (tests/support/tls.py makes one)."""
        self.payload = os.urandom(size)
        self.sha256 = hashlib.sha256(self.payload).hexdigest()
        self.advertised_sha = self.sha256  # set to something else to simulate corruption
        self.delay, self.chunk = delay, chunk
        self.ignore_range = False
        self.ranges: list[str | None] = []
        hub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def do_HEAD(self) -> None:
                self.send_response(200)
                self._meta()
                self.send_header("Content-Length", str(len(hub.payload)))
                self.end_headers()

            def _meta(self) -> None:
                self.send_header("X-Repo-Commit", "0" * 40)
                self.send_header("X-Linked-Etag", f'"{hub.advertised_sha}"')
                self.send_header("X-Linked-Size", str(len(hub.payload)))
                self.send_header("ETag", f'"{hub.advertised_sha}"')

            def do_GET(self) -> None:
                wanted = self.headers.get("Range")
                hub.ranges.append(wanted)
                start = 0
                if wanted and not hub.ignore_range:
                    start = int(wanted.split("=")[1].split("-")[0])
                    self.send_response(206)
                    self.send_header("Content-Range",
                                     f"bytes {start}-{len(hub.payload) - 1}/{len(hub.payload)}")
                else:
                    self.send_response(200)
                self.send_header("Content-Length", str(len(hub.payload) - start))
                self.end_headers()
                try:
                    for at in range(start, len(hub.payload), hub.chunk):
                        self.wfile.write(hub.payload[at:at + hub.chunk])
                        time.sleep(hub.delay)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client paused: that is the point

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        scheme = "https" if tls is not None else "http"
        self.url = f"{scheme}://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, name="fake-hub")

    def start(self) -> FakeHub:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(5)


@contextmanager
def hub_in_use(monkeypatch: pytest.MonkeyPatch, **options: Any) -> Iterator[FakeHub]:
    """A started FakeHub (`options` as FakeHub takes them) that huggingface_hub downloads from."""
    import huggingface_hub.constants

    # Tests run with HF_HUB_OFFLINE=1 (nothing may be downloaded); this server is local.
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    server = FakeHub(**options).start()
    monkeypatch.setenv("HF_ENDPOINT", server.url)
    try:
        yield server
    finally:
        server.stop()
