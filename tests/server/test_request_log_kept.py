"""The request log outlives the server: a real `hearth serve` process logs to hearth.db, a
restarted one (and the app) still lists it, only the newest requests are kept, a clear forgets
them, and no message text ever reaches the file."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import openai
import pytest

from app.core.server.log import RequestLog, RequestRecord
from app.core.server.log_store import RequestLogStore
from tests.server.served import Served
from tests.server.test_openai_contract import ANSWER, TIME_TOOL, TOOL_CALL
from tests.support.scripted_cli import script_file

SECRET = "zebra-umbrella-4821"


def _serve(home: Path, script: str) -> Served:
    served = Served(home, "--engine", "scripted", "--script", script)
    served.wait_for("ready")
    return served


def _sdk(served: Served) -> openai.OpenAI:
    return openai.OpenAI(base_url=served.url, api_key=served.key, max_retries=0)


def _request_lines(served: Served) -> list[dict[str, Any]]:
    """Every request line the process wrote, once it has stopped."""
    while True:
        try:
            line = served.lines.get_nowait()
        except queue.Empty:
            break
        served.seen.append(line)
    return [line for line in served.seen if line["type"] == "request"]


def test_log_survives_a_restart_and_keeps_no_message_text(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    first = _serve(home, script_file(tmp_path, ANSWER, TOOL_CALL))
    try:
        sdk = _sdk(first)
        sdk.chat.completions.create(model="x", messages=[
            {"role": "system", "content": f"Remember the pass phrase {SECRET}."},
            {"role": "user", "content": f"Say {SECRET} back"}])
        sdk.chat.completions.create(model="x", tools=[TIME_TOOL], messages=[
            {"role": "user", "content": f"What time is it where {SECRET} lives?"}])
        first.wait_for("request")
        first.wait_for("request")
    finally:
        assert first.stop() == 0
    second = _serve(home, script_file(tmp_path, ANSWER))
    try:
        _sdk(second).responses.create(model="x", input=f"once more, {SECRET}")
        second.wait_for("request")
    finally:
        assert second.stop() == 0
    (line,) = _request_lines(second)  # --json: this run's requests only, as before
    assert line["path"] == "/v1/responses"

    monkeypatch.setenv("HEARTH_HOME", str(home))
    from app.main import Hearth

    hearth = Hearth()
    try:
        kept = hearth.request_log.records()
    finally:
        hearth.close()
    assert [r.path for r in kept] == ["/v1/chat/completions", "/v1/chat/completions",
                                      "/v1/responses"]
    assert kept[1].tool_calls == ["get_time"] and kept[1].tools_offered == 1
    assert all(r.status == 200 and r.prompt_tokens > 0 for r in kept)
    assert kept[0].client.startswith("127.0.0.1:") and "OpenAI" in kept[0].client
    files = sorted((home / "data").glob("hearth.db*"))
    assert files
    for path in files:
        assert SECRET.encode() not in path.read_bytes(), path


def _record(n: int) -> RequestRecord:
    return RequestRecord(client=f"client{n}", method="POST", path="/v1/chat/completions",
                         status=200, prompt_tokens=n, tool_calls=["get_time"], batched_with=n % 4,
                         at=1000.0 + n)


def test_only_the_newest_requests_are_kept_and_clear_forgets_them(tmp_path: Path) -> None:
    db = tmp_path / "hearth.db"
    log = RequestLog(keep=5, store=RequestLogStore(db, keep=5))
    for n in range(8):
        log.add(_record(n))
    log.close()  # writes what is queued
    reopened = RequestLog(keep=5, store=RequestLogStore(db, keep=5))
    assert [r.client for r in reopened.records()] == [f"client{n}" for n in range(3, 8)]
    assert reopened.records()[-1] == _record(7)  # every field read back as written
    reopened.clear()
    assert reopened.records() == []
    reopened.close()
    store = RequestLogStore(db)
    assert store.recent() == []
    store.close()
    for path in tmp_path.glob("hearth.db*"):  # "forgotten on disk": no old row left readable
        assert b"client7" not in path.read_bytes(), path


def test_the_json_line_of_a_record_keeps_its_fields() -> None:
    line = _record(1).to_json()
    assert line["type"] == "request" and json.loads(json.dumps(line))["tool_calls"] == [
        "get_time"]
    assert set(line) == {"type", "client", "method", "path", "status", "model",
                         "prompt_tokens", "cached_tokens", "completion_tokens", "duration_ms",
                         "queue_position", "gave_way", "batched_with", "finish_reason", "tools_offered",
                         "tool_calls", "error", "at"}


class _StuckDisk:
    """A store whose writes wait until the test lets them through (a slow or locked disk)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.written: list[RequestRecord] = []

    def add(self, records: Iterable[RequestRecord]) -> None:
        self.release.wait()
        self.written += records

    def recent(self) -> list[RequestRecord]:
        return []

    def clear(self) -> None:
        self.written = []

    def close(self) -> None:
        pass


def test_a_request_never_waits_for_the_disk() -> None:
    disk = _StuckDisk()
    log = RequestLog(store=disk)
    heard: list[RequestRecord] = []
    log.subscribe(heard.append)
    for n in range(3):
        log.add(_record(n))  # returns at once though the disk does not move
    assert heard == [_record(0), _record(1), _record(2)] and disk.written == []
    assert [r.client for r in log.records()] == ["client0", "client1", "client2"]
    disk.release.set()
    log.close()  # what was queued is written before the log closes
    assert disk.written == [_record(0), _record(1), _record(2)]
