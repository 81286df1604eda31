"""The one HTTP(S) client every request Hearth makes goes through, verified by the OS trust store.

Why not urllib's default context: in a frozen bundle it trusts only the CA folder compiled into
the bundled OpenSSL, which on macOS, Windows, Fedora, Arch and openSUSE does not exist, so it
holds 0 certificates and every HTTPS request fails. httpx2's default context asks the system
instead: SSL_CERT_FILE / SSL_CERT_DIR when set, the OS verifier on macOS and Windows
(truststore), and on Linux OpenSSL's own paths or else the distribution's bundle wherever it
lives. huggingface_hub already talks to the Hub through httpx2, so this is the same path."""

from __future__ import annotations

import os
import re
import ssl
from dataclasses import dataclass

import httpx2

_HASHED = re.compile(r"[0-9a-fA-F]{8}\.\d+")  # c_rehash's names for the CAs in a folder


class TrustStoreUnreadable(OSError):
    """The system's trusted certificates exist but cannot be read (an empty or damaged file)."""


def tls_context() -> ssl.SSLContext:
    """A verifying context over the operating system's trusted certificates."""
    try:
        return httpx2.create_ssl_context()
    except ssl.SSLError as exc:
        raise TrustStoreUnreadable(
            "the system's trusted certificates could not be read, so no secure connection can "
            f"be checked ({exc.reason or exc}); reinstall the ca-certificates package") from exc


def client(timeout: float, headers: dict[str, str] | None = None, *, secure: bool = True,
           env_proxies: bool = False, keepalive: bool = True) -> httpx2.Client:
    """A client with verified TLS and `timeout` for every connect, read and write.

    secure: False for a client that only ever speaks plain http (a loopback engine): it skips
    loading the store (a tenth of a second or more), and would verify any https URL against
    nothing, so it can never be fooled into trusting one. env_proxies: honour HTTPS_PROXY and
    friends (downloads from the Hub, as huggingface_hub does); a server the user named (a LAN
    or loopback engine) is reached directly. keepalive: False opens a connection per request."""
    verify = tls_context() if secure else ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    limits = httpx2.Limits(max_connections=100, max_keepalive_connections=20 if keepalive else 0)
    return httpx2.Client(verify=verify, timeout=httpx2.Timeout(timeout), headers=headers or {},
                         trust_env=env_proxies, limits=limits)


def root_cause(exc: BaseException) -> BaseException:
    """The error under httpx2's and httpcore2's wrappers (ConnectionRefusedError, SSLError)."""
    seen = {id(exc)}
    while (under := exc.__cause__ or exc.__context__) is not None and id(under) not in seen:
        seen.add(id(under))
        exc = under
    return exc


@dataclass(frozen=True)
class TrustReport:
    """What `hearth selftest` says about TLS: can this process verify a server at all?"""

    source: str  # "os verifier", "SSL_CERT_FILE", "certificate file", "certificate folder"
    certificates: int  # CA certificates loaded (-1: the OS or OpenSSL reads them per handshake)

    @property
    def ok(self) -> bool:
        return self.certificates != 0


def trust_report() -> TrustReport:
    """Where verification gets its certificates, and whether there are any."""
    try:
        context = tls_context()
    except TrustStoreUnreadable as exc:
        return TrustReport(f"unreadable: {exc}", 0)
    if type(context).__module__.startswith("truststore"):
        return TrustReport("os verifier", -1)  # macOS / Windows: the OS checks each chain
    count = context.cert_store_stats().get("x509_ca", 0)
    given = os.environ.get("SSL_CERT_FILE") or os.environ.get("SSL_CERT_DIR")
    folder = os.environ.get("SSL_CERT_DIR") or ssl.get_default_verify_paths().openssl_capath
    if not count and os.path.isdir(folder) and any(
            _HASHED.fullmatch(name) for name in os.listdir(folder)):
        return TrustReport("certificate folder", -1)  # OpenSSL opens these when it needs one
    return TrustReport("SSL_CERT_FILE" if given else "certificate file", count)
