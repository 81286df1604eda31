"""What `hearth ask` and `hearth chat` do: load the model, run turns, wait, report."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from app.cli.ask.render import Renderer
from app.cli.ask.waiting import wait_for_turn
from app.cli.engine_options import scripted_backend
from app.cli.interrupts import result_of
from app.cli.output import READER_GONE, emit_json, fail_on
from app.core.assistant import ConfirmPolicy, TurnMode
from app.core.failures import FailureKind, exit_code
from backends.base import Backend, GenerateOptions, Message
from backends.engines import Engine
from backends.errors import BackendError

if TYPE_CHECKING:
    from app.main import Hearth

class CliError(Exception):
    """A readable problem with the command line or its inputs."""

    kind = FailureKind.BAD_INPUT


def run_ask(args: argparse.Namespace, hearth: Hearth) -> int:
    try:
        conversation = _conversation(args, hearth)  # before the (slow) model load
        backend = _load_model(args, hearth)
    except (CliError, BackendError) as exc:
        return fail_on(exc)
    policy: ConfirmPolicy = "approve" if args.yes else "deny"
    if not args.yes and not args.json and sys.stdin.isatty():
        policy = "ask"
    renderer = Renderer(args.json, policy)
    on_prompt = _prompt_printer(hearth, backend, args.json) if args.print_prompt else None
    try:
        handle = hearth.assistant.send(conversation, args.question, mode=_mode(args, hearth),
                                       on_event=renderer, confirm=policy, on_prompt=on_prompt)
    except ValueError as exc:
        return fail_on(exc)
    try:
        finished = wait_for_turn(handle, renderer)
    finally:
        hearth.assistant.close()
    if renderer.reader_gone:
        return READER_GONE
    if not finished:
        return exit_code(FailureKind.CANCELLED)
    if renderer.failed is not None:
        return exit_code(renderer.failed.kind)  # its one line is already on stderr
    return 0


def run_chat(args: argparse.Namespace, hearth: Hearth) -> int:
    from app.cli.ask.chat import chat_loop

    try:
        conversation = _conversation(args, hearth)
        _load_model(args, hearth)
    except (CliError, BackendError) as exc:
        return fail_on(exc)
    try:
        return chat_loop(hearth.assistant, conversation, _mode(args, hearth),
                         "approve" if args.yes else "ask", args.json)
    finally:
        hearth.assistant.close()


def _mode(args: argparse.Namespace, hearth: Hearth) -> TurnMode:
    # --think / --no-think override; otherwise the same default the app uses (Settings).
    thinking = hearth.settings.thinking_default if args.think is None else args.think
    fields: dict[str, Any] = {"thinking": thinking, "max_tokens": args.max_tokens}
    return TurnMode.docs_only(**fields) if args.docs else TurnMode(**fields)


def _conversation(args: argparse.Namespace, hearth: Hearth) -> str | None:
    if not args.conversation:
        return None
    try:
        return str(hearth.history.resolve_id(args.conversation))
    except Exception as exc:  # NotFound / ambiguous prefix: the store's message is readable
        raise CliError(str(exc).strip("'\"")) from exc


def _load_model(args: argparse.Namespace, hearth: Hearth) -> Backend:
    # --model names a file here: a server URL saved in settings must not win over it.
    url = args.url if args.url is not None or not args.model else ""
    backend = scripted_backend(args) if args.engine == Engine.SCRIPTED else hearth.make_backend(
        model_path=args.model, engine=args.engine, url=url)
    try:
        result_of(hearth.runner.load(backend))
    except BackendError:
        raise
    except Exception as exc:  # a surprise from an engine is still one readable line
        raise BackendError(f"Could not load the model: {exc}") from exc
    return backend


def _prompt_printer(hearth: Hearth, backend: Backend, json_mode: bool) -> Any:
    """Shows each prompt exactly as the engine renders it (on the runner thread, in order)."""

    def show(messages: list[Message], options: GenerateOptions) -> None:
        text = result_of(hearth.runner.call(lambda: backend.render_prompt(messages, options)))
        if json_mode:
            emit_json({"type": "prompt", "text": text})
        else:
            sys.stdout.write(f"----- prompt -----\n{text}\n----- answer -----\n")
            sys.stdout.flush()

    return show
