"""Cost of Hearth's output parsing: parser per token, and the remote engine vs a bare SSE reader.

Run: .venv/bin/python bench/parser_remote.py [--tokens 20000] [--chunks 5000]
Prints figures; the reference for each ratio is measured in the same run."""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backends.base import GenerateOptions
from backends.parser import OutputParser
from backends.remote import RemoteBackend
from backends.scripted import _TOKEN_RE

CALL = ("<tool_call>\n<function=search_documents>\n<parameter=query>\nquarterly budget\n"
        "</parameter>\n<parameter=limit>\n5\n</parameter>\n</function>\n</tool_call>")


def sample_output(tokens: int) -> list[str]:
    """Nanbeige-shaped output: long reasoning, an answer, a tool call; split like tokens."""
    words = "the user asks about the budget so I should search their documents first".split()
    reasoning = " ".join(words[i % len(words)] for i in range(tokens * 2 // 3))
    answer = " ".join(words[i % len(words)] for i in range(tokens // 3))
    return _TOKEN_RE.findall(f"{reasoning}\n</think>\n\n{answer}\n\n{CALL}")


def best_of(runs: int, work: object) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def bench_parser(tokens: int) -> None:
    pieces = sample_output(tokens)

    def reference() -> None:  # the least any consumer does: look at each piece once
        seen = []
        for piece in pieces:
            seen.append(piece)
        "".join(seen).find("</think>")

    def parse() -> None:
        parser = OutputParser()
        for piece in pieces:
            parser.feed(piece)
        parser.finish()

    ref, ours = best_of(5, reference), best_of(5, parse)
    per_token_us = ours / len(pieces) * 1e6
    print(f"parser: {len(pieces)} tokens in {ours * 1000:.1f} ms = {per_token_us:.2f} us/token "
          f"({len(pieces) / ours:,.0f} tokens/s); bare loop {ref * 1000:.2f} ms")
    for rate in (50, 256):
        print(f"  share of a {rate} tok/s decode budget: {per_token_us / (1e6 / rate) * 100:.3f}%")


class _Sse(BaseHTTPRequestHandler):
    chunks: list[bytes] = []

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        body = json.dumps({"data": [{"id": "bench"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(b"".join(self.chunks))


def sse_chunks(count: int) -> list[bytes]:
    pieces = sample_output(count)[:count]
    out = [f"data: {json.dumps({'choices': [{'index': 0, 'delta': {'content': p}}]})}\n\n"
           .encode() for p in pieces]
    final = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
             "usage": {"prompt_tokens": 10, "completion_tokens": len(pieces)}}
    return [*out, f"data: {json.dumps(final)}\n\n".encode(), b"data: [DONE]\n\n"]


def raw_reader(port: int) -> None:
    """The reference: read the same stream with http.client and json, doing nothing else."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", "/v1/chat/completions", body=b"{}",
                 headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    text = []
    for line in iter(response.readline, b""):
        if line.startswith(b"data: {"):
            delta = json.loads(line[6:])["choices"]
            if delta:
                text.append(delta[0]["delta"].get("content") or "")
    conn.close()


def bench_remote(chunks: int) -> None:
    _Sse.chunks = sse_chunks(chunks)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Sse)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    backend = RemoteBackend(f"http://127.0.0.1:{port}")
    backend.load()

    def ours() -> None:
        for _ in backend.stream([{"role": "user", "content": "hi"}], GenerateOptions(),
                                lambda: False):
            pass

    ratios = []
    for _ in range(3):
        ref, mine = best_of(3, lambda: raw_reader(port)), best_of(3, ours)
        ratios.append(ref / mine)
    server.shutdown()
    server.server_close()
    print(f"remote: {chunks} SSE chunks; bare reader {ref * 1000:.0f} ms, RemoteBackend "
          f"{mine * 1000:.0f} ms ({chunks / mine:,.0f} chunks/s)")
    extra_us = (mine - ref) / chunks * 1e6
    print(f"  throughput Hearth / bare reader: {statistics.median(ratios):.2f} "
          f"(median of {len(ratios)}); extra {extra_us:.1f} us/chunk = "
          f"{extra_us / (1e6 / 256) * 100:.2f}% of a 256 tok/s decode budget")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tokens", type=int, default=20000)
    parser.add_argument("--chunks", type=int, default=5000)
    args = parser.parse_args()
    bench_parser(args.tokens)
    bench_remote(args.chunks)


if __name__ == "__main__":
    main()
