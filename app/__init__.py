"""Hearth: a private desktop assistant running Nanbeige4.2-3B on the user's own machine."""

from functools import cache


@cache
def _version() -> str:
    # importlib.metadata scans the installed distributions (~30 ms): only when asked, never
    # on the way to the window.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hearth")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0.1.0"


def __getattr__(name: str) -> str:
    if name == "__version__":
        return _version()
    raise AttributeError(f"module 'app' has no attribute {name!r}")
