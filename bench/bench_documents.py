"""Document index benchmarks: indexing pages/s vs raw extraction, search latency, retrieval,
and how long each kind of bad file takes to be refused.

Run: .venv/bin/python bench/bench_documents.py [--pdfs 30] [--docx 15] [--chunks 10000]
       [--rounds 3] [--markdown FILE]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skills.documents import DocumentIndex
from skills.documents.worker import ParserPool
from tests.documents.corpus import (
    FILLER,
    bad_folder,
    build_collection,
    write_docx,
    write_pdf,
)

DOCX_PAGE_CHARS = 3000  # a printed page of prose, to count DOCX "pages"


def make_corpus(folder: Path, pdfs: int, docx: int, rng: random.Random) -> None:
    folder.mkdir(parents=True)
    for i in range(pdfs):
        pages = [[" ".join(rng.choices(FILLER, k=12)) for _ in range(45)] for _ in range(10)]
        write_pdf(folder / f"doc-{i:03d}.pdf", pages)
    for i in range(docx):
        blocks: list[tuple[str, object]] = []
        for section in range(10):
            blocks.append(("h2", f"Section {section}"))
            blocks += [("p", " ".join(rng.choices(FILLER, k=60))) for _ in range(8)]
            blocks.append(("table", [["a", "b"], ["c", "d"]]))
        write_docx(folder / f"doc-{i:03d}.docx", blocks)


def raw_extract(folder: Path) -> tuple[float, int]:
    """Seconds and pages for plain pypdf / python-docx extraction of every file."""
    import docx
    from pypdf import PdfReader

    started = time.perf_counter()
    pages = 0
    for path in sorted(folder.iterdir()):
        if path.suffix == ".pdf":
            reader = PdfReader(str(path))
            for page in reader.pages:
                page.extract_text()
                pages += 1
        else:
            document = docx.Document(str(path))
            chars = sum(len(p.text) for p in document.paragraphs)
            for table in document.tables:
                chars += sum(len(c.text) for row in table.rows for c in row.cells)
            pages += max(1, round(chars / DOCX_PAGE_CHARS))
    return time.perf_counter() - started, pages


def hearth_index(folder: Path, db: Path, pool: ParserPool) -> float:
    index = DocumentIndex(db, pool=pool)
    started = time.perf_counter()
    report = index.add_paths([folder])
    seconds = time.perf_counter() - started
    assert not report.failures, report.failures
    index.close()
    return seconds


def bench_indexing(
    root: Path, pdfs: int, docx: int, pool: ParserPool, rounds: int
) -> dict[str, float]:
    """Raw and Hearth runs interleaved, best of `rounds` each: on a shared machine the best
    run is the one least disturbed by other work."""
    folder = root / "corpus"
    make_corpus(folder, pdfs, docx, random.Random(1))
    raw_times, hearth_times = [], []
    pages = 0
    for n in range(rounds):
        raw_seconds, pages = raw_extract(folder)
        raw_times.append(raw_seconds)
        hearth_times.append(hearth_index(folder, root / f"speed-{n}.db", pool))
    return {"pages": pages, "raw_pps": pages / min(raw_times),
            "hearth_pps": pages / min(hearth_times)}


def bench_search(root: Path, chunks: int, pool: ParserPool) -> dict[str, float]:
    folder = root / "search"
    folder.mkdir()
    rng = random.Random(2)
    words = [f"{w}{i}" for w in FILLER for i in range(40)]  # a realistic-size vocabulary
    per_file = 50
    for f in range(chunks // per_file):
        paragraphs = [" ".join(rng.choices(words, k=80)) for _ in range(per_file)]
        (folder / f"t{f:04d}.txt").write_text("\n\n".join(paragraphs))
    index = DocumentIndex(root / "search.db", pool=pool)
    index.add_paths([folder])
    total = index.status().chunks
    times = []
    for _ in range(400):
        query = " ".join(rng.choices(words, k=rng.randint(2, 6)))
        started = time.perf_counter()
        index.search(query, limit=8)
        times.append((time.perf_counter() - started) * 1000)
    index.close()
    cuts = statistics.quantiles(times, n=100)
    return {"chunks": total, "p50_ms": cuts[49], "p95_ms": cuts[94]}


def bench_retrieval(root: Path, pool: ParserPool) -> dict[str, float]:
    questions = build_collection(root / "collection")
    index = DocumentIndex(root / "retrieval.db", pool=pool)
    index.add_paths([root / "collection"])
    top5 = top1 = 0
    for q in questions:
        hits = index.search(q.text, limit=5)
        top5 += any(q.matches(h.document, h.page, h.location) for h in hits)
        top1 += bool(hits) and q.matches(hits[0].document, hits[0].page, hits[0].location)
    documents = index.status().documents
    index.close()
    share = 100 / len(questions)
    return {"documents": documents, "questions": len(questions), "top5": top5 * share,
            "top1": top1 * share}


def bench_bad_input(root: Path, pool: ParserPool) -> list[tuple[str, str, float]]:
    folder = root / "bad"
    bad_folder(folder)
    index = DocumentIndex(root / "bad.db", pool=pool)
    rows = []
    for name in sorted(p.name for p in folder.iterdir()):
        started = time.perf_counter()
        report = index.add_paths([folder / name])
        seconds = time.perf_counter() - started
        reason = report.failures[0].reason if report.failures else "indexed"
        rows.append((name, reason, seconds))
    index.close()
    return rows


def warm_up(root: Path, pool: ParserPool) -> float:
    """Start the worker and load the parsers once, as a running app already has."""
    started = time.perf_counter()
    pool.parse(str(write_pdf(root / "warm.pdf", [["warm"]])))
    pool.parse(str(write_docx(root / "warm.docx", [("p", "warm")])))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pdfs", type=int, default=30)
    parser.add_argument("--docx", type=int, default=15)
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--markdown", type=Path, help="also write the figures here")
    args = parser.parse_args()
    pool = ParserPool()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cold = warm_up(root, pool)
        speed = bench_indexing(root, args.pdfs, args.docx, pool, args.rounds)
        search = bench_search(root, args.chunks, pool)
        retrieval = bench_retrieval(root, pool)
        bad = bench_bad_input(root, pool)
    pool.close()
    text = report(speed, search, retrieval, bad, cold)
    print(text)
    if args.markdown:
        args.markdown.write_text(text)


def report(speed: dict[str, float], search: dict[str, float], retrieval: dict[str, float],
           bad: list[tuple[str, str, float]], cold: float) -> str:
    ratio = speed["hearth_pps"] / speed["raw_pps"]
    lines = [
        "## Documents",
        "",
        "| figure | value | target |",
        "|---|---|---|",
        f"| indexing, Hearth (hash + parse in worker + chunk + FTS5),"
        f" {speed['pages']:.0f} pages of PDF and DOCX | {speed['hearth_pps']:.0f} pages/s | |",
        f"| raw pypdf / python-docx extraction, same files | {speed['raw_pps']:.0f} pages/s | |",
        f"| Hearth / raw | {ratio:.2f} | >= 0.70 |",
        f"| search latency over {search['chunks']:.0f} chunks, p50 | {search['p50_ms']:.2f} ms | |",
        f"| search latency, p95 | {search['p95_ms']:.2f} ms | < 20 ms |",
        f"| retrieval: right page in top 5 ({retrieval['documents']:.0f} documents,"
        f" {retrieval['questions']:.0f} questions) | {retrieval['top5']:.0f}% | >= 90% |",
        f"| retrieval: right page first | {retrieval['top1']:.0f}% | |",
        f"| parser worker start + parser imports (once per session) | {cold * 1000:.0f} ms | |",
        "",
        "### Bad input",
        "",
        "| file | recorded reason | time |",
        "|---|---|---|",
    ]
    lines += [f"| {name} | {reason} | {seconds * 1000:.0f} ms |" for name, reason, seconds in bad]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
