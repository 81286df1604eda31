"""`hearth chat`: an interactive terminal chat over the same turn loop as the app."""

from __future__ import annotations

import sys

from app.cli.ask.render import Renderer
from app.cli.ask.waiting import wait_for_turn
from app.core.assistant import Assistant, ConfirmPolicy, TurnMode

HELP = "Type a message. /new starts a new conversation, /quit leaves, Ctrl+C stops an answer."


def chat_loop(assistant: Assistant, conversation: str | None, mode: TurnMode,
              policy: ConfirmPolicy, json_mode: bool) -> int:
    """Read lines until /quit or end of input; each line is one turn."""
    err = sys.stderr
    if not json_mode:
        err.write(HELP + "\n")
    while True:
        line = _read("you> " if sys.stdin.isatty() else "")
        if line is None or line.strip() in ("/quit", "/exit"):
            return 0
        text = line.strip()
        if not text:
            continue
        if text == "/new":
            conversation = None
            err.write("(new conversation)\n")
            continue
        if text.startswith("/"):
            err.write(f"Unknown command {text.split()[0]}. {HELP}\n")
            continue
        renderer = Renderer(json_mode, policy)
        handle = assistant.send(conversation, text, mode=mode, on_event=renderer, confirm=policy)
        conversation = handle.conversation_id
        if not wait_for_turn(handle, renderer) and not json_mode:
            err.write("\n(stopped)\n")


def _read(prompt: str) -> str | None:
    try:
        if prompt:
            return input(prompt)
        line = sys.stdin.readline()
        return line if line else None
    except EOFError:
        return None
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return None
