"""Hearth: a private desktop assistant running Nanbeige4.2-3B on the user's own machine."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("hearth")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.1.0"
