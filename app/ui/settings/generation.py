"""The Settings tab for how the model answers: sampling per step and thinking budgets."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QDoubleSpinBox, QFormLayout, QLabel, QSpinBox, QWidget

from app.core.settings import Settings

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
        form.addRow(_title(self.tr("Answering a message")))
        self.chat_temperature = _temperature(settings.chat_temperature,
                                             self.tr("Temperature when answering a message"))
        form.addRow(self.tr("Temperature"), self.chat_temperature)
        self.chat_top_p, self.chat_top_k = _top(settings.chat_top_p, settings.chat_top_k)
        form.addRow(self.tr("Top p / top k"), _pair(self.chat_top_p, self.chat_top_k))
        form.addRow(_title(self.tr("Steps after a tool result")))
        self.tool_temperature = _temperature(settings.tool_temperature,
                                             self.tr("Temperature after a tool result"))
        form.addRow(self.tr("Temperature"), self.tool_temperature)
        self.tool_top_p, self.tool_top_k = _top(settings.tool_top_p, settings.tool_top_k)
        form.addRow(self.tr("Top p / top k"), _pair(self.tool_top_p, self.tool_top_k))
        form.addRow(_title(self.tr("Thinking budget (tokens; 0 answers without thinking)")))
        labels = (self.tr("Chat"), self.tr("Quick ask"), self.tr("Tool steps"),
                  self.tr("Titles"))
        self.budgets: dict[str, QSpinBox] = {}
        for name, label in zip(_BUDGETS, labels, strict=True):
            box = QSpinBox()
            box.setRange(0, 32768)
            box.setSingleStep(256)
            box.setValue(int(getattr(settings, name)))
            box.setAccessibleName(self.tr("Thinking budget: %1").replace("%1", label))
            self.budgets[name] = box
            form.addRow(label, box)
        hint = QLabel(self.tr("When the reasoning reaches its budget, or goes in circles, Hearth "
                              "closes it and the model answers (\"Thinking was cut short\")."))
        hint.setObjectName("dim")
        hint.setWordWrap(True)
        form.addRow("", hint)

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


def _title(text: str) -> QLabel:
    label = QLabel(f"<b>{text}</b>")
    return label


def _temperature(value: float, name: str) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(0.0, 2.0)
    box.setSingleStep(0.1)
    box.setDecimals(2)
    box.setValue(value)
    box.setAccessibleName(name)
    return box


def _top(top_p: float, top_k: int) -> tuple[QDoubleSpinBox, QSpinBox]:
    p = QDoubleSpinBox()
    p.setRange(0.05, 1.0)
    p.setSingleStep(0.05)
    p.setDecimals(2)
    p.setValue(top_p)
    p.setAccessibleName("top p")
    k = QSpinBox()
    k.setRange(0, 200)
    k.setValue(top_k)
    k.setAccessibleName("top k")
    return p, k


def _pair(left: QWidget, right: QWidget) -> QWidget:
    from PySide6.QtWidgets import QHBoxLayout

    box = QWidget()
    row = QHBoxLayout(box)
    row.setContentsMargins(0, 0, 0, 0)
    row.addWidget(left)
    row.addWidget(right)
    return box
