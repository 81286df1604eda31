"""Why this engine, in the UI's language: the one place an EngineWhy code becomes words here."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from backends.select import EngineChoice, EngineWhy


def _sentence(why: EngineWhy) -> str:
    translate = QCoreApplication.translate
    return {
        EngineWhy.CHOSEN_REMOTE: translate(
            "EngineReason", "You chose the remote engine: Hearth talks to %1."),
        EngineWhy.REMOTE_NO_LOCAL_MODEL: translate(
            "EngineReason", "No local model is chosen and a server URL is set, so Hearth talks "
                            "to %1."),
        EngineWhy.CHOSEN_LLAMA: translate("EngineReason", "You chose llama.cpp in settings."),
        EngineWhy.CHOSEN_MLX: translate("EngineReason", "You chose MLX in settings."),
        EngineWhy.GGUF: translate(
            "EngineReason", "The model is a GGUF file, so Hearth runs it with llama.cpp on this "
                            "machine."),
        EngineWhy.GGUF_METAL: translate(
            "EngineReason", "The model is a GGUF file, so Hearth runs it with llama.cpp with "
                            "Metal on this Mac."),
        EngineWhy.MLX_APPLE_SILICON: translate(
            "EngineReason", "Apple Silicon with MLX installed and an MLX model folder: MLX is "
                            "the fastest engine here."),
        EngineWhy.MLX_CPU: translate(
            "EngineReason", "The model is an MLX folder and MLX's CPU build is installed, so "
                            "Hearth runs it with MLX; a GGUF build with llama.cpp would be "
                            "faster on this machine."),
    }[why]


def engine_reason(choice: EngineChoice) -> str:
    return _sentence(choice.why).replace("%1", choice.url)
