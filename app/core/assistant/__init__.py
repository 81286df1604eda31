"""The assistant: a tool-using turn loop over the model runner, the history and the skills."""

from app.core.assistant.api import Assistant, ConfirmPolicy, TurnHandle, TurnMode

__all__ = ["Assistant", "ConfirmPolicy", "TurnHandle", "TurnMode"]
