"""llama.cpp built to load its backends at run time (GGML_BACKEND_DL): the CPU backend built for
this processor's instruction sets, and any GPU backend, loaded from the package's own folder.

Such a build (GGML_CPU_ALL_VARIANTS, as llama.cpp's own releases ship) carries one CPU backend
per instruction-set level, from plain x86-64 to AVX-512 VNNI: one bundle then runs on any x86-64
processor, with the kernels of the newest it has (on a 2-core Zen 4 VM a decoding step of the
full-size model took 0.35 s with its own, 0.44 s with AVX2 kernels; bench/RESULTS.md). llama.cpp
itself would look for them beside the Python executable and in the current folder; Hearth loads
them from the llama_cpp package's own `lib` folder, before anything else touches the library."""

from __future__ import annotations

import ctypes
import os
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

# Variants llama.cpp builds that Hearth never loads. sapphirerapids: its AMX kernels die with
# SIGSEGV on the first decode of a Q8_0 model (ggml-org/llama.cpp#20824, seen on a Xeon in
# session 9); the best variant without them (AVX-512 VNNI) runs instead.
SKIPPED_VARIANTS = frozenset({"sapphirerapids"})
_PREFIX = "" if sys.platform == "win32" else "lib"
_SUFFIX = ".dll" if sys.platform == "win32" else ".so"  # ggml's name on macOS too
_CORE = {"ggml", "ggml-base"}  # the library itself, not backends


def package_lib() -> Path | None:
    """The llama_cpp package's `lib` folder, found without importing it (None if absent)."""
    spec = find_spec("llama_cpp")
    places = list(spec.submodule_search_locations or []) if spec else []
    return Path(places[0]) / "lib" if places else None


def backend_files(folder: Path) -> dict[str, list[Path]]:
    """The backend libraries in `folder` by backend name ("cpu", "cuda"): the CPU's variants
    are `ggml-cpu-<variant>`, other backends `ggml-<name>`."""
    found: dict[str, list[Path]] = {}
    for path in sorted(folder.glob(f"{_PREFIX}ggml-*{_SUFFIX}")):
        stem = path.name[len(_PREFIX):-len(_SUFFIX)]
        if stem in _CORE:
            continue
        name = "cpu" if stem.startswith("ggml-cpu") else stem.removeprefix("ggml-")
        found.setdefault(name, []).append(path)
    return found


def variant(path: Path) -> str:
    """The instruction-set level a CPU backend file was built for ("" for a lone one)."""
    return path.name[len(_PREFIX):-len(_SUFFIX)].removeprefix("ggml-cpu").removeprefix("-")


def best_cpu_backend(paths: list[Path]) -> Path | None:
    """The CPU backend that scores highest on this processor (llama.cpp's own measure: 0 where
    it lacks an instruction the file needs), skipping SKIPPED_VARIANTS; None if none runs."""
    best, top = None, 0
    for path in paths:
        if variant(path) in SKIPPED_VARIANTS:
            continue
        score = _score(path)
        if score > top:
            best, top = path, score
    return best


def _score(path: Path) -> int:
    """The file's ggml_backend_score(), the library closed again as llama.cpp's own loop does:
    only the chosen one stays (ggml_backend_load opens it anew), not 14 mapped for nothing."""
    library = ctypes.CDLL(str(path))
    try:
        score_fn = getattr(library, "ggml_backend_score", None)
        return int(score_fn()) if score_fn is not None else 1  # a lone build runs as built
    finally:
        _close(library)


def _close(library: ctypes.CDLL) -> None:
    import _ctypes

    getattr(_ctypes, "FreeLibrary" if sys.platform == "win32" else "dlclose")(library._handle)


def ggml_in_use(fallback: ctypes.CDLL) -> ctypes.CDLL:
    """The libggml that libllama itself uses, once llama_cpp is imported; else `fallback`.

    llama-cpp-python opens libggml by path (llama_cpp._ggml), and a wheel holds libggml.so and
    libggml.so.0 as two files, not a link: two copies load, and backends registered with its
    copy are never seen by libllama ("no backends are loaded"). On Linux the copy libllama
    loaded as a dependency is the one its soname names."""
    if sys.platform.startswith("linux"):
        for name in ("libggml.so.0", "libggml.so"):
            try:
                return ctypes.CDLL(name, mode=os.RTLD_NOLOAD)
            except OSError:
                continue
    return fallback


def load_backends(libggml: Any, folder: Path) -> list[Path]:
    """Register the backends in `folder` with `libggml` (llama_cpp._ggml's library) where it was
    built to load them at run time: each GPU backend, then the best CPU backend. The files
    loaded; [] where the backends are linked in (or were loaded already). Raises RuntimeError
    when no CPU backend in the folder runs on this processor."""
    libggml.ggml_backend_reg_count.restype = ctypes.c_size_t
    if libggml.ggml_backend_reg_count() > 0:
        return []
    files = backend_files(folder)
    cpu = best_cpu_backend(files.pop("cpu", []))
    if cpu is None:
        raise RuntimeError(f"no CPU backend in {folder} runs on this processor")
    libggml.ggml_backend_load.restype = ctypes.c_void_p
    libggml.ggml_backend_load.argtypes = [ctypes.c_char_p]
    loaded = []
    for path in [*(p for paths in files.values() for p in paths), cpu]:  # llama.cpp's order
        if libggml.ggml_backend_load(os.fsencode(path)):
            loaded.append(path)
    if cpu not in loaded:
        raise RuntimeError(f"llama.cpp could not load its CPU backend {cpu.name}")
    return loaded
