"""Issue 18 figures: a hostile corpus through both indexes (time, peak RSS of every process),
kills at random moments (integrity, stale or missing passages), and the whole CLI on a full
disk and a read-only HEARTH_HOME (tracebacks). Linux; the mounts need root.

    .venv/bin/python bench/bench_hostile.py [--kills 20] [--out bench/results/hostile.md]
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
             "| command | exit | wall s | peak RSS of every process, MB (worker restarts are new processes) |", "|---|---|---|---|"]
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


def kill_run(work: Path, kills: int, seed: int = 18) -> list[str]:
    rng = random.Random(seed)
    folder = work / "killdocs"
    folder.mkdir()
    _texts(folder, 0, 40, rng)
    home = work / "home-kills"
    script = work / "script.json"
    script.write_text(json.dumps(["I have what I need.\n</think>\n\n" + "word " * 400]))
    commands = {
        "docs add": ["docs", "add", str(folder)],
        "files add-root": ["files", "add-root", str(folder)],
        "ask": ["ask", "tell me", "--engine", "scripted", "--script", str(script),
                "--script-delay", "0.002"],
    }
    results: dict[str, list[int]] = {name: [0, 0, 0] for name in commands}  # kills, bad, stale
    for generation in range(1, kills + 1):
        name = list(commands)[generation % len(commands)]
        if name == "docs add":
            _texts(folder, generation, 5, rng)  # changed files: old passages must go
        process = subprocess.Popen([sys.executable, "-c", LAUNCH, *commands[name]],
                                   env=env_for(home), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 4.0))
        process.send_signal(signal.SIGKILL)
        process.wait()
        ok, mismatched = _index_check(home / "cache" / "index.db")
        history_ok = _history_check(home / "data" / "hearth.db")
        results[name][0] += 1
        results[name][1] += int(not ok or not history_ok)
        results[name][2] += mismatched
    code = subprocess.run([sys.executable, "-c", LAUNCH, "docs", "add", str(folder)],
                          env=env_for(home), capture_output=True, check=False).returncode
    stale, missing = _stale_and_missing(home / "cache" / "index.db", folder)
    lines = ["## Kills at random moments", "",
             f"{kills} SIGKILLs spread over the three commands, each 0.3-4 s after start; "
             "5 of the 40 documents rewritten before each `docs add` (so a kill can land "
             "while old passages are replaced). After every kill: `pragma integrity_check` "
             "on index.db and hearth.db, and every document marked indexed must hold exactly "
             "its passages and their search entries.", "",
             "| command | kills | failed integrity checks | documents with passages missing |",
             "|---|---|---|---|"]
    lines += [f"| {name} | {k} | {b} | {s} |" for name, (k, b, s) in results.items()]
    lines += ["", f"Then one uninterrupted `docs add` (exit {code}): {stale} documents with "
              f"stale passages (text of an older version), {missing} of 40 missing.", ""]
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
                _fill(home / "filler")
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


def _fill(path: Path) -> None:
    """Write until the disk refuses a single byte more."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (1 << 20, 4096, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                continue
    finally:
        os.close(fd)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=20)
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
