"""Typed engine errors, and the one vocabulary of failure kinds every layer speaks.

`FailureKind` lives here, in the lowest layer, because engines are where most failures start;
the core (app/core/failures.py) maps kinds to CLI exit codes, and the UI maps them to
translated messages and actions. The English text of an error is for logs and the CLI only."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where an error is sorted: `hearth` imports this before its window
    import sqlite3


class FailureKind(StrEnum):
    """What went wrong, as a caller can act on it (not how it is worded)."""

    NO_MODEL = "no_model"  # nothing loaded / no model chosen
    MODEL_BAD = "model_bad"  # missing, truncated, corrupt or unsupported model file
    CONTEXT_FULL = "context_full"  # prompt + answer do not fit the context window
    ENGINE_FAILED = "engine_failed"  # the engine raised while loading or generating
    SERVER_UNREACHABLE = "server_unreachable"  # remote server not reachable
    SERVER_REFUSED = "server_refused"  # remote server answered with an error
    BUSY = "busy"  # something else is running where this needs to run
    CANCELLED = "cancelled"  # the user stopped it
    DISK_FULL = "disk_full"  # no space left while writing Hearth's data
    STORAGE = "storage"  # Hearth's data cannot be read or written (read-only, damaged, missing)
    BAD_INPUT = "bad_input"  # the request itself is wrong (unknown id, empty text, bad file)
    INTERNAL = "internal"  # a bug


class BackendError(Exception):
    """Base for every engine failure; str(error) is a readable English sentence."""

    kind: FailureKind = FailureKind.ENGINE_FAILED


class ModelNotFound(BackendError):
    """The model path does not exist."""

    kind = FailureKind.MODEL_BAD


class NoModelChosen(ModelNotFound):
    """No model path at all: nothing is wrong with a file, there is none yet."""

    kind = FailureKind.NO_MODEL


class ModelCorrupt(BackendError):
    """The file exists but is truncated, damaged or not a model at all."""

    kind = FailureKind.MODEL_BAD


class UnsupportedModel(BackendError):
    """The model's architecture or format is not one this engine runs."""

    kind = FailureKind.MODEL_BAD


class NoUsableTemplate(UnsupportedModel):
    """The model has no chat template Hearth can use (none, or one that does not compile):
    the window offers to choose one."""


class InsufficientMemory(BackendError):
    """The model (with the smallest useful context) would not fit in free memory."""

    kind = FailureKind.ENGINE_FAILED


class EngineUnavailable(BackendError):
    """The engine's library is not installed or cannot run on this machine."""

    kind = FailureKind.ENGINE_FAILED


class RemoteError(BackendError):
    """The remote server could not be reached or answered with an error."""

    kind = FailureKind.SERVER_UNREACHABLE


class RemoteRefused(RemoteError):
    """The remote server answered, with an HTTP error (its own words are the message)."""

    kind = FailureKind.SERVER_REFUSED


class ContextFull(BackendError):
    """The prompt and the reserved answer do not fit the loaded context window."""

    kind = FailureKind.CONTEXT_FULL


class NotLoaded(BackendError):
    """stream() was called before load()."""

    kind = FailureKind.NO_MODEL


def kind_of(exc: BaseException) -> FailureKind:
    """The failure kind of any exception: errors that carry a `kind` (engine errors, history
    errors) give theirs; OS errors are storage (or a full disk); ValueError is bad input."""
    import errno
    import sqlite3

    carried = getattr(exc, "kind", None)
    if isinstance(carried, FailureKind):
        return carried
    # A readable error raised from a full disk is a full disk too.
    if any(isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT)
           for error in (exc, exc.__cause__)):
        return FailureKind.DISK_FULL
    if isinstance(exc, OSError):
        return FailureKind.STORAGE
    if isinstance(exc, sqlite3.Error):
        return _sqlite_kind(exc)
    if isinstance(exc, ValueError):  # UnicodeError too: text that cannot be stored or shown
        return FailureKind.BAD_INPUT
    return FailureKind.INTERNAL


# SQLite primary result codes (sqlite3.h) and the kind each is.
_SQLITE_KINDS = {13: FailureKind.DISK_FULL, 5: FailureKind.BUSY, 6: FailureKind.BUSY}
_SQLITE_STORAGE = {3, 8, 10, 11, 14, 15, 23, 26}  # perm, readonly, ioerr, corrupt, cantopen,
# protocol, auth, notadb


def _sqlite_kind(exc: sqlite3.Error) -> FailureKind:
    import sqlite3

    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        text = str(exc).lower()
        if "disk is full" in text:
            return FailureKind.DISK_FULL
        return FailureKind.STORAGE if isinstance(exc, sqlite3.DatabaseError) else (
            FailureKind.INTERNAL)
    primary = int(code) & 0xFF
    if primary in _SQLITE_KINDS:
        return _SQLITE_KINDS[primary]
    if primary in _SQLITE_STORAGE or isinstance(exc, sqlite3.OperationalError):
        return FailureKind.STORAGE
    return FailureKind.INTERNAL
