"""A process that imports 20,000 events and SIGKILLs itself in the middle of SQLite's write.

    python -c KILL_DURING_IMPORT DB STOP EVERY

SQLite's progress handler counts every EVERY virtual-machine steps; at count STOP the process
kills itself, mid-transaction, as a power cut would (STOP 0: never). When the import finishes
it prints the count, so a first run with STOP 0 tells how many moments there are to choose from.
Used by tests/calendar/test_hostile.py and bench/bench_calendar.py."""

KILL_DURING_IMPORT = """
import os, signal, sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from skills.calendar import CalendarStore, Event
store = CalendarStore(Path(sys.argv[1]))
first = datetime(2026, 1, 1, tzinfo=timezone.utc)
events = [Event(uid=f"e{i}", title=f"Event {i}", start=first + timedelta(hours=i),
                end=first + timedelta(hours=i, minutes=30)) for i in range(20_000)]
calls, stop = 0, int(sys.argv[2])
def tick():
    global calls
    calls += 1
    if calls == stop:
        os.kill(os.getpid(), signal.SIGKILL)
    return 0
store._db.conn.set_progress_handler(tick, int(sys.argv[3]))
store.import_events(events)
print(calls)
"""
