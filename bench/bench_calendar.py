"""Calendar figures: agreement with recurring-ical-events on the corpus, a 50,000-event import
(time, peak RSS), ten years of a daily event, hostile rules, and kills during an import.

Run: .venv/bin/python bench/bench_calendar.py [--events 50000] [--kills 20] [--before DIR]
Each speed/memory figure is a ratio against a reference measured in the same run: the import
against icalendar parsing the same file, the listing against recurring-ical-events. Results go
to bench/results/calendar.md."""

from __future__ import annotations

import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import warnings
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skills.calendar import CalendarStore, Event  # noqa: E402
from tests.calendar.corpus.make_corpus import fold  # noqa: E402
from tests.calendar.kill_import import KILL_DURING_IMPORT  # noqa: E402
from tests.calendar.reference import compare  # noqa: E402

CORPUS = ROOT / "tests" / "calendar" / "corpus"
BERLIN = ZoneInfo("Europe/Berlin")
PARSE_ONLY = "import icalendar, sys; icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())"


def big_calendar(events: int, seed: int = 0) -> str:
    """A Google-shaped export: folded lines, attendees, alarms; 1 in 10 recurring, 1 in 8
    all-day, some overrides."""
    rng = random.Random(seed)
    lines = ["BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
             "VERSION:2.0", "X-WR-CALNAME:Big", "X-WR-TIMEZONE:Europe/Berlin"]
    first = datetime(2016, 1, 1, 8)
    for i in range(events):
        start = first + timedelta(days=rng.randrange(3650), hours=rng.randrange(12),
                                  minutes=15 * rng.randrange(4))
        lines += ["BEGIN:VEVENT", f"UID:{i:06d}{rng.getrandbits(40):010x}@google.com",
                  "DTSTAMP:20251201T101010Z"]
        if i % 8 == 0:
            lines += [f"DTSTART;VALUE=DATE:{start:%Y%m%d}",
                      f"DTEND;VALUE=DATE:{start + timedelta(days=1):%Y%m%d}"]
        else:
            lines += [f"DTSTART;TZID=Europe/Berlin:{start:%Y%m%dT%H%M%S}",
                      f"DTEND;TZID=Europe/Berlin:{start + timedelta(minutes=45):%Y%m%dT%H%M%S}"]
        if i % 10 == 0:
            lines.append(rng.choice(["RRULE:FREQ=WEEKLY;BYDAY=MO,WE", "RRULE:FREQ=DAILY;COUNT=10",
                                     "RRULE:FREQ=MONTHLY;BYDAY=2TU", "RRULE:FREQ=YEARLY"]))
        lines += [f"SUMMARY:Event {i} with a longer title that Google keeps on one line",
                  "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;"
                  f"CN=person{i}@example.com;X-NUM-GUESTS=0:mailto:person{i}@example.com",
                  f"DESCRIPTION:Notes for event {i}\\nsecond line", "SEQUENCE:0",
                  "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "END:VALARM",
                  "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "\r\n".join(fold(x) for x in lines) + "\r\n"


def measured(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    seconds, mb, code, _ = measured_output(cmd, env)
    return seconds, mb, code


def measured_output(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int, str]:
    """(seconds, peak RSS in MB, exit code, stdout) of one child process (small output)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        text = out.read().decode()
    return seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), text


def agreement() -> tuple[list[str], dict[str, str]]:
    lines, diffs = [], {}
    files = sorted(CORPUS.glob("*.ics"))
    occurrences = 0
    for path in files:
        result = compare(path)
        occurrences += len(result.ours)
        if not result.same:
            ours, theirs = result.difference()
            diffs[path.name] = result.error or f"ours only {ours[:3]}, reference only {theirs[:3]}"
    by_kind: dict[str, list[int]] = {}
    for path in files:
        kind = path.name.split("-")[0]
        by_kind.setdefault(kind, [0, 0])
        by_kind[kind][0] += 1
        by_kind[kind][1] += path.name not in diffs
    same = len(files) - len(diffs)
    lines.append(f"| corpus files identical, occurrence by occurrence | {same} / {len(files)} "
                 f"({100 * same / len(files):.1f}%) |")
    lines.append(f"| occurrences compared (first year of each file) | {occurrences:,} |")
    for kind, (total, ok) in sorted(by_kind.items()):
        lines.append(f"| {kind} files identical | {ok} / {total} |")
    return lines, diffs


def import_figures(events: int, folder: Path) -> list[str]:
    ics = folder / "big.ics"
    ics.write_text(big_calendar(events), encoding="utf-8")
    size = ics.stat().st_size / 2**20
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HEARTH_HOME": str(folder / "home")}
    ref_s, ref_mb, _ = measured([sys.executable, "-c", PARSE_ONLY, str(ics)], env)
    cli = [sys.executable, "-m", "app.main", "calendar", "import", str(ics), "--tz",
           "Europe/Berlin", "--json"]
    ours_s, ours_mb, code = measured(cli, env)
    again_s, again_mb, code2 = measured(cli, env)
    assert code == code2 == 0
    return [f"| import {events:,} events ({size:.1f} MB), `hearth calendar import` | "
            f"{ours_s:.1f} s, peak RSS {ours_mb:.0f} MB |",
            f"| reference: icalendar parsing the same file, nothing else | {ref_s:.1f} s, "
            f"{ref_mb:.0f} MB |",
            f"| ratio import / parse: time, RSS | {ours_s / ref_s:.2f}, "
            f"{ours_mb / ref_mb:.2f} |",
            f"| re-import of the same file (all updates) | {again_s:.1f} s, {again_mb:.0f} MB |"]


def listing_figures(folder: Path) -> list[str]:
    import icalendar
    import recurring_ical_events

    from skills.calendar.ical import export_ics

    store = CalendarStore(folder / "list.db")
    start = datetime(2026, 1, 1, 7, tzinfo=BERLIN)
    walk = store.add(Event(uid="walk", title="Walk", start=start, end=start + timedelta(hours=1),
                           timezone="Europe/Berlin", rrule="FREQ=DAILY"))
    lo, hi = datetime(2026, 1, 1, tzinfo=BERLIN), datetime(2036, 1, 1, tzinfo=BERLIN)
    t0 = time.perf_counter()
    page = store.listing(lo, hi, limit=100_000)
    ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    first_page = store.listing(lo, hi, limit=200)
    paged = time.perf_counter() - t0
    cal = icalendar.Calendar.from_ical(export_ics([walk]))
    t0 = time.perf_counter()
    theirs = recurring_ical_events.of(cal).between(lo, hi)
    ref = time.perf_counter() - t0
    store.close()
    assert len(page.occurrences) == len(theirs) == 3652
    return [f"| 10 years of a daily event (3,652), all in one call | {ours * 1000:.0f} ms |",
            f"| reference: recurring-ical-events between() | {ref * 1000:.0f} ms |",
            f"| ratio Hearth / reference | {ours / ref:.2f} |",
            f"| first page of 200 with the 'N more' count ({first_page.more:,} more) | "
            f"{paged * 1000:.0f} ms |"]


HOSTILE = """
import resource, sys, time
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo
from skills.calendar import CalendarStore, Event
B = ZoneInfo("Europe/Berlin")
every = ";".join(["BYMONTH=" + ",".join(map(str, range(1, 13))),
                  "BYMONTHDAY=" + ",".join(map(str, range(1, 32))), f"BYHOUR={','.join(map(str, range(24)))}",
                  f"BYMINUTE={','.join(map(str, range(60)))}",
                  f"BYSECOND={','.join(map(str, range(60)))}"])
rule = {"secondly": "FREQ=SECONDLY", "byxxx": "FREQ=YEARLY;" + every}[sys.argv[2]]
store = CalendarStore(Path(sys.argv[1]))
start = datetime(2025, 1, 1, 9, tzinfo=B)
store.add(Event(uid="x", title="x", start=start, end=start + timedelta(seconds=1),
                timezone="Europe/Berlin", rrule=rule))
lo = datetime(2026, 6, 1, tzinfo=B)
t = time.perf_counter()
page = store.listing(lo, lo + timedelta(days=int(sys.argv[3])), limit=200)
print(f"{time.perf_counter() - t:.2f} {len(page.occurrences)} {page.more} {page.more_at_least}")
"""


def hostile_figures(folder: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rows = []
    for kind, label in (("secondly", "FREQ=SECONDLY, no end"),
                        ("byxxx", "YEARLY, every BYMONTH x BYMONTHDAY x BYHOUR x BYMINUTE x BYSECOND")):
        for days in (7, 365):
            db = folder / f"hostile-{kind}-{days}.db"
            cmd = [sys.executable, "-c", HOSTILE, str(db), kind, str(days)]
            seconds, mb, code, text = measured_output(cmd, env)
            out = text.split()
            assert code == 0 and len(out) == 4, text
            rows.append(f"| {label}, {days}-day list | {out[0]} s in the listing, "
                        f"{seconds:.1f} s process, peak RSS {mb:.0f} MB; {out[1]} listed, "
                        f"{'more than ' if out[3] == 'True' else ''}{int(out[2]):,} more |")
    return rows


def kill_figures(kills: int, folder: Path) -> list[str]:
    ics = folder / "kill.ics"
    ics.write_text(big_calendar(20_000, seed=1), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    home = folder / "timing"
    full, _, _ = measured([sys.executable, "-m", "app.main", "calendar", "import", str(ics)],
                          {**env, "HEARTH_HOME": str(home)})
    rng = random.Random(7)
    outcomes: dict[str, int] = {"none": 0, "all": 0, "partial": 0}
    for n in range(kills):
        home = folder / f"kill{n}"
        proc = subprocess.Popen([sys.executable, "-m", "app.main", "calendar", "import",
                                 str(ics)], env={**env, "HEARTH_HOME": str(home)},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, full * 1.05))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        dbs = list(home.rglob("hearth.db"))
        count = 0
        if dbs:
            store = CalendarStore(dbs[0])
            count = len(store.all_events())
            store.close()
        outcomes["none" if count == 0 else "all" if count == 20_000 else "partial"] += 1
    return [f"| SIGKILL at a random moment of a 20,000-event `calendar import` ({kills} runs, "
            f"import takes {full:.1f} s) | nothing imported {outcomes['none']}, all "
            f"{outcomes['all']}, partial {outcomes['partial']} |"]


def write_kill_figures(kills: int, folder: Path, tree: Path, label: str) -> list[str]:
    """Kills at random moments of the write itself (SQLite's progress handler, every 100 VM
    steps), where a non-atomic import would leave part of the file."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    # cwd=tree too: `python -c` puts the working folder first on sys.path
    counted = subprocess.run([sys.executable, "-c", KILL_DURING_IMPORT, str(folder / f"{label}.db"),
                              "0", "100"],
                             env=env, capture_output=True, text=True, check=True, cwd=tree)
    total = int(counted.stdout.split()[-1])
    rng = random.Random(11)
    counts = []
    for n in range(kills):
        db = folder / f"{label}-{n}.db"
        subprocess.run([sys.executable, "-c", KILL_DURING_IMPORT, str(db),
                        str(rng.randint(1, total)), "100"],
                       env=env, capture_output=True, cwd=tree)
        conn = sqlite3.connect(db)
        try:
            counts.append(conn.execute("select count(*) from calendar_events").fetchone()[0])
        except sqlite3.OperationalError:
            counts.append(0)  # killed before the table existed
        conn.close()
    partial = [c for c in counts if c not in (0, 20_000)]
    return [f"| {label}: SIGKILL inside the write of a 20,000-event import ({kills} runs) | "
            f"nothing {counts.count(0)}, all {counts.count(20_000)}, partial {len(partial)}"
            f"{f' ({min(partial):,}-{max(partial):,} events)' if partial else ''} |"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--before", type=Path, help="a checkout of the code before, to compare "
                        "the write kills with (git archive b6254d1 | tar -x -C DIR)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        agree, diffs = agreement()
        rows = list(agree)
        for phase in (lambda: import_figures(args.events, folder),
                      lambda: listing_figures(folder), lambda: hostile_figures(folder),
                      lambda: kill_figures(args.kills, folder),
                      lambda: write_kill_figures(args.kills, folder, ROOT, "now")):
            rows += phase()
            print(rows[-1], file=sys.stderr, flush=True)  # progress: these take minutes
        if args.before:
            rows += write_kill_figures(args.kills, folder, args.before.resolve(), "before")
    out = ["# Calendar (issues 15 and 18)", "",
           f"`.venv/bin/python bench/bench_calendar.py --events {args.events} --kills "
           f"{args.kills}{' --before ' + str(args.before) if args.before else ''}`", "",
           "| figure | value |", "|---|---|", *rows, ""]
    out += ["Differences: none." if not diffs else "Differences:"]
    out += [f"- {name}: {why}" for name, why in diffs.items()]
    text = "\n".join(out) + "\n"
    (ROOT / "bench" / "results" / "calendar.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
