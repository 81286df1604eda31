"""Engine selection: per platform and model format, overridable, always saying why."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from backends.errors import BackendError, EngineUnavailable, ModelNotFound, UnsupportedModel
from backends.select import PlatformInfo, choose_engine, create_backend, model_format

MAC = PlatformInfo("Darwin", "arm64", mlx_available=True, llama_available=True)
MAC_NO_MLX = PlatformInfo("Darwin", "arm64", mlx_available=False, llama_available=True)
INTEL_MAC = PlatformInfo("Darwin", "x86_64", mlx_available=False, llama_available=True)
LINUX = PlatformInfo("Linux", "x86_64", mlx_available=False, llama_available=True)
LINUX_MLX = PlatformInfo("Linux", "x86_64", mlx_available=True, llama_available=True)
WINDOWS = PlatformInfo("Windows", "AMD64", mlx_available=False, llama_available=True)
NO_LLAMA = PlatformInfo("Linux", "x86_64", mlx_available=False, llama_available=False)


@pytest.fixture()
def models(tmp_path: Path) -> dict[str, str]:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 28)
    renamed = tmp_path / "model.bin"  # a GGUF without the extension is still recognised
    renamed.write_bytes(b"GGUF" + b"\0" * 28)
    mlx = tmp_path / "mlx-4bit"
    mlx.mkdir()
    (mlx / "config.json").write_text(json.dumps({"model_type": "nanbeige"}))
    return {"gguf": str(gguf), "renamed": str(renamed), "mlx": str(mlx)}


@pytest.mark.parametrize(("platform", "model", "engine", "expected"), [
    (MAC, "mlx", "auto", "mlx"),
    (MAC, "gguf", "auto", "llama"),
    (MAC, "renamed", "auto", "llama"),
    (LINUX, "gguf", "auto", "llama"),
    (WINDOWS, "gguf", "auto", "llama"),
    (LINUX_MLX, "mlx", "auto", "mlx"),  # MLX's CPU build runs MLX folders off a Mac
    (MAC, "gguf", "llama", "llama"),
    (MAC, "mlx", "mlx", "mlx"),
    (LINUX_MLX, "mlx", "mlx", "mlx"),
])
def test_engine_table(models: dict[str, str], platform: PlatformInfo, model: str, engine: str,
                      expected: str) -> None:
    choice = choose_engine(models[model], engine, platform_info=platform)
    assert choice.engine == expected
    assert choice.reason.endswith(".") and len(choice.reason.split()) > 4


@pytest.mark.parametrize(("platform", "model", "engine", "error", "words"), [
    (LINUX, "mlx", "auto", EngineUnavailable, "GGUF build"),
    (WINDOWS, "mlx", "auto", EngineUnavailable, "MLX is not installed"),
    (INTEL_MAC, "mlx", "mlx", EngineUnavailable, "MLX is not installed"),
    (MAC_NO_MLX, "mlx", "auto", EngineUnavailable, "pip install mlx-lm"),
    (MAC, "gguf", "mlx", UnsupportedModel, "GGUF file"),
    (MAC, "mlx", "llama", UnsupportedModel, "MLX model folder"),
    (NO_LLAMA, "gguf", "auto", EngineUnavailable, "llama-cpp-python"),
    (MAC, "gguf", "vllm", EngineUnavailable, "Unknown engine"),
])
def test_impossible_choices_explain_themselves(models: dict[str, str], platform: PlatformInfo,
                                               model: str, engine: str,
                                               error: type[BackendError], words: str) -> None:
    with pytest.raises(error, match=words):
        choose_engine(models[model], engine, platform_info=platform)


def test_mac_reason_names_the_platform(models: dict[str, str]) -> None:
    assert "Apple Silicon" in choose_engine(models["mlx"], platform_info=MAC).reason
    assert "Metal" in choose_engine(models["gguf"], platform_info=MAC).reason


def test_a_server_url_means_remote_unless_overridden(models: dict[str, str]) -> None:
    url = "http://127.0.0.1:8080/v1"
    auto = choose_engine("", "auto", url, platform_info=LINUX)
    assert auto.engine == "remote" and url in auto.reason
    assert choose_engine("", "remote", url, platform_info=LINUX).engine == "remote"
    # Choosing a local engine keeps the model local even with a URL in settings.
    assert choose_engine(models["gguf"], "llama", url, platform_info=LINUX).engine == "llama"
    # Automatic with a chosen model runs it here: a URL left in the field does not take over.
    local = choose_engine(models["gguf"], "auto", url, platform_info=LINUX)
    assert local.engine == "llama" and "GGUF" in local.reason
    with pytest.raises(EngineUnavailable, match="URL"):
        choose_engine(models["gguf"], "remote", "", platform_info=LINUX)


def test_model_paths_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ModelNotFound, match="No model chosen"):
        choose_engine("", platform_info=LINUX)
    with pytest.raises(ModelNotFound, match="nowhere"):
        choose_engine(str(tmp_path / "nowhere.gguf"), platform_info=LINUX)
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(UnsupportedModel, match="notes.txt"):
        model_format(str(tmp_path / "notes.txt"))
    with pytest.raises(UnsupportedModel, match="config.json"):
        model_format(str(tmp_path))


def test_this_machine_is_detected_without_importing_engines() -> None:
    code = ("import sys; from backends.select import PlatformInfo; info = PlatformInfo.detect(); "
            "print(info.mlx_available, 'mlx.core' in sys.modules, 'llama_cpp' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parents[2])
    available, mlx_imported, llama_imported = out.stdout.split()
    assert (mlx_imported, llama_imported) == ("False", "False")
    try:  # what detection promised must hold when the engine is really imported
        import mlx_lm  # noqa: F401

        importable = True
    except ImportError:
        importable = False
    assert available == str(importable)


def test_create_backend_builds_the_chosen_engine_with_its_reason(tiny_model) -> None:  # type: ignore[no-untyped-def]
    backend = create_backend(str(tiny_model.mlx_dir), "mlx", kv_type="q8_0",
                             platform_info=LINUX_MLX)
    assert backend.info.engine == "mlx" and not backend.loaded
    assert backend.info.kv_type == "q8_0"
    assert backend.info.reason == "You chose MLX in settings."


def test_reason_survives_loading_and_unloading(tiny_model, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("llama_cpp")
    backend = create_backend(str(tiny_model.gguf_path), "llama", context_length=512,
                             cache_dir=tmp_path, platform_info=LINUX)
    backend.load()
    try:
        assert backend.info.context_length == 512
        assert backend.info.reason == "You chose llama.cpp in settings."
    finally:
        backend.unload()
    assert backend.info.context_length == 0  # the figures are those of what is loaded now
    assert backend.info.reason == "You chose llama.cpp in settings."


def test_create_backend_for_llama_passes_settings(tiny_model, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("llama_cpp")
    backend = create_backend(str(tiny_model.gguf_path), "auto", context_length=1024,
                             kv_type="q8_0", cache_dir=tmp_path, platform_info=LINUX)
    assert backend.info.engine == "llama"  # the same id settings and --engine use
    assert "GGUF" in backend.info.reason


def test_create_backend_for_a_server_url() -> None:
    url = "http://127.0.0.1:8080/v1"
    backend = create_backend("", "auto", url=url, remote_model="nanbeige")
    assert backend.info.engine == "remote" and url in backend.info.reason
