"""Failure kinds at the edges: the CLI's documented exit code per kind, and exception mapping.

The kinds themselves are `backends.errors.FailureKind` (one vocabulary for every layer). The UI
turns a kind into a translated message and an action in app/ui (one place); the CLI prints the
English detail on one line and exits with `exit_code(kind)`."""

from __future__ import annotations

from backends.errors import FailureKind, kind_of

__all__ = ["EXIT_CODES", "FailureKind", "exit_code", "kind_of"]

EXIT_CODES: dict[FailureKind, int] = {
    FailureKind.INTERNAL: 1,
    FailureKind.BAD_INPUT: 2,  # as argparse's usage errors
    FailureKind.NO_MODEL: 3,
    FailureKind.MODEL_BAD: 4,
    FailureKind.CONTEXT_FULL: 5,
    FailureKind.ENGINE_FAILED: 6,
    FailureKind.SERVER_UNREACHABLE: 7,
    FailureKind.SERVER_REFUSED: 8,
    FailureKind.BUSY: 9,
    FailureKind.DISK_FULL: 10,
    FailureKind.STORAGE: 11,
    FailureKind.CANCELLED: 130,  # as a shell reports Ctrl+C
}
"""`hearth` exit codes, documented in the README: one per failure kind."""


def exit_code(kind: FailureKind) -> int:
    return EXIT_CODES.get(kind, 1)
