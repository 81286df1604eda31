"""The routine scheduler (no Qt): which routines are due, running each owed time once, and when
to look next. The app's timer and `hearth routines run-due` both call run_due()."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from app.core.routines.running import RoutineRunner
from app.core.routines.store import Routine, RoutineStore, Run

UTC = ZoneInfo("UTC")
GRACE = timedelta(minutes=2)  # a run starting later than this after its time was missed
STALE_MARGIN = timedelta(minutes=5)


@dataclass(frozen=True)
class Due:
    routine: Routine
    due: datetime
    missed: bool


class Scheduler:
    """Computes due times from each routine's schedule and its recorded runs.

    A time is owed when it is after the routine's anchor (created, edited, resumed) and after
    its last scheduled run; only the latest owed time runs, so a week away runs a daily
    routine once, saying when it was due. Claims are rows in hearth.db, so two callers (the
    app and cron) never run the same time twice."""

    def __init__(self, store: RoutineStore, runner: RoutineRunner,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 grace: timedelta = GRACE) -> None:
        self.store, self.runner = store, runner
        self._clock, self._grace = clock, grace
        self._busy = threading.Lock()

    def now(self) -> datetime:
        return self._clock()

    def due(self, now: datetime | None = None) -> list[Due]:
        now = now or self.now()
        found: list[Due] = []
        for routine in self.store.all():
            if routine.paused:
                continue
            latest = routine.schedule.latest_due(now)
            if latest is None or latest < routine.anchor:
                continue
            last = self.store.last_scheduled_due(routine.id)
            if last is not None and latest <= last:
                continue
            found.append(Due(routine, latest, now - latest > self._grace))
        return sorted(found, key=lambda d: d.due)

    def run_due(self, now: datetime | None = None,
                on_run: Callable[[Routine, Run, bool], None] = lambda _r, _run, _m: None,
                ) -> list[Run]:
        """Run every routine whose time has come and has not run for that time, one after
        another (blocking; `on_run(routine, run, missed)` hears of each as it ends). A call
        while another is running returns [] at once: the running one picks up what is due."""
        if not self._busy.acquire(blocking=False):
            return []
        try:
            now = now or self.now()
            self.store.end_stale(now - self.runner.budget - STALE_MARGIN, now)
            ran: list[Run] = []
            for item in self.due(now):
                if self.runner.stopped:
                    break  # the app is quitting: what is left stays owed for next time
                run = self.store.claim(item.routine.id, item.due, self.now())
                if run is not None:
                    ran.append(self.runner.run(item.routine, run, item.missed))
                    on_run(item.routine, ran[-1], item.missed)
            return ran
        finally:
            self._busy.release()

    def stop(self) -> None:
        """The app is quitting: end the run going on now; nothing more starts."""
        self.runner.stop()

    def run_now(self, routine_id: str) -> Run:
        """Run a routine at once ("Run now", `hearth routines run ID`); its schedule is kept."""
        routine = self.store.get(routine_id)
        now = self.now()
        run = self.store.claim(routine.id, now, now, manual=True)
        while run is None:  # two clicks in one second: the next second is free
            now += timedelta(seconds=1)
            run = self.store.claim(routine.id, now, self.now(), manual=True)
        return self.runner.run(routine, run, missed=False)
