"""MLX engine failures a user can cause: bad folders, missing engine, too little memory."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from backends import free_memory
from backends.base import GenerateOptions
from backends.errors import (
    BackendError,
    EngineUnavailable,
    InsufficientMemory,
    ModelCorrupt,
    ModelNotFound,
    NotLoaded,
    UnsupportedModel,
)
from backends.mlx_backend import MlxBackend

pytestmark = pytest.mark.usefixtures("needs_mlx_lm")


@pytest.fixture()
def folder(tiny_model, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    """A private copy of the tiny MLX model to damage."""
    copy = tmp_path / "model"
    shutil.copytree(tiny_model.mlx_dir, copy)
    return copy


def load_error(path: Path | str, **kwargs: object) -> BackendError:
    backend = MlxBackend(str(path), **kwargs)  # type: ignore[arg-type]
    with pytest.raises(BackendError) as raised:
        backend.load()
    assert not backend.loaded
    return raised.value


def edit_config(folder: Path, **changes: object) -> None:
    config = json.loads((folder / "config.json").read_text())
    config.update(changes)
    (folder / "config.json").write_text(json.dumps(config))


def test_missing_folder(tmp_path: Path) -> None:
    error = load_error(tmp_path / "nowhere")
    assert isinstance(error, ModelNotFound) and "nowhere" in str(error)


def test_a_gguf_file_points_to_llama(tiny_model) -> None:  # type: ignore[no-untyped-def]
    error = load_error(tiny_model.gguf_path)
    assert isinstance(error, UnsupportedModel) and "llama.cpp" in str(error)


def test_missing_config(folder: Path) -> None:
    (folder / "config.json").unlink()
    error = load_error(folder)
    assert isinstance(error, ModelCorrupt) and "config.json is missing" in str(error)


def test_garbled_config(folder: Path) -> None:
    (folder / "config.json").write_text('{"model_type": "nanbeige", ')
    error = load_error(folder)
    assert isinstance(error, ModelCorrupt) and "damaged" in str(error)


def test_missing_weights(folder: Path) -> None:
    (folder / "model.safetensors").unlink()
    error = load_error(folder)
    assert isinstance(error, ModelCorrupt) and "no weights" in str(error)


def test_truncated_weights(folder: Path) -> None:
    weights = folder / "model.safetensors"
    data = weights.read_bytes()
    weights.write_bytes(data[: len(data) * 2 // 3])
    error = load_error(folder)
    assert isinstance(error, ModelCorrupt) and "truncated" in str(error)


def test_garbage_weights(folder: Path) -> None:
    (folder / "model.safetensors").write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{not json!!}xx")
    error = load_error(folder)
    assert isinstance(error, ModelCorrupt) and "model.safetensors" in str(error)


def test_weights_that_do_not_match_the_config(folder: Path) -> None:
    edit_config(folder, hidden_size=128)
    error = load_error(folder)
    assert isinstance(error, ModelCorrupt)


def test_missing_tokenizer(folder: Path) -> None:
    (folder / "tokenizer.json").unlink()
    error = load_error(folder)
    assert isinstance(error, ModelCorrupt) and "tokenizer" in str(error)
    assert "\n" not in str(error)  # one line, whatever the library said


def test_unknown_architecture(folder: Path) -> None:
    edit_config(folder, model_type="gpt9000")
    error = load_error(folder)
    assert isinstance(error, UnsupportedModel) and "gpt9000" in str(error)


def test_options_mlx_cannot_run(folder: Path) -> None:
    edit_config(folder, loop_share_kv=True)
    error = load_error(folder)
    assert isinstance(error, UnsupportedModel) and "loop_share_kv" in str(error)


def test_no_chat_template(folder: Path) -> None:
    config = json.loads((folder / "tokenizer_config.json").read_text())
    del config["chat_template"]
    (folder / "tokenizer_config.json").write_text(json.dumps(config))
    error = load_error(folder)
    assert isinstance(error, UnsupportedModel) and "chat template" in str(error)


def test_mlx_not_installed(tiny_model, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "mlx_lm.generate", None)  # makes the import fail
    error = load_error(tiny_model.mlx_dir)
    assert isinstance(error, EngineUnavailable) and "pip install" in str(error)


def test_too_little_memory_is_refused_before_loading(tiny_model,  # type: ignore[no-untyped-def]
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(free_memory, "free_memory_bytes", lambda: 100_000)
    error = load_error(tiny_model.mlx_dir)
    assert isinstance(error, InsufficientMemory) and "Won't fit" in str(error)


def test_unknown_kv_type(tiny_model) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BackendError, match="q3_k"):
        MlxBackend(str(tiny_model.mlx_dir), kv_type="q3_k")


def test_quantized_kv_needs_a_quantizable_head_size(tiny_model) -> None:  # type: ignore[no-untyped-def]
    error = load_error(tiny_model.mlx_dir, kv_type="q8_0")  # head size 16 < MLX's 32 groups
    assert isinstance(error, UnsupportedModel) and "f16" in str(error)


def test_stream_before_load(tiny_model) -> None:  # type: ignore[no-untyped-def]
    backend = MlxBackend(str(tiny_model.mlx_dir))
    with pytest.raises(NotLoaded):
        next(iter(backend.stream([{"role": "user", "content": "hi"}], GenerateOptions(),
                                 lambda: False)))


def test_prompt_renders_before_the_weights_load(tiny_model) -> None:  # type: ignore[no-untyped-def]
    backend = MlxBackend(str(tiny_model.mlx_dir))
    prompt = backend.render_prompt([{"role": "user", "content": "hi"}],
                                   GenerateOptions(enable_thinking=False))
    assert prompt.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    assert not backend.loaded
