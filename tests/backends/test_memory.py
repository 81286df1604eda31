"""Memory planning: the looped KV cost, free-memory probes and the context chosen from them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from backends import free_memory
from backends.errors import InsufficientMemory, ModelCorrupt, ModelNotFound
from backends.kv_size import GIB, KIB, MIB, kv_bytes_per_token
from backends.memory import plan_context, plan_for_model, require_fit
from backends.model_shape import model_shape
from tests.support.tiny_model import TINY_CONTEXT

NANBEIGE = {"n_layers_physical": 22, "num_loops": 2, "n_kv_heads": 8, "head_dim": 128}


def test_nanbeige_kv_cost_matches_the_model_card() -> None:
    assert kv_bytes_per_token(**NANBEIGE, kv_type="f16") == 176 * KIB
    assert kv_bytes_per_token(**NANBEIGE, kv_type="q8_0") == int(93.5 * KIB)
    # The card's 8K figure: 1.375 GiB at f16.
    assert 8192 * kv_bytes_per_token(**NANBEIGE) == int(1.375 * GIB)


def test_loops_multiply_the_kv_cost() -> None:
    one_pass = kv_bytes_per_token(22, 1, 8, 128)
    assert kv_bytes_per_token(22, 2, 8, 128) == 2 * one_pass


def test_unknown_kv_type_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match="q3_k"):
        kv_bytes_per_token(**NANBEIGE, kv_type="q3_k")


def test_auto_context_uses_free_memory_and_leaves_headroom() -> None:
    per_token = kv_bytes_per_token(**NANBEIGE)
    weights = int(2.5 * GIB)
    small = plan_context(weights, 6 * GIB, per_token)
    large = plan_context(weights, 12 * GIB, per_token)
    assert small.fits and small.verdict == "fits"
    assert 2048 <= small.context_length < large.context_length <= 32768
    assert small.context_length % 256 == 0
    # What was chosen, plus the headroom, stays inside free memory.
    assert weights + small.kv_bytes + 512 * MIB <= 6 * GIB
    assert small.kv_bytes == small.context_length * per_token


def test_q8_kv_buys_a_longer_context_on_the_same_machine() -> None:
    weights, free = int(2.5 * GIB), 6 * GIB
    f16 = plan_context(weights, free, kv_bytes_per_token(**NANBEIGE, kv_type="f16"))
    q8 = plan_context(weights, free, kv_bytes_per_token(**NANBEIGE, kv_type="q8_0"))
    assert q8.context_length > f16.context_length


def test_auto_context_is_capped_by_the_maximum() -> None:
    plan = plan_context(GIB, 512 * GIB, 176 * KIB, maximum=16384)
    assert plan.context_length == 16384 and plan.verdict == "fits"


def test_a_model_that_cannot_fit_says_what_it_needs() -> None:
    plan = plan_context(8 * GIB, 4 * GIB, 176 * KIB)
    assert not plan.fits and plan.verdict == "won't fit"
    assert plan.context_length == 2048
    assert "8.3 GiB" in plan.message  # 8 GiB of weights + 352 MiB of KV for 2,048 tokens
    assert "4.0 GiB" in plan.message
    with pytest.raises(InsufficientMemory, match="Won't fit"):
        require_fit(plan)


def test_a_request_that_eats_the_headroom_is_tight_but_allowed() -> None:
    per_token = 176 * KIB
    context = 8192  # 1.375 GiB of KV
    free = int(2.5 * GIB + 1.375 * GIB + 100 * MIB)
    plan = plan_context(int(2.5 * GIB), free, per_token, requested=context)
    assert plan.fits and plan.verdict == "tight"
    assert plan.context_length == context
    require_fit(plan)  # tight still loads


def test_an_explicit_request_is_kept_and_judged() -> None:
    plan = plan_context(GIB, 64 * GIB, 176 * KIB, requested=100_000)
    assert plan.context_length == 100_000 and plan.fits
    too_big = plan_context(GIB, 8 * GIB, 176 * KIB, requested=100_000)
    assert not too_big.fits


def test_unknown_free_memory_trusts_the_request() -> None:
    plan = plan_context(GIB, None, 176 * KIB, requested=4096)
    assert plan.fits and plan.context_length == 4096
    assert "unknown" in plan.message


def test_shape_of_an_mlx_folder(tiny_model) -> None:  # type: ignore[no-untyped-def]
    shape = model_shape(tiny_model.mlx_dir)
    assert (shape.architecture, shape.n_layers, shape.num_loops) == ("nanbeige", 2, 2)
    assert (shape.n_kv_heads, shape.head_dim, shape.max_context) == (2, 16, TINY_CONTEXT)
    weights = (tiny_model.mlx_dir / "model.safetensors").stat().st_size
    assert shape.weights_bytes == weights
    assert shape.kv_bytes_per_token("f16") == 2 * 2 * 16 * 2 * 2 * 2


def test_shape_of_a_gguf_file(tiny_model) -> None:  # type: ignore[no-untyped-def]
    shape = model_shape(tiny_model.gguf_path)
    assert (shape.architecture, shape.n_layers, shape.num_loops) == ("nanbeige", 2, 2)
    assert (shape.n_kv_heads, shape.head_dim) == (2, 16)
    assert shape.weights_bytes == tiny_model.gguf_path.stat().st_size


def test_loop_loss_weights_add_passes(tmp_path: Path) -> None:
    config = {"model_type": "nanbeige", "num_hidden_layers": 22, "num_attention_heads": 48,
              "num_key_value_heads": 8, "hidden_size": 3072, "head_dim": 128,
              "num_loops": 1, "loop_loss_weights": [0.5, 0.5]}
    (tmp_path / "config.json").write_text(json.dumps(config))
    assert model_shape(tmp_path).num_loops == 3


def test_bad_model_files_give_typed_errors(tmp_path: Path) -> None:
    with pytest.raises(ModelNotFound):
        model_shape(tmp_path / "missing.gguf")
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"GGUF" + b"\xff" * 64)
    with pytest.raises(ModelCorrupt, match="junk.gguf"):
        model_shape(junk)
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "config.json").write_text("{not json")
    with pytest.raises(ModelCorrupt, match="damaged"):
        model_shape(folder)
    (folder / "config.json").write_text(json.dumps({"model_type": "nanbeige"}))
    with pytest.raises(ModelCorrupt, match="lacks"):
        model_shape(folder)


def test_plan_for_model_refuses_before_loading(tiny_model) -> None:  # type: ignore[no-untyped-def]
    _, roomy = plan_for_model(tiny_model.mlx_dir, free_bytes=8 * GIB)
    assert roomy.fits and roomy.context_length == TINY_CONTEXT  # capped at the model's own maximum
    _, starved = plan_for_model(tiny_model.mlx_dir, free_bytes=10_000)
    assert not starved.fits


def test_free_memory_is_measured_on_this_machine() -> None:
    free = free_memory.free_memory_bytes()
    assert free is not None and 64 * MIB < free < 64 * 1024 * GIB


def test_linux_probe_reads_memavailable_and_respects_cgroups(tmp_path: Path) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal: 16000000 kB\nMemFree: 1000000 kB\nMemAvailable: 8000000 kB\n"
                       "Buffers: 100 kB\nCached: 2000000 kB\n")
    assert free_memory._linux_free(meminfo, tmp_path / "none") == 8_000_000 * KIB
    (tmp_path / "memory.max").write_text(f"{4 * GIB}\n")
    (tmp_path / "memory.current").write_text(f"{GIB}\n")
    assert free_memory._linux_free(meminfo, tmp_path) == 3 * GIB
    (tmp_path / "memory.max").write_text("max\n")
    assert free_memory._linux_free(meminfo, tmp_path) == 8_000_000 * KIB


def test_linux_probe_without_memavailable(tmp_path: Path) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal: 16000000 kB\nMemFree: 1000 kB\nBuffers: 200 kB\nCached: 300 kB\n")
    assert free_memory._linux_free(meminfo, tmp_path) == 1500 * KIB


def test_macos_probe_counts_reclaimable_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    out = ("Mach Virtual Memory Statistics: (page size of 16384 bytes)\n"
           "Pages free:                               1000.\n"
           "Pages active:                             9999.\n"
           "Pages inactive:                           2000.\n"
           "Pages speculative:                         500.\n"
           "Pages purgeable:                           100.\n")

    def fake_run(*args: object, **kwargs: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(["vm_stat"], 0, stdout=out, stderr="")

    monkeypatch.setattr(free_memory.subprocess, "run", fake_run)
    assert free_memory._macos_free() == 3600 * 16384


def test_a_failing_probe_falls_back_instead_of_crashing(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> int:
        raise OSError("no /proc here")

    monkeypatch.setattr(free_memory, "_linux_free", broken)
    monkeypatch.setattr(free_memory, "_macos_free", broken)
    monkeypatch.setattr(free_memory, "_windows_free", broken)
    free = free_memory.free_memory_bytes()
    assert free is None or free > 0


def test_real_nanbeige_config_plans_with_the_card_figures(tmp_path: Path) -> None:
    config = {"model_type": "nanbeige", "num_hidden_layers": 22, "num_loops": 2,
              "hidden_size": 3072, "num_attention_heads": 48, "num_key_value_heads": 8,
              "head_dim": 128, "max_position_embeddings": 262144,
              "quantization": {"group_size": 64, "bits": 4}}
    (tmp_path / "config.json").write_text(json.dumps(config))
    (tmp_path / "model.safetensors").write_bytes(b"\0" * 1024)  # size only; never loaded
    shape, plan = plan_for_model(tmp_path, "f16", free_bytes=8 * GIB)
    assert shape.kv_bytes_per_token("f16") == 176 * KIB
    assert shape.kv_bytes_per_token("q8_0") == int(93.5 * KIB)
    assert plan.fits and plan.context_length == 32768  # the default ceiling, not 256K
