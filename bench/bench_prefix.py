"""The saved prompt prefix: first-answer time in fresh processes, warm-up, restore cost, tokens.

    .venv/bin/python bench/bench_prefix.py ttft [--engine llama|mlx] [--model PATH] [--skills a,b]
    .venv/bin/python bench/bench_prefix.py warmup [--model PATH]
    .venv/bin/python bench/bench_prefix.py restore --model PATH [--tokens 1000]
    .venv/bin/python bench/bench_prefix.py tokens

ttft: each run is a new process on one HEARTH_HOME, answering through Hearth's own Assistant
(the path the chat and the quick ask share). The reference is the first run, with nothing saved;
then a new conversation, a quick ask and a new conversation with the clock moved a day (and
across a DST change) start from the saved prefix. Figures are the engine's time to first token.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TINY = ROOT / "tests" / ".cache" / "tiny-model"

CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1] + "/bench")
from bench_prefix import run_child
args = json.loads(sys.argv[2])
if args.get("day"):  # the clock moved (time_machine patches the process's clock)
    import time_machine
    from datetime import datetime
    with time_machine.travel(datetime.fromisoformat(args["day"]), tick=True):
        print(json.dumps(run_child(args)))
else:
    print(json.dumps(run_child(args)))
"""


def model_for(args: argparse.Namespace) -> str:
    """--model, or the tiny test model of the engine."""
    return str(args.model or TINY / ("mlx" if args.engine == "mlx" else "model.gguf"))


def run_child(args: dict[str, Any]) -> dict[str, Any]:
    """One fresh process: optionally remember facts (bench_memory), load the model, answer one
    new conversation or quick ask, report its figures."""
    from app.core.assistant import TurnMode
    from app.core.events import TurnDone
    from app.main import Hearth

    hearth = Hearth()
    try:
        hearth.settings.enabled_skills = args["skills"]
        for text in args.get("remember", []):
            hearth.memory.add(text)
        if args.get("instructions"):
            hearth.memory.set_instructions(args["instructions"])
        backend = hearth.make_backend(model_path=args["model"], engine=args["engine"])
        hearth.runner.load(backend).result()
        events: list[Any] = []
        handle = hearth.assistant.send(None, args["text"], on_event=events.append,
                                       mode=TurnMode(thinking=False, max_tokens=2,
                                                     kind=args.get("kind", "chat")),
                                       confirm="deny")
        handle.wait()
        done = next(e for e in events if isinstance(e, TurnDone))
        return {"ttft_ms": done.timings.get("ttft_ms", 0.0), **done.usage}
    finally:
        hearth.close()


def child(home: Path, **args: Any) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), json.dumps(args)],
                         capture_output=True, text=True, check=False, timeout=7200,
                         env={**os.environ, "HEARTH_HOME": str(home)})
    if out.returncode != 0:
        raise SystemExit(f"the run failed:\n{out.stderr[-2000:]}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def ttft(args: argparse.Namespace) -> None:
    model = model_for(args)
    skills = [s for s in args.skills.split(",") if s]
    base = {"model": model, "engine": args.engine, "skills": skills}
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        cold = child(home, **base, text="What is on my calendar tomorrow?")
        runs = {
            "new conversation": child(home, **base, text="Plan my week."),
            "quick ask": child(home, **base, text="How many cm in an inch?"),
            "new conversation, next day (DST change)": child(
                home, **base, text="And today?", day="2026-03-29T09:00:00+02:00"),
        }
    print(f"model {Path(model).name} ({args.engine}); prompt {cold['prompt_tokens']:,} tokens; "
          f"skills: {', '.join(skills) or 'all'}")
    print("| first answer in a fresh process | TTFT | cached prompt tokens | / no saved prefix |")
    print("|---|---|---|---|")
    print(f"| no saved prefix (reference) | {cold['ttft_ms']:,.0f} ms | "
          f"{cold['cached_prompt_tokens']:,} | 1 |")
    for label, run in runs.items():
        print(f"| {label} | {run['ttft_ms']:,.0f} ms | {run['cached_prompt_tokens']:,} | "
              f"**{run['ttft_ms'] / cold['ttft_ms']:.3f}** |")


def warmup(args: argparse.Namespace) -> None:
    """A turn sent when the warm-up is half done vs a turn with no warm-up (same process kind)."""
    model = args.model or str(TINY / "model.gguf")
    results = {}
    for label, warm in (("no warm-up", False), ("sent at half warm-up", True)):
        samples = []
        for _ in range(args.repeats):
            with tempfile.TemporaryDirectory() as tmp:
                os.environ["HEARTH_HOME"] = tmp
                samples.append(_first_token_s(model, args.engine, warm))
        results[label] = statistics.median(samples)
    ratio = results["sent at half warm-up"] / results["no warm-up"]
    print(f"model {Path(model).name}; send -> first token, median of {args.repeats}")
    for label, value in results.items():
        print(f"| {label} | {value * 1000:,.0f} ms |")
    print(f"| ratio | **{ratio:.3f}** (target <= 1.05) |")


def _first_token_s(model: str, engine: str, warm: bool) -> float:
    from app.core.assistant import TurnMode
    from app.core.events import ReasoningDelta, TextDelta
    from app.main import Hearth

    hearth = Hearth()
    try:
        hearth.runner.load(hearth.make_backend(model_path=model, engine=engine)).result()
        half = threading.Event()
        if warm:
            hearth.warmup(lambda s: s.percent >= 50 and not s.ready and half.set()).start()
            half.wait()
        first = threading.Event()
        sent = time.perf_counter()
        at: list[float] = []

        def on_event(event: Any) -> None:
            if isinstance(event, TextDelta | ReasoningDelta) and not first.is_set():
                at.append(time.perf_counter())
                first.set()

        handle = hearth.assistant.send(None, "hello", on_event=on_event, confirm="deny",
                                       mode=TurnMode(thinking=False, max_tokens=2))
        handle.wait()
        return (at[0] if at else time.perf_counter()) - sent
    finally:
        hearth.close()


def restore(args: argparse.Namespace) -> None:
    """Seconds per GiB to restore a saved prefix, and its size per 1,000 tokens (f16, q8_0)."""
    from backends.base import GenerateOptions
    from backends.llama_cpp import LlamaCppBackend

    system = {"role": "system", "content": "You are Hearth. " + "Rules and tools. " * 2000}
    print(f"model {Path(args.model).name}")
    print("| KV type | prefix tokens | file | per 1,000 tokens | restore | s per GiB |")
    print("|---|---|---|---|---|---|")
    for kv in ("f16", "q8_0"):
        with tempfile.TemporaryDirectory() as tmp:
            backend = LlamaCppBackend(args.model, context_length=args.tokens + 512, kv_type=kv,
                                      cache_dir=Path(tmp))
            backend.load()
            tokens = backend._llm.tokenize(system["content"].encode(), add_bos=False)
            text = backend._llm.detokenize(tokens[: args.tokens]).decode("utf-8", "ignore")
            messages = [{"role": "system", "content": text}]
            assert backend.prepare_prefix(messages, GenerateOptions(), lambda: False)
            key = backend._key(messages, GenerateOptions(), None)
            backend.unload()
            path = backend._prefix.store.path_for(key)
            size = path.stat().st_size
            times = []
            for _ in range(args.repeats):
                fresh = LlamaCppBackend(args.model, context_length=args.tokens + 512,
                                        kv_type=kv, cache_dir=Path(tmp))
                fresh.load()
                os.posix_fadvise(os.open(path, os.O_RDONLY), 0, 0, os.POSIX_FADV_DONTNEED)
                started = time.perf_counter()
                assert fresh.prepare_prefix(messages, GenerateOptions(), lambda: False)
                times.append(time.perf_counter() - started)
                fresh.unload()
            spent = statistics.median(times)
            print(f"| {kv} | {len(key.tokens):,} | {size / 2**20:,.1f} MiB | "
                  f"{size / len(key.tokens) * 1000 / 2**20:,.1f} MiB | {spent:.3f} s | "
                  f"{spent / (size / 2**30):.2f} |")


def tokens(args: argparse.Namespace) -> None:
    """Prompt prefix size with the tiny model's tokenizer, and in characters (real estimate)."""
    from app.core.prompt_size import measure
    from app.main import Hearth
    from backends.base import LocalEngine

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HEARTH_HOME"] = tmp
        hearth = Hearth()
        try:
            backend = hearth.make_backend(model_path=str(TINY / "model.gguf"), engine="llama")
            backend.load()
            assert isinstance(backend, LocalEngine)
            messages, options = hearth.assistant.prefix_request()
            sizes = measure(backend, messages, options)
            rendered = backend._backend._template.render(messages, options,  # type: ignore[attr-defined]
                                                         add_generation_prompt=False)
            backend.unload()
        finally:
            hearth.close()
    # Characters of each schema as sent: the estimate for the real model's tokenizer.
    characters = {str(spec["function"]["name"]): len(json.dumps(spec, ensure_ascii=False))
                  for spec in options.tools}
    print(json.dumps({**sizes, "tool_characters": characters,
                      "rendered_prefix_characters": len(rendered)}, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["ttft", "warmup", "restore", "tokens"])
    parser.add_argument("--engine", default="llama", choices=["llama", "mlx"])
    parser.add_argument("--model", default="")
    parser.add_argument("--skills", default="")
    parser.add_argument("--tokens", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    {"ttft": ttft, "warmup": warmup, "restore": restore, "tokens": tokens}[args.what](args)


if __name__ == "__main__":
    main()
