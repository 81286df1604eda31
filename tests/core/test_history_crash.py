"""A process streaming answers into hearth.db is SIGKILLed 50 times; nothing committed is lost."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from app.core.history import HistoryStore
from tests.core.history_crash_worker import answer_text, reasoning_text
from tests.support.processes import end_line_server

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")

WORKER = Path(__file__).with_name("history_crash_worker.py")
KILLS = 50


@dataclass
class Seen:
    """What the worker reported as committed, across every run."""

    complete: dict[str, dict[str, str]] = field(default_factory=dict)  # id -> message
    streaming: dict[str, tuple[int, int]] = field(default_factory=dict)  # id -> (k, pieces)

    def take(self, line: str) -> None:
        kind, _, rest = line.rstrip("\n").partition(" ")
        if kind == "C":
            message = json.loads(rest)
            self.complete[message["id"]] = message
            self.streaming.pop(message["id"], None)
        elif kind == "S":
            message_id, k = rest.split()
            self.streaming[message_id] = (int(k), 0)
        elif kind == "U":
            message_id, pieces = rest.split()
            self.streaming[message_id] = (self.streaming[message_id][0], int(pieces))


# Each worker is a process of its own, killed for real; forked (Linux) from one that imported the
# history store once, as 50 starts each importing it again took ~0.25 s of the ~0.27 s a kill
# costs. Its stdout is a FIFO the test reads, as it read the pipe of a started process.
FORKS = r"""
import json, os, sys
sys.path.insert(0, sys.argv[1])
sys.modules.update({"numpy": None, "pandas": None})  # as the worker does
import tests.core.history_crash_worker as worker
import app.core.history
for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        out = os.open(request["out"], os.O_WRONLY)
        os.dup2(out, 1)
        os.close(out)
        sys.argv = [worker.__file__, request["db"], str(request["seed"])]
        worker.main()
        os._exit(1)  # not reached: it streams until killed
    print(pid, flush=True)
    os.waitpid(pid, 0)
    print("reaped", flush=True)
"""


@dataclass
class Workers:
    """Starts workers: forked from one server on Linux, started as processes elsewhere."""

    server: subprocess.Popen[str] | None = None

    def run(self, db: Path, seed: int) -> tuple[Callable[[], None], Iterator[str], Any]:
        """(kill, the worker's lines, what to close afterwards)."""
        if sys.platform != "linux":
            worker = subprocess.Popen([sys.executable, str(WORKER), str(db), str(seed)],
                                      stdout=subprocess.PIPE, text=True, encoding="utf-8")
            assert worker.stdout is not None

            def stop() -> None:
                worker.send_signal(signal.SIGKILL)
                worker.wait()
            return stop, worker.stdout, worker.stdout
        if self.server is None:
            self.server = subprocess.Popen([sys.executable, "-c", FORKS, str(WORKER.parents[2])],
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                           text=True)
        server = self.server
        assert server.stdin is not None and server.stdout is not None
        fifo = db.with_name(f"worker-{seed}.out")
        os.mkfifo(fifo)
        server.stdin.write(json.dumps({"db": str(db), "seed": seed, "out": str(fifo)}) + "\n")
        server.stdin.flush()
        pid = int(server.stdout.readline())
        lines = fifo.open(encoding="utf-8")  # the child opens its end as its stdout

        def kill() -> None:
            os.kill(pid, signal.SIGKILL)
            assert server.stdout is not None and server.stdout.readline() == "reaped\n"
            fifo.unlink()
        return kill, lines, lines

    def close(self) -> None:
        if self.server is not None:
            end_line_server(self.server)


@pytest.fixture
def workers() -> Iterator[Workers]:
    started = Workers()
    yield started
    started.close()


def run_and_kill(db: Path, seed: int, rng: random.Random, seen: Seen, workers: Workers) -> None:
    kill, lines, opened = workers.run(db, seed)
    try:
        assert next(lines) == "ready\n"
        for _ in range(rng.randint(0, 60)):  # a random point in the stream...
            seen.take(next(lines))
        time.sleep(rng.uniform(0, 0.004))  # ...plus jitter so kills land mid-transaction too
    finally:
        kill()
    for line in lines:  # reported before the kill, so committed
        seen.take(line)
    opened.close()


def check_after_restart(db: Path, seen: Seen) -> int:
    """Reopen as the app would; return how many answers were found cut short."""
    store = HistoryStore(db)
    try:
        assert store._conn.execute("pragma integrity_check").fetchone()[0] == "ok"
        saved = {
            m.id: m
            for chat in store.list_conversations(include_archived=True)
            for m in store.messages(chat.id)
        }
        for message_id, expected in seen.complete.items():
            message = saved.get(message_id)
            assert message is not None, f"completed message {message_id} lost"
            assert message.status == "complete"
            assert (message.role, message.content, message.reasoning) == (
                expected["role"],
                expected["content"],
                expected["reasoning"],
            )
        cut = sum(_check_cut_short(store, mid, k, n) for mid, (k, n) in seen.streaming.items())
        left = store._conn.execute("select count(*) from messages where status = 'streaming'")
        assert left.fetchone()[0] == 0
    finally:
        store.close()
    seen.streaming.clear()
    return cut


def _check_cut_short(store: HistoryStore, message_id: str, k: int, pieces: int) -> bool:
    message = store.get_message(message_id)
    assert message is not None, f"interrupted message {message_id} lost"
    if message.status == "complete":  # killed between its commit and its report line
        assert message.content == answer_text(k)
        return False
    assert message.status == "interrupted"
    # An honest partial answer: at least what was reported, a prefix of the real text.
    assert len(message.content) >= len(answer_text(k, pieces))
    assert answer_text(k).startswith(message.content)
    assert reasoning_text(k).startswith(message.reasoning)
    return True


def test_sigkill_while_streaming_never_loses_committed_messages(
        tmp_path: Path, workers: Workers) -> None:
    db = tmp_path / "hearth.db"
    rng = random.Random(20261130)
    seen = Seen()
    cut_short = 0
    for seed in range(1, KILLS + 1):
        run_and_kill(db, seed, rng, seen, workers)
        cut_short += check_after_restart(db, seen)
    assert len(seen.complete) > KILLS  # the worker really wrote between kills
    assert cut_short >= KILLS // 2  # most kills landed mid-answer, as intended
    assert list((tmp_path / "hearth.db-writers").iterdir()) == []  # dead owners cleaned up


def test_an_answer_streaming_in_a_live_process_is_left_alone(tmp_path: Path) -> None:
    """`hearth history list` while the window streams must not call that answer interrupted."""
    db = tmp_path / "hearth.db"
    worker = subprocess.Popen(
        [sys.executable, str(WORKER), str(db), "1", "--hold"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert worker.stdin is not None and worker.stdout is not None
    seen = Seen()
    try:
        for line in iter(worker.stdout.readline, "held\n"):
            seen.take(line)
        [(answer_id, _)] = seen.streaming.items()
        beside = HistoryStore(db)
        status = beside.get_message(answer_id).status  # type: ignore[union-attr]
        beside.close()
        assert status == "streaming"
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        worker.stdin.close()
        worker.stdout.close()
    after = HistoryStore(db)
    assert after.get_message(answer_id).status == "interrupted"  # type: ignore[union-attr]
    after.close()


def test_search_index_matches_messages_after_crashes(tmp_path: Path, workers: Workers) -> None:
    """The FTS index is updated in the same transaction as the text, so it never drifts."""
    db = tmp_path / "hearth.db"
    rng = random.Random(7)
    seen = Seen()
    for seed in range(1, 6):
        run_and_kill(db, seed, rng, seen, workers)
    HistoryStore(db).close()
    conn = sqlite3.connect(db)
    try:
        check = "insert into messages_fts (messages_fts, rank) values ('integrity-check', 1)"
        conn.execute(check)  # raises "database disk image is malformed" on any mismatch
    finally:
        conn.close()
