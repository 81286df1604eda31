"""The Settings tab for how the model answers: sampling per step and thinking budgets."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QDoubleSpinBox, QFormLayout, QSpinBox, QWidget

from app.core.settings import Settings
from app.ui.widgets import bold_label, decimal_box, dim_label, hbox, spin_box

_BUDGETS = ("thinking_budget_chat", "thinking_budget_quick", "thinking_budget_tools",
            "thinking_budget_title")


class GenerationTab(QWidget):
    """Chat and tool-step sampling (the model card's defaults) and a thinking budget per kind
    of request; values() gives the settings fields they edit."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        form = QFormLayout(self)
        form.setContentsMargins(12, 14, 12, 8)
        form.setVerticalSpacing(8)
        form.addRow(bold_label(self.tr("Answering a message")))
        self.chat_temperature = _temperature(settings.chat_temperature,
                                             self.tr("Temperature when answering a message"))
        form.addRow(self.tr("Temperature"), self.chat_temperature)
        self.chat_top_p, self.chat_top_k = _top(settings.chat_top_p, settings.chat_top_k)
        form.addRow(self.tr("Top p / top k"), hbox(self.chat_top_p, self.chat_top_k))
        form.addRow(bold_label(self.tr("Steps after a tool result")))
        self.tool_temperature = _temperature(settings.tool_temperature,
                                             self.tr("Temperature after a tool result"))
        form.addRow(self.tr("Temperature"), self.tool_temperature)
        self.tool_top_p, self.tool_top_k = _top(settings.tool_top_p, settings.tool_top_k)
        form.addRow(self.tr("Top p / top k"), hbox(self.tool_top_p, self.tool_top_k))
        form.addRow(bold_label(self.tr("Thinking budget (tokens; 0 answers without thinking)")))
        labels = (self.tr("Chat"), self.tr("Quick ask"), self.tr("Tool steps"),
                  self.tr("Titles"))
        self.budgets: dict[str, QSpinBox] = {}
        for name, label in zip(_BUDGETS, labels, strict=True):
            self.budgets[name] = spin_box(0, 32768, int(getattr(settings, name)),
                                          self.tr("Thinking budget: %1").replace("%1", label),
                                          step=256)
            form.addRow(label, self.budgets[name])
        form.addRow("", dim_label(self.tr(
            "When the reasoning reaches its budget, or goes in circles, Hearth closes it and the "
            "model answers (\"Thinking was cut short\").")))

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "chat_temperature": round(self.chat_temperature.value(), 2),
            "chat_top_p": round(self.chat_top_p.value(), 2),
            "chat_top_k": int(self.chat_top_k.value()),
            "tool_temperature": round(self.tool_temperature.value(), 2),
            "tool_top_p": round(self.tool_top_p.value(), 2),
            "tool_top_k": int(self.tool_top_k.value()),
        }
        out.update({name: int(box.value()) for name, box in self.budgets.items()})
        return out


def _temperature(value: float, name: str) -> QDoubleSpinBox:
    return decimal_box(0.0, 2.0, value, name, step=0.1)


def _top(top_p: float, top_k: int) -> tuple[QDoubleSpinBox, QSpinBox]:
    return decimal_box(0.05, 1.0, top_p, "top p", step=0.05), spin_box(0, 200, top_k, "top k")
