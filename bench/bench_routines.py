"""What a routine check costs, as ratios against a reference measured in the same run.

1. `hearth routines run-due --json` with 200 routines, none due (what cron runs every few
   minutes): wall time of the whole process, against `hearth routines list --json` on the same
   data (the same start-up and database open, no schedule walk). The model is never loaded.
2. The scheduler's due check (what the app's 30-second timer does) with 1,000 routines of mixed
   rules, against the same check with 1 routine.

    .venv/bin/python bench/bench_routines.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.routines import RoutineRunner, RoutineStore, Schedule, Scheduler  # noqa: E402

UTC = ZoneInfo("UTC")
RULES = ["FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "FREQ=WEEKLY", "FREQ=MONTHLY", ""]


def fill(db: Path, count: int) -> RoutineStore:
    store = RoutineStore(db)
    now = datetime.now(UTC)
    for i in range(count):
        start = datetime(2026, 1, 1, 7, i % 60) + timedelta(days=i % 28)
        rule = RULES[i % len(RULES)]
        if not rule:
            start = datetime(2031, 1, 1, 7, i % 60)
        store.add(f"R{i}", f"ask {i}", Schedule(start, "Europe/Berlin", rule), now)
    return store


def cli_seconds(home: Path, args: list[str], runs: int) -> list[float]:
    env = {**os.environ, "HEARTH_HOME": str(home), "PYTHONPATH": str(ROOT)}
    took = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "app.main", *args], env=env, check=True,
                       capture_output=True)
        took.append(time.perf_counter() - started)
    return took


def due_seconds(store: RoutineStore, runs: int) -> list[float]:
    scheduler = Scheduler(store, RoutineRunner(store, lambda: None, lambda: None))  # type: ignore[arg-type, return-value]
    took = []
    for _ in range(runs):
        started = time.perf_counter()
        assert scheduler.due() == []
        took.append(time.perf_counter() - started)
    return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        from app.core.paths import Paths

        os.environ["HEARTH_HOME"] = str(home)
        db = Paths.from_env().ensure().history_db
        fill(db, 200).close()
        listing = cli_seconds(home, ["routines", "list", "--json"], args.runs)
        due = cli_seconds(home, ["routines", "run-due", "--json"], args.runs)
        many = fill(Path(tmp) / "many.db", 1000)
        one = fill(Path(tmp) / "one.db", 1)
        check_many, check_one = due_seconds(many, args.runs), due_seconds(one, args.runs)
    med = statistics.median
    print("| figure (this run) | value | reference (same run) | ratio |")
    print("|---|---|---|---|")
    print(f"| `hearth routines run-due --json`, 200 routines, none due | median "
          f"{med(due) * 1000:.0f} ms | `routines list --json`: {med(listing) * 1000:.0f} ms | "
          f"{med(due) / med(listing):.2f} |")
    print(f"| scheduler due check, 1,000 routines | median {med(check_many) * 1000:.1f} ms | "
          f"1 routine: {med(check_one) * 1000:.2f} ms | {med(check_many) / med(check_one):.0f} |")


if __name__ == "__main__":
    main()
