"""Hearth: a private desktop assistant running Nanbeige4.2-3B on the user's own machine."""

__version__ = "0.1.0"
