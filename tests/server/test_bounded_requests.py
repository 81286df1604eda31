"""Hostile requests against a real `hearth serve`: every limit meets the input before memory
does, and each answer is one JSON line with the right status, never a traceback."""

from __future__ import annotations

import http.client
import json
import signal
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skills.common.limits import LIMITS
from tests.server.served import Served
from tests.support.scripted_cli import script_file


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path / "home", "--engine", "scripted", "--script",
                    script_file(tmp_path, *["Fine.\n</think>\n\nok"] * 8))
    server.wait_for("ready")
    yield server
    server.stop()


def post(served: Served, body: bytes) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection(served.host, served.port, timeout=120)
    try:
        conn.request("POST", "/v1/chat/completions", body=body, headers={
            "Authorization": f"Bearer {served.key}", "Content-Type": "application/json"})
        response = conn.getresponse()
        data = response.read()
        assert response.getheader("content-type") == "application/json", data[:200]
        return response.status, json.loads(data)
    finally:
        conn.close()


def stderr_after_stop(served: Served) -> str:
    served.process.send_signal(signal.SIGTERM)
    served.process.wait(120)
    return served.stderr()


def peak_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines()
                    if line.startswith("VmHWM")).split()[1])


def chunked(served: Served, total: int) -> bytes:
    """Send `total` bytes of one JSON string as a chunked body; the answer as it came."""
    sock = socket.create_connection((served.host, served.port), timeout=120)
    head = (f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            f"{served.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
            "Connection: close"
            "\r\n\r\n").encode()
    block = b"a" * (1 << 20)
    try:
        sock.sendall(head + b'6\r\n{"x":"\r\n')
        for _ in range(total // len(block)):
            sock.sendall(b"%x\r\n%s\r\n" % (len(block), block))
        sock.sendall(b'2\r\n"}\r\n0\r\n\r\n')
    except OSError:  # the server answered and closed before the rest: what it should do
        pass
    answer = b""
    while chunk := sock.recv(65536):
        answer += chunk
    sock.close()
    return answer


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_chunked_body_over_the_limit_is_413_before_it_is_held(served: Served) -> None:
    before = peak_kb(served.process.pid)
    answer = chunked(served, 4 * LIMITS.body_bytes)
    status_line, _, rest = answer.partition(b"\r\n")
    assert b" 413 " in status_line, answer[:300]
    assert b"body_bytes" in rest
    # Held whole, 64 MiB would have passed through the process (twice, joined and decoded).
    assert peak_kb(served.process.pid) - before < LIMITS.body_bytes * 2 // 1024
    status, _ = post(served, json.dumps({"messages": [{"role": "user", "content": "hi"}]}).encode())
    assert status == 200  # the server goes on serving


@pytest.mark.parametrize("body, code, status", [
    (b'{"messages":' + b"[" * 5000 + b"]" * 5000 + b"}", "json_too_deep", 400),
    (b'{"messages":[{"role":"user","content":"hi","x":' + b"[" * 200 + b"]" * 200 + b"}]}",
     "json_too_deep", 400),
    (b'{"messages":[{"role":"user","content":"a\\ud800b"}]}', None, 400),
    (json.dumps({"messages": [{"role": "user", "content": "hi"},
                              {"role": "system", "content": "be brief"}]}).encode(), None, 400),
])
def test_hostile_json_is_a_one_line_400(served: Served, body: bytes, code: str | None,
                                        status: int) -> None:
    got, error = post(served, body)
    assert got == status, error
    message = error["error"]["message"]
    assert "\n" not in message and len(message) < 300
    if code:
        assert error["error"]["code"] == code
    assert "Traceback" not in stderr_after_stop(served)


def test_a_dropped_slow_body_leaves_no_traceback(served: Served) -> None:
    for _ in range(3):
        sock = socket.create_connection((served.host, served.port), timeout=30)
        sock.sendall((f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      f"Authorization: Bearer {served.key}\r\nContent-Length: 5000\r\n\r\n"
                      '{"messages": [').encode())
        sock.close()
    status, _ = post(served, json.dumps({"messages": [{"role": "user", "content": "hi"}]}).encode())
    assert status == 200
    assert "Traceback" not in stderr_after_stop(served)


def test_the_request_log_keeps_no_request_values_and_bounded_fields(served: Served) -> None:
    role = "ROLE-" + "x" * 5000
    field = "f" * 2_000_000
    for body in ({"messages": [{"role": role, "content": "hi"}]},
                 {"messages": [{"role": "user", "content": "hi"}], field: 1}):
        status, _ = post(served, json.dumps(body).encode())
        assert status == 400
    logged = [served.wait_for("request") for _ in range(2)]
    for line in logged:
        assert "ROLE-" not in json.dumps(line)
        assert all(len(str(v).encode()) <= LIMITS.log_field_bytes for v in line.values())
        assert line["status"] == 400 and line["error"]


def test_an_error_never_echoes_a_huge_request_value(served: Served) -> None:
    status, error = post(served, json.dumps({"messages": [{"role": "user", "content": "hi"}],
                                             "f" * 2_000_000: 1}).encode())
    assert status == 400
    assert len(error["error"]["message"].encode()) <= 4 * LIMITS.log_field_bytes
