"""Asked before a re-import: events changed both in Hearth and in the file, and for each
whether to keep the person's version, take the file's, or keep both (as sync clients ask)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.ui.i18n import plural
from app.ui.widgets import choice
from skills.calendar.local_edits import Conflict

MINE, THEIRS, BOTH = "mine", "theirs", "both"  # as skills.calendar.local_edits answers


class ConflictDialog(QDialog):
    """One row per conflict with its choice (keep mine by default: nothing is lost)."""

    def __init__(self, conflicts: list[Conflict], file_name: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Changed in both places"))
        self.conflicts = conflicts
        layout = QVBoxLayout(self)
        intro = QLabel(plural(len(conflicts), self.tr(
            "1 event was changed in Hearth and also in %2 since you imported it. "
            "Which version should the calendar keep?"), self.tr(
            "%1 events were changed in Hearth and also in %2 since you imported them. "
            "Which version should the calendar keep?")).replace("%2", file_name), wordWrap=True)
        layout.addWidget(intro)
        rows = QWidget()
        form = QFormLayout(rows)
        self.boxes: list[QComboBox] = []
        for conflict in conflicts:
            mine = self.tr("Keep it deleted") if conflict.deleted else self.tr("Keep mine")
            both = [] if conflict.deleted else [(self.tr("Keep both"), BOTH)]
            box = choice([(mine, MINE), (self.tr("Take the file's"), THEIRS), *both], MINE,
                         conflict.file_title)
            form.addRow(QLabel(self._describe(conflict)), box)
            self.boxes.append(box)
        scroll = QScrollArea(widgetResizable=True)
        scroll.setWidget(rows)
        layout.addWidget(scroll, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = buttons.addButton(self.tr("Import"),
                                               QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _describe(self, conflict: Conflict) -> str:
        if conflict.deleted:
            return self.tr("“%1”: deleted in Hearth, changed in the file").replace(
                "%1", conflict.file_title)
        if conflict.title == conflict.file_title:
            return self.tr("“%1”: changed in Hearth and in the file").replace(
                "%1", conflict.title)
        return self.tr("“%1” in Hearth, “%2” in the file").replace(
            "%1", conflict.title).replace("%2", conflict.file_title)

    def choices(self) -> dict[tuple[str, str], str]:
        return {c.ident: str(box.currentData()) for c, box in zip(self.conflicts, self.boxes,
                                                                  strict=True)}
