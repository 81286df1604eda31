"""Shared helpers for CLI output: JSON lines, readable errors on stderr, exit codes."""

from __future__ import annotations

import json
import os
import sys

from app.cli.terminal import json_safe


def emit_json(obj: object) -> None:
    """One JSON object per line, flushed at once so pipes see events as they happen."""
    # Escapes, bidi controls and lone surrogates as \\u escapes: the same data, nothing a
    # terminal obeys, and always encodable.
    sys.stdout.write(json_safe(json.dumps(obj, ensure_ascii=False, default=str)) + "\n")
    sys.stdout.flush()


def local_time(stored: str, date_only: bool = False) -> str:
    """A time the stores keep as ISO text in UTC, as this computer's clock reads it
    ("2026-12-03 19:15"); the text as it is when it cannot be read."""
    from skills.common.clock import stored_moment

    moment = stored_moment(stored)
    if moment is None:
        return stored[:10] if date_only else stored[:16].replace("T", " ")
    return f"{moment:%Y-%m-%d}" if date_only else f"{moment:%Y-%m-%d %H:%M}"


def fail_on(error: BaseException) -> int:
    """An exception as one line on stderr, exiting with the code its failure kind documents."""
    from app.core.failures import exit_code, kind_of

    return fail(str(error), exit_code(kind_of(error)))


def fail(message: str, code: int = 1) -> int:
    """A one-line message on stderr (never a traceback) and a non-zero exit code."""
    sys.stderr.write(f"hearth: {message}\n")
    sys.stderr.flush()
    return code


READER_GONE = 141  # the shell's code for a writer whose reader left (128 + SIGPIPE)


def reader_gone() -> int:
    """stdout's reader has closed the pipe (`| head` read enough): what is still written, even
    the interpreter's last flush, goes nowhere instead of ending in a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ else 1)
        os.close(devnull)
    except (OSError, ValueError):  # no real stdout: nothing will be flushed to it
        pass
    return READER_GONE
