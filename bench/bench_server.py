"""`hearth serve` against the same turns in-process: decode speed and time to first token, an
agent-shaped client with a ~10K-token system prompt (with a fresh server process between
requests 3 and 4), and 8 concurrent clients while the person's own chat keeps its place.

    .venv/bin/python bench/bench_server.py --boost --runs 9 --decode 512     # tiny model
    .venv/bin/python bench/bench_server.py --boost --only-compare --runs 3 --decode 24 \
        --filler 0 --model bench/.cache/nanbeige4.2-3b-random-q8_0/model.gguf --append

Fair on a small machine: the reference runs in a child process and the server in a `hearth
serve` process, both pinned to the same CPUs (all but the last) with the same engine threads;
the clients (the openai SDK and a light httpx reader) run here, pinned to the last CPU; the
arms rotate every run and the figures are medians. Every figure is compared with a reference
measured in the same run."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx2 as httpx  # noqa: E402 - the openai SDK's own HTTP client
import openai  # noqa: E402

from app.core.runner import ModelRunner, Priority  # noqa: E402
from app.core.server.routes import cache_key  # noqa: E402
from app.core.server.service import ApiServer, ServerConfig  # noqa: E402
from backends.base import GenerateOptions  # noqa: E402
from backends.events import Done, Event, ReasoningDelta, TextDelta, ToolCall  # noqa: E402
from backends.llama_cpp import LlamaCppBackend  # noqa: E402
from tests.server.served import Served  # noqa: E402
from tests.support.tiny_model import build_tiny_model  # noqa: E402

KEY = "hearth-bench-key-0123456789abcdef"
FILLER = ("The quarterly report covers revenue, costs, hiring plans and the office move to "
          "Lyon; each section lists owners, dates and open questions for the next review. ")


def in_process_turn(runner: ModelRunner, messages: list[dict[str, Any]], decode: int,
                    priority: Priority = Priority.USER) -> dict[str, float]:
    """One turn on the runner; the first token is the first answer event (not Prefill)."""
    started = time.perf_counter()
    first: list[float] = []
    finished = threading.Event()
    done: list[Done] = []

    def on_event(event: Event) -> None:
        if not first and isinstance(event, (TextDelta, ReasoningDelta, ToolCall)):
            first.append(time.perf_counter())
        if isinstance(event, Done):
            done.append(event)
            finished.set()

    options = GenerateOptions(max_tokens=decode, seed=7, enable_thinking=False, temperature=0.0,
                              cache_key=cache_key(messages, []))  # as the server keys it
    runner.submit(messages, options, on_event, priority=priority)
    finished.wait(600)
    end = time.perf_counter()
    return _timed(started, first[0] if first else end, end, done[0].completion_tokens)


def _timed(started: float, first: float, end: float, tokens: int,
           chunks: int = 0) -> dict[str, float]:
    return {"ttft_ms": (first - started) * 1000, "tokens": tokens,
            "tok_s": max(tokens - 1, 0) / max(end - first, 1e-9),
            "turn_s": end - started, "chunks": chunks}


def _request(messages: list[dict[str, Any]], decode: int) -> dict[str, Any]:
    return {"model": "tiny", "messages": messages, "max_tokens": decode, "seed": 7,
            "temperature": 0.0, "stream": True, "stream_options": {"include_usage": True},
            "reasoning_effort": "none"}


def server_turn(client: openai.OpenAI, messages: list[dict[str, Any]],
                decode: int) -> dict[str, float]:
    """The official SDK's streaming (pydantic models per chunk: the heavier client)."""
    started = time.perf_counter()
    first = 0.0
    usage: Any = None
    chunks = 0
    stream = client.chat.completions.create(**_request(messages, decode))
    for chunk in stream:
        if chunk.choices and (chunk.choices[0].delta.content or (
                chunk.choices[0].delta.model_extra or {}).get("reasoning_content")):
            first = first or time.perf_counter()
            chunks += 1
        if chunk.usage is not None:
            usage = chunk.usage
    end = time.perf_counter()
    tokens = usage.completion_tokens if usage is not None else 0
    return _timed(started, first or end, end, tokens, chunks)


def light_turn(client: httpx.Client, messages: list[dict[str, Any]],
               decode: int) -> dict[str, float]:
    """A light client: SSE lines read with httpx and decoded with json, nothing else."""
    started = time.perf_counter()
    first = 0.0
    usage: dict[str, Any] = {}
    chunks = 0
    with client.stream("POST", "/chat/completions", json=_request(messages, decode)) as reply:
        reply.raise_for_status()
        for line in reply.iter_lines():
            if not line.startswith("data: {"):
                continue
            chunk = json.loads(line[6:])
            usage = chunk.get("usage") or usage
            delta = chunk["choices"][0]["delta"] if chunk.get("choices") else {}
            if delta.get("content") or delta.get("reasoning_content"):
                first = first or time.perf_counter()
                chunks += 1
    end = time.perf_counter()
    return _timed(started, first or end, end, int(usage.get("completion_tokens", 0)), chunks)


def short_chat(tag: str, filler: int = 4) -> list[dict[str, Any]]:
    return [{"role": "system", "content": "You are Hearth, a private desktop assistant."},
            {"role": "user", "content": f"[{tag}] " + FILLER * filler + "Summarise this."}]


class InProcess:
    """The reference: the same turns on a ModelRunner in a child process pinned to the
    engine's CPUs, its engine built by Hearth from the same settings as `hearth serve`'s."""

    def __init__(self, home: Path, model: Path, settings: dict[str, Any],
                 cpus: set[int]) -> None:
        (home / "data").mkdir(parents=True, exist_ok=True)
        (home / "data" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_in_process_worker,
                                        args=(child, str(home), str(model), cpus), daemon=True)
        self._process.start()
        assert self._conn.recv() == "ready"

    def turn(self, messages: list[dict[str, Any]], decode: int) -> dict[str, float]:
        self._conn.send((messages, decode))
        result: dict[str, float] = self._conn.recv()
        return result

    @property
    def pid(self) -> int:
        return int(self._process.pid or 0)

    def close(self) -> None:
        self._conn.send(None)
        self._process.join(60)


def cpu_ns(pid: int) -> tuple[int, int, int]:
    """CPU time a process has run so far (ns, all threads), its main thread's share (the
    server's event loop; in the reference, the idle pipe reader), and the time its threads
    were ready but waited for a CPU (another program held it)."""
    total = main = waited = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            ran, wait = (int(n) for n in (task / "schedstat").read_text().split()[:2])
        except (OSError, ValueError):  # a thread that just ended
            continue
        total += ran
        waited += wait
        main += ran if task.name == str(pid) else 0
    return total, main, waited


def _metered(pid: int, turn: Any) -> Any:
    def run(messages: list[dict[str, Any]], decode: int) -> dict[str, float]:
        before = cpu_ns(pid)
        row = dict(turn(messages, decode))
        after = cpu_ns(pid)
        row["cpu_ms"] = (after[0] - before[0]) / 1e6
        row["main_cpu_ms"] = (after[1] - before[1]) / 1e6
        row["waited_ms"] = (after[2] - before[2]) / 1e6
        return row
    return run


def _in_process_worker(conn: Any, home: str, model: str, cpus: set[int]) -> None:
    os.sched_setaffinity(0, cpus)  # before any thread starts: the engine's threads inherit it
    os.environ["HEARTH_HOME"] = home
    from app.main import Hearth
    from backends.cpu import wait_without_spinning

    wait_without_spinning()  # as app.main.main() does before llama.cpp loads
    hearth = Hearth()
    runner = hearth.runner
    runner.load(hearth.make_backend(model_path=model)).result()
    conn.send("ready")
    while (job := conn.recv()) is not None:
        conn.send(in_process_turn(runner, *job))
    runner.close()


ARMS = ("in-process", "server, openai SDK", "server, httpx")


def compare(model: Path, runs: int, decode: int, engine_cpus: set[int],
            client_cpus: set[int], threads: int, filler: int = 4) -> dict[str, Any]:
    """The same turns in a pinned child process and through a `hearth serve` process pinned to
    the same CPUs with the same engine threads; this process (the clients) runs on the other
    CPUs, so a client's parsing never takes the engine's core. Arms rotate every run."""
    settings = {"context_length": 16384, "threads": threads}
    everything = os.sched_getaffinity(0)
    os.sched_setaffinity(0, client_cpus)  # the clients, and threads started from here
    try:
        with tempfile.TemporaryDirectory(prefix="hearth-bench-serve-") as tmp:
            local = InProcess(Path(tmp) / "local", model, settings, engine_cpus)
            served = Served(Path(tmp) / "served", "--model", str(model), settings=settings,
                            cpus=engine_cpus)
            try:
                served.wait_for("ready")
                sdk = openai.OpenAI(base_url=served.url, api_key=served.key, max_retries=0,
                                    timeout=600)
                light = httpx.Client(base_url=served.url, timeout=600,
                                     headers={"Authorization": f"Bearer {served.key}"})
                turns = [_metered(local.pid, local.turn),
                         _metered(served.process.pid, lambda m, d: server_turn(sdk, m, d)),
                         _metered(served.process.pid, lambda m, d: light_turn(light, m, d))]
                for turn in turns:  # first-request costs (imports, warm-up) out of the figures
                    turn(short_chat("warm", filler), 4)
                rows, loads = _rounds(turns, runs, decode, filler, "r")
                # 1-token answers: request to end of answer, the time to first token whatever
                # the engine emits (a random model's tokens are often invisible text).
                ones, _ = _rounds(turns, runs, 1, filler, "s")
                light.close()
            finally:
                served.stop()
                local.close()
    finally:
        os.sched_setaffinity(0, everything)
    return {"rows": rows, "ones": ones, "loads": loads, "engine_cpus": sorted(engine_cpus),
            "client_cpus": sorted(client_cpus), "threads": threads, "model": model,
            "runs": runs, "decode": decode, "filler": filler}


def _rounds(turns: list[Any], runs: int, decode: int, filler: int,
            tag: str) -> tuple[dict[str, list[dict[str, float]]], list[float]]:
    """`runs` rounds of one turn per arm, the arms' order rotated each round."""
    rows: dict[str, list[dict[str, float]]] = {arm: [] for arm in ARMS}
    loads: list[float] = []
    for i in range(runs):
        for k in [(i + n) % len(ARMS) for n in range(len(ARMS))]:
            # new text of the same length on each side: each prefills alike
            rows[ARMS[k]].append(turns[k](short_chat(f"{tag}{i}{'abc'[k]}", filler), decode))
        loads.append(os.getloadavg()[0])
    return rows, loads


def concurrency_figures(model: Path, decode: int) -> dict[str, Any]:
    runner = ModelRunner()
    runner.load(LlamaCppBackend(str(model), context_length=16384)).result()
    server = ApiServer(runner, ServerConfig(api_key=lambda: KEY, port=0))
    server.start()
    try:
        return concurrency(runner, server, decode)
    finally:
        server.stop()
        runner.close()


def concurrency(runner: ModelRunner, server: ApiServer, decode: int,
                clients: int = 8, each: int = 3) -> dict[str, Any]:
    """8 clients at once, streaming and not; the person's chat submitted in the middle."""
    failures: list[str] = []
    done = [0]
    lock = threading.Lock()

    def client_loop(n: int) -> None:
        sdk = openai.OpenAI(base_url=server.url, api_key=KEY, max_retries=0, timeout=600)
        for i in range(each):
            try:
                if i % 2:
                    server_turn(sdk, short_chat(f"c{n}-{i}"), decode)
                else:
                    reply = sdk.chat.completions.create(
                        model="tiny", messages=short_chat(f"c{n}-{i}"), max_tokens=decode,
                        reasoning_effort="none")
                    assert reply.usage is not None and reply.usage.completion_tokens > 0
                with lock:
                    done[0] += 1
            except Exception as exc:  # noqa: BLE001 - counted, the figure is failures
                failures.append(f"{type(exc).__name__}: {exc}")

    idle = [in_process_turn(runner, short_chat(f"idle{i}"), 16) for i in range(3)]
    threads = [threading.Thread(target=client_loop, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    while runner.pending < clients // 2:  # the queue has filled up
        time.sleep(0.01)
    waiting = runner.pending
    loaded = [in_process_turn(runner, short_chat(f"busy{i}"), 16) for i in range(3)]
    for thread in threads:
        thread.join()
    return {"clients": clients, "requests": clients * each, "ok": done[0],
            "failures": failures, "queue_when_user_asked": waiting,
            "user_ttft_idle_ms": statistics.median(t["ttft_ms"] for t in idle),
            "user_ttft_loaded_ms": statistics.median(t["ttft_ms"] for t in loaded)}


def overhead(runs: int, words: int = 1000) -> dict[str, float]:
    """The server's own cost, apart from any model: the scripted engine replays the same
    output at full speed in-process and through a `hearth serve --engine scripted` process."""
    from backends.scripted import ScriptedBackend
    from tests.support.scripted_cli import script_file

    output = " ".join(f"w{i}" for i in range(words))
    runner = ModelRunner()
    runner.load(ScriptedBackend([output] * (runs + 1))).result()
    with tempfile.TemporaryDirectory(prefix="hearth-bench-overhead-") as tmp:
        folder = Path(tmp)
        served = Served(folder / "home", "--engine", "scripted", "--script",
                        script_file(folder, *[output] * (runs + 1)))
        try:
            served.wait_for("ready")
            client = openai.OpenAI(base_url=served.url, api_key=served.key, max_retries=0)
            local, remote = [], []
            for _ in range(runs):
                local.append(in_process_turn(runner, short_chat("o"), 10 * words))
                remote.append(server_turn(client, short_chat("o"), 10 * words))
        finally:
            served.stop()
            runner.close()
    tokens = remote[0]["tokens"]
    local_s = statistics.median((r["tokens"] - 1) / r["tok_s"] for r in local)
    remote_s = statistics.median((r["tokens"] - 1) / r["tok_s"] for r in remote)
    return {"tokens": tokens, "per_token_us": (remote_s - local_s) / tokens * 1e6,
            "ttft_local_ms": statistics.median(r["ttft_ms"] for r in local),
            "ttft_server_ms": statistics.median(r["ttft_ms"] for r in remote)}


def agent(model: Path, system_tokens: int) -> list[dict[str, Any]]:
    """5 requests of one agent session; the server process is restarted after the 3rd."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="hearth-bench-serve-") as tmp:
        home = Path(tmp)
        settings = {"context_length": 16384}
        system = {"role": "system", "content": agent_prompt(system_tokens)}
        messages: list[dict[str, Any]] = [system]
        served = Served(home, "--model", str(model), settings=settings)
        served.wait_for("ready")
        for n in range(1, 6):
            if n == 4:
                served.stop()
                served = Served(home, "--model", str(model), settings=settings)
                served.wait_for("ready")
            client = openai.OpenAI(base_url=served.url, api_key=served.key, max_retries=0,
                                   timeout=600)
            messages.append({"role": "user", "content": f"Step {n}: what next?"})
            started = time.perf_counter()
            reply = client.chat.completions.create(model="tiny", messages=messages,
                                                   max_tokens=16, seed=n,
                                                   reasoning_effort="none")
            took = time.perf_counter() - started
            usage = reply.usage
            assert usage is not None and usage.prompt_tokens_details is not None
            cached = usage.prompt_tokens_details.cached_tokens or 0
            rows.append({"request": n, "fresh_process": n == 4, "prompt": usage.prompt_tokens,
                         "cached": cached, "computed": usage.prompt_tokens - cached,
                         "seconds": round(took, 3)})
            messages.append({"role": "assistant", "content": reply.choices[0].message.content
                             or ""})
        served.stop()
    return rows


def agent_prompt(tokens: int) -> str:
    # FILLER is 99 tokens in the tiny model's 512-token vocabulary; the first request reports
    # the real count.
    return "You are an agent with these standing instructions.\n" + FILLER * (tokens // 99)


def _median(rows: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def compare_report(figures: dict[str, Any], title: str) -> list[str]:
    rows, ones = figures["rows"], figures["ones"]
    loads = figures["loads"]
    lines = [
        f"## {title}", "",
        f"Model `{Path(figures['model']).parent.name}`, {figures['runs']} runs of "
        f"{figures['decode']} tokens after {figures['filler']} new paragraph(s) of prompt "
        "(the system prompt is cached), then as many 1-token answers; the three arms rotated "
        f"every run, medians. The engine (in-process reference and `hearth serve` alike) runs "
        f"with {figures['threads']} thread(s) in a process pinned to CPU "
        f"{figures['engine_cpus']}; the clients run in the bench process pinned to CPU "
        f"{figures['client_cpus']}. Load average (1 min) during the runs: {min(loads):.1f} to "
        f"{max(loads):.1f} (median {statistics.median(loads):.1f}). "
        + ("The bench ran in a session of its own at autogroup nice -10 (`--boost`), so other "
           "sessions' programs took little of the engine's core." if figures.get("boost") else
           "Default priority: other programs on the box share the engine's core."), "",
        "| arm | decode tok/s, stream | ratio | decode tok/s, turn times | ratio | TTFT ms "
        "| overhead | 1-token answer ms | overhead | tokens per SSE chunk | engine process "
        "CPU us/token | of which main thread | waited for a CPU ms |", "|---" * 13 + "|"]
    base = _arm_figures(rows[ARMS[0]], ones[ARMS[0]], figures["decode"])
    for arm in ARMS:
        f = _arm_figures(rows[arm], ones[arm], figures["decode"])
        stream = (f"{_rate(f['stream'])} | {f['stream'] / base['stream']:.2f}"
                  if f["stream"] and base["stream"] else "n/a | n/a")
        lines.append(
            f"| {arm} | {stream} | {_rate(f['turns'])} | {f['turns'] / base['turns']:.2f} | "
            f"{f['ttft']:.1f} | {f['ttft'] - base['ttft']:+.1f} | {f['one']:.1f} | "
            f"{f['one'] - base['one']:+.1f} | {f['per_chunk']} | {f['cpu']:.0f} | "
            f"{f['main']:.0f} | "
            f"{f['waited']:.0f} |")
    lines += ["", "Per run (decode tok/s from the stream; TTFT ms; 1-token answer ms):", "",
              "| run | " + " | ".join(ARMS) + " | load |", "|---" * (len(ARMS) + 2) + "|"]
    for i in range(figures["runs"]):
        cells = [f"{_rate(rows[a][i]['tok_s']) if _visible(rows[a][i]) else 'n/a'}; "
                 f"{rows[a][i]['ttft_ms']:.1f}; {ones[a][i]['turn_s'] * 1000:.1f}" for a in ARMS]
        lines.append(f"| {i + 1} | " + " | ".join(cells) + f" | {loads[i]:.1f} |")
    return lines + [""]


def _rate(tokens_per_s: float) -> str:
    return f"{tokens_per_s:.0f}" if tokens_per_s >= 100 else f"{tokens_per_s:.2f}"


def _visible(row: dict[str, float]) -> bool:
    """Whether text came before the end of the answer (a random model's tokens are often
    unused vocabulary entries, which decode to nothing)."""
    return row["turn_s"] - row["ttft_ms"] / 1000 > 0.01 * row["turn_s"]


def _arm_figures(rows: list[dict[str, float]], ones: list[dict[str, float]],
                 decode: int) -> dict[str, Any]:
    turn, one = _median(rows, "turn_s"), _median(ones, "turn_s")
    visible = all(_visible(row) for row in rows)
    return {"stream": _median(rows, "tok_s") if visible else 0.0,
            "turns": (decode - 1) / max(turn - one, 1e-9), "ttft": _median(rows, "ttft_ms"),
            "one": one * 1000,
            "cpu": statistics.median(x["cpu_ms"] / max(x["tokens"], 1) * 1000 for x in rows),
            "main": statistics.median(x["main_cpu_ms"] / max(x["tokens"], 1) * 1000
                                      for x in rows),
            "waited": _median(rows, "waited_ms"),
            "per_chunk": f"{_median(rows, 'tokens') / _median(rows, 'chunks'):.1f}"
            if _median(rows, "chunks") else "-"}


def report(figures: dict[str, Any], rows: list[dict[str, Any]], args: argparse.Namespace) -> str:
    lines = ["# Server (`hearth serve`) figures", "",
             "The server is a real `hearth serve` process (uvicorn + Starlette) on 127.0.0.1, "
             "read with the official `openai` SDK and with a light httpx SSE reader; the "
             "reference runs the same turn on a ModelRunner in a child process (no HTTP). "
             "Decode tok/s, stream = (tokens - 1) / (last token - first token) as each side "
             "sees it; decode tok/s, turn times = (tokens - 1) / (median whole answer - median "
             "1-token answer), which needs no visible text; 1-token answer = request to the end "
             "of a 1-token answer. Engine process CPU = CPU time of all threads of the process "
             "holding the model (Linux schedstat) per generated token; waited = time its "
             "threads were ready to run but had no CPU.", "",
             *compare_report(figures, "Tiny random model")]
    if "overhead" in figures:
        lines += [
            "## The server's own cost (scripted engine, no model: pure overhead)", "",
            f"Replaying the same {figures['overhead']['tokens']}-token answer at full speed: "
            f"{figures['overhead']['per_token_us']:.0f} us more per streamed token through the "
            f"server; time to first token {figures['overhead']['ttft_local_ms']:.1f} ms "
            f"in-process, {figures['overhead']['ttft_server_ms']:.1f} ms through the server "
            "(HTTP request, validation, queue, first SSE chunk, SDK parsing). The engine here "
            "outruns the event loop, so deltas already waiting go out as one chunk: this is "
            "the floor, not the cost of one token sent alone (the CPU columns above are).", ""]
    if rows:
        lines += [
            f"## Agent-shaped client: ~{args.system}-token system prompt, 5 requests, fresh "
            "server process before request 4", "",
            "| request | fresh process | prompt tokens | cached | computed | seconds |",
            "|---|---|---|---|---|---|"]
        lines += [f"| {r['request']} | {'yes' if r['fresh_process'] else ''} | {r['prompt']} | "
                  f"{r['cached']} | {r['computed']} | {r['seconds']} |" for r in rows]
        lines.append("")
    if "clients" in figures:
        lines += [
            f"## {figures['clients']} concurrent clients, {args.queue_decode} tokens per answer "
            "(the server in the bench process, its engine on every CPU)", "",
            f"- requests: {figures['requests']}, answered: {figures['ok']}, failed: "
            f"{len(figures['failures'])}" + (f" ({figures['failures'][:3]})"
                                             if figures["failures"] else ""),
            f"- the person's chat (USER priority) asked while "
            f"{figures['queue_when_user_asked']} API requests were queued or running:",
            f"  time to first token {figures['user_ttft_idle_ms']:.1f} ms idle, "
            f"{figures['user_ttft_loaded_ms']:.1f} ms under load (it waits for at most the "
            "one API answer already generating, never for the queue).", ""]
    return "\n".join(lines)


def boost() -> None:
    """Run in a session of its own whose autogroup has nice -10 (Linux, needs root): the
    kernel shares a CPU between sessions first, so other programs on a shared box would
    otherwise take the pinned engine core for unequal stretches of the arms. Both arms,
    and the clients, get the same boost."""
    if os.environ.get("HEARTH_BENCH_BOOSTED") != "1":
        env = {**os.environ, "HEARTH_BENCH_BOOSTED": "1"}
        os.execvpe("setsid", ["setsid", "--wait", sys.executable, *sys.argv], env)
    try:
        Path("/proc/self/autogroup").write_text("-10\n", encoding="ascii")
    except OSError as exc:
        raise SystemExit(f"--boost: cannot raise this session's priority: {exc}") from exc


def _cpus(text: str) -> set[int]:
    return {int(part) for part in text.split(",") if part.strip()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    allowed = sorted(os.sched_getaffinity(0))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--decode", type=int, default=128)
    parser.add_argument("--queue-decode", type=int, default=128,
                        help="tokens per answer with 8 concurrent clients")
    parser.add_argument("--system", type=int, default=10000)
    parser.add_argument("--model", type=Path, default=None,
                        help="a GGUF (default: the tiny test model); e.g. make_full_model.py's")
    parser.add_argument("--engine-cpus", type=_cpus, default=set(allowed[:-1] or allowed),
                        help="CPUs of the engine's process, both arms (default: all but one)")
    parser.add_argument("--client-cpus", type=_cpus, default={allowed[-1]},
                        help="CPUs of the clients (default: the last one)")
    parser.add_argument("--threads", type=int, default=0,
                        help="engine threads, both arms (default: one per engine CPU)")
    parser.add_argument("--filler", type=int, default=4,
                        help="paragraphs of new text in each compared turn (about 99 tokens each)")
    parser.add_argument("--only-compare", action="store_true",
                        help="only the in-process / server comparison (e.g. a full-size model)")
    parser.add_argument("--skip-agent", action="store_true",
                        help="leave out the (slow) 10K-token agent session")
    parser.add_argument("--boost", action="store_true",
                        help="a session of its own at autogroup nice -10 (Linux, root)")
    parser.add_argument("--title", default="")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "server.md"))
    parser.add_argument("--append", action="store_true", help="add to --out, not replace it")
    args = parser.parse_args()
    if args.boost:
        boost()
    model = args.model or build_tiny_model(ROOT / "tests" / ".cache" / "tiny-model").gguf_path
    figures = compare(model, args.runs, args.decode, args.engine_cpus, args.client_cpus,
                      args.threads or len(args.engine_cpus), args.filler)
    figures["boost"] = args.boost
    rows: list[dict[str, Any]] = []
    if args.only_compare:
        text = "\n".join(compare_report(figures, args.title or f"Model {model.parent.name}"))
    else:
        figures["overhead"] = overhead(args.runs)
        figures.update(concurrency_figures(model, args.queue_decode))
        rows = [] if args.skip_agent else agent(model, args.system)
        text = report(figures, rows, args)
    out = Path(args.out)
    if args.append and out.exists():
        text = out.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + text
    out.write_text(text, encoding="utf-8")
    print(text)
    print(json.dumps({"failures": figures.get("failures", [])}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
