"""Issue 18 figures: a hostile corpus through both indexes (time, peak RSS of every process),
kills at random moments (integrity, stale or missing passages), and the whole CLI on a full
disk and a read-only HEARTH_HOME (tracebacks). Linux; the mounts need root.

    .venv/bin/python bench/bench_hostile.py [--kills 100] [--only kills] [--out bench/results/hostile.md]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.hostile_corpus import GOOD_MARKERS, build  # noqa: E402
from tests.support.full_disk import fill  # noqa: E402

LAUNCH = "import sys; from app.main import main; sys.exit(main(sys.argv[1:]))"


# -- processes and their peak memory --------------------------------------------------------

def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry))
            except OSError:
                continue
    return found


def _peak_kb(pid: int) -> tuple[str, int] | None:
    try:
        with open(f"/proc/{pid}/status") as handle:
            status = dict(line.split(":", 1) for line in handle if ":" in line)
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            cmd = handle.read().replace(b"\0", b" ").decode(errors="replace")
        cmd = ("resource tracker" if "resource_tracker" in cmd else
               "parser worker" if "multiprocessing" in cmd else "hearth CLI")
        return cmd, int(status.get("VmHWM", "0 kB").split()[0])
    except (OSError, ValueError):
        return None


def run_measured(argv: list[str], env: dict[str, str],
                 timeout: float = 1800) -> tuple[int, float, dict[int, tuple[str, int]], str, str]:
    """Run a hearth command; wall seconds and the peak RSS (kB) of it and every descendant."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", LAUNCH, *argv], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peaks: dict[int, tuple[str, int]] = {}
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            tree, frontier = [process.pid], [process.pid]
            while frontier:
                kids = _children(frontier.pop())
                tree += kids
                frontier += kids
            for pid in tree:
                seen = _peak_kb(pid)
                if seen and seen[1] >= peaks.get(pid, ("", 0))[1]:
                    peaks[pid] = (seen[0] or peaks.get(pid, ("?", 0))[0], seen[1])
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    out, err = process.communicate(timeout=timeout)
    done.set()
    watcher.join()
    return process.returncode, time.perf_counter() - started, peaks, out, err


def env_for(home: Path) -> dict[str, str]:
    return {**os.environ, "HEARTH_HOME": str(home), "PYTHONPATH": str(ROOT)}


# -- 1. the hostile corpus ------------------------------------------------------------------

def corpus_run(work: Path) -> list[str]:
    corpus = work / "corpus"
    made = build(corpus)
    home = work / "home-corpus"
    lines = ["## Hostile corpus through both indexes", "",
             f"{len(made['good'])} good files and {len(made['hostile'])} hostile ones "
             "(see bench/hostile_corpus.py).", "",
             "| command | exit | wall s | peak RSS of every process, MB "
             "(worker restarts are new processes) |",
             "|---|---|---|---|"]
    reports = {}
    for argv in (["docs", "add", str(corpus), "--json"],
                 ["files", "add-root", str(corpus), "--json"]):
        code, wall, peaks, out, err = run_measured(argv, env_for(home))
        label = " ".join(argv[:2])
        rss = ", ".join(f"{cmd} {kb / 1024:.0f}"
                        for cmd, kb in sorted(peaks.values(), key=lambda p: -p[1]))
        lines.append(f"| hearth {label} | {code} | {wall:.1f} | {rss} |")
        reports[label] = (out, err)
        assert "Traceback" not in err, err
    docs_out = json.loads(reports["docs add"][0].splitlines()[-1])
    lines += ["", "Documents skipped, with their reasons:", ""]
    lines += [f"- `{Path(f['path']).name!r}`: {f['reason']}" for f in docs_out["failures"]]
    scan = json.loads(reports["files add-root"][0].splitlines()[-1])["scan"] or {}
    lines += ["", f"File search: {scan.get('seen', 0)} files seen, their names all indexed; "
              "content it could not read (each kept by name):", ""]
    lines += [f"- `{Path(str(e[0])).name!r}`: {e[1]}" for e in scan.get("errors", [])]
    found_docs = _search_all(home, "docs")
    found_files = _search_all(home, "files")
    lines += ["", f"Good files found by marker word: documents {found_docs}/"
              f"{len(GOOD_MARKERS)}, file search {found_files}/{len(GOOD_MARKERS)}.", ""]
    return lines


def _search_all(home: Path, area: str) -> int:
    hits = 0
    for marker in GOOD_MARKERS:
        code, _, _, out, _ = run_measured([area, "search", marker], env_for(home))
        hits += int(code == 0 and ("good" in out or marker in out))
    return hits


# -- 2. kills at random moments -------------------------------------------------------------

def _texts(folder: Path, generation: int, count: int, rng: random.Random) -> None:
    for i in rng.sample(range(40), count):
        body = " ".join(rng.choice(["alpha", "delta", "orchard", "granite"]) for _ in range(3000))
        (folder / f"doc{i:02d}.txt").write_text(f"gen{generation}doc{i:02d} {body}")


def _index_check(index_db: Path) -> tuple[bool, int]:
    """Integrity, and documents whose stored passages do not match their row."""
    if not index_db.exists():
        return True, 0
    conn = sqlite3.connect(index_db)
    try:
        ok = conn.execute("pragma integrity_check").fetchone()[0] == "ok"
        bad = conn.execute(
            "select count(*) from doc_documents d where status = 'ok' and (chunks != "
            "(select count(*) from doc_chunks c where c.document_id = d.id) or chunks !="
            " (select count(*) from doc_fts where rowid in"
            "  (select id from doc_chunks c where c.document_id = d.id)))").fetchone()[0]
        return ok, int(bad)
    except sqlite3.OperationalError:
        return ok, 0  # the documents tables were not made yet
    finally:
        conn.close()


def _history_check(history_db: Path) -> bool:
    if not history_db.exists():
        return True
    conn = sqlite3.connect(history_db)
    try:
        return bool(conn.execute("pragma integrity_check").fetchone()[0] == "ok")
    finally:
        conn.close()


# Words that never repeat: a repeating answer would be cut short by the loop guard.
ANSWER = " ".join(f"{w}{i}" for i, w in enumerate(["granite", "orchard", "delta", "lantern"]
                                                  * 100))
CALENDAR_EVENTS = 6000
REWRITTEN = 10  # documents changed before each `docs add`


def _calendar_file(template: str, folder: Path, generation: int) -> Path:
    """The same events under new UIDs, so each import adds exactly CALENDAR_EVENTS rows."""
    path = folder / f"import{generation}.ics"
    path.write_text(template.replace("UID:", f"UID:g{generation}-"), encoding="utf-8")
    return path


def _events(history_db: Path) -> int:
    if not history_db.exists():
        return 0
    conn = sqlite3.connect(history_db)
    try:
        return int(conn.execute("select count(*) from calendar_events").fetchone()[0])
    except sqlite3.OperationalError:
        return 0  # killed before the calendar's table was made
    finally:
        conn.close()


def _half_turns(history_db: Path, answer: str) -> set[str]:
    """Turns a kill left half-written, once a store has reopened the file (which marks answers
    whose writer died 'interrupted'): a conversation without its question, a gap in its
    messages, an answer still 'streaming', an answer marked complete without all the text of
    the uninterrupted one (`answer`), or search entries out of step with the messages."""
    if not history_db.exists():
        return set()
    from app.core.history.store import HistoryStore

    HistoryStore(history_db).close()  # what the next `hearth` does first
    conn = sqlite3.connect(history_db)
    try:
        queries = [
            "select 'no question ' || id from conversations c where not exists (select 1 from"
            " messages m where m.conversation_id = c.id and m.role = 'user')",
            "select 'gap ' || conversation_id from messages group by conversation_id"
            " having count(*) != max(seq) - min(seq) + 1",
            "select 'streaming ' || id from messages where status = 'streaming'",
            "select 'cut but complete ' || id from messages where role = 'assistant' and"
            " status = 'complete' and content != ?"]
        bad = {row[0] for q in queries
               for row in conn.execute(q, [answer] if "?" in q else [])}
        try:
            conn.execute("insert into messages_fts (messages_fts) values ('integrity-check')")
        except sqlite3.DatabaseError as exc:
            bad.add(f"search index: {exc}")
        return bad
    except sqlite3.OperationalError:
        return set()  # killed before the history tables were made
    finally:
        conn.close()


def _answer(history_db: Path) -> str:
    """The text of the uninterrupted answer, as the history stores it."""
    conn = sqlite3.connect(history_db)
    try:
        return str(conn.execute("select content from messages where role = 'assistant' and"
                                " status = 'complete'").fetchone()[0])
    finally:
        conn.close()


def _timed(argv: list[str], home: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", LAUNCH, *argv], env=env_for(home),
                   capture_output=True, check=False)
    return time.perf_counter() - started


def _durations(commands: dict[str, list[str]], home: Path, folder: Path, rng: random.Random
               ) -> dict[str, float]:
    """Each command's uninterrupted time in this home as the kills find it (the documents
    indexed once, then REWRITTEN of them changed), and the start-up every command pays
    (`history list`): kills are spread over the work after it."""
    for name in ("docs add", "files add-root"):
        _timed(commands[name], home)
    _texts(folder, 0, REWRITTEN, rng)
    out = {name: _timed(argv, home) for name, argv in commands.items()}
    out["start-up"] = _timed(["history", "list"], home)
    return out


def kill_run(work: Path, kills: int, seed: int = 18) -> list[str]:
    from bench.bench_calendar import big_calendar

    rng = random.Random(seed)
    folder = work / "killdocs"
    folder.mkdir()
    _texts(folder, 0, 40, rng)
    icals = work / "icals"
    icals.mkdir()
    template = big_calendar(CALENDAR_EVENTS, seed=seed)
    home = work / "home-kills"
    script = work / "script.json"
    script.write_text(json.dumps(["I have what I need.\n</think>\n\n" + ANSWER]))
    ask = ["ask", "tell me", "--engine", "scripted", "--script", str(script),
           "--script-delay", "0.02"]
    commands = {
        "docs add": ["docs", "add", str(folder)],
        "files add-root": ["files", "add-root", str(folder)],
        "calendar import": ["calendar", "import", str(_calendar_file(template, icals, 0))],
        "ask": ask,
    }
    full = _durations(commands, home, folder, rng)  # also the first import and answer
    hearth_db, index_db = home / "data" / "hearth.db", home / "cache" / "index.db"
    # kills, failed integrity checks, documents with passages missing, partial imports,
    # half-written turns; and what each import left: nothing or all
    results: dict[str, list[int]] = {name: [0, 0, 0, 0, 0] for name in commands}
    answer = _answer(hearth_db)
    half: set[str] = set()
    imports = {"nothing": 0, "all": 0, "partial": 0}
    for generation in range(1, kills + 1):
        name = list(commands)[generation % len(commands)]
        argv = commands[name]
        if name == "docs add":
            _texts(folder, generation, REWRITTEN, rng)  # changed: old passages must go
        if name == "calendar import":
            argv = ["calendar", "import", str(_calendar_file(template, icals, generation))]
        before = _events(hearth_db)
        process = subprocess.Popen([sys.executable, "-c", LAUNCH, *argv],
                                   env=env_for(home), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        # From the end of start-up (some kills land in it) to past the end of the work.
        time.sleep(rng.uniform(full["start-up"] * 0.8, full[name] * 1.1))
        process.send_signal(signal.SIGKILL)
        process.wait()
        ok, mismatched = _index_check(index_db)
        history_ok = _history_check(hearth_db)
        row = results[name]
        row[0] += 1
        row[1] += int(not ok or not history_ok)
        row[2] += mismatched
        if name == "calendar import":
            added = _events(hearth_db) - before
            outcome = ("nothing" if added == 0 else "all" if added == CALENDAR_EVENTS
                       else "partial")
            imports[outcome] += 1
            row[3] += int(outcome == "partial")
        found = _half_turns(hearth_db, answer) - half  # each counted once, by who left it
        half |= found
        row[4] += len(found)
    code = subprocess.run([sys.executable, "-c", LAUNCH, "docs", "add", str(folder)],
                          env=env_for(home), capture_output=True, check=False).returncode
    stale, missing = _stale_and_missing(index_db, folder)
    window = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in full.items())
    lines = ["## Kills at random moments", "",
             f"{kills} SIGKILLs spread over the four commands in one HEARTH_HOME, each at a "
             "random moment from 0.8x the start-up every command pays to 1.1x the command's "
             f"uninterrupted time in this run ({window}). {REWRITTEN} of the 40 documents "
             "rewritten before each `docs add` (so a kill can land while old passages are "
             f"replaced); each `calendar import` brings {CALENDAR_EVENTS:,} new events "
             "(Google-shaped, 1 in 10 recurring); `ask` streams a scripted answer of "
             f"{len(answer.split())} words (the hidden test engine, 20 ms a token). After every "
             "kill: `pragma integrity_check` on index.db and hearth.db; every document marked "
             "indexed must hold exactly its passages and their search entries; the import "
             "added nothing or all; once the history is reopened, no conversation without its "
             "question, no gap in a conversation, no answer still streaming or marked complete "
             "without all its text, and the history's search index passes FTS5's "
             "integrity-check.", "",
             "| command | kills | failed integrity checks | documents with passages missing |"
             " partial imports | half-written turns |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {name} | {k} | {b} | {s} | {p} | {h} |"
              for name, (k, b, s, p, h) in results.items()]
    lines += ["", f"Imports killed: {imports['nothing']} left nothing, {imports['all']} all "
              f"{CALENDAR_EVENTS:,} events (killed after the commit), {imports['partial']} "
              "partial.", "",
              f"Then one uninterrupted `docs add` (exit {code}): {stale} documents with "
              f"stale passages (text of an older version), {missing} of 40 missing.", ""]
    lines += [f"- half-written: {item}" for item in sorted(half)]
    conn = sqlite3.connect(hearth_db)
    statuses = dict(conn.execute("select status, count(*) from messages where role ="
                                 " 'assistant' group by status").fetchall())
    conn.close()
    lines += ["Answers in the history at the end, by status (the uninterrupted one and kills "
              "after the last token are complete; a cut answer keeps its text, marked): "
              + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())) + ".", ""]
    return lines


def _stale_and_missing(index_db: Path, folder: Path) -> tuple[int, int]:
    conn = sqlite3.connect(index_db)
    try:
        stale = missing = 0
        for path in sorted(folder.glob("*.txt")):
            current = path.read_text().split()[0]
            rows = conn.execute(
                "select c.text from doc_chunks c join doc_documents d on d.id = c.document_id"
                " where d.path = ? and d.status = 'ok' order by c.ordinal", [str(path)]).fetchall()
            if not rows:
                missing += 1
            elif not rows[0][0].startswith(current):  # the text of an older version
                stale += 1
        return stale, missing
    finally:
        conn.close()


# -- 3. the whole CLI on a full disk and a read-only home -----------------------------------

def cli_commands(work: Path, folder: Path) -> list[list[str]]:
    script = work / "script.json"
    return [["history", "list"], ["history", "search", "hi"], ["history", "export"],
            ["docs", "status"], ["docs", "search", "orchard"], ["docs", "add", str(folder)],
            ["docs", "list"], ["files", "status"], ["files", "search", "orchard"],
            ["files", "scan"], ["files", "add-root", str(folder)],
            ["calendar", "list", "--from", "2026-12-01", "--to", "2026-12-05"],
            ["calendar", "add", "--title", "Lunch", "--start", "2026-12-04T12:00"],
            ["calendar", "export", str(work / "out.ics")],
            ["ask", "hi", "--engine", "scripted", "--script", str(script)],
            ["models", "list"], ["selftest", "--help"]]


def faults_run(work: Path) -> list[str]:
    lines = ["## The whole CLI on a full disk and a read-only HEARTH_HOME", ""]
    if os.geteuid() != 0:
        return [*lines, "Not run: mounting needs root.", ""]
    folder = work / "killdocs"
    rows: list[str] = []
    exits: list[str] = []
    for label in ("full disk (tmpfs, filled)", "read-only (bind mount, ro)"):
        home = work / ("home-full" if "full" in label else "home-ro")
        home.mkdir()
        if "full" in label:
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(home)],
                           check=True)
        for argv in (["docs", "add", str(folder / "doc00.txt")],
                     ["files", "add-root", str(folder)],
                     ["ask", "hi", "--engine", "scripted", "--script", str(work / "script.json")],
                     ["calendar", "add", "--title", "Tea", "--start", "2026-12-03T10:00"]):
            subprocess.run([sys.executable, "-c", LAUNCH, *argv], env=env_for(home),
                           capture_output=True, check=False)
        tracebacks = failed = longest = 0
        codes: list[str] = []
        try:
            if "full" in label:
                fill(home / "filler")
            else:
                subprocess.run(["mount", "--bind", str(home), str(home)], check=True)
                subprocess.run(["mount", "-o", "remount,bind,ro", str(home)], check=True)
            for argv in cli_commands(work, folder):
                result = subprocess.run([sys.executable, "-c", LAUNCH, *argv],
                                        env=env_for(home), capture_output=True, text=True,
                                        check=False, timeout=600)
                tracebacks += int("Traceback" in result.stderr)
                failed += int(result.returncode != 0)
                codes.append(f"`{' '.join(argv[:2])}` {result.returncode}")
                longest = max(longest, len(result.stderr.strip().splitlines()))
        finally:
            subprocess.run(["umount", "-l", str(home)], check=False)
        rows.append(f"| {label} | {len(cli_commands(work, folder))} | {failed} | {tracebacks} "
                    f"| {longest} |")
        exits.append(f"Exit codes, {label}: " + ", ".join(codes) + ".")
    return [*lines, "| home | commands | non-zero exits | tracebacks | most stderr lines |",
            "|---|---|---|---|---|", *rows, "", *exits, ""]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "hostile.md"))
    parser.add_argument("--only", choices=("corpus", "kills", "faults"), action="append")
    args = parser.parse_args()
    parts = args.only or ["corpus", "kills", "faults"]
    out = Path(args.out)
    out.write_text("# Issue 18: hostile input, damaged state and faults\n\n", encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="hearth-hostile-") as tmp:
        work = Path(tmp)
        for part in parts:
            if part == "faults" and "kills" not in parts:
                _prepare_faults(work)
            lines = {"corpus": lambda: corpus_run(work), "kills": lambda: kill_run(
                work, args.kills), "faults": lambda: faults_run(work)}[part]()
            text = "\n".join(lines)
            with out.open("a", encoding="utf-8") as handle:  # each part as soon as it is done
                handle.write(text + "\n")
            print(text, flush=True)
    return 0


def _prepare_faults(work: Path) -> None:
    folder = work / "killdocs"
    folder.mkdir()
    _texts(folder, 0, 40, random.Random(1))
    (work / "script.json").write_text(json.dumps(["I have what I need.\n</think>\n\nHi."]))


if __name__ == "__main__":
    sys.exit(main())
