"""Issue 27 figures: each hostile input of the "bounded everywhere" sweep, run for real under a
4 GB address-space cap (RLIMIT_AS), with its peak memory, time, exit code or HTTP status, and
the same command on a benign input of the same kind as the reference of the same run.

    .venv/bin/python bench/bench_bounded.py [--out bench/results/bounded.md]

The full-disk cases (office writes exit 10; index.db after a cut-short checkpoint) need root
for a small tmpfs and live in tests/core/test_full_disk_exits.py and
tests/documents/test_full_disk_index.py."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skills.common.limits import LIMITS  # noqa: E402
from tests.core.test_mcp import FIXTURE  # noqa: E402
from tests.office.test_bounded_sheets import claimed_range_bomb  # noqa: E402
from tests.server.served import Served  # noqa: E402
from tests.support.capped import Measured, hearth_env, run_capped  # noqa: E402
from tests.support.model_output import answer, call  # noqa: E402
from tests.support.scripted_cli import script_file  # noqa: E402

Row = tuple[str, str, str]  # case, what was measured, the reference of the same run


def _cli(work: Path, name: str, argv: list[str], settings: dict[str, object] | None = None
         ) -> Measured:
    home = work / f"home-{name}"
    (home / "data").mkdir(parents=True, exist_ok=True)
    if settings is not None:
        (home / "data" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    return run_capped(["-m", "app.main", *argv], hearth_env(home), timeout=600)


def _fig(m: Measured) -> str:
    lines = len([line for line in m.err.splitlines() if line.strip()])
    return (f"exit {m.code}, {m.peak_mb:.0f} MB peak, {m.seconds:.1f} s, {lines} stderr "
            f"line{'s' if lines != 1 else ''}")


def office_cases(work: Path) -> list[Row]:
    import openpyxl

    folder = work / "chosen"
    folder.mkdir()
    bomb = claimed_range_bomb(folder / "claims.xlsx")
    plain = folder / "plain.xlsx"
    book = openpyxl.Workbook()
    book.active.append(["name", "amount"])
    book.active.append(["tea", 3])
    book.save(plain)
    rows = []
    for action, extra in (("inspect", []), ("query", ["--sql", "select * from Sheet"])):
        hostile = _cli(work, f"i{action}", ["office", action, str(bomb), *extra])
        benign = _cli(work, f"p{action}", ["office", action, str(plain), *extra])
        rows.append((f"office {action}, 4.8 KB workbook claiming XFD1048576 "
                     f"({bomb.stat().st_size / 1024:.1f} KB)", _fig(hostile),
                     f"same on a 2-cell workbook: {_fig(benign)}"))
    docs = _cli(work, "docs", ["docs", "add", str(bomb)])
    rows.append(("docs add, the same workbook (index reader = office reader)", _fig(docs), ""))
    sql = _cli(work, "blob", ["office", "query", str(plain), "--sql",
                              "select length(randomblob(1e9)) from Sheet"])
    small = _cli(work, "smallblob", ["office", "query", str(plain), "--sql",
                                     "select length(randomblob(1e6)) from Sheet"])
    rows.append(("office query `select randomblob(1e9)`", _fig(sql) + f": {_last(sql.err)}",
                 f"randomblob(1e6): {_fig(small)}"))
    return rows


def _last(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return f"`{lines[-1][:110]}`" if lines else ""


def settings_case(work: Path) -> list[Row]:
    deep = _cli(work, "deep", ["calendar", "list"], {"theme": "dark"})
    home = work / "home-deep" / "data" / "settings.json"
    home.write_text('{"theme": ' + "[" * 1000 + "]" * 1000 + "}", encoding="utf-8")
    nested = run_capped(["-m", "app.main", "calendar", "list"], hearth_env(work / "home-deep"))
    return [("settings.json nested 1,000 deep, `hearth calendar list`",
             _fig(nested) + f": {_last(nested.err)}", f"a plain settings.json: {_fig(deep)}")]


def _peak_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM"):
            return int(line.split()[1])
    return 0


def _post(served: Served, body: bytes) -> tuple[int, float, str]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection(served.host, served.port, timeout=300)
    conn.request("POST", "/v1/chat/completions", body=body, headers={
        "Authorization": f"Bearer {served.key}", "Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    message = json.loads(data).get("error", {}).get("message", "") if data[:1] == b"{" else ""
    return response.status, time.perf_counter() - started, message


def _chunked(served: Served, total: int) -> tuple[str, float]:
    started = time.perf_counter()
    sock = socket.create_connection((served.host, served.port), timeout=300)
    head = (f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            f"{served.key}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n").encode()
    block = b"a" * (1 << 20)
    try:
        sock.sendall(head + b'6\r\n{"x":"\r\n')
        for _ in range(total // len(block)):
            sock.sendall(b"%x\r\n%s\r\n" % (len(block), block))
        sock.sendall(b'2\r\n"}\r\n0\r\n\r\n')
    except OSError:
        pass
    answer_bytes = b""
    while chunk := sock.recv(65536):
        answer_bytes += chunk
    sock.close()
    return answer_bytes.split(b"\r\n", 1)[0].decode(), time.perf_counter() - started


def server_cases(work: Path) -> list[Row]:
    served = Served(work / "server", "--engine", "scripted", "--script",
                    script_file(work, *["ok.\n</think>\n\nok"] * 50))
    served.wait_for("ready")
    rows = []
    try:
        hi = json.dumps({"messages": [{"role": "user", "content": "hi"}]}).encode()
        status, seconds, _ = _post(served, hi)
        reference = f"a plain chat request: HTTP {status}, {seconds * 1000:.0f} ms"
        before = _peak_kb(served.process.pid)
        line, seconds = _chunked(served, 200 * 2**20)
        grown = (_peak_kb(served.process.pid) - before) / 1024
        rows.append(("chunked 200 MB body (no Content-Length)",
                     f"`{line}` after {seconds:.1f} s, server peak +{grown:.0f} MB", reference))
        waiting: list[float] = []
        other = threading.Thread(target=lambda: waiting.append(_post(served, hi)[1]))
        sender = threading.Thread(target=_chunked, args=(served, 40 * 2**20))
        sender.start()
        other.start()
        other.join()
        sender.join()
        rows.append(("another client during a chunked 40 MB body",
                     f"answered in {waiting[0] * 1000:.0f} ms", reference))
        for label, body in (
                ("JSON nested 5,000 deep", b'{"messages":' + b"[" * 5000 + b"]" * 5000 + b"}"),
                ("a lone surrogate (\\ud800)",
                 b'{"messages":[{"role":"user","content":"a\\ud800b"}]}'),
                ("a system message not first", json.dumps({"messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "system", "content": "s"}]}).encode()),
                ("a 10 MB field name", b'{"messages":[{"role":"user","content":"hi"}],"'
                 + b"f" * 10_000_000 + b'":1}')):
            status, seconds, message = _post(served, body)
            rows.append((f"server: {label}", f"HTTP {status} in {seconds * 1000:.0f} ms: "
                         f"`{message[:90]}`", reference))
        for _ in range(20):  # slow bodies dropped halfway
            sock = socket.create_connection((served.host, served.port))
            sock.sendall((f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          f"Authorization: Bearer {served.key}\r\nContent-Length: 5000\r\n\r\n"
                          '{"messages": [').encode())
            sock.close()
        _post(served, hi)
    finally:
        served.process.send_signal(15)
        served.process.wait(120)
    err = served.stderr()
    rows.append(("20 slow bodies dropped halfway, then SIGTERM",
                 f"exit {served.process.returncode}, {err.count('Traceback')} tracebacks, "
                 f"{len(err.splitlines())} stderr lines", ""))
    while not served.lines.empty():  # what it printed: one JSON line per request
        served.seen.append(served.lines.get())
    fields = [max(len(str(v).encode()) for v in line.values()) for line in served.seen
              if line.get("type") == "request"] or [0]
    rows.append(("request log: largest field kept (10 MB field name sent)",
                 f"{max(fields)} bytes (limit {LIMITS.log_field_bytes})", ""))
    return rows


def mcp_cases(work: Path) -> list[Row]:
    rows = []
    home = work / "home-mcp"
    (home / "data").mkdir(parents=True)
    (home / "data" / "settings.json").write_text(json.dumps({"mcp_servers": [
        {"name": "s", "command": [sys.executable, FIXTURE], "trusted": True}]}))
    children = work / "children"
    for label, size in (("50 MB MCP tool result, `hearth ask`", 50_000_000),
                        ("1 KB MCP tool result", 1000)):
        script = work / f"script{size}.json"
        script.write_text(json.dumps([call("s__blob", size=size), answer("Done."), "Blob"]))
        ran = run_capped(["-m", "app.main", "ask", "blob", "--engine", "scripted", "--script",
                          str(script), "--yes"], hearth_env(home))
        db = home / "data" / "hearth.db"
        rows.append((label, _fig(ran) + f", hearth.db {db.stat().st_size / 2**20:.1f} MB", ""))
    script = work / "spawn.json"
    script.write_text(json.dumps([call("s__spawn", pidfile=str(children)), answer("Done."),
                                  "Spawn"]))
    ran = run_capped(["-m", "app.main", "ask", "spawn", "--engine", "scripted", "--script",
                      str(script), "--yes"], hearth_env(home))
    time.sleep(1)
    alive = []
    for pid in map(int, children.read_text().split()):
        try:
            os.kill(pid, 0)
            alive.append(pid)
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
    rows.append(("child of an MCP tool server after `hearth ask`",
                 f"{len(alive)} alive; {_fig(ran)}", ""))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "bounded.md"))
    args = parser.parse_args()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="hearth-bounded-") as tmp:
        work = Path(tmp)
        for part in (office_cases, settings_case, server_cases, mcp_cases):
            rows += part(work)
            print(f"{part.__name__} done", flush=True)
    lines = ["# Issue 27: bounded everywhere", "",
             f"Each command ran under a {4} GB address-space cap (RLIMIT_AS).", "",
             "| case | measured | reference (same run) |", "|---|---|---|",
             *[f"| {a} | {b} | {c} |" for a, b, c in rows], ""]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
