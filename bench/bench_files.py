"""File-search benchmark: index build vs a plain os.scandir walk, query latency and recall vs a
brute-force scan, and watcher latency (file created -> searchable). Prints figures.

    .venv/bin/python bench/bench_files.py [--files 100000] [--queries 200]

The tree is generated once under bench/.cache/files-tree (deterministic; reused next run)."""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from skills.files import FileIndex
from skills.files.kinds import extension, kind_of
from skills.files.query import Filters, search

CACHE = Path(__file__).resolve().parent / ".cache"
EXTS = ["pdf", "docx", "xlsx", "pptx", "jpg", "png", "mp3", "mp4", "zip", "bin", "dat"]
TEXT_EXTS = ["txt", "md", "py", "csv"]
SYLLABLES = "ka lo mi ne ru ta vi so pe da gu ri ze ho ba fi ly mo xa te".split()


def vocabulary(rng: random.Random, size: int) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def generate(tree: Path, files: int, seed: int = 7) -> None:
    """`files` files in 3-level folders, 100 a folder; 10% text with content."""
    marker = tree / f".complete-{files}"
    if marker.exists():
        return
    shutil.rmtree(tree, ignore_errors=True)
    rng = random.Random(seed)
    vocab = vocabulary(rng, 3000)
    for n in range(files):
        folder = tree / f"a{n // 10000}" / f"b{n // 1000 % 10}" / f"c{n // 100 % 10}"
        if n % 100 == 0:
            folder.mkdir(parents=True, exist_ok=True)
        w1, w2 = rng.choice(vocab), rng.choice(vocab)
        stem = f"{w1.capitalize()}{w2.capitalize()}{n}" if n % 3 == 0 else f"{w1}_{w2}_{n}"
        if n % 10 == 0:
            body = " ".join(rng.choices(vocab, k=rng.randint(30, 300)))
            (folder / f"{stem}.{rng.choice(TEXT_EXTS)}").write_text(body)
        else:
            (folder / f"{stem}.{rng.choice(EXTS)}").write_bytes(b"\0" * rng.randint(1, 64))
    marker.write_text("")  # hidden: the index skips it


def scandir_walk(root: Path) -> int:
    """The reference: an iterative os.scandir walk that stats every file (as an index must)."""
    count, stack = 0, [str(root)]
    while stack:
        with os.scandir(stack.pop()) as it:
            for entry in it:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    entry.stat(follow_symlinks=False)
                    count += 1
    return count


def tokens(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower())) | {
        w.lower() for w in re.findall(r"[A-Z]?[a-z]+|\d+", text)}


def corpus(tree: Path) -> list[tuple[str, str, set[str]]]:
    """(path, kind, tokens of name + content) for every file: the brute-force side."""
    rows = []
    for folder, _dirs, names in os.walk(tree):
        for name in names:
            if name.startswith("."):
                continue
            path = os.path.join(folder, name)
            words = tokens(name)
            if extension(name) in TEXT_EXTS:
                words |= tokens(Path(path).read_text())
            rows.append((path, kind_of(extension(name)), words))
    return rows


def brute(rows: list[tuple[str, str, set[str]]], terms: list[str], kind: str | None) -> set[str]:
    return {p for p, k, words in rows if (kind is None or k == kind)
            and all(any(w.startswith(t) for w in words) for t in terms)}


def make_queries(rows: list[tuple[str, str, set[str]]], count: int, seed: int = 11) -> list:
    rng = random.Random(seed)
    text_rows = [r for r in rows if r[1] in ("document", "code", "spreadsheet")
                 and extension(r[0]) in TEXT_EXTS]
    queries = []
    for n in range(count):
        path, _kind, words = rng.choice(text_rows if n % 2 else rows)
        alpha = sorted(w for w in words if w.isalpha())
        word = rng.choice(alpha)
        shape = n % 5
        if shape == 0:
            queries.append(("name/content word", [word], None))
        elif shape == 1:
            queries.append(("prefix", [word[:3]], None))
        elif shape == 2:
            queries.append(("two words", [word, rng.choice(alpha)], None))
        elif shape == 3:
            queries.append(("word + kind", [word], kind_of(extension(path))))
        else:
            queries.append(("name/content word", [rng.choice(alpha)], None))
    return queries


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def bench_queries(index: FileIndex, rows: list, queries: list) -> None:
    latencies, identical, by_shape = [], 0, {}
    brute_times: list[float] = []
    sizes: list[int] = []
    per_shape: dict[str, list[float]] = {}
    for shape, terms, kind in queries:
        started = time.perf_counter()
        index.search(" ".join(terms), kind=kind, limit=20)
        latencies.append((time.perf_counter() - started) * 1000)
        per_shape.setdefault(shape, []).append(latencies[-1])
        with index.store.lock:  # every match, past the tool's 1000-result cap
            hits = search(index.store.conn, " ".join(terms), Filters(kind=kind), 10**7)
        got = {h.path for h in hits}
        started = time.perf_counter()
        expected = brute(rows, terms, kind)
        brute_times.append((time.perf_counter() - started) * 1000)
        same = got == expected
        sizes.append(len(expected))
        identical += same
        ok, total = by_shape.get(shape, (0, 0))
        by_shape[shape] = (ok + same, total + 1)
    print(f"queries: {len(queries)}  p50 {pct(latencies, .5):.2f} ms  p95 "
          f"{pct(latencies, .95):.2f} ms  max {max(latencies):.2f} ms (limit 20)")
    print("  p95 by shape: " + "  ".join(f"{k} {pct(v, .95):.1f} ms" for k, v in per_shape.items()))
    print(f"brute force (in-memory token sets): p50 {pct(brute_times, .5):.1f} ms  "
          f"ratio p50 {pct(brute_times, .5) / pct(latencies, .5):.0f}x slower")
    print(f"matches per query: median {statistics.median(sizes):.0f}, max {max(sizes)}")
    print(f"identical result sets: {identical}/{len(queries)}  " + "  ".join(
        f"{s}: {ok}/{t}" for s, (ok, t) in by_shape.items()))


def bench_watch(index: FileIndex, tree: Path, samples: int) -> None:
    started = time.perf_counter()
    index.start_watching()
    print(f"watch start on the tree: {time.perf_counter() - started:.2f} s "
          f"({index.status().watch_error or 'ok'})")
    delays = []
    for n in range(samples):
        word = f"zqwatch{n}x"
        path = tree / "a0" / "b0" / f"c{n % 10}" / f"{word}.txt"
        created = time.perf_counter()
        path.write_text(f"fresh {word}")
        while not index.search(word, limit=1):
            if time.perf_counter() - created > 10:
                break
            time.sleep(0.005)
        delays.append(time.perf_counter() - created)
        path.unlink()
    index.stop()
    print(f"create -> searchable ({samples} files): p50 {statistics.median(delays):.3f} s  "
          f"max {max(delays):.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--watch-samples", type=int, default=20)
    args = parser.parse_args()
    tree = CACHE / "files-tree"
    started = time.perf_counter()
    generate(tree, args.files)
    print(f"tree: {args.files} files under {tree} (ready in {time.perf_counter() - started:.1f} s)")

    walk_s = min(_timed(lambda: scandir_walk(tree)) for _ in range(2))  # warm cache, best of 2
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        index = FileIndex(Path(tmp) / "index.db", roots=[str(tree)])
        names_at: list[float] = []
        started = time.perf_counter()

        def progress(p) -> None:  # type: ignore[no-untyped-def]
            if p.phase == "content" and not names_at:
                names_at.append(time.perf_counter() - started)

        cpu = time.process_time()
        build_s = _timed(lambda: _scan(index, progress))
        build_cpu = time.process_time() - cpu
        report = index.scan()
        rescan_s = report.seconds
        n = args.files
        print(f"os.scandir walk (+stat): {walk_s:.2f} s = {n / walk_s:,.0f} files/s")
        print(f"index build (metadata + 10% content): {build_s:.2f} s = {n / build_s:,.0f} "
              f"files/s  ratio {walk_s / build_s:.2f} of the walk's speed; CPU {build_cpu:.1f} s "
              f"= {n / build_cpu:,.0f} files per CPU-second (the box is shared: wall time "
              "includes waiting for a core)")
        print(f"  every name searchable after {names_at[0]:.2f} s "
              f"= {n / names_at[0]:,.0f} files/s (then the text of new files is read)")
        print(f"catch-up scan, nothing changed: {rescan_s:.2f} s = {n / rescan_s:,.0f} files/s "
              f"(unchanged {report.unchanged})")
        rows = corpus(tree)
        bench_queries(index, rows, make_queries(rows, args.queries))
        bench_watch(index, tree, args.watch_samples)
        index.close()


def _scan(index: FileIndex, progress) -> None:  # type: ignore[no-untyped-def]
    report = index.scan(progress)
    assert report.added > 0 and not report.errors, report.errors[:3]


def _timed(fn) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
