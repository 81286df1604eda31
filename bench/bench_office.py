"""Office skill figures: query correctness against answers computed independently with
openpyxl/csv, load+query time against openpyxl's read-only load, written files re-opened,
folder digest speed on the tiny model with cache hits, memory on a 1,000,000-row workbook.

    .venv/bin/python bench/bench_office.py [--sizes 10,100,1000,10000,100000] [--out FILE]

Writes bench/results/office.md (or --out)."""

from __future__ import annotations

import argparse
import csv
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skills.base import SkillContext  # noqa: E402
from skills.office import OfficeAccess, office_skills  # noqa: E402
from skills.office.sheets import load_sheets  # noqa: E402
from skills.office.sql import SheetDatabase  # noqa: E402

REGIONS = ["华东", "华南", "华北", "西部"]
CITIES = ["上海", "广州", "北京", "成都", "杭州"]
HEADER = ["订单号", "客户", "金额", "数量", "日期", "区域", "备注"]


# --- generated workbooks ----------------------------------------------------------------------


def make_book(path: Path, rows: int, seed: int) -> None:
    """Orders under a merged title line (Chinese headers), numbers written as text every third
    row, blank notes, vertically merged regions (small sheets), and a customers sheet."""
    import openpyxl

    rnd = random.Random(seed)
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "订单"
    ws.append([f"订单明细 {rows}"])
    ws.merge_cells("A1:G1")
    ws.append(HEADER)
    start = date(2025, 1, 1)
    region_runs: list[tuple[int, int]] = []
    r = 3
    while r < rows + 3:
        run = rnd.randint(1, 4)
        end = min(r + run - 1, rows + 2)
        region = rnd.choice(REGIONS)
        for row in range(r, end + 1):
            amount = round(rnd.uniform(1, 9999), 2)
            cells: list[Any] = [
                f"SO{row:06d}", f"客户{rnd.randint(1, 40):02d}",
                str(amount) if row % 3 == 0 else amount, rnd.randint(1, 10),
                datetime.combine(start + timedelta(days=rnd.randint(0, 500)), datetime.min.time()),
                region if row == r else (None if rows <= 10_000 else region),
                None if rnd.random() < 0.6 else rnd.choice(["加急", "赠品", "退货"]),
            ]
            ws.append(cells)
        if rows <= 10_000 and end > r:
            region_runs.append((r, end))
        r = end + 1
    for top, bottom in region_runs:
        ws.merge_cells(f"F{top}:F{bottom}")
    customers = book.create_sheet("客户表")
    customers.append(["客户", "城市"])
    for n in range(1, 41):
        customers.append([f"客户{n:02d}", CITIES[n % len(CITIES)]])
    book.save(path)


# --- independent answers (openpyxl, no Hearth code) -------------------------------------------


def independent_rows(path: Path) -> tuple[list[dict[str, Any]], dict[str, str]]:
    import openpyxl

    book = openpyxl.load_workbook(path, data_only=True)
    ws = book["订单"]
    grid = [list(r) for r in ws.iter_rows(values_only=True)]
    for merged in ws.merged_cells.ranges:
        if merged.min_row <= 2:
            continue
        value = grid[merged.min_row - 1][merged.min_col - 1]
        for rr in range(merged.min_row, merged.max_row + 1):
            for cc in range(merged.min_col, merged.max_col + 1):
                grid[rr - 1][cc - 1] = value
    rows = []
    for cells in grid[2:]:
        row = dict(zip(HEADER, cells, strict=False))
        row["金额"] = float(row["金额"])
        rows.append(row)
    cities = {c: city for c, city in list(book["客户表"].iter_rows(values_only=True))[1:]}
    return rows, cities


Question = tuple[str, str, Callable[[list[dict[str, Any]], dict[str, str]], Any]]


def questions(rnd: random.Random) -> list[Question]:
    k = f"客户{rnd.randint(1, 40):02d}"
    region = rnd.choice(REGIONS)
    city = rnd.choice(CITIES)
    threshold = rnd.randint(1000, 9000)
    month = rnd.randint(1, 12)
    lo, hi = sorted(rnd.sample(range(1, 11), 2))
    first = f"2025-{month:02d}-01"
    after = f"2025-{month + 1:02d}-01" if month < 12 else "2026-01-01"

    def day(d: Any) -> str:
        return d.date().isoformat()

    def totals(rows: list[dict[str, Any]]) -> dict[str, float]:
        out: dict[str, float] = defaultdict(float)
        for r in rows:
            out[r["客户"]] += r["金额"]
        return out

    return [
        ("count", "select count(*) from 订单", lambda rows, c: len(rows)),
        ("sum", "select round(sum(金额), 2) from 订单",
         lambda rows, c: round(sum(r["金额"] for r in rows), 2)),
        ("over", f"select count(*) from 订单 where 金额 > {threshold}",
         lambda rows, c: sum(r["金额"] > threshold for r in rows)),
        ("per customer", f"select round(sum(金额), 2) from 订单 where 客户 = '{k}'",
         lambda rows, c: round(sum(r["金额"] for r in rows if r["客户"] == k), 2)
         if any(r["客户"] == k for r in rows) else None),
        ("distinct", "select count(distinct 客户) from 订单",
         lambda rows, c: len({r["客户"] for r in rows})),
        ("first date", "select min(日期) from 订单", lambda rows, c: day(min(r["日期"]
                                                                       for r in rows))),
        ("last date", "select max(日期) from 订单", lambda rows, c: day(max(r["日期"]
                                                                      for r in rows))),
        ("blank notes", "select count(*) from 订单 where 备注 is null",
         lambda rows, c: sum(r["备注"] is None for r in rows)),
        ("merged region", f"select count(*) from 订单 where 区域 = '{region}'",
         lambda rows, c: sum(r["区域"] == region for r in rows)),
        ("average", "select round(avg(金额), 2) from 订单",
         lambda rows, c: round(sum(r["金额"] for r in rows) / len(rows), 2)),
        ("top customer", "select 客户 from 订单 group by 客户 order by sum(金额) desc, 客户"
         " limit 1", lambda rows, c: sorted(totals(rows).items(), key=lambda kv: (-kv[1],
                                                                                  kv[0]))[0][0]),
        ("month", f"select count(*) from 订单 where 日期 >= '{first}' and 日期 < '{after}'",
         lambda rows, c: sum(first <= day(r["日期"]) < after for r in rows)),
        ("join city", f"select round(sum(o.金额), 2) from 订单 o join 客户表 k on k.客户 ="
         f" o.客户 where k.城市 = '{city}'",
         lambda rows, c: round(sum(r["金额"] for r in rows if c[r["客户"]] == city), 2)
         if any(c[r["客户"]] == city for r in rows) else None),
        ("between", f"select count(*) from 订单 where 数量 between {lo} and {hi}",
         lambda rows, c: sum(lo <= r["数量"] <= hi for r in rows)),
        ("max", "select max(金额) from 订单", lambda rows, c: max(r["金额"] for r in rows)),
        ("per region", "select 区域, count(*) from 订单 group by 1 order by 1",
         lambda rows, c: sorted(Counter(r["区域"] for r in rows).items())),
        ("units", "select sum(数量) from 订单", lambda rows, c: sum(r["数量"] for r in rows)),
        ("rush", "select count(*) from 订单 where 备注 = '加急'",
         lambda rows, c: sum(r["备注"] == "加急" for r in rows)),
        ("list", f"select 订单号 from 订单 where 客户 = '{k}' order by 订单号 limit 5",
         lambda rows, c: sorted(r["订单号"] for r in rows if r["客户"] == k)[:5]),
        ("big orders per customer", f"select count(*) from (select 客户 from 订单 where 金额 >"
         f" {threshold} group by 客户 having count(*) >= 2)",
         lambda rows, c: sum(n >= 2 for n in Counter(r["客户"] for r in rows
                                                     if r["金额"] > threshold).values())),
    ]


def normal(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, (list, tuple)):
        return [normal(v) for v in value]
    return value


def hearth_answer(query: Any, path: Path, sql: str) -> Any:
    data = query.run({"files": [str(path)], "sql": sql, "max_rows": 500}, SkillContext()).data
    rows = data["rows"]
    if len(rows) == 1 and len(rows[0]) == 1:
        return rows[0][0]
    if rows and all(len(r) == 1 for r in rows):
        return [r[0] for r in rows]
    return [tuple(r) for r in rows]


def correctness(folder: Path, sizes: list[int]) -> tuple[list[str], int, int]:
    access = OfficeAccess(roots=lambda: [str(folder)], output=lambda: str(folder / "out"))
    query = {s.name: s for s in office_skills(access)}["office_query"]
    lines, right, total = [], 0, 0
    rnd = random.Random(7)
    per_size = 100 // len(sizes)
    for n, size in enumerate(sizes):
        path = folder / f"orders-{size}.xlsx"
        make_book(path, size, seed=size)
        rows, cities = independent_rows(path)
        asked = questions(rnd)[:per_size]
        ok = 0
        for name, sql, expect in asked:
            want = normal(expect(rows, cities))
            got = hearth_answer(query, path, sql)
            got = normal([tuple(g) if isinstance(g, list) else g for g in got]
                         if isinstance(got, list) else got)
            if isinstance(want, list):
                want = [tuple(w) if isinstance(w, (list, tuple)) else w for w in want]
                got = [tuple(g) if isinstance(g, (list, tuple)) else g for g in got] \
                    if isinstance(got, list) else [got]
            if got == want:
                ok += 1
            else:
                lines.append(f"  MISMATCH {size} rows, {name}: hearth {got!r} vs {want!r}")
        right += ok
        total += len(asked)
        lines.append(f"| {size} | {len(asked)} | {ok} |")
        print(f"correctness {size}: {ok}/{len(asked)}", flush=True)
        del n
    return lines, right, total


# --- time -------------------------------------------------------------------------------------


def timing(path: Path, rounds: int) -> tuple[float, float, float]:
    import openpyxl

    refs, ours = [], []
    for _ in range(rounds):
        started = time.perf_counter()
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
        for ws in book.worksheets:
            for _row in ws.iter_rows(values_only=True):
                pass
        book.close()
        refs.append(time.perf_counter() - started)
        started = time.perf_counter()
        database = SheetDatabase(load_sheets(str(path)))
        database.query("select 客户, round(sum(金额), 2) from 订单 group by 1", 50, 30.0)
        database.close()
        ours.append(time.perf_counter() - started)
    ref, mine = statistics.median(refs), statistics.median(ours)
    return ref, mine, mine / ref


# --- written files ----------------------------------------------------------------------------


def written_files(folder: Path) -> tuple[list[str], int, int]:
    import docx
    import openpyxl
    from pptx import Presentation

    access = OfficeAccess(roots=lambda: [str(folder)], output=lambda: str(folder / "made"))
    tools = {s.name: s for s in office_skills(access)}
    ctx = SkillContext()
    rows = [[f"名字{i}", i * 1.5, f"2026-01-{i % 28 + 1:02d}"] for i in range(1, 501)]
    source = folder / "orders-1000.xlsx"
    checks: list[tuple[str, Callable[[], bool]]] = []

    made = tools["office_convert"].run({"to": "xlsx", "columns": ["名字", "值", "日期"],
                                        "rows": rows}, ctx).data["written"]

    def xlsx_same() -> bool:
        got = [list(r) for r in openpyxl.load_workbook(made).active.iter_rows(values_only=True)]
        return got[0] == ["名字", "值", "日期"] and [[r[0], r[1], r[2].date().isoformat()]
                                                    for r in got[1:]] == rows
    checks.append(("rows -> XLSX (openpyxl)", xlsx_same))

    csv_path = tools["office_convert"].run({"source": str(source), "to": "csv"},
                                           ctx).data["written"]

    def csv_same() -> bool:
        with open(csv_path, encoding="utf-8-sig", newline="") as handle:
            got = list(csv.reader(handle))
        sheet = load_sheets(str(source))[0]
        return len(got) == len(sheet.rows) + 1 and got[0] == sheet.header
    checks.append(("sheet -> CSV (csv)", csv_same))

    cleaned = tools["office_clean"].run({"source": str(source), "operations": [
        {"op": "dedupe", "columns": ["客户"]}]}, ctx).data["written"]
    checks.append(("clean -> XLSX (openpyxl)", lambda: openpyxl.load_workbook(
        cleaned).active.max_row == 41))

    markdown = "# 摘要\n\n**销售**增长。\n\n- 华东\n- 华南\n\n| 区域 | 合计 |\n|---|---|\n| 华东 | 1 |\n"
    report = tools["office_report"].run({"title": "报告", "markdown": markdown},
                                        ctx).data["written"]
    checks.append(("Markdown -> DOCX (python-docx)", lambda: [p.text for p in docx.Document(
        report).paragraphs if p.text] == ["报告", "摘要", "销售增长。", "华东", "华南"]
        and docx.Document(report).tables[0].cell(1, 0).text == "华东"))

    deck = tools["office_slides"].run({"slides": [{"title": f"第{i}页", "bullets": ["a", "b"],
                                                   "notes": "n"} for i in range(1, 6)]},
                                      ctx).data["written"]
    checks.append(("slides -> PPTX (python-pptx)", lambda: [s.shapes.title.text for s in
                                                             Presentation(deck).slides] ==
                   [f"第{i}页" for i in range(1, 6)]))
    lines, ok = [], 0
    for name, check in checks:
        try:
            passed = check()
        except Exception as exc:  # noqa: BLE001 - a figure, not a crash
            passed = False
            name += f" ({exc})"
        ok += passed
        lines.append(f"| {name} | {'yes' if passed else 'NO'} |")
    office = shutil.which("soffice") or shutil.which("libreoffice")
    if office:
        out = folder / "lo"
        # LibreOffice re-reads each file; sheets and the report are converted to text and
        # compared, slides only opened (exported to PDF).
        targets = [(made, "csv", lambda t: len(t.splitlines()) == len(rows) + 1),
                   (cleaned, "csv", lambda t: len(t.splitlines()) == 41),
                   (csv_path, "pdf", None),
                   (report, "txt:Text", lambda t: all(w in t for w in ("摘要", "销售增长", "华南"))),
                   (deck, "pdf", None)]
        for path, kind, check in targets:
            done = subprocess.run([office, "--headless", "--convert-to", kind, "--outdir",
                                   str(out), path], capture_output=True, timeout=180)
            produced = out / (Path(path).stem + "." + kind.split(":")[0])
            opened = done.returncode == 0 and produced.exists()
            if opened and check is not None:
                opened = check(produced.read_text(encoding="utf-8", errors="replace"))
            ok += opened
            what = "opens, rows or text match" if check else "opens"
            lines.append(f"| LibreOffice {Path(path).name} ({what}) | {'yes' if opened else 'NO'} |")
        return lines, ok, len(checks) + len(targets)
    lines.append("| LibreOffice headless | not installed here (optional) |")
    return lines, ok, len(checks)


# --- digest -----------------------------------------------------------------------------------


def digest_speed(folder: Path, files: int) -> tuple[float, float, int, int]:
    from app.core.runner import ModelRunner
    from app.core.summaries import ModelSummarizer
    from backends.llama_cpp import LlamaCppBackend
    from skills.office import DigestCache, Digester, DigestJob
    from tests.support.tiny_model import build_tiny_model

    model = build_tiny_model(ROOT / "tests" / ".cache" / "tiny-model")
    docs = folder / "digest"
    docs.mkdir()
    for n in range(files):
        (docs / f"note-{n:02d}.md").write_text(f"# Note {n}\n\n" + "Meeting about the budget"
                                               f" for project {n}. " * 40, encoding="utf-8")
    runner = ModelRunner()
    runner.load(LlamaCppBackend(str(model.gguf_path), context_length=4096)).result(120)
    cache = DigestCache(folder / "index.db")
    digester = Digester(cache, ModelSummarizer(runner, max_tokens=64))
    try:
        first = digester.run(str(docs), DigestJob(), max_files=files)
        second = digester.run(str(docs), DigestJob(), max_files=files)
    finally:
        digester.close()
        cache.close()
        runner.close()
    return (len(first.files) / first.seconds * 60, second.seconds, first.cache_hits,
            second.cache_hits)


# --- a million rows ---------------------------------------------------------------------------


def million_rows(folder: Path) -> tuple[float, float, str]:
    sys.path.insert(0, str(ROOT))
    from tests.office.test_hostile import huge_xlsx

    path = huge_xlsx(folder / "million.xlsx", 1_000_000)
    code = (f"import resource,sys,time,json;sys.path.insert(0,{str(ROOT)!r});"
            "from skills.office.sheets import load_sheets;from skills.office.sql import "
            f"SheetDatabase;t=time.perf_counter();s=load_sheets({str(path)!r});d=SheetDatabase(s);"
            "r=d.query('select count(*) from Sheet');print(json.dumps([time.perf_counter()-t,"
            "int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])/1024,r.count,r.rows[0][0],"
            "s[0].truncated]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=900, check=True).stdout
    seconds, rss, _count, rows, truncated = json.loads(out)
    return seconds, rss, f"{rows} rows loaded, limited={truncated}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10,100,1000,10000,100000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--digest-files", type=int, default=20)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "office.md"))
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    folder = Path(tempfile.mkdtemp(prefix="hearth-office-bench-"))
    report = ["# Office skill", "", f"Command: `.venv/bin/python bench/bench_office.py --sizes"
              f" {args.sizes}`", ""]
    lines, right, total = correctness(folder, sizes)
    report += ["## Query correctness (answers computed independently with openpyxl)", "",
               "| rows | questions | identical |", "|---|---|---|"]
    report += [ln for ln in lines if ln.startswith("|")]
    report += [f"| all | {total} | {right} ({right / total:.0%}) |", ""]
    report += [ln for ln in lines if not ln.startswith("|")]
    biggest = folder / f"orders-{max(sizes)}.xlsx"
    ref, mine, ratio = timing(biggest, args.rounds)
    print(f"timing: {ref:.2f} s vs {mine:.2f} s", flush=True)
    report += ["", f"## Load + query of the {max(sizes):,}-row sheet (median of {args.rounds})",
               "", "| openpyxl read-only load | Hearth load + SQLite + query | ratio |",
               "|---|---|---|", f"| {ref:.2f} s | {mine:.2f} s | {ratio:.2f} |", ""]
    lines, ok, count = written_files(folder)
    report += ["## Written files re-opened", "", "| file | opens, contents equal |", "|---|---|",
               *lines, f"| all | {ok}/{count} |", ""]
    per_min, second_s, hits1, hits2 = digest_speed(folder, args.digest_files)
    report += ["## Folder digest (tiny random-weight model, llama.cpp, 64 tokens per summary)",
               "", "| run | speed | cache hits |", "|---|---|---|",
               f"| first | {per_min:.0f} files/min | {hits1}/{args.digest_files} |",
               f"| second (same files) | {second_s * 1000:.0f} ms in all | {hits2}/{args.digest_files} |",
               ""]
    seconds, rss, what = million_rows(folder)
    report += ["## 1,000,000-row workbook (default limits, child process)", "",
               f"{what}; {seconds:.1f} s; peak RSS {rss:.0f} MB.", ""]
    Path(args.out).write_text("\n".join(report) + "\n", encoding="utf-8")
    print("\n".join(report))
    shutil.rmtree(folder, ignore_errors=True)
    return 0 if right == total else 1


if __name__ == "__main__":
    sys.exit(main())
