"""The prompt-lookup setting reaches the engine Hearth builds: on by default, off when unset."""

from __future__ import annotations

from pathlib import Path

import pytest

from backends.base import GenerateOptions
from backends.events import Done
from tests.support.tiny_model import TinyModel


@pytest.mark.parametrize("on", [True, False])
def test_the_setting_turns_prompt_lookup_on_and_off(on: bool, tiny_model: TinyModel,
                                                    tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("llama_cpp")
    from app.core.settings import Settings
    from app.main import Hearth

    monkeypatch.setenv("HEARTH_HOME", str(tmp_path))
    assert Settings().prompt_lookup  # on unless the person turns it off
    hearth = Hearth()
    hearth.settings.prompt_lookup = on
    backend = hearth.make_backend(model_path=str(tiny_model.gguf_path), engine="llama")
    backend.load()
    events = list(backend.stream([{"role": "user", "content": "the fox. the fox. the fox."}],
                                 GenerateOptions(max_tokens=16, temperature=0.0), lambda: False))
    backend.unload()
    hearth.close()
    done = events[-1]
    assert isinstance(done, Done) and done.completion_tokens > 0
    assert ("drafted_tokens" in done.timings) is on
