"""Per-conversation KV caches: switching chats keeps each one's KV, in memory and on disk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from backends.base import GenerateOptions
from backends.events import Done, ReasoningDelta, TextDelta
from backends.kv_cache import ConversationCaches, StateCodec
from tests.support.tiny_model import TinyModel

SYSTEM = {"role": "system", "content": "You are Hearth."}
A_HISTORY = [SYSTEM, {"role": "user", "content": "Plan my week in Paris: museums, food. " * 6},
             {"role": "assistant", "content": "Monday: the Louvre. Tuesday: Orsay."}]
B_HISTORY = [SYSTEM, {"role": "user", "content": "Summarise this file about Tokyo. " * 6}]


def turn(backend: Any, messages: list[dict[str, Any]], key: str) -> tuple[str, Done]:
    events = list(backend.stream(messages, GenerateOptions(max_tokens=6, temperature=0.0,
                                                           cache_key=key), lambda: False))
    done = events[-1]
    assert isinstance(done, Done)
    return "".join(e.text for e in events if isinstance(e, TextDelta | ReasoningDelta)), done


def shared_prefix(backend: Any, first: list[dict[str, Any]], second: list[dict[str, Any]]) -> int:
    """How many leading prompt tokens the two conversations have in common."""
    tokens = [backend._llm.tokenize(backend.render_prompt(m, GenerateOptions()).encode(),
                                    add_bos=False, special=True) for m in (first, second)]
    common = 0
    for x, y in zip(*tokens, strict=False):
        if x != y:
            break
        common += 1
    return common


A_NEXT = [*A_HISTORY, {"role": "user", "content": "And Wednesday?"}]


def make(tiny_model: TinyModel, cache_dir: Path | None) -> Any:
    pytest.importorskip("llama_cpp")
    from backends.llama_cpp import LlamaCppBackend

    backend = LlamaCppBackend(str(tiny_model.gguf_path), context_length=1024, cache_dir=cache_dir)
    backend.load()
    return backend


def test_reopening_a_conversation_restores_its_kv(tiny_model: TinyModel, tmp_path: Path) -> None:
    backend = make(tiny_model, tmp_path)
    _, a1 = turn(backend, A_HISTORY, "A")
    _, b1 = turn(backend, B_HISTORY, "B")
    assert b1.cached_prompt_tokens < b1.prompt_tokens // 3  # only the system prompt is shared
    _, a2 = turn(backend, A_NEXT, "A")
    # All of A's earlier prompt that the new one repeats comes back from the cache (all but the
    # old generation prompt), not just the system prompt that B shares.
    assert a2.cached_prompt_tokens == shared_prefix(backend, A_HISTORY, A_NEXT)
    assert a2.cached_prompt_tokens > a1.prompt_tokens - 12
    backend.unload()


def test_restored_kv_gives_the_same_answer_as_a_fresh_computation(tiny_model: TinyModel,
                                                                  tmp_path: Path) -> None:
    switching = make(tiny_model, tmp_path)
    turn(switching, A_HISTORY, "A")
    turn(switching, B_HISTORY, "B")
    restored_text, restored = turn(switching, A_NEXT, "A")
    switching.unload()
    fresh = make(tiny_model, None)
    fresh_text, cold = turn(fresh, A_NEXT, "A")
    fresh.unload()
    assert restored.cached_prompt_tokens > cold.cached_prompt_tokens == 0
    assert restored_text == fresh_text


def test_caches_survive_unload_on_disk(tiny_model: TinyModel, tmp_path: Path) -> None:
    first = make(tiny_model, tmp_path)
    _, a1 = turn(first, A_HISTORY, "A")
    turn(first, B_HISTORY, "B")
    first.unload()
    assert len(list(tmp_path.rglob("*.llkv"))) == 2
    second = make(tiny_model, tmp_path)
    turn(second, B_HISTORY, "B-other")  # the live context now holds something else
    _, a2 = turn(second, A_NEXT, "A")
    assert a2.cached_prompt_tokens == shared_prefix(second, A_HISTORY, A_NEXT)
    assert a2.cached_prompt_tokens > a1.prompt_tokens - 12
    second.unload()


def test_a_damaged_cache_file_is_ignored(tiny_model: TinyModel, tmp_path: Path) -> None:
    first = make(tiny_model, tmp_path)
    turn(first, A_HISTORY, "A")
    first.unload()
    for file in tmp_path.rglob("*.llkv"):
        file.write_bytes(b"garbage")
    second = make(tiny_model, tmp_path)
    _, again = turn(second, A_HISTORY, "A")
    # Only the shared system prefix (saved on its own) comes back; the conversation recomputes.
    prefix = second._key(A_HISTORY, GenerateOptions(), None)
    assert again.cached_prompt_tokens == len(prefix.tokens) and again.completion_tokens > 0
    second.unload()


# -- the policy on its own (shared with the MLX engine) ------------------------------------

def blob_codec() -> StateCodec[bytes]:
    return StateCodec(suffix=".bin", size=len, dump=lambda s, p: p.write_bytes(s),
                      load=lambda p: p.read_bytes())


def spilled(caches: ConversationCaches[bytes], folder: Path) -> list[str]:
    """The keys whose state went to disk (the others are still in memory)."""
    return [key for key in "abc" if caches.path_for(key) in set(folder.glob("*.bin"))]


def test_lru_keeps_the_newest_in_memory_and_spills_the_rest(tmp_path: Path) -> None:
    caches = ConversationCaches(blob_codec(), tmp_path, memory_entries=2)
    for key in "abc":
        caches.put(key, key.encode() * 10)
    assert spilled(caches, tmp_path) == ["a"]  # "b" and "c" stay in memory
    assert caches.take("a") == b"a" * 10 and caches.take("c") == b"c" * 10
    assert caches.take("never") is None


def test_memory_budget_in_bytes_is_respected(tmp_path: Path) -> None:
    caches = ConversationCaches(blob_codec(), tmp_path, memory_entries=10, memory_bytes=25)
    for key in "abc":
        caches.put(key, b"x" * 10)
    assert spilled(caches, tmp_path) == ["a"]


def test_disk_budget_deletes_the_oldest_files(tmp_path: Path) -> None:
    caches = ConversationCaches(blob_codec(), tmp_path, memory_entries=1, disk_bytes=250)
    for i in range(6):
        caches.put(f"k{i}", bytes(100))
    sizes = [p.stat().st_size for p in tmp_path.glob("*.bin")]
    assert sum(sizes) <= 250 and len(sizes) == 2
    assert caches.take("k0") is None and caches.take("k4") == bytes(100)


def test_a_state_bigger_than_the_disk_budget_still_survives_until_the_next(tmp_path: Path) -> None:
    caches = ConversationCaches(blob_codec(), tmp_path, memory_entries=0, disk_bytes=50)
    caches.put("big", bytes(100))
    assert caches.take("big") == bytes(100)  # kept: the newest file is never the one trimmed
    caches.put("next", bytes(100))
    assert caches.take("big") is None and caches.take("next") == bytes(100)


def test_without_a_folder_nothing_is_written(tmp_path: Path) -> None:
    caches = ConversationCaches(blob_codec(), None, memory_entries=1)
    caches.put("a", b"1")
    caches.put("b", b"2")
    caches.flush()
    assert caches.take("a") is None and caches.take("b") is None
    assert not list(tmp_path.iterdir())


def test_states_round_trip_through_a_file(tmp_path: Path) -> None:
    from backends.llama_state import SeqState, seq_state_codec

    codec = seq_state_codec()
    state = SeqState(np.arange(7, dtype=np.int32), b"\x00\x01kv")
    codec.dump(state, tmp_path / "s.tmp")
    back = codec.load(tmp_path / "s.tmp")
    assert back.data == state.data and back.tokens.tolist() == list(range(7))


def test_states_saved_by_another_llama_cpp_are_never_restored(
        tiny_model: TinyModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An update of the engine may change its state's byte layout: what the old one saved is
    keyed by its version, so the new one starts cold instead of restoring it (issue 25)."""
    first = make(tiny_model, tmp_path)
    turn(first, A_HISTORY, "A")
    first.unload()
    import llama_cpp

    monkeypatch.setattr(llama_cpp, "__version__", "99.0.0-updated")
    second = make(tiny_model, tmp_path)
    _, again = turn(second, A_NEXT, "A")
    second.unload()
    assert again.cached_prompt_tokens == 0
    assert len({p.parent for p in tmp_path.rglob("*.llkv")}) == 2  # one folder per version


def test_states_saved_without_flash_attention_are_not_restored_with_it(
        tiny_model: TinyModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without flash attention llama.cpp keeps V transposed: a state saved by Hearth before it
    turned flash attention on cannot go back into today's context. It is keyed apart, so the
    chat starts cold and answers as a fresh computation does, instead of failing to restore."""
    import backends.llama_cpp as engine

    monkeypatch.setattr(engine, "FLASH_ATTENTION", False)
    first = make(tiny_model, tmp_path)
    turn(first, A_HISTORY, "A")
    first.unload()
    monkeypatch.setattr(engine, "FLASH_ATTENTION", True)
    second = make(tiny_model, tmp_path)
    text, again = turn(second, A_NEXT, "A")
    second.unload()
    fresh = make(tiny_model, None)
    assert (text, again.cached_prompt_tokens) == (turn(fresh, A_NEXT, "A")[0], 0)
    fresh.unload()
    assert len({p.parent for p in tmp_path.rglob("*.llkv")}) == 2  # one folder per layout


def test_a_state_damaged_in_one_chunk_is_refused_and_says_where(tmp_path: Path) -> None:
    from backends.llama_state import SeqState, seq_state_codec
    from backends.state_read import CHUNK

    codec = seq_state_codec()
    data = bytes(range(256)) * (CHUNK // 256 * 2 + 3)  # two full chunks and a short one
    codec.dump(SeqState(np.arange(5, dtype=np.int32), data), tmp_path / "s.llkv")
    assert bytes(codec.load(tmp_path / "s.llkv").data) == data
    blob = bytearray((tmp_path / "s.llkv").read_bytes())
    blob[len(blob) - len(data) + CHUNK + 10] ^= 0xFF  # one byte in the second chunk
    (tmp_path / "s.llkv").write_bytes(bytes(blob))
    with pytest.raises(ValueError, match=f"{CHUNK:,} bytes into"):
        codec.load(tmp_path / "s.llkv")


def test_conversation_states_in_the_old_format_are_removed(tiny_model: TinyModel,
                                                           tmp_path: Path) -> None:
    first = make(tiny_model, tmp_path)
    turn(first, A_HISTORY, "A")
    first.unload()
    (saved,) = tmp_path.rglob("*.llkv")
    old = saved.with_name("0" * 40 + ".llkv.npz")  # what Hearth wrote before (never read now)
    old.write_bytes(b"PK old numpy archive")
    second = make(tiny_model, tmp_path)
    assert not old.exists() and saved.exists()
    second.unload()
