"""`hearth office digest FOLDER [--question Q]`: summarise a folder's documents with the model."""

from __future__ import annotations

import argparse
import os
import sys
import threading
from typing import TYPE_CHECKING

from app.cli.interrupts import result_of
from app.cli.output import emit_json, fail, fail_on
from app.core.failures import FailureKind, exit_code

if TYPE_CHECKING:
    from app.main import Hearth


def run_digest(args: argparse.Namespace, hearth: Hearth) -> int:
    from app.core.summaries import ModelSummarizer
    from backends.errors import BackendError
    from skills.base import SkillContext
    from skills.office import DigestJob
    from skills.office.digest import digest_result

    folder = os.path.realpath(os.path.abspath(os.path.expanduser(args.folder)))
    if not os.path.isdir(folder):
        return fail(f"not a folder: {args.folder}", exit_code(FailureKind.BAD_INPUT))
    try:
        result_of(hearth.runner.load(hearth.make_backend(model_path=args.model)))
    except BackendError as exc:
        return fail_on(exc)
    except Exception as exc:  # noqa: BLE001 - an engine's own surprise is still one readable line
        return fail(f"Could not load the model: {exc}")

    def progress(done: int, total: int, current: str) -> None:
        if args.json:
            emit_json({"event": "progress", "done": done, "total": total, "current": current})
        elif current:
            sys.stderr.write(f"\r{done + 1}/{total} {os.path.basename(current)[:60]:<60}")
            sys.stderr.flush()

    stop = threading.Event()
    job = DigestJob(progress)
    try:
        report = hearth.digester.run(folder, job, stop.is_set, args.max_files)
    except KeyboardInterrupt:
        stop.set()
        return fail("stopped; the summaries made so far are kept (run it again to go on)",
                    exit_code(FailureKind.CANCELLED))
    if not args.json:
        sys.stderr.write("\n")
    if not report.files:
        return fail("no document in that folder could be read", exit_code(FailureKind.BAD_INPUT))
    result = digest_result(report, args.question, SkillContext(conversation_id="cli"))
    answer = ""
    if args.question:
        summarizer = ModelSummarizer(hearth.runner)
        answer = summarizer.answer(args.question, result.text, stop.is_set)
    per_minute = len(report.files) / max(report.seconds, 1e-6) * 60
    if args.json:
        emit_json({"event": "done", "answer": answer, **(result.data or {}),
                   "files_per_minute": per_minute})
        return 0
    for item in report.files:
        print(f"- {item.title}{' (cached)' if item.cached else ''}: {item.summary}")
    for path, reason in report.failures:
        print(f"! {os.path.basename(path)}: {reason}")
    if answer:
        print("\n" + answer)
    print(f"\n{len(report.files)} file(s), {report.cache_hits} from the cache,"
          f" {per_minute:.1f} files/min")
    return 0
