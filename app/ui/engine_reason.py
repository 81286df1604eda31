"""Why this engine, in the UI's language (backends.select words it in English for the CLI)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

# The fixed sentences of backends.select, translated where they are shown.
_FIXED = (
    QT_TRANSLATE_NOOP("EngineReason", "You chose llama.cpp in settings."),
    QT_TRANSLATE_NOOP("EngineReason", "You chose MLX in settings."),
    QT_TRANSLATE_NOOP("EngineReason", "The model is a GGUF file, so Hearth runs it with "
                                      "llama.cpp on this machine."),
    QT_TRANSLATE_NOOP("EngineReason", "The model is a GGUF file, so Hearth runs it with "
                                      "llama.cpp with Metal on this Mac."),
    QT_TRANSLATE_NOOP("EngineReason", "Apple Silicon with MLX installed and an MLX model "
                                      "folder: MLX is the fastest engine here."),
    QT_TRANSLATE_NOOP("EngineReason", "The model is an MLX folder and MLX's CPU build is "
                                      "installed, so Hearth runs it with MLX; a GGUF build with "
                                      "llama.cpp would be faster on this machine."),
)


def engine_reason(choice: Any, url: str) -> str:
    translate = QCoreApplication.translate
    if choice.engine == "remote":
        if "You chose" in choice.reason:
            return translate("EngineReason", "You chose the remote engine: Hearth talks to "
                                             "%1.").replace("%1", url)
        return translate("EngineReason", "No local model is chosen and a server URL is set, so "
                                         "Hearth talks to %1.").replace("%1", url)
    return translate("EngineReason", choice.reason)
