"""The engine options of ask, chat and serve, and the test engine behind the hidden
`--engine scripted --script FILE`.

Never offered to people (not in Settings, not in --help, not in `backends.engines.CHOICES`):
FILE is a JSON list of raw model outputs as ScriptedBackend replays them, or plain text for one
output; `--script-delay S` streams them S seconds a token (to test stopping an answer)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from backends.base import Backend
from backends.engines import CHOICES, Engine
from backends.errors import BackendError, FailureKind

CLI_ENGINES = (*CHOICES, Engine.SCRIPTED)  # what --engine accepts; its metavar shows CHOICES


class ScriptError(BackendError):
    """A test script that cannot be used (a mistake on the command line)."""

    kind = FailureKind.BAD_INPUT


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """--model, --engine and --url of the commands that run the model, with the hidden --script."""
    parser.add_argument("--model", metavar="PATH", help="a .gguf file or an MLX model folder")
    parser.add_argument("--engine", choices=CLI_ENGINES, metavar="{auto,llama,mlx,remote}",
                        help="which engine runs the model (default: settings, then auto)")
    parser.add_argument("--url", help="server URL for --engine remote")
    parser.add_argument("--script", help=argparse.SUPPRESS)
    parser.add_argument("--script-delay", type=_seconds, default=0.0, help=argparse.SUPPRESS)


def scripted_backend(args: argparse.Namespace) -> Backend:
    from backends.scripted import ScriptedBackend

    if not args.script:
        raise ScriptError("--engine scripted needs --script FILE")
    try:
        text = Path(args.script).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(f"cannot read the script {args.script}: {exc.strerror}") from exc
    try:
        outputs = json.loads(text)
    except ValueError:
        outputs = [text]
    if not isinstance(outputs, list) or not all(isinstance(o, str) for o in outputs):
        raise ScriptError("the script must be a JSON list of model outputs (strings)")
    return ScriptedBackend(outputs, delay=args.script_delay)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 60:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be between 0 and 60 seconds, not {text!r}")
    return value
