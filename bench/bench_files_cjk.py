"""CJK file-search benchmark: query latency for Chinese substrings next to Latin words on the
same index, and recall against a brute-force substring scan of the same files. Prints figures.

    .venv/bin/python bench/bench_files_cjk.py [--files 5000] [--queries 100]

Builds its own tree in a temporary folder (deleted at the end); keeps clear of bench/.cache."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from skills.common.cjk import index_terms
from skills.files import FileIndex
from skills.files.query import Filters, search

# Common characters, so two-character pieces repeat across files as real words do.
HANZI = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严"
LATIN = "alpha bravo cedar delta ember frost grove harbor indigo juniper".split()


def sentence(rng: random.Random) -> str:
    return "".join(rng.choice(HANZI) for _ in range(rng.randint(8, 20)))


def generate(tree: Path, files: int, rng: random.Random) -> dict[str, str]:
    """`files` files, half with Chinese names and text; returns name -> name + text."""
    corpus: dict[str, str] = {}
    for n in range(files):
        folder = tree / f"d{n // 200}"
        folder.mkdir(parents=True, exist_ok=True)
        if n % 2:
            name = f"{sentence(rng)[:6]}{n}.txt"
            body = "，".join(sentence(rng) for _ in range(rng.randint(5, 40))) + "。"
        else:
            name = f"{rng.choice(LATIN)}_{rng.choice(LATIN)}_{n}.md"
            body = " ".join(rng.choices(LATIN, k=rng.randint(20, 200)))
        (folder / name).write_text(body, encoding="utf-8")
        corpus[name] = name + "\n" + body
    return corpus


def queries(corpus: dict[str, str], rng: random.Random, count: int) -> list[str]:
    """Chinese pieces of 2-4 characters cut from real names and text."""
    chinese = [text for name, text in corpus.items() if not name[0].isascii()]
    out = []
    while len(out) < count:
        text = rng.choice(chinese).replace("，", "").replace("。", "").replace("\n", "")
        size = rng.choice([2, 2, 3, 4])
        start = rng.randrange(0, len(text) - size)
        piece = text[start : start + size]
        if not any(c.isascii() for c in piece):
            out.append(piece)
    return out


def timed(index: FileIndex, qs: list[str]) -> list[float]:
    times = []
    for q in qs:
        start = time.perf_counter()
        index.search(q, limit=20)
        times.append((time.perf_counter() - start) * 1000)
    return times


def p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp, "tree").resolve()
        corpus = generate(tree, args.files, rng)
        index = FileIndex(Path(tmp, "index.db"), roots=[str(tree)])
        start = time.perf_counter()
        index.scan()
        build = time.perf_counter() - start
        chinese = queries(corpus, rng, args.queries)
        latin = [rng.choice(LATIN) for _ in range(args.queries)]
        cjk_ms, latin_ms = timed(index, chinese), timed(index, latin)
        exact, extra, missed, brute_ms = 0, 0, 0, []
        for q in chinese:
            start = time.perf_counter()
            expected = {name for name, text in corpus.items() if q in text}
            brute_ms.append((time.perf_counter() - start) * 1000)
            found = {h.name for h in search(index.store.conn, q, Filters(), len(corpus))}
            exact += found == expected
            extra += len(found - expected)
            missed += len(expected - found)
        index.close()
    start = time.perf_counter()
    for text in corpus.values():
        index_terms(text)
    pairs = time.perf_counter() - start
    print(f"files: {args.files} (half Chinese names and text), index build {build:.1f} s,"
          f" of which computing character pairs {pairs:.2f} s ({100 * pairs / build:.0f}%)")
    print(f"Chinese 2-4 character pieces: p50 {statistics.median(cjk_ms):.2f} ms,"
          f" p95 {p95(cjk_ms):.2f} ms, max {max(cjk_ms):.2f} ms")
    print(f"Latin words, same index:      p50 {statistics.median(latin_ms):.2f} ms,"
          f" p95 {p95(latin_ms):.2f} ms, max {max(latin_ms):.2f} ms")
    print(f"brute-force substring scan:   p50 {statistics.median(brute_ms):.2f} ms"
          f" (index p50 is {statistics.median(brute_ms) / statistics.median(cjk_ms):.1f}x faster)")
    print(f"recall vs brute force: {exact}/{len(chinese)} result sets identical,"
          f" {missed} files missed, {extra} extra (pairs that meet across a comma)")


if __name__ == "__main__":
    main()
