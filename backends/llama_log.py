"""Keep llama.cpp's own log quiet, but remember its last lines to explain a failed load."""

from __future__ import annotations

import ctypes
from collections import deque
from typing import Any

_WARN, _ERROR = 3, 4  # ggml_log_level: NONE, DEBUG, INFO, WARN, ERROR, CONT


class LlamaLogTap:
    """Routes llama.cpp's log into a short buffer instead of stderr.

    The ctypes callback must outlive every call llama.cpp makes into it, so one tap is kept for
    the whole process (see `install`)."""

    def __init__(self, size: int = 40) -> None:
        self.lines: deque[str] = deque(maxlen=size)
        self._callback: Any = None

    def install(self, llama_cpp: Any) -> None:
        if self._callback is not None:
            return

        @llama_cpp.llama_log_callback  # type: ignore[untyped-decorator]
        def callback(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
            if level in (_WARN, _ERROR):
                self.lines.append(text.decode("utf-8", errors="replace").strip())

        self._callback = callback
        llama_cpp.llama_log_set(callback, ctypes.c_void_p(0))

    def clear(self) -> None:
        self.lines.clear()

    def explain(self) -> str:
        """Why a load failed, in llama.cpp's words (its "error loading model" line), or ""."""
        for line in self.lines:
            if "error loading model" in line:
                return line.split("error loading model", 1)[1].lstrip(": ")
        return self.lines[-1] if self.lines else ""

    def text(self) -> str:
        return "\n".join(self.lines)


TAP = LlamaLogTap()
