"""`hearth selftest`: checks that a build (source or frozen bundle) has every part it needs."""

from __future__ import annotations

import argparse
import importlib
import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli.output import emit_json

if TYPE_CHECKING:
    from app.main import Hearth

# Hearth's own modules that are imported lazily or by name (a bundle could miss them).
MODULES = (
    "backends.chat_format", "backends.parser", "backends.select", "backends.llama_cpp",
    "backends.remote", "skills.builtin", "skills.documents", "skills.files", "skills.calendar",
    "app.core.assistant", "app.core.history",
)
# Libraries the skills import only when a file of that kind shows up.
LIBRARIES = (
    "pypdf", "docx", "openpyxl", "pptx", "icalendar", "dateutil.rrule", "watchdog.observers",
    "mcp.client.stdio", "sqlite_utils", "huggingface_hub", "pygments.lexers", "tzlocal",
)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("selftest", help="check that this installation has every part")
    parser.add_argument("--model", action="append", default=[], metavar="PATH",
                        help="also load this model and generate a few tokens (repeatable)")
    parser.add_argument("--no-window", action="store_true", help="skip opening the window")
    parser.add_argument("--fetch", metavar="URL", default="",
                        help="also download this file the way models are downloaded (the "
                             "bundle's smoke test points it at an HTTPS server on loopback)")
    parser.add_argument("--fetch-sha256", metavar="HEX", default="",
                        help="the sha256 the --fetch file must have")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)


def passed(result: str) -> bool:
    """A check's result is "ok", or "ok (a note)" when it passed with something to say."""
    return result == "ok" or result.startswith("ok (")


def _check(fn: Callable[[], object]) -> str:
    """"ok", "ok (a note)" when `fn` returns a note (text), or the failure."""
    try:
        note = fn()
    except Exception as exc:  # noqa: BLE001 - a self-test reports every failure instead of stopping
        return f"{type(exc).__name__}: {exc}"
    return f"ok ({note})" if isinstance(note, str) and note else "ok"


def _importer(name: str) -> Callable[[], object]:
    return lambda: importlib.import_module(name)


def engine_modules() -> tuple[str, ...]:
    """The engines this platform's build must carry (loading them loads their native libs)."""
    if platform.system() == "Darwin" and platform.machine() == "arm64":
        return ("llama_cpp", "mlx.core", "mlx_lm")
    return ("llama_cpp",)


def _engine_check(hearth: Hearth, model: str,
                  sizes: dict[str, Any] | None = None) -> Callable[[], None]:
    """Load the model and generate a few tokens; `sizes` gets the prompt prefix's token counts
    (system message, each tool schema) measured with this model's own tokenizer."""
    def check() -> None:
        from app.core.prompt_size import measure
        from backends.base import GenerateOptions, LocalEngine
        from backends.events import Done

        backend = hearth.make_backend(model_path=model, engine="auto", url="")
        backend.load()
        try:
            if sizes is not None and isinstance(backend, LocalEngine):
                sizes.update(measure(backend, *hearth.assistant.prefix_request()))
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


def _tls_check() -> str:
    """Whether HTTPS can be verified at all: a bundle whose TLS context holds no certificates
    fails every model download (the first thing a new user does)."""
    from backends.https import trust_report

    report = trust_report()
    if not report.ok:
        return (f"no certificates ({report.source}): HTTPS downloads and remote engines "
                "would fail to verify any server")
    count = f", {report.certificates} certificates" if report.certificates > 0 else ""
    return f"ok ({report.source}{count})"


def _fetch_check(url: str, sha256: str) -> Callable[[], None]:
    """Download one file through the model downloader into a temporary folder."""
    def check() -> None:
        import tempfile

        from app.core.model_download import Downloader, RemoteFile

        with tempfile.TemporaryDirectory() as folder:
            Downloader(Path(folder)).run([RemoteFile("fetched", url, None, sha256.lower())])

    return check


def _metal_status() -> str:
    """Loads MLX's Metal kernels (mlx.metallib) as a generation would. A Mac without a Metal
    device (a CI VM) still passes, saying so: its MLX generation then runs on the CPU."""
    from backends.mlx_backend import metal_status

    return metal_status()


def _data_checks() -> dict[str, Callable[[], object]]:
    """Package data a frozen build tends to lose: prompts, JSON Schema metaschemas, time zones."""

    def prompts() -> None:
        from app.core.prompts import prompt_text

        if not prompt_text("system").strip():
            raise RuntimeError("the system prompt is empty")

    def metaschema() -> None:
        import jsonschema  # its metaschemas live in jsonschema_specifications' data files

        jsonschema.Draft202012Validator.check_schema({"type": "object"})

    def zones() -> None:
        from zoneinfo import ZoneInfo  # Windows has no system zone database: tzdata supplies it

        ZoneInfo("America/New_York")

    def lexers() -> None:
        from pygments.lexers import get_lexer_by_name  # lexers are found by name at run time

        get_lexer_by_name("python")

    return {"prompts": prompts, "json schema metaschemas": metaschema, "time zones": zones,
            "code highlighting": lexers}


def collect(args: argparse.Namespace, hearth: Hearth,
            sizes: dict[str, dict[str, Any]] | None = None) -> dict[str, str]:
    checks: dict[str, str] = {}
    for name in (*MODULES, *LIBRARIES, *engine_modules()):
        checks[f"import {name}"] = _check(_importer(name))
    for label, fn in _data_checks().items():
        checks[label] = _check(fn)
    checks["history database"] = _check(lambda: hearth.history.list_conversations())
    checks["tls certificates"] = _tls_check()
    if args.fetch:
        checks["https download"] = _check(_fetch_check(args.fetch, args.fetch_sha256))
    if "mlx.core" in engine_modules():
        checks["metal kernels"] = _check(_metal_status)
    for model in args.model:
        measured: dict[str, Any] = {}
        checks[f"model {Path(model).name}"] = _check(_engine_check(hearth, model, measured))
        if sizes is not None and measured:
            sizes[Path(model).name] = measured
    if not args.no_window:
        checks["window"] = _check(hearth.ui_selftest)
    return checks


def run(args: argparse.Namespace, hearth: Hearth) -> int:
    sizes: dict[str, dict[str, Any]] = {}
    checks = collect(args, hearth, sizes)
    ok = all(passed(v) for v in checks.values())
    report = {
        "ok": ok,
        "python": sys.version.split()[0],
        "frozen": bool(getattr(sys, "frozen", False)),
        "checks": checks,
        "prompt_tokens": sizes,  # per model: the fixed prefix every new chat starts with
    }
    if args.json:
        emit_json(report)
    else:
        for name, result in checks.items():
            print(f"ok   {name}{result[2:]}" if passed(result) else f"FAIL {name}: {result}")
        for model, size in sizes.items():
            print(f"prompt prefix with {model}: {size['total']:,} tokens (system message "
                  f"{size['system']:,}, tools {size['tools_total']:,})")
    return 0 if ok else 1
