"""llama.cpp built with a CPU backend per instruction set: the best one that runs here is loaded
from the package's own folder (never the AMX one), a build with its backends linked in is left
as it is, and a frozen build carrying the variants is not refused on an old processor."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from backends import llama_backends
from backends.cpu import cpu_refusal, parse_cpuinfo
from backends.llama_backends import (
    backend_files,
    best_cpu_backend,
    ggml_in_use,
    load_backends,
    variant,
)

P, S = ("", ".dll") if sys.platform == "win32" else ("lib", ".so")
needs_cc = pytest.mark.skipif(shutil.which("cc") is None or sys.platform == "win32",
                              reason="builds small shared libraries with the C compiler")


def library(folder: Path, stem: str, score: int | None) -> Path:
    """A real shared library named as llama.cpp names a backend, whose ggml_backend_score()
    (llama.cpp's measure of whether, and how well, it runs on this processor) returns `score`."""
    source = folder / f"{stem}.c"
    source.write_text("int ggml_backend_init;\n" if score is None
                      else f"int ggml_backend_score(void) {{ return {score}; }}\n")
    path = folder / f"{P}{stem}{S}"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(path), str(source)], check=True)
    return path


def test_backend_files_are_named_by_backend_and_the_library_itself_is_not_one(
        tmp_path: Path) -> None:
    for stem in ("ggml", "ggml-base", "ggml-cpu-haswell", "ggml-cpu-zen4", "ggml-cuda", "llama"):
        (tmp_path / f"{P}{stem}{S}").write_bytes(b"")
    found = backend_files(tmp_path)
    assert {name: [p.name for p in paths] for name, paths in found.items()} == {
        "cpu": [f"{P}ggml-cpu-haswell{S}", f"{P}ggml-cpu-zen4{S}"], "cuda": [f"{P}ggml-cuda{S}"]}
    assert [variant(p) for p in found["cpu"]] == ["haswell", "zen4"]


@needs_cc
def test_the_variant_that_scores_highest_here_is_chosen_but_never_the_amx_one(
        tmp_path: Path) -> None:
    slow = library(tmp_path, "ggml-cpu-haswell", 40)
    fast = library(tmp_path, "ggml-cpu-icelake", 90)
    library(tmp_path, "ggml-cpu-sapphirerapids", 200)  # would crash on the first decode
    library(tmp_path, "ggml-cpu-future", 0)  # needs what this processor lacks
    assert best_cpu_backend(backend_files(tmp_path)["cpu"]) == fast
    if Path("/proc/self/maps").exists():  # each was opened to ask its score, and closed again
        assert str(tmp_path) not in Path("/proc/self/maps").read_text()
    fast.unlink()
    assert best_cpu_backend(backend_files(tmp_path)["cpu"]) == slow


@needs_cc
def test_no_variant_that_runs_here_is_none(tmp_path: Path) -> None:
    library(tmp_path, "ggml-cpu-future", 0)
    library(tmp_path, "ggml-cpu-sapphirerapids", 200)
    assert best_cpu_backend(backend_files(tmp_path)["cpu"]) is None


class FakeGgml:
    """llama_cpp._ggml.libggml's registry calls, as a build that loads backends at run time
    answers them: nothing registered until ggml_backend_load is called."""

    def __init__(self, registered: int = 0) -> None:
        self.loaded: list[bytes] = []
        self.registered = registered

        def reg_count() -> int:
            return self.registered + len(self.loaded)

        def load(path: bytes) -> int:
            self.loaded.append(path)
            return 1

        self.ggml_backend_reg_count: Any = reg_count
        self.ggml_backend_load: Any = load


@needs_cc
def test_a_run_time_build_loads_its_gpu_backend_then_the_best_cpu_one(tmp_path: Path) -> None:
    library(tmp_path, "ggml-cpu-x64", 10)
    best = library(tmp_path, "ggml-cpu-haswell", 40)
    gpu = library(tmp_path, "ggml-cuda", None)
    fake = FakeGgml()
    assert load_backends(fake, tmp_path) == [gpu, best]  # llama.cpp's own order: GPUs first
    assert fake.loaded == [str(gpu).encode(), str(best).encode()]


@needs_cc
def test_a_run_time_build_with_no_cpu_backend_for_this_processor_is_an_error(
        tmp_path: Path) -> None:
    library(tmp_path, "ggml-cpu-future", 0)
    with pytest.raises(RuntimeError, match="no CPU backend .* runs on this processor"):
        load_backends(FakeGgml(), tmp_path)


def test_the_installed_build_is_used_as_it_is_built() -> None:
    """The installed llama.cpp either has its backends linked in (nothing to load) or loads
    them at run time, and then the engine loaded this processor's best CPU backend."""
    from backends.llama_cpp import _import_engine

    llama_cpp = _import_engine()
    from llama_cpp import _ggml

    folder = Path(_ggml.libggml_base_path)
    # The copy of libggml libllama uses has its backends already: nothing is loaded twice.
    assert load_backends(ggml_in_use(_ggml.libggml), folder) == []
    info = bytes(llama_cpp.llama_print_system_info()).decode()
    assert "CPU" in info  # a CPU backend is there either way
    variants = backend_files(folder).get("cpu", [])
    if len(variants) > 1:
        best = best_cpu_backend(variants)
        assert best is not None and variant(best) not in llama_backends.SKIPPED_VARIANTS


def test_a_frozen_build_carrying_the_variants_runs_on_an_old_processor(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = parse_cpuinfo("flags\t: fpu sse sse2 ssse3 sse4_1 sse4_2 popcnt avx\n")
    monkeypatch.setattr("backends.cpu.x86_features", lambda: old)
    monkeypatch.setattr("platform.machine", lambda: "x86_64")
    monkeypatch.setattr(llama_backends, "package_lib", lambda: tmp_path)
    (tmp_path / f"{P}ggml-cpu{S}").write_bytes(b"")  # one CPU backend, built for AVX2
    assert "lacks AVX2" in cpu_refusal(frozen=True)
    for level in ("x64", "haswell"):
        (tmp_path / f"{P}ggml-cpu-{level}{S}").write_bytes(b"")
    assert cpu_refusal(frozen=True) == ""
