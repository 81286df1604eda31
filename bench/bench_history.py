"""History store figures: streaming write cost, search, listing, delete (ratios vs plain SQL).

Run: .venv/bin/python bench/bench_history.py [--messages 10000]
Each figure is compared with a reference measured in the same run on the same machine."""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core.history import HistoryStore

# A Zipf-like vocabulary, as in real text: a few words everywhere, most words rare.
_RNG = random.Random(0)
WORDS = [
    "".join(_RNG.choice("abcdefghijklmnoprstuvw") for _ in range(_RNG.randint(3, 9)))
    for _ in range(5000)
]
WEIGHTS = [1 / (rank + 1) for rank in range(len(WORDS))]


def text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choices(WORDS, WEIGHTS, k=words))


def per_call_ms(fn: Callable[[], object], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) * 1000 / repeat


def fill(store: HistoryStore, rng: random.Random, messages: int) -> list[str]:
    ids = []
    for n in range(messages // 20):
        chat = store.create_conversation(f"chat {n}")
        ids.append(chat.id)
        for i in range(20):
            store.add_message(chat.id, "user" if i % 2 == 0 else "assistant", text(rng, 60))
    return ids


def streaming(store: HistoryStore, folder: Path, rng: random.Random) -> None:
    """A 2,000-token answer written every ~10 tokens (more often than the 250 ms policy)."""
    pieces = [text(rng, 10) + " " for _ in range(200)]
    chat = store.create_conversation("stream")
    answer = store.add_message(chat.id, "assistant", status="streaming")
    grown = iter(range(1, len(pieces) + 1))
    ours = per_call_ms(
        lambda: store.update_message(answer.id, content="".join(pieces[: next(grown)])), 200
    )
    conn = sqlite3.connect(folder / "plain.db", isolation_level=None)
    conn.execute("pragma journal_mode = wal")
    conn.execute("pragma synchronous = normal")
    conn.execute("create table m (id integer primary key, content text)")
    conn.execute("insert into m (content) values ('')")
    grown = iter(range(1, len(pieces) + 1))
    plain = per_call_ms(
        lambda: conn.execute(
            "update m set content = ? where id = 1", ["".join(pieces[: next(grown)])]
        ),
        200,
    )
    conn.close()
    print(
        f"update_message (2k-token answer, 200 updates): {ours:.3f} ms/update;"
        f" plain UPDATE without search index {plain:.3f} ms; ratio {ours / plain:.1f}x"
    )


def searching(store: HistoryStore, messages: int) -> None:
    """Two-word queries of common, middling and rare words; the reference is the scan a search
    without an index would need (every row, all words, no ranking or snippets)."""
    queries = [f"{WORDS[a]} {WORDS[b]}" for a, b in [(2, 5), (40, 90), (300, 700), (1500, 3000)]]
    ours = per_call_ms(lambda: [store.search(q, limit=50) for q in queries], 5) / len(queries)
    conn = store._conn
    like = "select id from messages where content like ? and content like ?"
    plain = per_call_ms(
        lambda: [conn.execute(like, [f"%{w}%" for w in q.split()]).fetchall() for q in queries],
        5,
    ) / len(queries)
    print(
        f"search over {messages} messages: {ours:.2f} ms/query (FTS5, ranked, snippets);"
        f" unindexed LIKE scan {plain:.2f} ms; ratio {ours / plain:.2f}x"
    )


def listing(store: HistoryStore, ids: list[str]) -> None:
    ours = per_call_ms(store.list_conversations, 20)
    one = per_call_ms(lambda: store.messages(ids[0]), 50)
    print(
        f"list_conversations ({len(ids)} chats): {ours:.2f} ms;"
        f" messages() of a 20-message chat: {one:.3f} ms"
    )


def deleting(store: HistoryStore, ids: list[str]) -> None:
    ms = per_call_ms(lambda: store.delete_conversation(ids.pop()), 3)
    print(f"delete_conversation (incl. FTS optimize + WAL truncate): {ms:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=10_000)
    args = parser.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        store = HistoryStore(folder / "hearth.db")
        start = time.perf_counter()
        ids = fill(store, rng, args.messages)
        fill_ms = (time.perf_counter() - start) * 1000 / args.messages
        print(f"add_message: {fill_ms:.3f} ms/message ({args.messages} messages)")
        streaming(store, folder, rng)
        searching(store, args.messages)
        listing(store, ids)
        deleting(store, ids)
        store.close()


if __name__ == "__main__":
    main()
