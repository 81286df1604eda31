"""The person's own turn goes before an API request that is still reading a long prompt
(real llama.cpp on the tiny model): the API request gives way and then completes."""

from __future__ import annotations

import http.client
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from app.core.runner import ModelRunner, Priority
from app.core.server.service import ApiServer, ServerConfig
from backends.base import GenerateOptions
from backends.events import Done, Event
from backends.llama_cpp import LlamaCppBackend

KEY = "hearth-test-key-0123456789"
FILLER = "Each section lists owners, dates and open questions for the next review. "


def running(server: ApiServer) -> bool:
    """Wait until the API request is on the model thread (reading its prompt)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        live = list(server.state.live)
        if live and live[0].handle.running:
            return True
        time.sleep(0.005)
    return False


@pytest.mark.parametrize(("SYSTEM", "USER"), [(2, 100), (100, 2)],
                         ids=["long user turn", "long system prompt"])
def test_users_turn_goes_first_while_an_api_request_reads_its_prompt(
        tiny_model: Any, tmp_path: Path, SYSTEM: int, USER: int) -> None:  # noqa: N803
    runner = ModelRunner()
    runner.load(LlamaCppBackend(str(tiny_model.gguf_path), context_length=16384,
                                cache_dir=tmp_path / "kv")).result(120)
    server = ApiServer(runner, ServerConfig(api_key=lambda: KEY, port=0))
    server.start()
    order: list[str] = []
    status: list[int] = []

    def api_client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
        conn.request("POST", "/v1/chat/completions", body=json.dumps({
            "messages": [{"role": "system", "content": "You are an agent. " + FILLER * SYSTEM},
                         {"role": "user", "content": "next step? " + FILLER * USER}],
            "stream": True, "max_tokens": 4, "reasoning_effort": "none"}),
            headers={"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"})
        response = conn.getresponse()
        status.append(response.status)
        for raw in response:
            line = raw.decode()
            if '"content": "' in line and '"content": ""' not in line:
                order.append("api answer")
        order.append("api done")
        conn.close()

    user_done = threading.Event()

    def on_user(event: Event) -> None:
        if isinstance(event, Done):
            order.append("user done")
            user_done.set()

    reader = threading.Thread(target=api_client)
    reader.start()
    try:
        assert running(server), "the API request never started"
        runner.submit([{"role": "user", "content": "hi"}],
                      GenerateOptions(max_tokens=2, enable_thinking=False), on_user,
                      priority=Priority.USER)
        assert user_done.wait(300)
        reader.join(600)
    finally:
        server.stop()
        runner.close()
    assert status == [200]
    assert order[0] == "user done" and order[-1] == "api done"
    record = server.log.records()[-1]
    assert record.gave_way >= 1 and record.status == 200 and record.completion_tokens > 0
    assert record.prompt_tokens > 3000
