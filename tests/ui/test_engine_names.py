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


def test_every_engine_reason_is_a_code_worded_once_in_each_language(qapp: Any) -> None:
    """The window words the code, not the CLI's English sentence: a Chinese UI shows the
    remote engine's reason in Chinese with the server's address (it matched "You chose" in the
    English sentence before, so a reworded sentence silently showed the wrong reason)."""
    from app.ui.engine_reason import engine_reason
    from app.ui.i18n import Translations
    from backends.select import EngineChoice, EngineWhy

    url = "http://127.0.0.1:8080/v1"
    translations = Translations(qapp)
    try:
        assert translations.apply("zh_CN") == "zh_CN"
        worded = {why: engine_reason(EngineChoice("remote", why, url)) for why in EngineWhy}
    finally:
        translations.apply("en")
    assert all(text and "You chose" not in text and "The model" not in text
               for text in worded.values()), worded
    assert url in worded[EngineWhy.CHOSEN_REMOTE]
    assert worded[EngineWhy.CHOSEN_REMOTE] != worded[EngineWhy.REMOTE_NO_LOCAL_MODEL]
    english = {why: EngineChoice("remote", why, url).reason for why in EngineWhy}
    assert len(set(english.values())) == len(EngineWhy) and url in english[EngineWhy.CHOSEN_REMOTE]
