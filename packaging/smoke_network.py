"""The smoke test's network checks: an HTTPS download trusted through the OS store, the frozen
`hearth serve` answering a chat request on loopback, `hearth mcp serve` listing its tools to an
MCP client. smoke_test.py runs them on the bundle; tests/packaging/test_smoke_network.py runs
them on a source checkout, so they are known to work before a bundle is built.

HEARTH_SMOKE_TRUST_OS=1 (the release workflow sets it; it needs sudo or an admin) adds the
test's CA to the operating system's store for the download and removes it afterwards: the
bundle then trusts it only the way it trusts a real server. Without it, as root on Linux, the
download runs in a private mount namespace laid out like Arch or Fedora (see _trusted); else the
CA is handed over as SSL_CERT_FILE (the output says which)."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
Env = Callable[..., dict[str, str]]  # smoke_test.bundle_env(home, **extra)
WAIT_S = 300


def check_https_download(exe: Path, home: Path, env: Env) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from tests.support.fake_hub import FakeHub
    from tests.support.tls import make_ca

    ca = make_ca(home / "ca")
    hub = FakeHub(size=256 << 10, delay=0, tls=ca.server_context()).start()
    url = f"{hub.url}/smoke/resolve/main/file.bin"
    args = [str(exe), "selftest", "--json", "--no-window", "--fetch", url, "--fetch-sha256",
            hub.sha256]
    try:
        with _trusted(ca.ca_pem) as (prefix, extra):
            run_env = {k: v for k, v in env(home, **extra).items()
                       if not (prefix and k in ("SSL_CERT_FILE", "SSL_CERT_DIR"))}
            proc = subprocess.run([*prefix, *args], capture_output=True, text=True, env=run_env,
                                  timeout=WAIT_S)
    finally:
        hub.stop()
    lines = proc.stdout.strip().splitlines()
    if not lines:
        return [f"https download: selftest printed nothing: {proc.stderr[-600:]}"]
    checks = json.loads(lines[-1])["checks"]
    print(f"note tls certificates: {checks.get('tls certificates')}")
    if checks.get("https download") != "ok":
        return [f"https download: {checks.get('https download')}"]
    return []


@contextlib.contextmanager
def _trusted(ca_pem: Path) -> Iterator[tuple[list[str], dict[str, str]]]:
    """How the bundle gets to trust the CA: (a command prefix, extra environment).

    HEARTH_SMOKE_TRUST_OS=1: the OS store itself, for the check's duration. Else, on Linux as
    root with mount namespaces, a private view shaped like Arch or Fedora: the folder OpenSSL was
    compiled to read (the build machine's, which the bundle carries) empty, and the CA as the
    distribution's bundle /etc/ssl/cert.pem; nothing outside the check sees it. Else
    SSL_CERT_FILE, which proves the download path but not the store lookup."""
    if os.environ.get("HEARTH_SMOKE_TRUST_OS") == "1":
        add, remove = _store_commands(ca_pem)
        subprocess.run(add, check=True, capture_output=True)
        try:
            yield [], {}
        finally:
            for command in remove:
                subprocess.run(command, check=False, capture_output=True)
        return
    namespace = _distribution_view(ca_pem)
    if namespace:
        print("note https download: CA only in a private /etc/ssl/cert.pem, the bundled "
              "OpenSSL's own folder hidden (a mount namespace)")
        yield namespace, {}
        return
    print("note https download: CA given as SSL_CERT_FILE (HEARTH_SMOKE_TRUST_OS=1 puts it in "
          "the OS store instead)")
    yield [], {"SSL_CERT_FILE": str(ca_pem)}


def _distribution_view(ca_pem: Path) -> list[str]:
    """`unshare -m sh -c SCRIPT sh` running the rest in that view, or [] where it cannot."""
    import ssl

    if sys.platform != "linux" or os.geteuid() != 0:
        return []
    try:
        if subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode:
            return []
    except OSError:
        return []
    compiled = Path(ssl.get_default_verify_paths().openssl_cafile).parent  # e.g. /usr/lib/ssl
    empty = ca_pem.parent / "empty"
    empty.mkdir(exist_ok=True)
    hide = f'mount --bind "{empty}" "{compiled}" && ' if compiled.is_dir() else ""
    script = (f'{hide}mount -t tmpfs none /etc/ssl && cp "{ca_pem}" /etc/ssl/cert.pem && '
              'exec "$@"')
    return ["unshare", "-m", "sh", "-c", script, "sh"]


def _store_commands(ca_pem: Path) -> tuple[list[str], list[list[str]]]:
    sudo = [] if sys.platform == "win32" or os.geteuid() == 0 else ["sudo"]
    if sys.platform == "darwin":
        keychain = "/Library/Keychains/System.keychain"
        return ([*sudo, "security", "add-trusted-cert", "-d", "-r", "trustRoot", "-k", keychain,
                 str(ca_pem)],
                [[*sudo, "security", "remove-trusted-cert", "-d", str(ca_pem)],
                 [*sudo, "security", "delete-certificate", "-c", "Hearth test CA", keychain]])
    if sys.platform == "win32":
        return (["certutil", "-addstore", "-f", "Root", str(ca_pem)],
                [["certutil", "-delstore", "Root", "Hearth test CA"]])
    target = "/usr/local/share/ca-certificates/hearth-smoke-test.crt"
    return ([*sudo, "sh", "-c", f'cp "{ca_pem}" {target} && update-ca-certificates'],
            [[*sudo, "sh", "-c", f"rm -f {target} && update-ca-certificates --fresh"]])


def check_serve(exe: Path, home: Path, model: Path, env: Env) -> list[str]:
    """`hearth serve` on loopback: it says where it listens and with which key, loads the
    model, and answers one chat request."""
    server = subprocess.Popen([str(exe), "serve", "--json", "--port", "0", "--model", str(model)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env(home))
    try:
        events = _until_ready(server)
        listening = next((e for e in events if e.get("type") == "listening"), None)
        if listening is None or not any(e.get("type") == "ready" for e in events):
            return [f"serve never got ready: {events[-3:]}"]
        reply = _chat(listening["url"], listening["api_key"])
    finally:
        server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
    usage = reply.get("usage") or {}
    if reply.get("status") != 200 or usage.get("completion_tokens", 0) < 1:
        return [f"serve answered no chat completion: {json.dumps(reply)[:400]}"]
    return []


def _until_ready(server: subprocess.Popen[str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    assert server.stdout is not None
    for line in server.stdout:  # ends if the server exits; the caller's timeout is the guard
        if line.strip().startswith("{"):
            events.append(json.loads(line))
            if events[-1].get("type") == "ready":
                break
    return events


def _chat(url: str, key: str) -> dict[str, Any]:
    host_port = url.split("://", 1)[1].split("/", 1)[0]
    host, port = host_port.rsplit(":", 1)
    conn = http.client.HTTPConnection(host.strip("[]"), int(port), timeout=WAIT_S)
    body = json.dumps({"messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 8,
                       "chat_template_kwargs": {"enable_thinking": False}})
    conn.request("POST", "/v1/chat/completions", body=body,
                 headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    try:
        parsed = json.loads(data)
    except ValueError:
        parsed = {"body": data.decode(errors="replace")[:300]}
    return {"status": response.status, **(parsed if isinstance(parsed, dict) else {})}


def check_mcp_serve(exe: Path, home: Path, env: Env) -> list[str]:
    """`hearth mcp serve` as other apps start it: an MCP client over stdio lists its tools."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=str(exe), args=["mcp", "serve"], env=env(home))

    async def tools() -> list[str]:
        async with Client(stdio_client(params), read_timeout_seconds=WAIT_S) as client:
            return [tool.name for tool in (await client.list_tools()).tools]

    try:
        names = asyncio.run(tools())
    except Exception as exc:  # noqa: BLE001 - a smoke test reports every failure
        return [f"mcp serve: {type(exc).__name__}: {exc}"]
    if "search_documents" not in names:
        return [f"mcp serve listed no document tools: {names}"]
    return []
