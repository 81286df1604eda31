"""What the window says and offers for each failure kind: the one place a kind becomes words."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from app.core.failures import FailureKind, kind_of

__all__ = ["Action", "Presented", "action_label", "present", "present_error"]

CONTEXT = "Failures"


class Action(Enum):
    """The one button offered beside a failure."""

    NONE = "none"
    CHOOSE_MODEL = "choose_model"
    OPEN_SETTINGS = "open_settings"
    NEW_CHAT = "new_chat"


_MESSAGES: dict[FailureKind, str] = {
    FailureKind.NO_MODEL: str(QT_TRANSLATE_NOOP("Failures", "No model is loaded yet.")),
    FailureKind.MODEL_BAD: str(QT_TRANSLATE_NOOP(
        "Failures", "The model file cannot be used (missing, damaged or not supported).")),
    FailureKind.CONTEXT_FULL: str(QT_TRANSLATE_NOOP(
        "Failures", "This conversation no longer fits in the model's memory.")),
    FailureKind.ENGINE_FAILED: str(QT_TRANSLATE_NOOP("Failures", "The model engine failed.")),
    FailureKind.SERVER_UNREACHABLE: str(QT_TRANSLATE_NOOP(
        "Failures", "The model server cannot be reached.")),
    FailureKind.SERVER_REFUSED: str(QT_TRANSLATE_NOOP("Failures", "The model server refused the request.")),
    FailureKind.BUSY: str(QT_TRANSLATE_NOOP(
        "Failures", "An answer in this conversation is still being written.")),
    FailureKind.CANCELLED: str(QT_TRANSLATE_NOOP("Failures", "Stopped.")),
    FailureKind.DISK_FULL: str(QT_TRANSLATE_NOOP(
        "Failures", "The disk is full: Hearth could not save.")),
    FailureKind.STORAGE: str(QT_TRANSLATE_NOOP("Failures", "Hearth could not read or write its data.")),
    FailureKind.BAD_INPUT: str(QT_TRANSLATE_NOOP("Failures", "That request cannot be done.")),
    FailureKind.INTERNAL: str(QT_TRANSLATE_NOOP("Failures", "Something went wrong inside Hearth.")),
}
_ACTIONS: dict[FailureKind, Action] = {
    FailureKind.NO_MODEL: Action.CHOOSE_MODEL,
    FailureKind.MODEL_BAD: Action.CHOOSE_MODEL,
    FailureKind.CONTEXT_FULL: Action.NEW_CHAT,
    FailureKind.ENGINE_FAILED: Action.OPEN_SETTINGS,  # a smaller context, another engine
    FailureKind.SERVER_UNREACHABLE: Action.OPEN_SETTINGS,  # the server address
    FailureKind.SERVER_REFUSED: Action.OPEN_SETTINGS,  # the model name, the key
}
_LABELS: dict[Action, str] = {
    Action.CHOOSE_MODEL: str(QT_TRANSLATE_NOOP("Failures", "Choose a model…")),
    Action.OPEN_SETTINGS: str(QT_TRANSLATE_NOOP("Failures", "Settings…")),
    Action.NEW_CHAT: str(QT_TRANSLATE_NOOP("Failures", "New chat")),
}
# Kinds whose English detail says something the translated line cannot (the server's or the
# engine's own words, which file): shown after it. The others are fully said by the line.
_WITH_DETAIL = {FailureKind.MODEL_BAD, FailureKind.ENGINE_FAILED, FailureKind.SERVER_REFUSED,
                FailureKind.SERVER_UNREACHABLE, FailureKind.CONTEXT_FULL, FailureKind.STORAGE,
                FailureKind.BAD_INPUT, FailureKind.INTERNAL}


@dataclass(frozen=True)
class Presented:
    """A failure as shown: one translated line (plus the detail where it helps) and a button."""

    kind: FailureKind
    text: str
    action: Action


def _tr(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def present(kind: FailureKind | str | None, detail: str = "") -> Presented:
    """The words and the action for `kind`; `detail` is the English text the core sent."""
    known = _as_kind(kind)
    text = _tr(_MESSAGES[known])
    detail = " ".join(detail.split())
    if detail and known in _WITH_DETAIL and detail != text:
        text = f"{text} {detail}"
    return Presented(known, text, _ACTIONS.get(known, Action.NONE))


def present_error(error: BaseException) -> Presented:
    """An exception raised by background work (a model load, a turn that could not start)."""
    return present(kind_of(error), str(error))


def action_label(action: Action) -> str:
    return _tr(_LABELS[action]) if action in _LABELS else ""


def _as_kind(kind: FailureKind | str | None) -> FailureKind:
    try:
        return FailureKind(kind) if kind else FailureKind.INTERNAL
    except ValueError:
        return FailureKind.INTERNAL
