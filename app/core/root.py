"""HearthParts: what the windows need from the composition root (app/main.py `Hearth`).

The UI may not import app.main (the root imports the UI to start it), so it holds the root
through this Protocol; mypy checks that `Hearth` satisfies it where app.main hands itself to
the UI (`run_app(..., Hearth)`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from app.core.notices import Notices
from app.core.paths import Paths
from app.core.settings import Settings

if TYPE_CHECKING:
    from app.core.assistant import Assistant
    from app.core.conversations import Conversations
    from app.core.history import HistoryStore
    from app.core.memory import MemoryStore
    from app.core.recovery import Recovery
    from app.core.routines import Approvals, RoutineStore, Scheduler
    from app.core.runner import ModelRunner
    from app.core.server.log import RequestLog
    from app.core.warmup import OnStatus, PrefixWarmup
    from backends.base import Backend, BackendInfo
    from skills.calendar import CalendarStore
    from skills.documents import DocumentIndex
    from skills.files import FileIndex


class HearthParts(Protocol):
    """Every long-lived part, each opened on first use (open them off the GUI thread)."""

    paths: Paths
    settings: Settings
    notices: Notices

    def save_settings(self) -> None: ...

    @property
    def history(self) -> HistoryStore: ...

    @property
    def conversations(self) -> Conversations: ...

    @property
    def calendar(self) -> CalendarStore: ...

    @property
    def memory(self) -> MemoryStore: ...

    @property
    def documents(self) -> DocumentIndex: ...

    @property
    def routines(self) -> RoutineStore: ...

    @property
    def scheduler(self) -> Scheduler: ...

    @property
    def approvals(self) -> Approvals: ...

    @property
    def files(self) -> FileIndex: ...

    @property
    def runner(self) -> ModelRunner: ...

    @property
    def request_log(self) -> RequestLog: ...

    @property
    def assistant(self) -> Assistant: ...

    def make_backend(self, model_path: str | None = None, engine: str | None = None,
                     url: str | None = None) -> Backend: ...

    def warmup(self, on_status: OnStatus) -> PrefixWarmup: ...

    def loaded_info(self) -> BackendInfo | None: ...

    def saved_states_bytes(self) -> int: ...

    def clear_saved_states(self) -> None: ...

    def recover_history(self) -> Recovery: ...

    def close(self) -> None: ...

