"""Several agents at once: concurrent API requests to a real server on the real llama.cpp
engine (tiny model) are decoded in one batch, each gets, at temperature 0, the answer it gets
alone, and the request log says which were batched."""

from __future__ import annotations

import http.client
import json
import threading
import time
from pathlib import Path
from typing import Any

from app.core.runner import ModelRunner
from app.core.server.service import ApiServer, ServerConfig
from backends.llama_cpp import LlamaCppBackend
from tests.support.step_costs import CPU_LIKE, pinned, pinned_pace

KEY = "hearth-test-key-0123456789"
QUESTIONS = ["Plan my week.", "Summarise the report on sales in the north.",
             "Which rivers cross Lyon?", "Write a haiku about trains."]


def chat(port: int, question: str, stream: bool) -> str:
    body = {"messages": [{"role": "user", "content": question}], "max_tokens": 40,
            "temperature": 0, "reasoning_effort": "none", "stream": stream}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    conn.request("POST", "/v1/chat/completions", body=json.dumps(body),
                 headers={"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"})
    reply = conn.getresponse()
    assert reply.status == 200
    if not stream:
        return str(json.loads(reply.read())["choices"][0]["message"]["content"])
    text = []
    for raw in reply:
        line = raw.decode()
        if line.startswith("data: {"):
            text.append(json.loads(line[6:])["choices"][0]["delta"].get("content") or "")
    conn.close()
    return "".join(text)


def queued(runner: ModelRunner, count: int) -> bool:
    """Wait until `count` jobs run or wait on the model thread (a condition, not a delay)."""
    deadline = time.monotonic() + 120
    while runner.pending < count:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def test_concurrent_requests_are_batched_and_answer_as_they_would_alone(
        tiny_model: Any, tmp_path: Path) -> None:
    runner = ModelRunner()
    backend = LlamaCppBackend(str(tiny_model.gguf_path), context_length=4096,
                              cache_dir=tmp_path / "kv")
    backend.pass_costs = pinned(CPU_LIKE)  # this box's costs, not its speed now: 4 pay
    backend.lone_pace = pinned_pace(1.0)  # ... over a lone answer whose drafts keep nothing
    runner.load(backend).result(120)
    server = ApiServer(runner, ServerConfig(api_key=lambda: KEY, port=0))
    server.start()
    try:
        alone = [chat(server.port, q, stream=False) for q in QUESTIONS]
        gate = threading.Event()
        runner.call(lambda: gate.wait(120))  # the model is busy: the four requests queue up
        answers: dict[int, str] = {}
        clients = [threading.Thread(target=lambda n=n: answers.__setitem__(
            n, chat(server.port, QUESTIONS[n], stream=n % 2 == 0))) for n in range(4)]
        for client in clients:
            client.start()
        assert queued(runner, 5)
        gate.set()
        for client in clients:
            client.join(600)
    finally:
        server.stop()
        runner.close()
    assert [answers[n] for n in range(4)] == alone
    records = server.log.records()
    assert [r.batched_with for r in records[:4]] == [0, 0, 0, 0]  # one at a time
    assert sorted(r.batched_with for r in records[4:]) == [3, 3, 3, 3]
    assert all(r.status == 200 and r.completion_tokens > 0 for r in records)
