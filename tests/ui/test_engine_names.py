"""One engine vocabulary: what the real engines report is what settings and the status bar use."""

from __future__ import annotations

from typing import Any

import pytest

from app.ui.shell.main_window import MainWindow
from backends.engines import CHOICES, Engine, display_name
from backends.select import create_backend


def test_the_status_bar_names_the_real_llama_engine(ctx: Any, qtbot: Any,
                                                    tiny_model: Any) -> None:
    pytest.importorskip("llama_cpp")
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    backend = create_backend(str(tiny_model.gguf_path), engine="llama", context_length=1024)
    info = ctx.hearth.runner.load(backend).result(60)
    assert info.engine == Engine.LLAMA
    window._model_ready(info)
    assert window.engine_label.text() == f"llama.cpp · {tiny_model.gguf_path.name}"


def test_people_choose_from_the_same_ids_the_engines_report() -> None:
    assert CHOICES == ("auto", "llama", "mlx", "remote")  # no test engine among them
    assert [display_name(e) for e in (Engine.LLAMA, Engine.MLX)] == ["llama.cpp", "MLX"]
