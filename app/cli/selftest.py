"""`hearth selftest`: checks that a build (source or frozen bundle) has every part it needs."""

from __future__ import annotations

import argparse
import importlib
import platform
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.cli.output import emit_json

if TYPE_CHECKING:
    from app.main import Hearth

MODULES = (
    "backends.chat_format",
    "backends.parser",
    "backends.select",
    "backends.llama_cpp",
    "backends.remote",
    "skills.builtin",
    "skills.documents",
    "skills.files",
    "skills.calendar",
    "app.core.assistant",
    "app.core.history",
)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("selftest", help="check that this installation has every part")
    parser.add_argument("--model", help="also load this model and generate a few tokens")
    parser.add_argument("--no-window", action="store_true", help="skip opening the window")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)


def _check(fn: Callable[[], None]) -> str:
    try:
        fn()
    except Exception as exc:  # a self-test reports every failure instead of stopping
        return f"{type(exc).__name__}: {exc}"
    return "ok"


def _engine_check(hearth: Hearth, model: str) -> Callable[[], None]:
    def check() -> None:
        from backends.base import GenerateOptions
        from backends.events import Done

        backend = hearth.make_backend(model_path=model, engine="auto", url="")
        backend.load()
        try:
            options = GenerateOptions(enable_thinking=False, max_tokens=4)
            messages = [{"role": "system", "content": "test"}, {"role": "user", "content": "hi"}]
            if not backend.render_prompt(messages, options):
                raise RuntimeError("empty prompt")
            events = list(backend.stream(messages, options, lambda: False))
            if not isinstance(events[-1], Done) or events[-1].finish_reason == "error":
                raise RuntimeError(f"generation failed: {events[-3:]}")
        finally:
            backend.unload()

    return check


def run(args: argparse.Namespace, hearth: Hearth) -> int:
    checks: dict[str, str] = {}
    for name in MODULES:
        checks[f"import {name}"] = _check(lambda name=name: importlib.import_module(name))
    if platform.system() == "Darwin" and platform.machine() == "arm64":
        checks["import mlx engine"] = _check(lambda: importlib.import_module("mlx_lm"))
    checks["history database"] = _check(lambda: hearth.history.list_conversations() and None)
    if args.model:
        checks["model"] = _check(_engine_check(hearth, args.model))
    if not args.no_window:
        checks["window"] = _check(hearth.ui_selftest)
    ok = all(v == "ok" for v in checks.values())
    report = {
        "ok": ok,
        "python": sys.version.split()[0],
        "frozen": bool(getattr(sys, "frozen", False)),
        "checks": checks,
    }
    if args.json:
        emit_json(report)
    else:
        for name, result in checks.items():
            print(f"ok   {name}" if result == "ok" else f"FAIL {name}: {result}")
    return 0 if ok else 1
