"""Engine choice (per platform and model format, overridable, with a reason) and construction."""

from __future__ import annotations

import importlib.util
import platform
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from backends.engines import CHOICES
from backends.errors import (
    BackendError,
    EngineUnavailable,
    ModelNotFound,
    NoModelChosen,
    UnsupportedModel,
)
from backends.prefix_cache import DEFAULT_LIMIT_BYTES

if TYPE_CHECKING:
    from backends.base import Backend

ENGINES = CHOICES  # the test engine is built by tests and the hidden CLI hook, never chosen


@dataclass(frozen=True)
class PlatformInfo:
    """What the choice depends on; tests pass their own instead of probing this machine."""

    system: str  # platform.system(): "Darwin", "Linux", "Windows"
    machine: str  # platform.machine(): "arm64", "x86_64", "AMD64"
    mlx_available: bool
    llama_available: bool

    @property
    def apple_silicon(self) -> bool:
        return self.system == "Darwin" and self.machine in ("arm64", "aarch64")

    @classmethod
    def detect(cls) -> PlatformInfo:
        return cls(platform.system(), platform.machine(),
                   mlx_available=_importable("mlx") and _importable("mlx_lm"),
                   llama_available=_importable("llama_cpp"))


def _importable(name: str) -> bool:
    # find_spec on a top-level name looks the package up without importing it (engines are heavy).
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


class EngineWhy(StrEnum):
    """Why the engine was chosen: a code the UI and the CLI each put into words."""

    CHOSEN_REMOTE = "chosen_remote"
    REMOTE_NO_LOCAL_MODEL = "remote_no_local_model"
    CHOSEN_LLAMA = "chosen_llama"
    CHOSEN_MLX = "chosen_mlx"
    GGUF = "gguf"
    GGUF_METAL = "gguf_metal"
    MLX_APPLE_SILICON = "mlx_apple_silicon"
    MLX_CPU = "mlx_cpu"


# The English words for the CLI and logs; the window translates the code itself (app/ui).
_WHY_WORDS = {
    EngineWhy.CHOSEN_REMOTE: "You chose the remote engine: Hearth talks to {url}.",
    EngineWhy.REMOTE_NO_LOCAL_MODEL: "No local model is chosen and a server URL is set, so "
                                     "Hearth talks to {url}.",
    EngineWhy.CHOSEN_LLAMA: "You chose llama.cpp in settings.",
    EngineWhy.CHOSEN_MLX: "You chose MLX in settings.",
    EngineWhy.GGUF: "The model is a GGUF file, so Hearth runs it with llama.cpp on this machine.",
    EngineWhy.GGUF_METAL: "The model is a GGUF file, so Hearth runs it with llama.cpp with Metal "
                          "on this Mac.",
    EngineWhy.MLX_APPLE_SILICON: "Apple Silicon with MLX installed and an MLX model folder: MLX "
                                 "is the fastest engine here.",
    EngineWhy.MLX_CPU: "The model is an MLX folder and MLX's CPU build is installed, so Hearth "
                       "runs it with MLX; a GGUF build with llama.cpp would be faster on this "
                       "machine.",
}


@dataclass(frozen=True)
class EngineChoice:
    """The engine to use and why (a code; `reason` words it in English)."""

    engine: str  # an id of backends/engines.py: "llama" | "mlx" | "remote"
    why: EngineWhy
    url: str = ""  # the server, for the remote engine's reasons

    @property
    def reason(self) -> str:
        return _WHY_WORDS[self.why].format(url=self.url)


def model_format(model_path: str) -> str:
    """'gguf' for a GGUF file, 'mlx' for a model folder with config.json; errors otherwise."""
    if not model_path:
        raise NoModelChosen("No model chosen: pick one in settings or pass --model PATH")
    path = Path(model_path).expanduser()
    if not path.exists():
        raise ModelNotFound(f"No model at {path}")
    if path.is_dir():
        if (path / "config.json").is_file():
            return "mlx"
        raise UnsupportedModel(f"{path} is a folder without config.json, so not an MLX model; "
                               "choose a .gguf file or an MLX model folder")
    if path.suffix.lower() == ".gguf" or _has_gguf_magic(path):
        return "gguf"
    raise UnsupportedModel(f"{path.name} is neither a .gguf file nor an MLX model folder")


def _has_gguf_magic(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(4) == b"GGUF"
    except OSError:
        return False


def choose_engine(model_path: str, engine: str = "auto", url: str = "",
                  platform_info: PlatformInfo | None = None) -> EngineChoice:
    """Pick the engine for this model on this machine, honouring a user override."""
    if engine not in ENGINES:
        raise EngineUnavailable(f"Unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
    # Automatic runs a chosen local model here; a saved server URL is used only without one
    # (a URL left in the field must not silently send everything to a server).
    if engine == "remote" or (engine == "auto" and url and not model_path):
        if not url:
            raise EngineUnavailable("The remote engine needs a server URL (settings or --url)")
        chosen = engine == "remote"
        return EngineChoice("remote", EngineWhy.CHOSEN_REMOTE if chosen
                            else EngineWhy.REMOTE_NO_LOCAL_MODEL, url)
    info = platform_info or PlatformInfo.detect()
    fmt = model_format(model_path)
    if engine == "llama" and fmt != "gguf":
        raise UnsupportedModel("llama.cpp runs .gguf files, and this is an MLX model folder: "
                               "choose the MLX engine or a GGUF build of the model")
    if engine == "mlx" and fmt != "mlx":
        raise UnsupportedModel("MLX runs MLX model folders, and this is a GGUF file: "
                               "choose llama.cpp or an MLX build of the model")
    if fmt == "gguf":
        if not info.llama_available:
            raise EngineUnavailable("llama.cpp is not installed: pip install llama-cpp-python")
        metal = EngineWhy.GGUF_METAL if info.system == "Darwin" else EngineWhy.GGUF
        return EngineChoice("llama", EngineWhy.CHOSEN_LLAMA if engine == "llama" else metal)
    _need_mlx(info)
    if engine == "mlx":
        return EngineChoice("mlx", EngineWhy.CHOSEN_MLX)
    return EngineChoice("mlx", EngineWhy.MLX_APPLE_SILICON if info.apple_silicon
                        else EngineWhy.MLX_CPU)


def _need_mlx(info: PlatformInfo) -> None:
    if info.mlx_available:
        return
    if info.apple_silicon:
        raise EngineUnavailable("This is an MLX model folder but MLX is not installed: "
                                "pip install mlx-lm")
    raise EngineUnavailable("This is an MLX model folder, and MLX is not installed on this "
                            "machine (it runs on Apple Silicon, or on Linux with mlx-lm[cpu]); "
                            "download the GGUF build of the model instead")


def create_backend(model_path: str, engine: str = "auto", url: str = "", remote_model: str = "",
                   context_length: int = 0, kv_type: str = "f16",
                   cache_dir: Path | None = None,
                   platform_info: PlatformInfo | None = None, threads: int = 0,
                   prefix_limit_bytes: int = DEFAULT_LIMIT_BYTES,
                   known_template: bool = False, template_file: str = "",
                   speculate: bool = True) -> Backend:
    """Choose the engine and build its backend (unloaded); info.reason says why.

    threads: 0 for one per physical core; prefix_limit_bytes: disk for saved prompt prefixes;
    known_template: a GGUF without a chat template uses its architecture's well-known one;
    template_file: or the .jinja file the user chose for it; speculate: local engines verify
    prompt-lookup drafts (backends/prompt_lookup.py)."""
    choice = choose_engine(model_path, engine, url, platform_info)
    # Engine modules are imported only for the engine chosen, keeping `import backends` cheap.
    backend: Backend
    if choice.engine == "remote":
        from backends.remote import RemoteBackend

        backend = RemoteBackend(url, model=remote_model, chat_template=_local_template(model_path),
                                context_length=context_length)
    elif choice.engine == "mlx":
        from backends.mlx_backend import MlxBackend

        backend = MlxBackend(model_path, context_length=context_length, kv_type=kv_type,
                             cache_dir=cache_dir, prefix_limit_bytes=prefix_limit_bytes,
                             speculate=speculate)
    else:
        from backends.llama_cpp import LlamaCppBackend

        backend = LlamaCppBackend(model_path, context_length=context_length, kv_type=kv_type,
                                  cache_dir=cache_dir, n_threads=threads or None,
                                  prefix_limit_bytes=prefix_limit_bytes,
                                  known_template=known_template, template_file=template_file,
                                  speculate=speculate)
    backend.info.reason = choice.reason  # every engine keeps one info object for its life
    return backend


def _local_template(model_path: str) -> str:
    """The chat template of the local copy of the model, if there is one (a remote server
    that cannot switch thinking off is then sent prompts rendered with it)."""
    try:
        if model_format(model_path) == "gguf":
            from backends.llama_gguf import inspect_gguf

            return inspect_gguf(model_path).chat_template
        from backends.mlx_folder import inspect_folder

        return inspect_folder(model_path).chat_template
    except (BackendError, OSError, ValueError):
        return ""
