"""The processor check before the bundled llama.cpp loads: a sentence, not an illegal instruction."""

from __future__ import annotations

import platform
import sys
from typing import Any

import pytest

from backends.cpu import cpu_refusal, parse_cpuinfo, x86_features
from backends.errors import EngineUnavailable

# /proc/cpuinfo of a 2011 Sandy Bridge laptop: AVX, no AVX2/FMA/F16C.
SANDY_BRIDGE = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Core(TM) i5-2520M CPU @ 2.50GHz
flags\t\t: fpu vme de pse tsc msr pae mce cx8 sse sse2 ssse3 sse4_1 sse4_2 popcnt aes avx
"""

x86 = pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                         reason="the check is for x86 bundles")


@x86
def test_an_old_processor_gets_a_sentence_naming_what_it_lacks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("backends.cpu.x86_features", lambda: parse_cpuinfo(SANDY_BRIDGE))
    refusal = cpu_refusal(frozen=True)
    assert "lacks AVX2, FMA, F16C" in refusal and "Remote server" in refusal
    assert cpu_refusal(frozen=False) == ""  # a source install's llama.cpp may suit this CPU


@x86
def test_the_bundled_engine_refuses_to_load_on_it(monkeypatch: pytest.MonkeyPatch,
                                                  tiny_model: Any) -> None:
    from backends.llama_cpp import LlamaCppBackend

    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr("backends.cpu.x86_features", lambda: parse_cpuinfo(SANDY_BRIDGE))
    backend = LlamaCppBackend(str(tiny_model.gguf_path), context_length=512)
    with pytest.raises(EngineUnavailable, match="lacks AVX2"):
        backend.load()
    assert not backend.loaded


@x86
def test_this_machine_reads_its_own_flags_and_passes() -> None:
    features = x86_features()
    if features is None or "avx2" not in features:
        pytest.skip("this machine's processor has no AVX2 (or does not say)")
    assert cpu_refusal(frozen=True) == ""
