"""The saved prompt prefix: restored in a fresh engine, never loaded when damaged or foreign."""

from __future__ import annotations

import json
import logging
import shutil
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest

from backends.base import GenerateOptions
from backends.events import Done, TextDelta
from backends.mlx_state import parse_header
from backends.prefix_cache import PrefixCodec, PrefixKey, PrefixStore
from tests.support.tiny_model import TinyModel

SYSTEM = {"role": "system", "content": "You are Hearth, a private assistant. " * 12}
TOOLS = [{"type": "function", "function": {
    "name": "get_current_time", "description": "The current time in a time zone.",
    "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}}}}]


def chat(text: str, system: dict[str, Any] = SYSTEM) -> list[dict[str, Any]]:
    return [system, {"role": "user", "content": text}]


def turn(backend: Any, messages: list[dict[str, Any]], key: str,
         tools: list[dict[str, Any]] | None = None) -> tuple[str, Done]:
    options = GenerateOptions(max_tokens=6, temperature=0.0, cache_key=key,
                              tools=TOOLS if tools is None else tools)
    events = list(backend.stream(messages, options, lambda: False))
    done = events[-1]
    assert isinstance(done, Done) and done.finish_reason != "error", events
    return "".join(e.text for e in events if isinstance(e, TextDelta)), done


def prefix_length(backend: Any, messages: list[dict[str, Any]]) -> int:
    key = backend._key(messages, GenerateOptions(tools=TOOLS), None)
    return len(key.tokens)


def llama(tiny_model: TinyModel, cache_dir: Path, context: int = 1024) -> Any:
    pytest.importorskip("llama_cpp")
    from backends.llama_cpp import LlamaCppBackend

    backend = LlamaCppBackend(str(tiny_model.gguf_path), context_length=context,
                              cache_dir=cache_dir)
    backend.load()
    return backend


def mlx(tiny_model: TinyModel, cache_dir: Path) -> Any:
    pytest.importorskip("mlx_lm")
    from backends.mlx_backend import MlxBackend

    backend = MlxBackend(str(tiny_model.mlx_dir), cache_dir=cache_dir)
    backend.load()
    return backend


ENGINES = [pytest.param(llama, id="llama.cpp"), pytest.param(mlx, id="mlx")]


def prefix_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and "prefix-" in str(p))


@pytest.mark.parametrize("make", ENGINES)
def test_a_new_conversation_in_a_fresh_engine_restores_the_prefix(
        make: Any, tiny_model: TinyModel, tmp_path: Path) -> None:
    first = make(tiny_model, tmp_path)
    cold_text, cold = turn(first, chat("What time is it?"), "a")
    first.unload()
    assert cold.cached_prompt_tokens == 0 and len(prefix_files(tmp_path)) == 1
    second = make(tiny_model, tmp_path)  # as a freshly started process would
    warm_text, warm = turn(second, chat("What time is it?"), "b")
    shared = prefix_length(second, chat("x"))
    second.unload()
    assert warm.cached_prompt_tokens == shared and shared > warm.prompt_tokens // 2
    assert warm_text == cold_text  # the restored state computes the same answer


@pytest.mark.parametrize("make", ENGINES)
@pytest.mark.parametrize("damage", ["truncated", "corrupt", "garbage"])
def test_a_damaged_prefix_file_is_recomputed_with_one_log_line(
        make: Any, damage: str, tiny_model: TinyModel, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    first = make(tiny_model, tmp_path)
    _, _ = turn(first, chat("hello"), "a")
    first.unload()
    (path,) = prefix_files(tmp_path)
    blob = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(blob[: len(blob) // 2])
    elif damage == "corrupt":  # same length, bytes flipped in the middle of the state
        middle = len(blob) * 3 // 4
        path.write_bytes(blob[:middle] + bytes(b ^ 0xFF for b in blob[middle:middle + 64])
                         + blob[middle + 64:])
    else:
        path.write_bytes(b"not a prompt state at all")
    second = make(tiny_model, tmp_path)
    with caplog.at_level(logging.WARNING):
        text, done = turn(second, chat("hello"), "b")
    second.unload()
    assert done.cached_prompt_tokens == 0 and done.completion_tokens > 0
    lines = [r for r in caplog.records if r.name == "backends.prefix_cache"]
    assert len(lines) == 1 and "recomputing" in lines[0].getMessage()
    assert lines[0].exc_info is None  # one line, no traceback
    assert len(prefix_files(tmp_path)) == 1  # recomputed and saved again, sound this time


def test_an_mlx_prefix_saved_with_one_checksum_is_recomputed_once(
        tiny_model: TinyModel, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Before chunk checksums an MLX prefix carried one CRC-32 of all its data: such a file
    is replaced by a fresh one, with one log line, and the next engine restores that."""
    first = mlx(tiny_model, tmp_path)
    cold_text, _ = turn(first, chat("hello"), "a")
    first.unload()
    (path,) = prefix_files(tmp_path)
    blob = path.read_bytes()
    header, start = parse_header(memoryview(blob))
    meta = header["__metadata__"]
    del meta["0.sealed"]
    meta["0.crc32"] = str(zlib.crc32(blob[start:]))  # as Hearth sealed it before
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + blob[start:])
    second = mlx(tiny_model, tmp_path)
    with caplog.at_level(logging.WARNING):
        text_b, done = turn(second, chat("hello"), "b")
    second.unload()
    lines = [r.getMessage() for r in caplog.records if r.name == "backends.prefix_cache"]
    assert done.cached_prompt_tokens == 0 and text_b == cold_text
    assert len(lines) == 1 and "older Hearth" in lines[0]
    third = mlx(tiny_model, tmp_path)
    _, warm = turn(third, chat("hello"), "c")
    shared = prefix_length(third, chat("x"))
    third.unload()
    assert warm.cached_prompt_tokens == shared


def test_a_prefix_file_of_another_model_is_not_loaded(
        tiny_model: TinyModel, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    small = llama(tiny_model, tmp_path, context=1024)
    turn(small, chat("hello"), "a")
    small.unload()
    (path,) = prefix_files(tmp_path)
    big = llama(tiny_model, tmp_path, context=2048)  # another context size: another model state
    key = big._key(chat("x"), GenerateOptions(tools=TOOLS), None)
    target = big._prefix.store.path_for(key)
    target.parent.mkdir(parents=True)
    shutil.copy(path, target)  # same prompt, copied under the other model's folder
    with caplog.at_level(logging.WARNING):
        _, done = turn(big, chat("hello"), "b")
    big.unload()
    assert done.cached_prompt_tokens == 0
    assert any("another model" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("make", ENGINES)
def test_another_system_message_or_tool_set_makes_a_new_prefix(
        make: Any, tiny_model: TinyModel, tmp_path: Path) -> None:
    base = make(tiny_model, tmp_path)
    turn(base, chat("hi"), "a")
    base.unload()
    variants = [
        (chat("hi", {"role": "system", "content": SYSTEM["content"] + "Answer in haiku."}), None),
        (chat("hi", {"role": "system", "content": SYSTEM["content"].replace("Hearth", "Hërth")}),
         None),
        (chat("hi"), []),  # the tool's skill switched off
    ]
    for index, (messages, tools) in enumerate(variants):
        fresh = make(tiny_model, tmp_path)
        _, done = turn(fresh, messages, f"v{index}", tools)
        fresh.unload()
        assert done.cached_prompt_tokens == 0, index  # the old prefix state is not used
        assert len(prefix_files(tmp_path)) == index + 2
    again = make(tiny_model, tmp_path)
    _, back = turn(again, chat("hi"), "z")
    assert back.cached_prompt_tokens == prefix_length(again, chat("hi"))
    again.unload()


@pytest.mark.parametrize("make", ENGINES)
def test_a_full_disk_while_saving_loses_only_the_cache(
        make: Any, tiny_model: TinyModel, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """The kernel refuses the write part-way (a file-size limit: EFBIG, as a full disk gives
    ENOSPC); the turn still answers and no partial file is left under the real name."""
    resource = pytest.importorskip("resource")
    import signal

    backend = make(tiny_model, tmp_path)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write, not a kill
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, hard))
    try:
        with caplog.at_level(logging.WARNING):
            _, done = turn(backend, chat("hello"), "a")
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)
    assert done.completion_tokens > 0 and done.cached_prompt_tokens == 0
    assert prefix_files(tmp_path) == []
    lines = [r for r in caplog.records if r.name == "backends.prefix_cache"]
    assert len(lines) == 1 and "Could not save" in lines[0].getMessage()
    assert lines[0].exc_info is None
    _, again = turn(backend, chat("hello"), "b")  # and the next turn answers too
    shared = prefix_length(backend, chat("x"))
    backend.unload()
    assert again.completion_tokens > 0
    if make is llama:  # its one live context still holds the prefix
        assert again.cached_prompt_tokens >= shared


# -- the store on its own -------------------------------------------------------------------

def blob_codec() -> PrefixCodec[bytes]:
    def dump(state: bytes, meta: dict[str, str], tokens: Any, path: Path) -> None:
        path.write_bytes("|".join([meta["fingerprint"], meta["digest"], meta["n_tokens"],
                                   ",".join(map(str, tokens))]).encode() + b"\n" + state)

    def load(path: Path) -> tuple[bytes, dict[str, str], list[int]]:
        head, state = path.read_bytes().split(b"\n", 1)
        fingerprint, digest, n, ids = head.decode().split("|")
        return state, {"fingerprint": fingerprint, "digest": digest, "n_tokens": n}, [
            int(t) for t in ids.split(",")]

    return PrefixCodec(".bin", dump, load)


def test_the_least_recently_used_prefix_goes_first(tmp_path: Path) -> None:
    store = PrefixStore(blob_codec(), tmp_path, limit_bytes=2500)
    keys = [PrefixKey.of("model", f"prompt {i}", [1, 2, i]) for i in range(3)]
    store.save(keys[0], bytes(1000))
    store.save(keys[1], bytes(1000))
    assert store.load(keys[0]) == bytes(1000)  # used again: now the most recent
    store.save(keys[2], bytes(1000))
    assert store.load(keys[1]) is None  # the least recently used went
    assert store.load(keys[0]) is not None and store.load(keys[2]) is not None
    assert sum(f.stat().st_size for f in tmp_path.rglob("*.bin")) <= 2500
    store.clear()
    assert not list(tmp_path.rglob("*.bin")) and store.load(keys[0]) is None


def test_a_stale_file_under_the_right_name_is_not_loaded(tmp_path: Path) -> None:
    store = PrefixStore(blob_codec(), tmp_path)
    old, new = PrefixKey.of("m", "old prompt", [1, 2]), PrefixKey.of("m", "new prompt", [1, 3])
    store.save(old, b"state")
    old_path, new_path = store.path_for(old), store.path_for(new)
    assert old_path is not None and new_path is not None
    old_path.rename(new_path)
    assert store.load(new) is None and not new_path.exists()


def test_stop_while_the_prefix_is_read_is_immediate_and_keeps_the_part_read(
        tiny_model: TinyModel, tmp_path: Path) -> None:
    backend = llama(tiny_model, tmp_path)
    polls: list[int] = []

    def stop_after_one_chunk() -> bool:
        polls.append(1)
        return len(polls) >= 2

    options = GenerateOptions(max_tokens=6, tools=TOOLS, cache_key="a")
    events = list(backend.stream(chat("hello"), options, stop_after_one_chunk))
    assert len(events) == 1 and isinstance(events[0], Done)
    assert events[0].finish_reason == "cancelled" and events[0].completion_tokens == 0
    _, again = turn(backend, chat("hello"), "a")
    backend.unload()
    assert again.cached_prompt_tokens == 512  # the chunk read before Stop was kept
