"""The same 20 conversations against real and fake serving engines. Writes
bench/results/remote-servers.md.

    .venv/bin/python bench/remote_servers.py [--conversations 20]

Servers: llama-cpp-python's own (`python -m llama_cpp.server`, a real process on 127.0.0.1, the
tiny random-weight Nanbeige GGUF) and a fake that behaves like vLLM's and like SGLang's
Nanbeige reasoning and tool parsers (tests/support/fake_serving.py). Each conversation has tool
calls in its history; odd ones run in Think mode, even ones in Non-Think. Counted: turns
answered, Non-Think really off (the prompt the model reads ends in the empty think block),
stored answers free of markup."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.assistant import Assistant, TurnMode  # noqa: E402
from app.core.events import TurnDone, TurnFailed  # noqa: E402
from app.core.history import HistoryStore  # noqa: E402
from app.core.runner import ModelRunner  # noqa: E402
from app.core.settings import Settings  # noqa: E402
from backends.errors import RemoteError  # noqa: E402
from backends.remote import RemoteBackend  # noqa: E402
from skills.builtin import builtin_skills  # noqa: E402
from tests.support.fake_serving import FakeServing  # noqa: E402
from tests.support.ports import free_port  # noqa: E402
from tests.support.tiny_model import CHAT_TEMPLATE, build_tiny_model  # noqa: E402

MARKUP = ("<think>", "</think>", "<tool_call>", "</tool_call>", "<|im_end|>", "<function=")
EMPTY_THINK = "<think>\n\n</think>\n\n"
CONTEXT = 4096


def _seed_history(history: HistoryStore, n: int) -> str:
    conv = str(history.create_conversation(f"conv {n}").id)
    for step in range(1 + n % 2):
        history.add_message(conv, "user", f"What time is it in zone {step}?")
        history.add_message(conv, "assistant", "", reasoning="I will ask the clock.",
                            tool_calls=[{"id": f"c{n}{step}", "name": "get_current_time",
                                         "arguments": {"timezone": "Asia/Tokyo"}}])
        history.add_message(conv, "tool", "2026-12-01 20:00 JST", tool_call_id=f"c{n}{step}",
                            tool_name="get_current_time", tool_ok=True)
        history.add_message(conv, "assistant", "It is 20:00 in Tokyo.")
    return conv


class ChatOnly(RemoteBackend):
    """The reference: plain chat requests, as Hearth spoke to every server before issue 12."""

    def _raw_template(self, models: list[dict[str, Any]]) -> Any:
        return None


def run_conversations(url: str, count: int, served: list[str] | None = None,
                      engine: type[RemoteBackend] = RemoteBackend) -> dict[str, int]:
    """served: the prompts a fake server recorded; otherwise each prompt Hearth rendered
    (for the chat-only reference, the prompt the server renders is not known: not counted)."""
    with tempfile.TemporaryDirectory(prefix="hearth-bench-") as tmp:
        runner = ModelRunner()
        runner.load(engine(url, timeout=60.0, context_length=CONTEXT)).result(60)
        history = HistoryStore(Path(tmp) / "hearth.db")
        assistant = Assistant(runner, history, builtin_skills(), Settings(max_tokens=24))
        answered = non_think_off = non_think = clean = 0
        for n in range(count):
            conv = _seed_history(history, n)
            think = n % 2 == 1
            seen: list[str] = []
            events: list[Any] = []
            before = len(served) if served is not None else 0
            handle = assistant.send(conv, "And in Paris?", mode=TurnMode(thinking=think, seed=n),
                                    on_event=events.append,
                                    on_prompt=lambda m, o, seen=seen: seen.append(
                                        _rendered(runner, m, o)))
            handle.wait(300)
            if served is not None:
                seen = served[before:]
            answered += bool([e for e in events if isinstance(e, TurnDone)]) and not [
                e for e in events if isinstance(e, TurnFailed)]
            if not think:
                non_think += 1
                non_think_off += bool(seen) and all(p.endswith(EMPTY_THINK) for p in seen)
            answers = [m for m in history.messages(conv) if m.role == "assistant"]
            clean += not any(tag in m.content for m in answers for tag in MARKUP)
            for m in answers:
                found = [t for t in MARKUP if t in m.content]
                if found and "--verbose" in sys.argv:
                    print("markup", found, repr(m.content[:200]))
        runner.close()
        history.close()
    return {"conversations": count, "answered": answered, "non_think": non_think,
            "non_think_off": non_think_off, "clean": clean}


def _rendered(runner: ModelRunner, messages: Any, options: Any) -> str:
    backend = runner.backend
    assert backend is not None
    prompt = backend.render_prompt(messages, options)  # for llama-cpp-python: what it is sent
    # A chat request: the server renders; whether it honours enable_thinking is unknown here.
    return prompt if not prompt.startswith("POST ") else ""


def llama_cpp_python(model: Path, count: int,
                     engine: type[RemoteBackend] = RemoteBackend) -> dict[str, int]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = Path(tempfile.mkdtemp(prefix="hearth-bench-")) / "llama-server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host",
             "127.0.0.1", "--port", str(port), "--n_ctx", str(CONTEXT), "--n_threads", "1",
             "--verbose", "False"], stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                RemoteBackend(url, timeout=2.0).load()
                break
            except RemoteError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit(f"llama_cpp.server did not start; see {log}") from None
                time.sleep(0.3)
        return run_conversations(url, count, engine=engine)
    finally:
        process.terminate()
        process.wait(10)


def fake(flavor: str, count: int) -> dict[str, int]:
    server = FakeServing(CHAT_TEMPLATE, flavor=flavor, context=CONTEXT).start()
    for n in range(count):
        if n % 2:  # Think: reasoning, then a tool call, then the answer
            server.outputs.extend([
                "I need the clock.\n</think>\n\n<tool_call>\n<function=get_current_time>\n"
                "<parameter=timezone>\nEurope/Paris\n</parameter>\n</function>\n</tool_call>",
                "The tool answered.\n</think>\n\nIt is 12:00 in Paris."])
        else:
            server.outputs.append("It is 12:00 in Paris.")
    try:
        return run_conversations(server.url, count, server.prompts)
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--conversations", type=int, default=20)
    parser.add_argument("--verbose", action="store_true", help="print each answer with markup")
    args = parser.parse_args()
    model = build_tiny_model(ROOT / "tests" / ".cache" / "tiny-model").gguf_path
    rows = [("reference: llama-cpp-python server spoken to with plain chat requests",
             llama_cpp_python(model, args.conversations, ChatOnly)),
            ("llama-cpp-python server (real process, tiny GGUF)",
             llama_cpp_python(model, args.conversations)),
            ("fake vLLM (Nanbeige parsers)", fake("vllm", args.conversations)),
            ("fake SGLang (Nanbeige parsers)", fake("sglang", args.conversations))]
    lines = ["# Remote servers spoken to correctly (issue 12)", "",
             f"Command: `.venv/bin/python bench/remote_servers.py --conversations "
             f"{args.conversations}`", "",
             "| server | answered | Non-Think really off | stored answers without markup |",
             "|---|---|---|---|"]
    for name, r in rows:
        lines.append(f"| {name} | {r['answered']} of {r['conversations']} | "
                     f"{r['non_think_off']} of {r['non_think']} | "
                     f"{r['clean']} of {r['conversations']} |")
    lines.append("")
    out = ROOT / "bench" / "results" / "remote-servers.md"
    out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
