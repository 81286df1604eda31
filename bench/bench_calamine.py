"""python-calamine against Hearth's own XLSX reader (skills/common/xlsx_cells.py), issue 29.

    .venv/bin/pip install python-calamine   # not a dependency: only this comparison uses it
    .venv/bin/python bench/bench_calamine.py [--rows 20000 100000] [--rounds 5]

Speed: every stored cell of the office bench's orders workbook (bench_office.make_book), read
by each reader in the same process, alternating A B A B, the median of the per-round ratios.
Bounds: the 4.8 KB workbook whose one cell sits at XFD1048576 (tests/office/
test_bounded_sheets.py), read by each reader in a child process under a 1 GiB address-space cap:
what each does with a range the file claims but never stores."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CAP_BYTES = 1 << 30
CHILD = """
import resource, sys, time, zipfile
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
path, which = sys.argv[1], sys.argv[2]
start = time.perf_counter()
try:
    if which == "calamine":
        import python_calamine
        book = python_calamine.CalamineWorkbook.from_path(path)
        rows = book.get_sheet_by_index(0).to_python()
    else:
        from skills.common.xlsx_cells import Workbook
        with zipfile.ZipFile(path) as archive:
            book = Workbook(archive)
            rows = book.cells(book.sheets[0], 10**9, 10**12).grid
    print(f"ok {{sum(len(r) for r in rows)}} cells {{time.perf_counter() - start:.2f}} s")
except MemoryError:
    print(f"MemoryError after {{time.perf_counter() - start:.2f}} s")
"""


def ours(path: Path) -> int:
    from skills.common.xlsx_cells import Workbook

    with zipfile.ZipFile(path) as archive:
        book = Workbook(archive)
        return sum(sum(1 for v in row if v is not None)
                   for ref in book.sheets if ref.member
                   for row in book.cells(ref, 10**9, 10**12).grid)


def calamine(path: Path) -> int:
    import python_calamine

    book = python_calamine.CalamineWorkbook.from_path(str(path))
    return sum(sum(1 for v in row if v not in ("", None))
               for name in book.sheet_names
               for row in book.get_sheet_by_name(name).to_python())


def timed(fn: object, path: Path) -> tuple[float, int]:
    start = time.perf_counter()
    cells = fn(path)  # type: ignore[operator]
    return time.perf_counter() - start, cells


def speed(path: Path, rounds: int) -> tuple[float, float, float, int, int]:
    timed(ours, path), timed(calamine, path)  # warm both (imports, page cache)
    ratios, a_times, b_times = [], [], []
    for _ in range(rounds):
        a, cells_a = timed(ours, path)
        b, cells_b = timed(calamine, path)
        a_times.append(a)
        b_times.append(b)
        ratios.append(b / a)
    return (statistics.median(a_times), statistics.median(b_times), statistics.median(ratios),
            cells_a, cells_b)


def bomb_behaviour(folder: Path) -> dict[str, str]:
    from tests.office.test_bounded_sheets import claimed_range_bomb

    path = claimed_range_bomb(folder / "claims.xlsx")
    found = {}
    for which in ("hearth", "calamine"):
        run = subprocess.run([sys.executable, "-c", CHILD.format(cap=CAP_BYTES), str(path), which],
                             capture_output=True, text=True, cwd=ROOT, timeout=600)
        last = (run.stdout.strip() or run.stderr.strip().splitlines()[-1:] or ["?"])
        found[which] = (last if isinstance(last, str) else last[0]) + f" (exit {run.returncode})"
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, nargs="+", default=[20_000, 100_000])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from bench.bench_office import make_book

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print("| rows | Hearth's reader | python-calamine | calamine / Hearth (median of rounds) "
              "| cells read (Hearth, calamine) |\n|---:|---:|---:|---:|---|")
        for rows in args.rows:
            path = folder / f"orders-{rows}.xlsx"
            make_book(path, rows, seed=rows)
            a, b, ratio, cells_a, cells_b = speed(path, args.rounds)
            print(f"| {rows:,} | {a:.3f} s | {b:.3f} s | {ratio:.2f} | {cells_a:,}, {cells_b:,} |")
        print()
        for which, said in bomb_behaviour(folder).items():
            print(f"- claimed-range bomb, {which}, 1 GiB cap: {said}")


if __name__ == "__main__":
    main()
