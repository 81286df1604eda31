"""Background operations: a job that ends after the app let go of it ends quietly; quitting
waits for the person's changes however long the work queued before them takes."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
import shiboken6

from app.ui.ops import Ops, _Job, _Relay


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


def test_a_change_queued_behind_slow_work_is_waited_for_past_the_short_wait(qapp) -> None:
    """Quitting waits 5 s for background work and then closes the stores. On a starved machine
    a change the person made (a rename, a setting) can still be queued behind slow reads then:
    it is waited for until it has run, and a failed one counts as ended."""
    ops = Ops(max_threads=1)
    release = threading.Event()
    saved: list[str] = []
    ops.run(lambda: release.wait(60), lambda _r: None)  # a slow read holding the only worker
    ops.run(lambda: saved.append("renamed"), lambda _r: None, writes=True)
    ops.run(fails, lambda _r: None, lambda _e: None, writes=True)
    assert not ops.wait(10)  # the short wait gives up while the change is still queued
    assert saved == []
    release.set()
    assert ops.wait_for_writes(60)
    assert saved == ["renamed"]
    assert ops.wait_for_writes(0)  # nothing left: at once


def test_reads_alone_are_not_waited_for(qapp) -> None:
    ops = Ops(max_threads=1)
    release = threading.Event()
    ops.run(lambda: release.wait(60), lambda _r: None)
    assert ops.wait_for_writes(0)
    release.set()
    assert ops.wait(60_000)
