"""The Settings tab that switches skills on and off: one switch per skill (documents, files,
calendar, office, time and units) with what it lets the assistant do."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtWidgets import QCheckBox, QVBoxLayout, QWidget

from app.core.skill_switches import enabled_setting, families
from app.ui.context import UiContext
from app.ui.widgets import dim_label

_NAMES: dict[str, tuple[str, str]] = {
    "builtin": (str(QT_TRANSLATE_NOOP("SkillsTab", "Time and units")),
                str(QT_TRANSLATE_NOOP("SkillsTab", "Tells the date and time anywhere in the world "
                                  "and converts units."))),
    "documents": (str(QT_TRANSLATE_NOOP("SkillsTab", "Documents")),
                  str(QT_TRANSLATE_NOOP("SkillsTab", "Searches and reads the documents in your "
                                    "library, citing the page."))),
    "files": (str(QT_TRANSLATE_NOOP("SkillsTab", "Files")),
              str(QT_TRANSLATE_NOOP("SkillsTab", "Finds files in the folders you chose, and opens "
                                "or shows them."))),
    "calendar": (str(QT_TRANSLATE_NOOP("SkillsTab", "Calendar")),
                 str(QT_TRANSLATE_NOOP("SkillsTab", "Reads your calendar and finds free time; adds, "
                                   "changes or deletes events once you approve."))),
    "office": (str(QT_TRANSLATE_NOOP("SkillsTab", "Office")),
               str(QT_TRANSLATE_NOOP("SkillsTab", "Answers exact questions about spreadsheets, "
                                 "summarises folders, and writes Word, Excel and PowerPoint "
                                 "files once you approve."))),
}


class SkillsTab(QWidget):
    """Lists the registered skills once the assistant is built (off the GUI thread); values()
    is the `enabled_skills` setting for the switches, unchanged until they are listed."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._enabled = list(ctx.hearth.settings.enabled_skills)
        self._families: dict[str, list[str]] = {}
        self.switches: dict[str, QCheckBox] = {}
        self._column = QVBoxLayout(self)
        self._column.setContentsMargins(12, 14, 12, 8)
        self._column.addWidget(dim_label(self.tr(
            "What the assistant may use. A skill switched off is not offered to the model from "
            "your next message on, so its prompt is shorter and answers start sooner.")))
        self._column.addStretch(1)
        ctx.ops.run(lambda: families(ctx.assistant().registered), self._list,
                    lambda _exc: None)

    def _list(self, found: dict[str, list[str]]) -> None:
        self._families = found
        on = set(self._enabled)
        for family, names in found.items():
            title, description = _NAMES.get(family, (family.capitalize(), ""))
            switch = QCheckBox(self.tr(title))
            state = sum(1 for n in names if not on or n in on)
            switch.setTristate(0 < state < len(names))  # some tools switched off elsewhere
            switch.setCheckState(Qt.CheckState.Checked if state == len(names) else
                                 Qt.CheckState.PartiallyChecked if state else
                                 Qt.CheckState.Unchecked)
            switch.clicked.connect(lambda _c=False, s=switch: s.setTristate(False))
            switch.setAccessibleName(self.tr(title))
            self.switches[family] = switch
            at = self._column.count() - 1  # above the stretch
            self._column.insertWidget(at, switch, 0, Qt.AlignmentFlag.AlignLeft)
            if description:
                words = dim_label(self.tr(description))
                words.setContentsMargins(24, 0, 0, 6)
                switch.setAccessibleDescription(words.text())
                self._column.insertWidget(at + 1, words)

    def values(self) -> dict[str, Any]:
        if not self._families:
            return {"enabled_skills": self._enabled}  # not listed yet: nothing changed
        on = set(self._enabled)
        chosen: list[str] = []
        for family, names in self._families.items():
            state = self.switches[family].checkState()
            if state == Qt.CheckState.Checked:
                chosen += names
            elif state == Qt.CheckState.PartiallyChecked:
                chosen += [n for n in names if not on or n in on]
        everything = [n for names in self._families.values() for n in names]
        return {"enabled_skills": enabled_setting(everything, chosen)}
