"""The checks every request passes before a route sees it: loopback Host (DNS rebinding), CORS
(the preflight answered before auth), and the bearer key."""

from __future__ import annotations

import ipaddress
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.core.server.keys import key_matches

if TYPE_CHECKING:  # the settings page reads this module before any server exists
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
OPEN_PATHS = frozenset({"/health"})  # tells nothing but "ready" or "loading"
ALLOWED_HEADERS = "Authorization, Content-Type, OpenAI-Organization, OpenAI-Project, " \
                  "X-Stainless-Lang, X-Stainless-Package-Version, X-Stainless-OS, " \
                  "X-Stainless-Arch, X-Stainless-Runtime, X-Stainless-Runtime-Version, " \
                  "X-Stainless-Retry-Count, X-Stainless-Timeout"


def is_loopback_host(host: str) -> bool:
    """Whether a bind address is loopback-only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


ANY_ADDRESS = "0.0.0.0"
_WILDCARD_LOCAL = {"": "127.0.0.1", ANY_ADDRESS: "127.0.0.1", "::": "::1"}


def local_address(bind_host: str) -> str:
    """The address a program on this computer uses for a server bound to `bind_host`."""
    return _WILDCARD_LOCAL.get(bind_host, bind_host)


def base_url(host: str, port: int) -> str:
    """The base URL clients use (…/v1) for a server at host:port (IPv6 in brackets)."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/v1"


def host_name(header: str) -> str:
    """The name in a Host header, without port or IPv6 brackets, lower case."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """Pure ASGI middleware in front of the routes."""

    def __init__(self, app: ASGIApp, api_key: Callable[[], str], bind_host: str,
                 cors_origins: Callable[[], list[str]]) -> None:
        self.app = app
        self.api_key = api_key  # callables: a regenerated key or new origins apply at once
        self.bind_host = bind_host
        self.cors_origins = cors_origins

    def host_allowed(self, name: str) -> bool:
        if name in LOOPBACK_NAMES or name.endswith(".localhost") or (
                _is_ip(name) and ipaddress.ip_address(name).is_loopback):
            return True
        if is_loopback_host(self.bind_host):
            return False
        # Bound to another address by the user's choice: that address, and IP literals (a
        # rebinding attack needs a DNS name), are accepted.
        return name == self.bind_host.lower() or _is_ip(name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        name = host_name(headers.get("host", ""))
        if not self.host_allowed(name):
            await _error(send, 403, f"The Host header {name!r} is not a loopback name; Hearth's "
                         "server answers local programs only.", "host_not_allowed")
            return
        origin = headers.get("origin")
        allowed = origin is not None and origin in self.cors_origins()
        if scope["method"] == "OPTIONS" and "access-control-request-method" in headers:
            await self._preflight(send, origin, allowed)
            return
        if origin is not None and not allowed:
            await _error(send, 403, f"Requests from the web page {origin} are not allowed; add "
                         "it to the allowed origins in Hearth's settings.", "origin_not_allowed")
            return
        cors = _cors_headers(origin) if allowed and origin else []
        if scope["path"] not in OPEN_PATHS and not key_matches(self.api_key(),
                                                               headers.get("authorization")):
            await _error(send, 401, "Missing or wrong API key: send 'Authorization: Bearer KEY' "
                         "with the key shown in Hearth's settings.", "invalid_api_key",
                         extra=[*cors, (b"www-authenticate", b"Bearer")])
            return
        await _one_line_failures(self.app, scope, receive, _with_headers(send, cors))

    async def _preflight(self, send: Send, origin: str | None, allowed: bool) -> None:
        if not allowed or origin is None:
            await _error(send, 403, f"The origin {origin} is not allowed to call Hearth's "
                         "server.", "origin_not_allowed")
            return
        headers = [*_cors_headers(origin),
                   (b"access-control-allow-methods", b"GET, POST, OPTIONS"),
                   (b"access-control-allow-headers", ALLOWED_HEADERS.encode()),
                   (b"access-control-max-age", b"600"), (b"content-length", b"0")]
        await send({"type": "http.response.start", "status": 204, "headers": headers})
        await send({"type": "http.response.body", "body": b""})


async def _one_line_failures(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
    """Run the routes; a failure nobody foresaw is a JSON 500 for the client and one line on
    stderr, never a traceback (and never the request's text)."""
    started = False

    async def watched(message: Message) -> None:
        nonlocal started
        started = started or message["type"] == "http.response.start"
        await send(message)

    try:
        await app(scope, receive, watched)
    except Exception as exc:  # noqa: BLE001 - the edge: translated to one line here
        print(f"hearth serve: {scope['method']} {scope['path']} failed: "
              f"{type(exc).__name__}", file=sys.stderr, flush=True)
        if not started:
            await _error(send, 500, "Hearth's server failed on this request; the failure "
                         "is noted on its error output.", "internal_error")


def _cors_headers(origin: str) -> list[tuple[bytes, bytes]]:
    return [(b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"Origin"),
            (b"access-control-expose-headers", b"X-Hearth-Queue-Position, X-Request-Id")]


def _with_headers(send: Send, extra: list[tuple[bytes, bytes]]) -> Send:
    if not extra:
        return send

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return wrapped


async def _error(send: Send, status: int, message: str, code: str,
                 extra: list[tuple[bytes, bytes]] | None = None) -> None:
    kind = {401: "authentication_error", 403: "permission_error"}.get(status, "server_error")
    body = json.dumps({"error": {"message": message, "type": kind, "param": None,
                                 "code": code}}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()), *(extra or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
