"""The model manager: known builds with size and fit, download/pause/resume/retry, or open a file."""

from __future__ import annotations

import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Signal
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.core.model_catalog import (
    BUILDS,
    Build,
    BuildNote,
    endpoint,
    human_size,
    kv_bytes_per_token,
)
from app.core.model_download import Downloader, Paused, Progress, resolve
from app.core.settings import Settings
from app.ui.context import UiContext
from app.ui.file_actions import start_folder
from app.ui.models.picker import loaded_path
from app.ui.theme import page_title
from app.ui.widgets import bold_label, button, clear_layout, dim_label, hbox, tell

if TYPE_CHECKING:
    from backends.memory import ContextPlan


_VERDICT_COLOURS = {"fits": "#3a8a5c", "tight": "#b7791f", "won't fit": "#c8553d",
                    "not here": "#8a8d93"}
# What each build is good for, in the UI's language: the one place a BuildNote becomes words.
_NOTES = {
    BuildNote.BALANCED: QT_TRANSLATE_NOOP(
        "ModelCatalog", "GGUF for llama.cpp. Good quality, fastest on most computers."),
    BuildNote.CLOSEST: QT_TRANSLATE_NOOP(
        "ModelCatalog", "GGUF for llama.cpp. Closest to the original; needs more memory."),
    BuildNote.MLX_FASTEST: QT_TRANSLATE_NOOP(
        "ModelCatalog", "For Apple Silicon Macs (MLX). The fastest choice on a Mac."),
    BuildNote.MLX_QUALITY: QT_TRANSLATE_NOOP(
        "ModelCatalog", "For Apple Silicon Macs (MLX). Higher quality, more memory."),
}


def gib(n: int) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.0f} MiB"


def runs_here(build: Build) -> bool:
    """MLX builds run on Apple Silicon only (MLX's Linux CPU build is far slower than GGUF)."""
    return build.kind != "mlx" or _apple_silicon()


def plain_download_error(error: Exception) -> str:
    """A download failure in words a person can act on (not "[Errno -2] Name or service not
    known"), translated; the technical text stays in the tooltip."""
    text = str(error).lower()
    translate = QCoreApplication.translate
    offline = ("name or service not known", "temporary failure in name resolution",
               "nodename nor servname", "getaddrinfo", "connection refused", "network is "
               "unreachable", "timed out", "max retries", "failed to establish", "offline")
    if any(word in text for word in offline) or isinstance(error, ConnectionError | TimeoutError):
        return translate("BuildRow", "Could not reach the download server. Check the internet "
                                     "connection and try again: the download continues where "
                                     "it stopped.")
    if "no space" in text or "disk full" in text:
        return translate("BuildRow", "The disk is full. Free some space and try again: the "
                                     "download continues where it stopped.")
    if "sha256" in text or "checksum" in text or "corrupt" in text:
        return translate("BuildRow", "The downloaded file was damaged and was not used. Try "
                                     "again.")
    return translate("BuildRow", "The download failed. Try again: it continues where it "
                                 "stopped.")


class _ProgressRelay(QObject):
    """Download progress crosses from the worker thread to the GUI through this signal."""

    progress = Signal(object)


def _apple_silicon() -> bool:
    return sys.platform == "darwin" and platform.machine() in ("arm64", "aarch64")


def _eta(p: Progress) -> str:
    if p.bytes_per_second <= 0 or p.total <= p.done:
        return ""
    seconds = int((p.total - p.done) / p.bytes_per_second)
    return f"{seconds // 60} min left" if seconds >= 60 else f"{seconds} s left"


class BuildRow(QFrame):
    """One build: what it is, whether it fits, and its download controls."""

    use_requested = Signal(str)
    downloaded = Signal(str)
    progress_text = Signal(str)  # for the main window's status bar while the dialog is hidden

    def __init__(self, build: Build, ctx: UiContext, models_dir: Path, in_use: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("card")
        self.build, self.ctx, self.models_dir = build, ctx, models_dir
        self.downloader: Downloader | None = None
        self.state = "idle"
        self._in_use = self._pending = False
        self._relay = _ProgressRelay(self)
        self._relay.progress.connect(self._on_progress)
        self._build_ui()
        self.refresh(in_use)

    def _build_ui(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 12, 14, 12)
        layout.setSpacing(4)
        badge = dim_label(self.tr("Recommended"), wrap=False) if self.build.recommended else None
        self.size_label = dim_label(human_size(self.build.size), wrap=False)
        layout.addLayout(hbox(bold_label(self.build.title), *([badge] if badge else []), None,
                             self.size_label))
        text = QCoreApplication.translate("ModelCatalog", str(_NOTES[self.build.note]))
        if not runs_here(self.build):
            text += " " + self.tr("This computer is not an Apple Silicon Mac: prefer a GGUF "
                                  "build here.")
        layout.addWidget(dim_label(text))
        self.verdict = QLabel(self.tr("Checking free memory…"), wordWrap=True)
        layout.addWidget(self.verdict)
        self.bar = QProgressBar(textVisible=False)
        self.bar.setMaximumHeight(8)
        self.bar.setAccessibleName(self.tr("Download progress"))
        self.status = dim_label(wrap=False)
        layout.addWidget(self.bar)
        layout.addWidget(self.status)
        layout.addLayout(self._buttons())

    def _buttons(self) -> QHBoxLayout:
        self.download_button = button(self.tr("Download"), self.start)
        self.pause_button = button(self.tr("Pause"), self.pause)
        self.use_button = button(self.tr("Use this model"), lambda: self.use_requested.emit(
            str(self.build.target(self.models_dir))))
        self.use_button.setObjectName("primary")
        for each in (self.download_button, self.pause_button, self.use_button):
            each.setAccessibleDescription(self.build.title)
        return hbox(None, self.download_button, self.pause_button, self.use_button)

    # -- state --------------------------------------------------------------------------------
    def _part_bytes(self) -> int:
        folder = self.models_dir / self.build.id
        return sum(p.stat().st_size for p in folder.rglob("*.part")) if folder.exists() else 0

    def refresh(self, in_use: str = "") -> None:
        """Work out the state from disk: finished, part-downloaded (resumable), or nothing."""
        target = self.build.target(self.models_dir)
        if self.state in ("resolving", "downloading"):
            pass
        elif target.exists() and not self._part_bytes() and (
                target.is_file() or any(target.iterdir())):
            self.state = "done"
        elif self._part_bytes():
            self.state = "paused"
            self.status.setText(self.tr("Paused at %1 — resume to continue").replace(
                "%1", human_size(self._part_bytes())))
        self._in_use = bool(in_use) and Path(in_use) == target
        self._pending = False
        self._sync()

    def set_pending(self, path: str) -> None:
        """`path` was chosen and is loading: this row says so until the runner has it."""
        if Path(path) == self.build.target(self.models_dir):
            self._pending = True
            self._sync()

    def _sync(self) -> None:
        s = self.state
        self.bar.setVisible(s in ("resolving", "downloading", "paused"))
        self.status.setVisible(s != "idle" or bool(self.status.text()))
        self.download_button.setVisible(s in ("idle", "paused", "failed"))
        self.download_button.setText({"paused": self.tr("Resume"), "failed": self.tr("Retry")}
                                     .get(s, self.tr("Download")))
        self.pause_button.setVisible(s in ("resolving", "downloading"))
        self.use_button.setVisible(s == "done")
        self.use_button.setEnabled(not self._in_use and not self._pending)
        self.use_button.setText(self.tr("In use") if self._in_use else self.tr("Loading…")
                                if self._pending else self.tr("Use this model"))
        if s == "done":
            self.status.setText(self.tr("Downloaded and verified."))
        if s == "paused" and not self.bar.maximum():
            self.bar.setRange(0, 1000)

    def set_verdict(self, verdict: str, message: str) -> None:
        if not runs_here(self.build):  # marked, and not offered for download
            verdict, message = "not here", self.tr("Needs an Apple Silicon Mac.")
            self.download_button.setEnabled(False)
        colour = _VERDICT_COLOURS.get(verdict, "")
        label = {"fits": self.tr("Fits"), "tight": self.tr("Tight"),
                 "won't fit": self.tr("Won't fit"), "not here": self.tr("Not for this computer")
                 }.get(verdict, verdict)
        self.verdict.setText(f'<span style="color:{colour}; font-weight:600;">● {label}</span>'
                             f"&nbsp; {message}")

    def set_plan(self, plan: ContextPlan, free: int | None) -> None:
        """The memory verdict in the UI's language, from the plan's figures."""
        sizes = self.tr("%1 of weights + %2 of KV cache for %3 tokens").replace(
            "%1", gib(self.build.size)).replace("%2", gib(plan.kv_bytes)).replace(
            "%3", f"{plan.context_length:,}")
        if free is None:
            message = self.tr("Free memory is unknown here; using a %1-token context.").replace(
                "%1", f"{plan.context_length:,}")
        elif plan.verdict == "fits":
            message = sizes + self.tr("; %1 free.").replace("%1", gib(free))
        elif plan.verdict == "tight":
            message = sizes + self.tr(" leaves little of the %1 free; other apps may slow "
                                      "down.").replace("%1", gib(free))
        else:
            message = sizes + self.tr(": only %1 is free. Close other apps, pick a smaller "
                                      "build, or use q8_0 KV.").replace("%1", gib(free))
        self.set_verdict(plan.verdict, message)

    # -- download -----------------------------------------------------------------------------
    def start(self) -> None:
        if self.state in ("resolving", "downloading"):
            return
        self.state = "resolving"
        self.status.setText(self.tr("Contacting the server…"))
        self.bar.setRange(0, 0)
        self._sync()
        self.downloader = Downloader(self.models_dir / self.build.id, self._throttled())
        downloader, build, where = self.downloader, self.build, endpoint()

        def work() -> Path:
            files = resolve(build, where)
            if downloader.paused:
                raise Paused()
            return downloader.run(files)

        self.ctx.ops.run(work, self._finished, self._failed)
        self.state = "downloading"

    def _throttled(self) -> Callable[[Progress], None]:
        import time

        last = [0.0]

        def report(p: Progress) -> None:
            # At most ~10 updates a second reach the GUI, however fast the network is.
            now = time.monotonic()
            if now - last[0] >= 0.1 or p.done >= p.total:
                last[0] = now
                self._relay.progress.emit(p)

        return report

    def pause(self) -> None:
        if self.downloader is not None:
            self.downloader.pause()

    def _on_progress(self, p: Progress) -> None:
        if p.total:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(p.done * 1000 / p.total))
        parts = [f"{human_size(p.done)} / {human_size(p.total)}"]
        if p.bytes_per_second > 0:
            parts.append(human_size(p.bytes_per_second) + "/s")
        if _eta(p):
            parts.append(_eta(p))
        self.status.setText(" · ".join(parts))
        percent = int(p.done * 100 / p.total) if p.total else 0
        self.progress_text.emit(self.tr("Downloading %1: %2%").replace("%1", self.build.title)
                                .replace("%2", str(percent)))

    def _finished(self, _path: object) -> None:
        self.state = "done"
        self.downloader = None
        self._sync()
        self.progress_text.emit("")
        self.downloaded.emit(str(self.build.target(self.models_dir)))

    def _failed(self, error: Exception) -> None:
        self.downloader = None
        if isinstance(error, Paused):
            self.state = "paused"
            self.status.setText(self.tr("Paused at %1 — resume to continue").replace(
                "%1", human_size(self._part_bytes())))
        else:
            self.state = "failed"
            self.status.setText("⚠ " + plain_download_error(error))
            self.status.setToolTip(str(error))
        self._sync()
        self.progress_text.emit("")


class ModelManager(QDialog):
    """Pick, download or open a model. `model_chosen(path)` when the user decides."""

    model_chosen = Signal(str)
    progress_text = Signal(str)

    def __init__(self, ctx: UiContext, first_run: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle(self.tr("Models — Hearth"))
        self.setObjectName("modelManager")
        self.resize(640, 720)
        self.models_dir = Path(ctx.hearth.paths.models)
        in_use = loaded_path(ctx.hearth.runner.info)  # what answers, not what settings name
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 18, 20, 16)
        layout.setSpacing(10)
        layout.addWidget(self._header(first_run))
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        self.error.hide()
        layout.addWidget(self.error)
        # Shown under the error for a GGUF without a template whose architecture has a
        # well-known one: nothing changes until the user clicks it.
        self.template_offer = button("", self._use_known_template)
        self.template_offer.hide()
        # ...and for any such GGUF, a chat template file (.jinja) of the person's choosing.
        self.template_file = button(self.tr("Choose a template file…"), self._pick_template_file)
        self.template_file.hide()
        self._offered = ""
        layout.addLayout(hbox(self.template_offer, self.template_file, None))
        self.local = LocalModels(ctx.hearth.settings, in_use)
        self.local.use_requested.connect(self._choose)
        layout.addWidget(self.local)
        # Builds this computer can run first; the others stay listed, marked, at the end.
        builds = sorted(BUILDS, key=lambda b: not runs_here(b))
        self.rows = [BuildRow(b, ctx, self.models_dir, in_use) for b in builds]
        layout.addWidget(self._list(), 1)
        layout.addLayout(self._footer())
        for row in self.rows:
            row.use_requested.connect(self._choose)
            row.downloaded.connect(self._downloaded)
            row.progress_text.connect(self.progress_text)
        self._plan()

    def _header(self, first_run: bool) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        self.heading, self.intro = page_title(), dim_label("")
        column.addWidget(self.heading)
        column.addWidget(self.intro)
        self._welcome(first_run)
        return box

    def _welcome(self, first_run: bool) -> None:
        """The first run's welcome, until a model is in use; then what the dialog is for."""
        self.first_run = first_run
        self.heading.setText(self.tr("Welcome to Hearth") if first_run else self.tr("Models"))
        self.intro.setText(
            self.tr("Hearth answers with Nanbeige4.2-3B, running entirely on this computer; "
                    "nothing you ask leaves it. There is no model here yet: download one "
                    "below (Q4_K_M is a good start) or open one you already have.")
            if first_run else
            self.tr("Download a build of Nanbeige4.2-3B or open one you already have. "
                    "Downloads resume where they stopped and are checked before use."))

    def _list(self) -> QScrollArea:
        scroll = QScrollArea(widgetResizable=True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        inner = QWidget()
        column = QVBoxLayout(inner)
        column.setContentsMargins(0, 0, 4, 0)
        column.setSpacing(10)
        for row in self.rows:
            column.addWidget(row)
        column.addStretch(1)
        scroll.setWidget(inner)
        return scroll

    def _footer(self) -> QHBoxLayout:
        return hbox(button(self.tr("Open a GGUF file…"), self._open_gguf),
                   button(self.tr("Open an MLX folder…"), self._open_mlx), None,
                   button(self.tr("Close"), self.close))

    def _plan(self) -> None:
        settings = self.ctx.hearth.settings
        kv_type = settings.kv_type if settings.kv_type in ("f16", "q8_0") else "f16"
        rows = list(self.rows)

        def work() -> tuple[list[ContextPlan], int | None]:
            from backends.free_memory import free_memory_bytes
            from backends.memory import plan_context

            per_token = kv_bytes_per_token(kv_type)
            free = free_memory_bytes()
            return [plan_context(r.build.size, free, per_token,
                                 requested=settings.context_length) for r in rows], free

        self.ctx.ops.run(work, self._show_plans, lambda e: None)

    def _show_plans(self, result: tuple[list[ContextPlan], int | None]) -> None:
        plans, free = result
        for row, plan in zip(self.rows, plans, strict=True):
            row.set_plan(plan, free)

    def _open_gguf(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a GGUF model"), start_folder(),
                                              self.tr("GGUF models (*.gguf)"))
        if path:
            self.open_gguf(path)

    def open_gguf(self, path: str) -> None:
        """Check the file first (off the GUI thread): a GGUF without a chat template, or one
        that is not a model at all, is explained here, in the dialog, instead of failing later
        behind it. Where the file's architecture has a well-known template, using it is offered."""
        def work() -> tuple[str, str, str]:
            from backends.known_templates import known_template
            from backends.llama_gguf import inspect_gguf

            summary = inspect_gguf(path)
            known = known_template(summary.architecture)
            return (_template_problem(summary.chat_template), summary.architecture,
                    known.name if known is not None else "")

        self._hide_offers()
        self.ctx.ops.run(work, lambda found: self._checked(path, *found),
                         lambda error: self._show_error(
                             self.tr("“%1” cannot be used: it is not a complete GGUF model "
                                     "file.").replace("%1", Path(path).name), str(error)))

    def _checked(self, path: str, problem: str, architecture: str, known: str = "") -> None:
        settings = self.ctx.hearth.settings
        if not problem or path in settings.known_template_models or settings.template_file(path):
            self._choose(path)
            return
        name = Path(path).name
        self._hide_offers()  # an offer made for another file goes
        self._offered = path
        self.template_file.show()
        if known:
            self._show_error(self.tr("“%1” has no usable chat template of its own. Its "
                                     "architecture is known: Hearth can hold a conversation "
                                     "with it using the %2 template, or one you choose.")
                             .replace("%1", name).replace("%2", known), problem)
            self.template_offer.setText(self.tr("Use the %1 template").replace("%1", known))
            self.template_offer.show()
            return
        self._show_error(self.tr("“%1” has no usable chat template, and Hearth has none built "
                                 "in for its architecture (%2), so it cannot hold a "
                                 "conversation with it. Choose the model's chat template file "
                                 "(.jinja), or a chat (instruct) build of the model, such as "
                                 "Nanbeige4.2-3B above.")
                         .replace("%1", name).replace("%2", architecture or "?"), problem)

    def _hide_offers(self) -> None:
        self.error.hide()
        self.template_offer.hide()
        self.template_file.hide()

    def _pick_template_file(self) -> None:
        template, _ = QFileDialog.getOpenFileName(
            self, self.tr("Choose a chat template"), start_folder(),
            self.tr("Chat templates (*.jinja *.j2 *.txt)"))
        if template and self._offered:
            self.use_template_file(self._offered, template)

    def use_template_file(self, model: str, template: str) -> None:
        """Check the chosen file compiles (off the GUI thread), then use it for this model."""
        def work() -> str:
            from backends.chat_format import read_template_file

            return read_template_file(template)

        def chosen(_source: str) -> None:
            self._offered = ""
            self._hide_offers()
            self.ctx.hearth.settings.choose_template_file(model, template)
            self._choose(model)  # saved with the model choice (MainWindow.use_model)

        self.ctx.ops.run(work, chosen, lambda error: self._show_error(
            self.tr("“%1” is not a chat template Hearth can use.").replace(
                "%1", Path(template).name), str(error)))

    def _use_known_template(self) -> None:
        """The user agreed: this file runs with its architecture's template from now on."""
        path, self._offered = self._offered, ""
        if not path:
            return
        models = self.ctx.hearth.settings.known_template_models
        if path not in models:
            models.append(path)  # saved with the model choice (MainWindow.use_model)
        self._hide_offers()
        self._choose(path)

    def _show_error(self, text: str, detail: str) -> None:
        self.error.setText("⚠ " + text)
        self.error.setToolTip(detail)
        self.error.show()

    def _open_mlx(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Open an MLX model folder"),
                                                start_folder())
        if path:
            if not (Path(path) / "config.json").is_file():
                tell(self, self.windowTitle(),
                     self.tr("That folder has no config.json, so it is not an MLX model."))
                return
            self._choose(path)

    def _choose(self, path: str) -> None:
        self._hide_offers()
        # Rows say "In use" once the runner has loaded it (show_in_use), not before.
        self.model_chosen.emit(path)
        for row in self.rows:
            row.set_pending(path)
        self.local.refresh(loaded_path(self.ctx.hearth.runner.info), pending=path)

    def show_in_use(self) -> None:
        """Mark what the runner has loaded now (after a load, or a failed one)."""
        in_use = loaded_path(self.ctx.hearth.runner.info)
        for row in self.rows:
            row.refresh(in_use)
        self.local.refresh(in_use)
        if in_use and self.first_run:  # "There is no model here yet" is no longer true
            self._welcome(False)

    def _downloaded(self, path: str) -> None:
        # The first model anyone downloads is the one they want to use: no extra click.
        if not self.ctx.hearth.settings.model_path:
            self._choose(path)

    def pause_all(self) -> None:
        """On quit: stop downloads between chunks; the .part files resume next time."""
        for row in self.rows:
            row.pause()

    @property
    def downloading(self) -> bool:
        return any(r.state in ("resolving", "downloading") for r in self.rows)


class LocalModels(QWidget):
    """"On this computer": the model in use and the ones used recently, one click away."""

    use_requested = Signal(str)

    def __init__(self, settings: Settings, in_use: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.setSpacing(4)
        self.refresh(in_use)

    def refresh(self, in_use: str, pending: str = "") -> None:
        """`in_use`: what the runner has loaded; `pending`: a model chosen and loading."""
        clear_layout(self.column)
        paths = [p for p in dict.fromkeys([in_use, *self.settings.recent_models]) if p]
        self.setVisible(bool(paths))
        if not paths:
            return
        self.column.addWidget(bold_label(self.tr("On this computer")))
        for path in paths[:6]:
            self.column.addWidget(self._row(path, path == in_use, path == pending))

    def _row(self, path: str, current: bool, pending: bool = False) -> QWidget:
        row = QFrame()
        row.setObjectName("card")
        line = QHBoxLayout(row)
        line.setContentsMargins(12, 6, 12, 6)
        name = QLabel(Path(path).name)
        name.setToolTip(path)
        line.addWidget(name, 1)
        exists = Path(path).exists()
        if current or pending:
            use = button(self.tr("In use") if current else self.tr("Loading…"))
        else:
            use = button(self.tr("Use") if exists else self.tr("Not found"),
                         lambda: self.use_requested.emit(path))
        use.setEnabled(exists and not (current or pending))
        use.setAccessibleDescription(Path(path).name)
        line.addWidget(use)
        return row


def _template_problem(source: str) -> str:
    """Why a GGUF's own chat template cannot be used ("" when it can)."""
    from backends.chat_format import ChatTemplate
    from backends.errors import UnsupportedModel

    if not source.strip():
        return "The file carries no chat template (tokenizer.chat_template)."
    try:
        ChatTemplate(source)
    except UnsupportedModel as exc:
        return str(exc)
    return ""
