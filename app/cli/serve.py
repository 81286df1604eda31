"""`hearth serve`: the OpenAI-compatible server, headless, over the one loaded model.

With --json the first line, once it accepts requests, is {"type": "listening", "url", "api_key"},
then {"type": "ready", ...} when the model is loaded, then one {"type": "request", ...} line per
request handled (no message bodies). SIGTERM or Ctrl+C stops it cleanly."""

from __future__ import annotations

import argparse
import errno
import sys
import threading
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from app.cli.engine_options import add_engine_options, scripted_backend
from app.cli.output import emit_json, fail
from app.core.failures import exit_code, kind_of
from app.core.server.client_config import model_id
from app.core.server.guard import is_loopback_host
from app.core.server.keys import ensure_api_key
from app.core.server.log import RequestRecord
from backends.base import Backend, BackendInfo
from backends.engines import Engine
from backends.errors import BackendError, FailureKind

if TYPE_CHECKING:
    from app.main import Hearth

def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("serve", help="serve the model to other programs (OpenAI API)")
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1, loopback only)")
    parser.add_argument("--port", type=_port, help="port (default from settings, 8484; 0: any)")
    add_engine_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--new-key", action="store_true",
                        help="replace the API key with a new random one first")
    parser.set_defaults(func=run_serve)


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 0 to 65535, not {text!r}")
    return int(text)


class _Lines:
    """Output from three threads (server loop, model thread, main), one whole line at a time."""

    def __init__(self, json_mode: bool) -> None:
        self.json_mode = json_mode
        self._lock = threading.Lock()

    def event(self, obj: dict[str, Any], text: str) -> None:
        with self._lock:
            if self.json_mode:
                emit_json(obj)
            else:
                sys.stdout.write(text + "\n")
                sys.stdout.flush()


def run_serve(args: argparse.Namespace, hearth: Hearth) -> int:
    from app.core.server.service import ApiServer, ServerConfig  # the ASGI stack, on demand

    settings = hearth.settings
    if args.new_key:
        settings.server_api_key = ""
    if ensure_api_key(settings):
        hearth.save_settings()  # created on first use, kept in the owner-only settings file
    host = args.host or settings.server_host
    if not is_loopback_host(host):
        sys.stderr.write(f"hearth: warning: listening on {host} lets other machines on the "
                         "network use the model (they still need the key)\n")
    try:
        backend = _backend(args, hearth)
    except BackendError as exc:
        return fail(str(exc), exit_code(exc.kind))
    config = ServerConfig(api_key=lambda: settings.server_api_key, host=host,
                          port=settings.server_port if args.port is None else args.port,
                          cors_origins=lambda: list(settings.server_cors_origins),
                          default_max_tokens=lambda: settings.max_tokens)
    loaded: Future[BackendInfo] | None = None
    server = ApiServer(hearth.runner, config, log=hearth.request_log,
                       loading=lambda: loaded is None or not loaded.done())
    out = _Lines(args.json)
    try:
        server.bind()
    except OSError as exc:  # a port in use is "busy", not a storage problem
        kind = FailureKind.BUSY if exc.errno == errno.EADDRINUSE else kind_of(exc)
        return fail(str(exc.strerror or exc), exit_code(kind))
    server.log.subscribe(lambda record: out.event(record.to_json(), _request_line(record)))
    failure: list[BaseException] = []

    def listening() -> None:
        nonlocal loaded
        out.event({"type": "listening", "url": server.url, "api_key": settings.server_api_key},
                  f"Hearth's server is listening at {server.url}\n"
                  f"API key: {settings.server_api_key}\n(Ctrl+C stops it)")
        loaded = hearth.runner.load(backend)
        loaded.add_done_callback(lambda future: _on_loaded(future, server, out, failure))

    server.serve(on_listening=listening)
    if failure:
        error = failure[0]
        return fail(str(error), exit_code(kind_of(error)))
    return 0


def _backend(args: argparse.Namespace, hearth: Hearth) -> Backend:
    if args.engine == Engine.SCRIPTED:
        return scripted_backend(args)  # a bad script is bad input (ScriptError)
    return hearth.make_backend(model_path=args.model, engine=args.engine, url=args.url)


def _on_loaded(future: Future[BackendInfo], server: Any, out: _Lines,
               failure: list[BaseException]) -> None:
    error = future.exception()
    if error is not None:
        failure.append(error)
        out.event({"type": "error", "message": str(error), "kind": str(kind_of(error))},
                  f"Could not load the model: {error}")
        server.stop_soon()
        return
    info = future.result()  # a done callback: it is ready
    out.event({"type": "ready", "model": model_id(info), "context_length": info.context_length,
               "engine": info.engine},
              f"Model ready: {model_id(info)} ({info.context_length:,}-token context, "
              f"{info.engine})")


def _request_line(record: RequestRecord) -> str:
    tools = f", tools: {', '.join(record.tool_calls)}" if record.tool_calls else ""
    error = f" ({record.error})" if record.error else ""
    return (f"{record.status} {record.method} {record.path} {record.client} "
            f"{record.prompt_tokens}+{record.completion_tokens} tokens "
            f"({record.cached_tokens} cached) {record.duration_ms:.0f} ms{tools}{error}")
