"""The Settings tab for speed: engine threads, prompt lookup, saved prompt states (Clear)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QFormLayout, QLabel, QWidget

from app.ui.context import UiContext
from app.ui.widgets import button, dim_label, hbox, spin_box
from backends.cpu import physical_cores

MIB = 1024**2


class SpeedTab(QWidget):
    """Threads (0: one per physical core) and the disk limit for saved prompt prefixes, with
    the disk all saved model states use now and a button that forgets them."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        settings = ctx.hearth.settings
        form = QFormLayout(self)
        form.setContentsMargins(12, 14, 12, 8)
        form.setVerticalSpacing(10)
        self.threads = spin_box(0, 256, max(0, settings.threads), self.tr("Engine threads"))
        self.threads.setSpecialValueText(
            self.tr("Automatic (%1, one per physical core)").replace("%1", str(physical_cores())))
        form.addRow(self.tr("Threads"), self.threads)
        self.lookup = QCheckBox(self.tr("Check guesses copied from the conversation"))
        self.lookup.setChecked(settings.prompt_lookup)
        self.lookup.setToolTip(self.tr(
            "When an answer copies what it read (a quote, a file name, a value), the model "
            "checks several guessed words in one step: faster, and the same answer. Applies "
            "when the model loads."))
        form.addRow(self.tr("Prompt lookup"), self.lookup)
        self.limit = spin_box(0, 1024 * 1024, max(0, settings.prefix_cache_mb),
                              self.tr("Disk limit for saved prompt states"), step=512)
        self.limit.setSuffix(" MB")
        form.addRow(self.tr("Saved prompt states"), self.limit)
        self.usage = QLabel()
        self.usage.setAccessibleName(self.tr("Disk used by saved model states"))
        self.clear = button(self.tr("Clear"), self._clear, self.tr("Clear saved model states"))
        form.addRow(self.tr("On disk now"), hbox((self.usage, 1), self.clear))
        form.addRow("", dim_label(self.tr(
            "Hearth keeps the model's reading of its instructions and tools on disk, so a new "
            "chat answers at once, even after a restart. The least recently used states go "
            "first when the limit is reached.")))
        self._refresh()

    def values(self) -> dict[str, Any]:
        return {"threads": int(self.threads.value()), "prefix_cache_mb": int(self.limit.value()),
                "prompt_lookup": self.lookup.isChecked()}

    def _refresh(self) -> None:
        self.usage.setText(self.tr("Measuring…"))
        self.ctx.ops.run(self.ctx.hearth.saved_states_bytes, self._show_usage,
                         lambda _exc: self.usage.setText(""))

    def _show_usage(self, used: int) -> None:
        self.usage.setText(self.tr("%1 MB").replace("%1", f"{used / MIB:,.1f}"))

    def _clear(self) -> None:
        self.clear.setEnabled(False)
        self.usage.setText(self.tr("Clearing…"))

        def done(_result: object) -> None:
            self.clear.setEnabled(True)
            self._refresh()

        self.ctx.ops.run(self.ctx.hearth.clear_saved_states, done,
                         title=self.tr("Could not clear the saved model states"), writes=True)
