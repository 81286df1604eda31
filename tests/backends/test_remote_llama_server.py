"""The remote engine against a real server: llama-cpp-python's own, on the tiny Nanbeige GGUF."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backends.base import GenerateOptions
from backends.errors import RemoteError
from backends.events import Done, Event, ReasoningDelta, TextDelta
from backends.remote import RemoteBackend

START_TIMEOUT = 90.0  # seconds for the server to load the model and answer
STOP_TIMEOUT = 10.0
USER = [{"role": "system", "content": "You are Hearth."}, {"role": "user", "content": "Hello"}]

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None or importlib.util.find_spec("uvicorn") is None,
    reason="llama-cpp-python[server] is not installed")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start(model: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start the server; a port taken between probing and binding gets one more try."""
    for _ in range(3):
        port = _free_port()
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "llama_cpp.server", "--model", str(model),
                 "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "512",
                 "--n_threads", "1", "--verbose", "False"],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        if _serving(url, process):
            return process, url
        _stop(process)
        if "address already in use" not in log.read_text().lower():
            break
    pytest.fail(f"llama_cpp.server did not start within {START_TIMEOUT} s:\n"
                f"{log.read_text()[-2000:]}")


def _serving(url: str, process: subprocess.Popen[bytes]) -> bool:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        try:
            RemoteBackend(url, timeout=2.0).load()
            return True
        except RemoteError:
            time.sleep(0.2)  # polling a starting server; bounded by the deadline above
    return False


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(STOP_TIMEOUT)


@pytest.fixture(scope="module")
def llama_server(tiny_model: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start the server on the tiny model, yield its URL, and make sure it is gone afterwards."""
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    process, url = _start(tiny_model.gguf_path, log)
    try:
        yield url
    finally:
        _stop(process)
    assert process.returncode is not None  # no server left running after the tests


def _stream(url: str, options: GenerateOptions, stop_after: int | None = None) -> list[Event]:
    backend = RemoteBackend(url, timeout=30.0)
    backend.load()
    seen: list[Event] = []
    for event in backend.stream(USER, options, lambda: stop_after is not None and
                                len(seen) >= stop_after):
        seen.append(event)
    return seen


def test_load_names_the_served_model(llama_server: str) -> None:
    backend = RemoteBackend(llama_server)
    backend.load()
    assert backend.info.model_name.endswith("model.gguf")


def test_real_server_streams_reasoning_and_ends_with_done(llama_server: str) -> None:
    events = _stream(llama_server, GenerateOptions(max_tokens=16, seed=1))
    done = events[-1]
    assert isinstance(done, Done) and done.finish_reason in ("stop", "length")
    assert sum(isinstance(e, Done) for e in events) == 1
    assert any(isinstance(e, (ReasoningDelta, TextDelta)) for e in events)
    assert 0 < done.completion_tokens <= 16
    assert done.timings["total_ms"] > 0


def test_real_server_without_thinking_gives_answer_text(llama_server: str) -> None:
    events = _stream(llama_server, GenerateOptions(enable_thinking=False, max_tokens=16, seed=2))
    assert isinstance(events[-1], Done)
    assert any(isinstance(e, TextDelta) for e in events)
    assert not any(isinstance(e, ReasoningDelta) for e in events)


def test_real_server_cancel_then_next_request_works(llama_server: str) -> None:
    cancelled = _stream(llama_server, GenerateOptions(max_tokens=64, seed=3), stop_after=1)
    assert isinstance(cancelled[-1], Done) and cancelled[-1].finish_reason == "cancelled"
    again = _stream(llama_server, GenerateOptions(max_tokens=4, seed=4))
    assert isinstance(again[-1], Done) and again[-1].finish_reason in ("stop", "length")
