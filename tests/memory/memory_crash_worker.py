"""Writes memories and standing instructions forever, reporting each commit on stdout.

Run by tests/memory/test_memory_crash.py, which SIGKILLs it at random points. One line each,
flushed only after the write it reports has committed:
  ready              the store is open
  A <id> <text>      memory <id> was added with <text>
  D <id>             memory <id> was deleted
  I <text>           the standing instructions are now <text>
"""

from __future__ import annotations

import random
import sys
from pathlib import Path


def say(*parts: object) -> None:
    sys.stdout.write(" ".join(str(p) for p in parts) + "\n")
    sys.stdout.flush()


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    sys.modules.update({"numpy": None, "pandas": None})  # type: ignore[dict-item]
    from app.core.memory import MemoryStore

    db, seed = Path(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    store = MemoryStore(db)
    say("ready")
    n = 0
    while True:
        n += 1
        roll = rng.random()
        if roll < 0.6:
            kept = store.add(f"fact {seed}.{n} ünïcode 中文", source=f"chat-{seed}")
            say("A", kept.id, kept.text)
        elif roll < 0.8:
            present = store.entries()
            if present:
                gone = store.delete(rng.choice(present).id)
                say("D", gone.id)
        else:
            text = f"instructions {seed}.{n}: answer in metric"
            store.set_instructions(text)
            say("I", text)


if __name__ == "__main__":
    main()
