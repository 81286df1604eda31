"""Routines: questions Hearth asks itself on a schedule, each answered in a new conversation."""

from app.core.routines.approvals import Approvals
from app.core.routines.running import RoutineRunner
from app.core.routines.schedule import Schedule, ScheduleError, parse_at, repetition
from app.core.routines.scheduler import Due, Scheduler
from app.core.routines.store import Approval, Routine, RoutineNotFound, RoutineStore, Run
from app.core.routines.tool import ProposeRoutine

__all__ = ["Approval", "Approvals", "Due", "ProposeRoutine", "Routine", "RoutineNotFound",
           "RoutineRunner", "RoutineStore", "Run", "Schedule", "ScheduleError", "Scheduler",
           "parse_at", "repetition"]
