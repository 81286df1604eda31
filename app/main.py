"""The composition root: builds settings, stores, backend, skills and assistant; runs app or CLI."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import shutil
import sys
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from app.core.notices import Notice, NoticeKind, Notices
from app.core.paths import OWNER_UMASK, Paths
from app.core.settings import Settings, load_settings, save_settings

log = logging.getLogger(__name__)
Part = TypeVar("Part")

if TYPE_CHECKING:
    from app.core.assistant import Assistant
    from app.core.conversations import Conversations
    from app.core.history import HistoryStore
    from app.core.memory import MemoryStore
    from app.core.memory.prompt import PersonalContext
    from app.core.recovery import Recovery
    from app.core.routines import Approvals, RoutineStore, Scheduler
    from app.core.runner import ModelRunner
    from app.core.server.log import RequestLog
    from app.core.warmup import OnStatus, PrefixWarmup
    from backends.base import Backend, BackendInfo
    from skills.base import Skill
    from skills.calendar import CalendarStore
    from skills.documents import DocumentIndex
    from skills.files import FileIndex
    from skills.index_health import SetAside
    from skills.office import Digester, OfficeAccess, WorkbookCache


class Hearth:
    """Owns every long-lived part. Built once per process; nothing here is a global.

    Parts are built on first use so `hearth calendar list` never loads a model and the window
    appears before any engine is touched. `overrides` lets the CLI and tests swap settings."""

    def __init__(self, paths: Paths | None = None, settings: Settings | None = None) -> None:
        self.paths = (paths or Paths.from_env()).ensure()
        self.settings = settings or load_settings(self.paths.settings_file)
        self._closers: list[Any] = []
        self.notices = Notices()  # said once to the user (CLI: stderr; GUI: a banner)
        self._salvaged: list[tuple[str, str]] = []
        self._tell_settings_notes()

    def _tell_settings_notes(self) -> None:
        """Settings from another version: say what was kept aside or replaced, once ever."""
        told = self.settings.settings_notes_told
        new = [note for note in self.settings.load_notes if note.words not in told]
        if not new:
            return
        words = [note.words for note in new]
        self.notices.add(Notice(NoticeKind.SETTINGS_OTHER_VERSION,
                                "settings.json comes from another version: " + "; ".join(words),
                                detail="; ".join(words), count=len(new), settings=tuple(new)))
        self.settings.settings_notes_told = [*told, *words][-200:]
        previous = self.paths.settings_file.with_name("settings.previous.json")
        try:
            if not previous.exists():  # the file as it was, before defaults replaced values
                shutil.copy2(self.paths.settings_file, previous)
            self.save_settings()
        except OSError as exc:  # a read-only home: told again next time, nothing lost
            log.warning("could not update settings.json: %s", exc)

    def _owned(self, part: Part) -> Part:
        """A part Hearth closes when it closes (in the reverse order of opening)."""
        self._closers.append(part)
        return part

    def save_settings(self) -> None:
        save_settings(self.settings, self.paths.settings_file)

    @cached_property
    def history(self) -> HistoryStore:
        from app.core.history import HistoryStore

        store = self._owned(HistoryStore(self.paths.history_db))
        if store.read_only:
            from skills.index_health import problem

            damaged = problem(self.paths.history_db, deep=True)  # else a read-only disk
            self.notices.add(Notice(
                NoticeKind.HISTORY_READ_ONLY, f"{self.paths.history_db} could only be opened "
                "read-only: your conversations are readable, but nothing new is saved",
                path=str(self.paths.history_db), damage=damaged))
        return store

    @cached_property
    def conversations(self) -> Conversations:
        """Create and delete chats; a delete reaches every part that holds a trace of one."""
        from app.core.conversations import Conversations

        built = self.__dict__  # parts already opened: a delete never loads a model or the tools
        return Conversations(
            self.history, self.paths.kv_cache_dir,
            documents=lambda: self.documents if self.paths.index_db.exists() else None,
            runner=lambda: built.get("runner"), turns=lambda: built.get("assistant"))

    @cached_property
    def calendar(self) -> CalendarStore:
        from skills.calendar import CalendarStore

        return self._owned(CalendarStore(self.paths.history_db))

    @cached_property
    def routines(self) -> RoutineStore:
        """Routines, their runs and the changes those runs wait to have approved (hearth.db)."""
        from app.core.routines import RoutineStore

        return self._owned(RoutineStore(self.paths.history_db))

    @cached_property
    def scheduler(self) -> Scheduler:
        """Runs due routines (blocking: the app calls it off the GUI thread, cron via the CLI)."""
        from app.core.routines import RoutineRunner, Scheduler

        runner = RoutineRunner(self.routines, lambda: self.history, lambda: self.assistant)
        return Scheduler(self.routines, runner)

    @cached_property
    def approvals(self) -> Approvals:
        """Approve or deny what a routine's answer asked to change."""
        from app.core.routines import Approvals

        return Approvals(self.routines, lambda: self.assistant.skills(),
                         lambda conv, text: self.history.add_message(conv, "assistant", text))

    @cached_property
    def request_log(self) -> RequestLog:
        """The API server's request log, kept in hearth.db across restarts (no message text)."""
        from app.core.server.log import RequestLog
        from app.core.server.log_store import RequestLogStore

        return self._owned(RequestLog(store=RequestLogStore(self.paths.history_db)))

    @cached_property
    def index_db(self) -> Path:
        """index.db, once checked: a damaged or foreign one is moved aside and rebuilt."""
        from skills.index_health import set_aside_if_damaged

        aside = set_aside_if_damaged(self.paths.index_db)
        if aside is not None:
            log.warning("index.db set aside: %s", aside.reason)
            self.notices.add(_rebuilt(aside))
            self._salvaged = aside.documents
        return self.paths.index_db

    def set_aside_damaged_index(self) -> None:
        """After a storage error: if index.db (a rebuildable cache) is damaged, move it aside
        now, so the next start builds a new one instead of failing the same way."""
        if "index_db" not in self.__dict__:
            return
        from skills.index_health import problem, set_aside

        reason = problem(self.paths.index_db, deep=True)
        if reason is not None:
            self.close()  # our connections go first: the file is renamed, never deleted
            aside = set_aside(self.paths.index_db, reason)
            self.notices.add(_rebuilt(aside))
            if aside.documents:  # the new index starts with them queued
                from skills.documents import DocumentIndex

                fresh = DocumentIndex(self.paths.index_db)
                fresh.requeue(aside.documents)
                fresh.close()

    @cached_property
    def documents(self) -> DocumentIndex:
        from skills.documents import DocumentIndex

        index = self._owned(DocumentIndex(self.index_db, watched=self.settings.watched_folders))
        if self._salvaged:  # indexed again by resume_pending (the watcher, `docs add`)
            index.requeue(self._salvaged)
            self._salvaged = []
        return index

    @cached_property
    def files(self) -> FileIndex:
        from skills.files import FileIndex

        return self._owned(FileIndex(self.index_db, roots=self.settings.file_roots,
                                     ignore_patterns=self.settings.file_ignore_patterns))

    def make_backend(self, model_path: str | None = None, engine: str | None = None,
                     url: str | None = None) -> Backend:
        from backends.select import create_backend

        return create_backend(
            model_path=model_path if model_path is not None else self.settings.model_path,
            engine=engine or self.settings.engine,
            url=url if url is not None else self.settings.remote_url,
            remote_model=self.settings.remote_model,
            context_length=self.settings.context_length,
            kv_type=self.settings.kv_type,
            cache_dir=self.paths.kv_cache_dir,
            threads=max(0, self.settings.threads),
            prefix_limit_bytes=max(0, self.settings.prefix_cache_mb) * 1024**2,
            known_template=(model_path or self.settings.model_path)
            in self.settings.known_template_models,
            template_file=self.settings.template_file(model_path or self.settings.model_path),
            speculate=self.settings.prompt_lookup,
        )

    def loaded_info(self) -> BackendInfo | None:
        """What the model thread has loaded; None before it exists (asking never starts it,
        so the window's first frame does not start the model thread)."""
        runner = self.__dict__.get("runner")
        return runner.info if runner is not None else None

    @cached_property
    def runner(self) -> ModelRunner:
        from app.core.runner import ModelRunner

        return self._owned(ModelRunner())

    def skills(self) -> list[Skill]:
        """The skills switched on in Settings (what `hearth mcp serve` offers)."""
        from app.core.skill_switches import switched_on

        return switched_on(self.all_skills(), self.settings.enabled_skills)

    def all_skills(self) -> list[Skill]:
        """The explicit registry: every skill, switched on or off (the assistant reads the
        switches at each turn, so a change applies without a restart)."""
        from skills.builtin import builtin_skills
        from skills.calendar import calendar_skills
        from skills.common.clock import local_timezone_name
        from skills.documents import document_skills
        from skills.files import file_skills

        found: list[Skill] = [*builtin_skills()]
        found += document_skills(self.documents)
        found += file_skills(self.files)
        found += calendar_skills(self.calendar, timezone=local_timezone_name())
        found += self.office_skills()
        found += self.routine_skills()
        return found

    def routine_skills(self) -> list[Skill]:
        from app.core.routines import ProposeRoutine
        from skills.common.clock import local_timezone_name

        return [ProposeRoutine(lambda: self.routines, local_timezone_name())]

    def office_access(self) -> OfficeAccess:
        """What the office tools may read (chosen folders, files dropped into the chat) and
        where they write (the output folder setting, default Documents/Hearth)."""
        from skills.office import OfficeAccess

        settings = self.settings
        return OfficeAccess(
            roots=lambda: [*settings.file_roots, *settings.watched_folders],
            dropped=self._dropped_files,
            output=lambda: settings.office_output_folder,
        )

    def _dropped_files(self, conversation_id: str) -> list[str]:
        return [path for message in self.history.messages(conversation_id)
                if message.role == "user" for path in message.attachments]

    @cached_property
    def workbooks(self) -> WorkbookCache:
        from skills.office import WorkbookCache

        return self._owned(WorkbookCache())

    @cached_property
    def digester(self) -> Digester:
        from app.core.summaries import ModelSummarizer
        from skills.office import DigestCache, Digester

        cache = DigestCache(self.paths.index_db)
        digester = Digester(cache, ModelSummarizer(self.runner))
        self._closers += [cache, digester]  # closed in reverse: the parser first
        return digester

    def office_skills(self) -> list[Skill]:
        from skills.office import office_skills

        return office_skills(self.office_access(), self.workbooks, digester=self.digester)

    @cached_property
    def memory(self) -> MemoryStore:
        """Saved facts about the person and their standing instructions (in hearth.db)."""
        from app.core.memory import MemoryStore

        return self._owned(MemoryStore(self.paths.history_db))

    def personal_context(self) -> PersonalContext:
        """What every turn is told about the person, and the memory tools (Settings > Memory)."""
        from app.core.memory.prompt import PersonalContext

        return PersonalContext(lambda: self.memory, self.settings)

    @cached_property
    def assistant(self) -> Assistant:
        from app.core.assistant import Assistant

        # Closed before the runner (closers run in reverse): turns cancel, MCP servers stop.
        return self._owned(Assistant(runner=self.runner, history=self.history,
                                     skills=self.all_skills(), settings=self.settings,
                                     mcp_servers=self.settings.mcp_servers,
                                     personal=self.personal_context()))

    def warmup(self, on_status: OnStatus) -> PrefixWarmup:
        """The launch warm-up for the loaded model (start() it off the GUI thread)."""
        from app.core.warmup import PrefixWarmup

        return PrefixWarmup(self.runner, self.assistant.prefix_request, on_status)

    def saved_states_bytes(self) -> int:
        """Disk used by saved prompt prefixes and conversation caches (for Settings)."""
        from app.core.saved_states import disk_usage

        return disk_usage(self.paths.kv_cache_dir)

    def clear_saved_states(self) -> None:
        """Settings' Clear: forget every saved model state (off the GUI thread)."""
        from app.core.saved_states import clear

        clear(self.runner, self.paths.kv_cache_dir)

    def ui_selftest(self) -> None:
        """Open the main window offscreen and close it (for `hearth selftest` in a bundle)."""
        from app.ui.shell.selftest import window_selftest

        window_selftest(self)

    def recover_history(self) -> Recovery:
        """Copy what can be read of a damaged hearth.db into a new file that then takes its
        place; the damaged file is kept beside it. The history and calendar opened on it are
        closed for that (restart to use the copy). Run off the GUI thread: it reads the file."""
        from app.core.history import HistoryError
        from app.core.history.lease import WriterLease
        from app.core.recovery import install_copy, recover
        from backends.errors import FailureKind

        source = self.paths.history_db
        result = recover(source, install=False)  # the original is only read
        own = {part.writer_token for part in [self.__dict__.get("history")] if part is not None}
        lease = WriterLease(source.parent / (source.name + "-writers"))
        try:
            if lease.alive_tokens() - {lease.token} - own:
                result.copy.unlink(missing_ok=True)
                raise HistoryError("another Hearth process has the history open: close it, "
                                   "then recover", FailureKind.BUSY)
        finally:
            lease.release()
        for name in ("calendar", "memory", "history"):
            part = self.__dict__.get(name)
            if part is not None and part in self._closers:
                part.close()
                self._closers.remove(part)
        install_copy(result)
        return result

    def close(self) -> None:
        for part in reversed(self._closers):
            close = getattr(part, "close", None)
            if close is not None:
                close()
        self._closers.clear()


COMMANDS = ("ask", "chat", "history", "docs", "files", "calendar", "office", "models",
            "selftest", "serve", "mcp", "memory", "routines", "todo", "desktop")


def build_parser() -> argparse.ArgumentParser:
    from app.cli import registry

    parser = argparse.ArgumentParser(prog="hearth", description="Hearth, your local assistant.")
    sub = parser.add_subparsers(dest="command")
    registry.register_all(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    # Document parsing runs in a spawned worker process; a frozen build must hand that process
    # over to multiprocessing instead of starting the app again. (Only a frozen build: the
    # import alone costs the window ~40 ms.)
    if getattr(sys, "frozen", False):
        import multiprocessing

        multiprocessing.freeze_support()
    from backends.cpu import wait_without_spinning

    wait_without_spinning()  # before anything loads llama.cpp (OpenMP reads it once)
    args_list = sys.argv[1:] if argv is None else argv
    if args_list[:1] in (["--version"], ["-V"]):
        from app import __version__

        print(f"hearth {__version__}")
        return 0
    if not args_list or (args_list[0] not in COMMANDS and args_list[0] not in ("-h", "--help")):
        import gc

        # Nothing built before the first frame is garbage: the cyclic collector's ~30 passes
        # over it cost the window ~30 ms. Desktop turns it back on once the window is up.
        gc.disable()
        from app.ui.shell.application import run_app

        mask = os.umask(OWNER_UMASK)  # what Hearth creates is owner-only (0600, folders 0700)
        try:
            return run_app(args_list, Hearth)
        finally:
            os.umask(mask)
    from app.cli.terminal import SafeStream

    streams = sys.stdout, sys.stderr
    mask = os.umask(OWNER_UMASK)
    # Model- and file-supplied text must never drive the terminal (app/cli/terminal.py).
    sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)
    try:
        args = build_parser().parse_args(args_list)
        return _run_command(args)
    except BrokenPipeError:  # `hearth ... | head`: the reader has what it wanted
        from app.cli.output import reader_gone

        return reader_gone()
    finally:
        sys.stdout, sys.stderr = streams
        os.umask(mask)


def _rebuilt(aside: SetAside) -> Notice:
    return Notice(NoticeKind.INDEX_REBUILT, aside.notice(), damage=aside.reason,
                  path=str(aside.moved_to), count=len(aside.documents))


def _run_command(args: argparse.Namespace) -> int:
    """Run one CLI command; any failure that reaches here becomes one line and its exit code."""
    from app.cli.output import fail
    from app.core.failures import FailureKind, describe, exit_code, kind_of, refine

    hearth: Hearth | None = None
    try:
        hearth = Hearth()
        return int(args.func(args, hearth))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the edge: a full disk, a read-only home, a damaged file, a bug
        kind = kind_of(exc)
        if hearth is not None and kind is FailureKind.STORAGE:
            kind = refine(kind, [hearth.paths.data, hearth.paths.cache])
            if kind is FailureKind.DISK_FULL:
                return fail(describe(OSError(errno.ENOSPC, "no space left")), exit_code(kind))
            hearth.set_aside_damaged_index()
        if kind is FailureKind.INTERNAL:
            log.error("hearth %s failed", args.command, exc_info=exc)
        return fail(describe(exc), exit_code(kind))
    finally:
        if hearth is not None:
            for notice in hearth.notices:
                sys.stderr.write(f"hearth: {notice}\n")
            try:
                hearth.close()
            except Exception as exc:  # noqa: BLE001 - closing on a full disk must not print a traceback
                fail(describe(exc), exit_code(kind_of(exc)))


if __name__ == "__main__":
    sys.exit(main())
