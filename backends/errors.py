"""Typed backend errors whose messages a person can act on."""

from __future__ import annotations


class BackendError(Exception):
    """Base for every engine failure; str(error) is shown to the user as is."""


class ModelNotFound(BackendError):
    """The model path does not exist."""


class ModelCorrupt(BackendError):
    """The file exists but is truncated, damaged or not a model at all."""


class UnsupportedModel(BackendError):
    """The model's architecture or format is not one this engine runs."""


class InsufficientMemory(BackendError):
    """The model (with the smallest useful context) would not fit in free memory."""


class EngineUnavailable(BackendError):
    """The engine's library is not installed or cannot run on this machine."""


class RemoteError(BackendError):
    """The remote server could not be reached or answered with an error."""


class NotLoaded(BackendError):
    """stream() was called before load()."""
