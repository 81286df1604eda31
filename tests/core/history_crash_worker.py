"""Streams fake answers into a history store forever, reporting each commit on stdout.

Run by tests/core/test_history_crash.py, which SIGKILLs it at random points. Protocol, one line
each, flushed only after the write it reports has committed:
  ready                      the store is open
  S <message id> <k>         answer k was added with status "streaming"
  U <message id> <n>         answer's content now holds the first n pieces of answer_text(k)
  C <json>                   a message is complete: {"id", "role", "content", "reasoning"}
  held                       (with --hold) paused mid-answer until stdin closes
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.core.history import HistoryStore

PIECES = 12  # updates per streamed answer
HOLD = "--hold" in sys.argv  # stop mid-answer: a live process with an answer streaming


def answer_text(k: int, n: int = PIECES) -> str:
    """The first n pieces of answer k, exactly as the worker streams it."""
    return "".join(f"answer{k} piece{i} ünïcode 中文; " for i in range(n))


def reasoning_text(k: int, n: int = PIECES) -> str:
    return "".join(f"thinking{k}.{i} " for i in range(n))


def say(*parts: object) -> None:
    sys.stdout.write(" ".join(str(p) for p in parts) + "\n")
    sys.stdout.flush()


def report(store: HistoryStore, message_id: str) -> None:
    message = store.get_message(message_id)
    assert message is not None
    say(
        "C",
        json.dumps(
            {
                "id": message.id,
                "role": message.role,
                "content": message.content,
                "reasoning": message.reasoning,
            }
        ),
    )


def stream_answer(store: HistoryStore, conversation_id: str, k: int, **final: object) -> str:
    answer = store.add_message(conversation_id, "assistant", status="streaming", model="fake")
    say("S", answer.id, k)
    for n in range(1, PIECES + 1):
        store.update_message(answer.id, content=answer_text(k, n), reasoning=reasoning_text(k, n))
        say("U", answer.id, n)
        if HOLD:
            say("held")
            sys.stdin.read()  # until the test closes our stdin or kills us
            sys.exit(0)
    store.update_message(answer.id, status="complete", completion_tokens=PIECES, **final)
    report(store, answer.id)
    return answer.id


def one_turn(store: HistoryStore, conversation_id: str, k: int, rng: random.Random) -> None:
    question = store.add_message(conversation_id, "user", f"question {k}")
    report(store, question.id)
    if rng.random() < 0.5:  # a tool-using turn: call, the skill runs, its result, the answer
        call = {"id": f"call{k}", "name": "convert_units", "arguments": {"value": k}}
        stream_answer(store, conversation_id, k, tool_calls=[call])
        result = store.add_message(
            conversation_id,
            "tool",
            f"result {k}",
            tool_call_id=f"call{k}",
            tool_name="convert_units",
            tool_ok=True,
        )
        report(store, result.id)
        k += 1_000_000  # the follow-up answer has its own text
    stream_answer(store, conversation_id, k)


def main() -> None:
    # Only when run as the worker: importing this module (for answer_text) changes nothing.
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    # sqlite-utils imports numpy and pandas when present, only for their types; the worker
    # starts 50 times per test run, so skip them (None in sys.modules makes an import fail fast).
    sys.modules.update({"numpy": None, "pandas": None})  # type: ignore[dict-item]
    from app.core.history import HistoryStore

    db, seed = Path(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    store = HistoryStore(db)
    say("ready")
    k = seed * 10_000
    while True:
        conversation = store.create_conversation(f"run {seed}")
        for _ in range(3):
            k += 1
            one_turn(store, conversation.id, k, rng)


if __name__ == "__main__":
    main()
