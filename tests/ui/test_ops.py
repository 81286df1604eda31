"""Background operations: a job that ends after the app let go of it ends quietly."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import shiboken6

from app.ui.ops import _Job, _Relay


def fails() -> None:
    raise OSError("the database was closed")


@pytest.mark.parametrize("work", [lambda: 1, fails])
def test_a_job_whose_relay_was_freed_ends_without_a_traceback(
        qapp, capfd: pytest.CaptureFixture[str], work: Callable[[], object]) -> None:
    """At exit the app stops waiting for jobs after 5 s and Python frees its objects, relays
    included, while a slow job may still run on the pool's thread (seen under load: two
    tracebacks, "Signal source has been deleted", after every window had closed)."""
    relay = _Relay()
    job = _Job(work, relay)
    shiboken6.delete(relay)
    job.run()  # what the pool's thread does when the job ends
    assert "Traceback" not in capfd.readouterr().err
