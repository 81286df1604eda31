"""`hearth ask` (one question, streamed) and `hearth chat` (interactive), over the same Assistant.

Tests replace the model with the hidden `--engine scripted --script FILE` (app/cli/engine_options.py)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from app.cli.engine_options import add_engine_options

if TYPE_CHECKING:
    from app.main import Hearth


def _model_options(parser: argparse.ArgumentParser) -> None:
    add_engine_options(parser)
    think = parser.add_mutually_exclusive_group()
    think.add_argument("--think", dest="think", action="store_const", const=True,
                       help="reason before answering (default: as in settings)")
    think.add_argument("--no-think", dest="think", action="store_const", const=False,
                       help="answer without reasoning")
    parser.add_argument("--max-tokens", type=_positive, metavar="N",
                        help="limit each answer step to N tokens")
    parser.add_argument("--docs", action="store_true",
                        help="answer from your indexed documents only")
    parser.add_argument("--yes", action="store_true",
                        help="approve every action a skill asks permission for")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return value


def _run_ask(args: argparse.Namespace, hearth: Hearth) -> int:
    # Imported when asked: the assistant's modules would cost every other command ~0.5 s.
    from app.cli.ask.commands import run_ask

    return run_ask(args, hearth)


def _run_chat(args: argparse.Namespace, hearth: Hearth) -> int:
    from app.cli.ask.commands import run_chat

    return run_chat(args, hearth)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    ask = sub.add_parser("ask", help="ask one question and stream the answer")
    ask.add_argument("question", help="what to ask")
    _model_options(ask)
    ask.add_argument("--conversation", metavar="ID", help="continue a saved conversation")
    ask.add_argument("--print-prompt", action="store_true",
                     help="show the exact prompt text the engine is sent")
    ask.set_defaults(func=_run_ask)

    chat = sub.add_parser("chat", help="chat in the terminal (/new, /quit; Ctrl+C stops)")
    _model_options(chat)
    chat.add_argument("--conversation", metavar="ID", help="continue a saved conversation")
    chat.set_defaults(func=_run_chat)
