"""Bad model files give typed errors a person understands, and the process stays usable."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from backends.base import GenerateOptions
from backends.errors import InsufficientMemory, ModelCorrupt, ModelNotFound, UnsupportedModel
from backends.events import Done, StreamError
from backends.llama_cpp import LlamaCppBackend
from backends.llama_gguf import inspect_gguf
from tests.support.tiny_model import TINY_CONTEXT, TinyModel, copy_without_template

pytestmark = pytest.mark.usefixtures("needs_llama_cpp")


def load(path: Path) -> LlamaCppBackend:
    backend = LlamaCppBackend(str(path), context_length=256)
    backend.load()
    return backend


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ModelNotFound, match="No model file"):
        load(tmp_path / "nowhere.gguf")


def test_a_folder_is_not_a_gguf(tmp_path: Path) -> None:
    with pytest.raises(UnsupportedModel, match="folder"):
        load(tmp_path)


def test_not_a_gguf_at_all(tmp_path: Path) -> None:
    fake = tmp_path / "model.gguf"
    fake.write_text("<html>404 Not Found</html>")
    with pytest.raises(ModelCorrupt, match="not a GGUF model file"):
        load(fake)


@pytest.mark.parametrize("keep", [0.5, 0.9], ids=["half", "most"])
def test_truncated_download(tiny_model: TinyModel, tmp_path: Path, keep: float) -> None:
    data = tiny_model.gguf_path.read_bytes()
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(ModelCorrupt, match="truncated"):
        load(cut)


def test_cut_inside_the_header(tiny_model: TinyModel, tmp_path: Path) -> None:
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(tiny_model.gguf_path.read_bytes()[:200])
    with pytest.raises(ModelCorrupt, match="truncated or damaged"):
        load(cut)


def test_incomplete_metadata_gives_llama_cpps_reason(tmp_path: Path) -> None:
    # The header parses, but llama.cpp misses hyperparameters: its own reason is passed on.
    import gguf

    path = tmp_path / "weird.gguf"
    writer = gguf.GGUFWriter(str(path), "nanbeige")
    writer.add_block_count(1)
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with pytest.raises(ModelCorrupt, match="could not load weird.gguf: .*context_length"):
        load(path)


def test_unknown_architecture(tmp_path: Path) -> None:
    import gguf

    path = tmp_path / "alien.gguf"
    writer = gguf.GGUFWriter(str(path), "frobnicator")
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with pytest.raises(UnsupportedModel, match="'frobnicator' model"):
        load(path)


def test_too_little_memory_is_refused_before_loading(tiny_model: TinyModel,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from backends import free_memory

    monkeypatch.setattr(free_memory, "free_memory_bytes", lambda: 64 * 1024)
    backend = LlamaCppBackend(str(tiny_model.gguf_path))
    with pytest.raises(InsufficientMemory, match="Won't fit"):
        backend.load()
    assert not backend.loaded


def test_after_an_error_a_good_model_still_loads(tiny_model: TinyModel, tmp_path: Path) -> None:
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"GGUF" + b"\xff" * 100)
    with pytest.raises(ModelCorrupt):
        load(bad)
    good = load(tiny_model.gguf_path)
    assert good.loaded
    good.unload()


def test_header_reader_is_fast_on_the_real_file_shape(tiny_model: TinyModel) -> None:
    summary = inspect_gguf(tiny_model.gguf_path)
    assert (summary.architecture, summary.num_loops, summary.context_length) == (
        "nanbeige", 2, TINY_CONTEXT)
    assert summary.chat_template.startswith("\n{#- Hearth test template")


def test_a_model_without_chat_template_is_refused(tiny_model: TinyModel, tmp_path: Path) -> None:
    bare = tmp_path / "bare.gguf"
    copy_without_template(tiny_model.gguf_path, bare)
    backend = LlamaCppBackend(str(bare), context_length=256)
    with pytest.raises(UnsupportedModel, match="no chat template"):
        backend.load()
    assert not backend.loaded
    # With a template given explicitly the same file works.
    from tests.support.tiny_model import CHAT_TEMPLATE

    backend = LlamaCppBackend(str(bare), context_length=256, chat_template=CHAT_TEMPLATE)
    backend.load()
    assert backend.render_prompt([{"role": "user", "content": "x"}],
                                 GenerateOptions()).endswith("<think>\n")
    backend.unload()


def test_a_model_without_chat_template_runs_with_its_architectures_known_one(
        tiny_model: TinyModel, tmp_path: Path) -> None:
    bare = tmp_path / "bare.gguf"
    copy_without_template(tiny_model.gguf_path, bare)
    backend = LlamaCppBackend(str(bare), context_length=256, known_template=True)
    backend.load()
    try:
        prompt = backend.render_prompt([{"role": "user", "content": "hello"}], GenerateOptions())
        assert "<|im_start|>user\nhello" in prompt  # Nanbeige4.2's own template, bundled
        events = list(backend.stream([{"role": "user", "content": "hello"}],
                                     GenerateOptions(max_tokens=4), lambda: False))
        assert isinstance(events[-1], Done)
    finally:
        backend.unload()


def test_messages_the_template_refuses_end_the_stream_with_an_error(tiny_model: TinyModel) -> None:
    backend = load(tiny_model.gguf_path)
    messages = [{"role": "user", "content": "a"}, {"role": "system", "content": "late"}]
    events = list(backend.stream(messages, GenerateOptions(), lambda: False))
    assert isinstance(events[0], StreamError) and "System message" in events[0].message
    assert isinstance(events[-1], Done) and events[-1].finish_reason == "error"
    backend.unload()
