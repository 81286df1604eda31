"""Save and restore one llama.cpp conversation's KV (sequence 0) plus its token ids."""

from __future__ import annotations

import ctypes
import json
import os
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from backends.kv_cache import StateCodec
from backends.prefix_cache import PrefixCodec, PrefixFileError

SEQ = 0  # llama-cpp-python keeps the whole conversation in sequence 0
PREFIX_MAGIC = b"HEARTHPX-LLAMA1\n"


@dataclass(frozen=True)
class SeqState:
    """The cached tokens and llama.cpp's serialized KV for them."""

    tokens: np.ndarray[Any, np.dtype[np.int32]]
    data: bytes

    @property
    def nbytes(self) -> int:
        return len(self.data) + int(self.tokens.nbytes)


def save_sequence(llm: Any) -> SeqState:
    """Copy the live KV out of the context (only the KV: not llama-cpp-python's logits buffer)."""
    import llama_cpp

    size = llama_cpp.llama_state_seq_get_size(llm.ctx, SEQ)
    buffer = (ctypes.c_uint8 * size)()
    written = llama_cpp.llama_state_seq_get_data(llm.ctx, buffer, size, SEQ)
    tokens = np.array(llm.input_ids[: llm.n_tokens], dtype=np.int32)
    return SeqState(tokens, ctypes.string_at(buffer, written))  # one copy, not two


def restore_sequence(llm: Any, state: SeqState) -> bool:
    """Put a saved KV back; False (and an empty context) when llama.cpp refuses it."""
    import llama_cpp

    n = len(state.tokens)
    if n == 0 or n >= llm.n_ctx():
        return False
    llama_cpp.llama_memory_clear(llama_cpp.llama_get_memory(llm.ctx), True)
    buffer = (ctypes.c_uint8 * len(state.data)).from_buffer_copy(state.data)
    if llama_cpp.llama_state_seq_set_data(llm.ctx, buffer, len(state.data), SEQ) == 0:
        llm.n_tokens = 0
        return False
    llm.input_ids[:n] = state.tokens
    llm.n_tokens = n
    # Restored KV has no fresh logits: generate() must decode at least one token before sampling.
    llm._requires_eval = True
    return True


def _dump(state: SeqState, path: Path) -> None:
    with path.open("wb") as handle:  # a file object stops numpy from appending ".npz"
        np.savez(handle, tokens=state.tokens, data=np.frombuffer(state.data, dtype=np.uint8))


def _load(path: Path) -> SeqState:
    with np.load(path, allow_pickle=False) as archive:
        return SeqState(archive["tokens"].astype(np.int32), archive["data"].tobytes())


def seq_state_codec() -> StateCodec[SeqState]:
    return StateCodec(suffix=".llkv.npz", size=lambda s: s.nbytes, dump=_dump, load=_load)


def _dump_prefix(state: SeqState, meta: dict[str, str], tokens: Sequence[int],
                 path: Path) -> None:
    """Magic, a JSON header (metadata, sizes, CRC-32 of the KV bytes), the tokens, the KV."""
    ids = np.asarray(tokens, dtype="<i4").tobytes()
    header = json.dumps({**meta, "kv_bytes": len(state.data), "crc32": zlib.crc32(state.data),
                         "tokens_crc32": zlib.crc32(ids)}).encode()
    with path.open("wb") as handle:
        handle.write(PREFIX_MAGIC + struct.pack("<I", len(header)) + header + ids)
        handle.write(state.data)
        handle.flush()
        os.fsync(handle.fileno())


def _load_prefix(path: Path) -> tuple[SeqState, dict[str, str], list[int]]:
    blob = path.read_bytes()
    if not blob.startswith(PREFIX_MAGIC):
        raise PrefixFileError("it is not a Hearth llama.cpp prompt state")
    start = len(PREFIX_MAGIC) + 4
    (length,) = struct.unpack_from("<I", blob, len(PREFIX_MAGIC))
    header = json.loads(blob[start:start + length])
    n_tokens, kv_bytes = int(header["n_tokens"]), int(header["kv_bytes"])
    ids = blob[start + length:start + length + 4 * n_tokens]
    data = blob[start + length + 4 * n_tokens:]
    if len(ids) != 4 * n_tokens or len(data) != kv_bytes:
        raise PrefixFileError("the file is truncated")
    if zlib.crc32(ids) != header["tokens_crc32"] or zlib.crc32(data) != header["crc32"]:
        raise PrefixFileError("the file is damaged (checksum mismatch)")
    tokens = np.frombuffer(ids, dtype="<i4").astype(np.int32)
    meta = {k: str(v) for k, v in header.items()}
    return SeqState(tokens, data), meta, [int(t) for t in tokens]


def seq_prefix_codec() -> PrefixCodec[SeqState]:
    return PrefixCodec(suffix=".llpx", dump=_dump_prefix, load=_load_prefix)
