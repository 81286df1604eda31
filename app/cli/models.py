"""`hearth models list|download|use`: the model manager from the terminal (same code as the app)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.groups import add_action, dispatch, show
from app.cli.output import emit_json, fail
from app.cli.terminal import control

if TYPE_CHECKING:
    from app.main import Hearth


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("models", help="list, download and choose models")
    actions = parser.add_subparsers(dest="action", required=True)
    parser.set_defaults(func=dispatch)
    add_action(actions, "list", "known builds, with whether each fits here", _list)
    download = add_action(actions, "download", "download a build (resumes; sha256-checked)",
                          _download)
    download.add_argument("build", help="a build id from `hearth models list`")
    download.add_argument("--no-use", action="store_true", help="don't make it the model in use")
    use = add_action(actions, "use", "use a local .gguf file or MLX folder", _use)
    use.add_argument("path", type=Path)


def _list(args: argparse.Namespace, hearth: Hearth) -> int:
    from app.core.model_catalog import BUILDS, human_size, kv_bytes_per_token
    from backends.free_memory import free_memory_bytes
    from backends.memory import plan_context

    free = free_memory_bytes()
    for build in BUILDS:
        plan = plan_context(build.size, free, kv_bytes_per_token(hearth.settings.kv_type))
        target = build.target(hearth.paths.models)
        row = {"id": build.id, "title": build.title, "kind": build.kind, "size": build.size,
               "verdict": plan.verdict, "message": plan.message,
               "downloaded": target.exists(), "path": str(target)}
        mark = " (downloaded)" if target.exists() else ""
        show(args.json, row,
             f"{build.id:28} {human_size(build.size):>8}  {plan.verdict:10} {build.title}{mark}")
    return 0


def _download(args: argparse.Namespace, hearth: Hearth) -> int:
    from app.core.model_catalog import BUILDS, endpoint
    from app.core.model_download import Downloader, DownloadError, Progress, resolve

    build = next((b for b in BUILDS if b.id == args.build), None)
    if build is None:
        return fail(f"no build {args.build!r}; see `hearth models list`")

    def progress(p: Progress) -> None:
        if args.json:
            emit_json({"type": "progress", "done": p.done, "total": p.total,
                       "bytes_per_second": round(p.bytes_per_second), "file": p.file})
        else:
            share = 100 * p.done / p.total if p.total else 0.0
            control(sys.stderr, "\r")
            sys.stderr.write(f"{p.file}: {share:5.1f}%  {p.bytes_per_second / 1e6:6.1f} MB/s")

    try:
        files = resolve(build, endpoint())
        Downloader(hearth.paths.models / build.id, progress).run(files)
    except DownloadError as exc:
        return fail(str(exc))
    except OSError as exc:  # e.g. a full disk: the .part file stays, a retry resumes
        return fail(f"the download stopped: {exc}; run the same command again to resume")
    except Exception as exc:  # noqa: BLE001 - the Hub client's own errors (no network, unknown repo)
        return fail(f"could not reach the model server: {exc}")
    target = build.target(hearth.paths.models)
    if not args.no_use:
        hearth.settings.model_path = str(target)
        hearth.save_settings()
    if args.json:
        emit_json({"type": "done", "id": build.id, "path": str(target),
                   "in_use": not args.no_use})
    else:
        sys.stderr.write("\n")
        print(f"Downloaded {build.title} to {target}")
    return 0


def _use(args: argparse.Namespace, hearth: Hearth) -> int:
    from backends.select import choose_engine

    path = args.path.expanduser().resolve()
    if not path.exists():
        return fail(f"{path} does not exist")
    try:
        choice = choose_engine(str(path), "auto", "")
    except Exception as exc:  # noqa: BLE001 - selection explains why this model cannot run here
        return fail(str(exc))
    hearth.settings.model_path = str(path)
    # What this prints must be what runs: a saved "remote" (or another forced engine) would
    # otherwise still answer instead of the model just chosen.
    if hearth.settings.engine not in ("auto", choice.engine):
        hearth.settings.engine = "auto"
    hearth.save_settings()
    return show(args.json, {"path": str(path), "engine": choice.engine, "reason": choice.reason},
                f"Using {path} with {choice.engine}: {choice.reason}")
