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
from backends.state_read import CHUNK, chunk_crcs, map_file, verify

SEQ = 0  # llama-cpp-python keeps the whole conversation in sequence 0
# Version 2: the KV's checksum is one per chunk, checked while the file is read.
PREFIX_MAGIC = b"HEARTHPX-LLAMA2\n"
STATE_MAGIC = b"HEARTHKV-LLAMA2\n"


@dataclass(frozen=True)
class SeqState:
    """The cached tokens and llama.cpp's serialized KV for them.

    `data` is the bytes llama.cpp gave, or a read-only view of the file it was saved to (see
    backends/state_read.py): either is handed to llama.cpp as it is, never copied again."""

    tokens: np.ndarray[Any, np.dtype[np.int32]]
    data: bytes | memoryview

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


def _pointer(data: bytes | memoryview) -> Any:
    """A uint8 pointer to `data`'s own memory, read-only, no copy (llama.cpp only reads it;
    the pointer keeps `data` alive for as long as it is held)."""
    return np.frombuffer(data, dtype=np.uint8).ctypes.data_as(ctypes.POINTER(ctypes.c_uint8))


def restore_sequence(llm: Any, state: SeqState) -> bool:
    """Put a saved KV back; False (and an empty context) when llama.cpp refuses it."""
    import llama_cpp

    n = len(state.tokens)
    if n == 0 or n >= llm.n_ctx():
        return False
    llama_cpp.llama_memory_clear(llama_cpp.llama_get_memory(llm.ctx), True)
    if llama_cpp.llama_state_seq_set_data(llm.ctx, _pointer(state.data), len(state.data),
                                          SEQ) == 0:
        llm.n_tokens = 0
        return False
    llm.input_ids[:n] = state.tokens
    llm.n_tokens = n
    # Restored KV has no fresh logits: generate() must decode at least one token before sampling.
    llm._requires_eval = True
    return True


def _dump_file(state: SeqState, meta: dict[str, str], magic: bytes, path: Path,
               sync: bool) -> None:
    """Magic, a JSON header (metadata, sizes, CRC-32s of the tokens and of each chunk of the
    KV), the token ids, the KV: laid out so a load reads the file once, into one buffer."""
    ids = np.asarray(state.tokens, dtype="<i4").tobytes()
    header = json.dumps({**meta, "n_tokens": len(state.tokens), "kv_bytes": len(state.data),
                         "chunk": CHUNK, "crcs": chunk_crcs(state.data),
                         "tokens_crc32": zlib.crc32(ids)}).encode()
    with path.open("wb") as handle:
        handle.write(magic + struct.pack("<I", len(header)) + header + ids)
        handle.write(state.data)
        if sync:
            handle.flush()
            os.fsync(handle.fileno())


def _load_file(path: Path, magic: bytes) -> tuple[SeqState, dict[str, Any]]:
    try:
        blob = map_file(path)
    except ValueError as exc:  # an empty file cannot be mapped
        raise PrefixFileError("the file is empty") from exc
    if blob[:len(magic)] != magic:
        raise PrefixFileError("it is not a Hearth llama.cpp state of this version")
    start = len(magic) + 4
    (length,) = struct.unpack_from("<I", blob, len(magic))
    header = json.loads(bytes(blob[start:start + length]))
    n_tokens, kv_bytes = int(header["n_tokens"]), int(header["kv_bytes"])
    ids = blob[start + length:start + length + 4 * n_tokens]
    data = blob[start + length + 4 * n_tokens:]
    if len(ids) != 4 * n_tokens or len(data) != kv_bytes:
        raise PrefixFileError("the file is truncated")
    if zlib.crc32(ids) != header["tokens_crc32"]:
        raise PrefixFileError("the file is damaged (checksum mismatch in its tokens)")
    verify(data, header["crcs"], int(header["chunk"]))
    tokens = np.frombuffer(ids, dtype="<i4").astype(np.int32)
    return SeqState(tokens, data), header


def seq_state_codec() -> StateCodec[SeqState]:
    # A conversation's state is a cache: not synced, a torn file fails its CRC.
    return StateCodec(suffix=".llkv", size=lambda s: s.nbytes,
                      dump=lambda state, path: _dump_file(state, {}, STATE_MAGIC, path, False),
                      load=lambda path: _load_file(path, STATE_MAGIC)[0])


def _dump_prefix(state: SeqState, meta: dict[str, str], tokens: Sequence[int],
                 path: Path) -> None:
    ids = np.asarray(tokens, dtype=np.int32)
    _dump_file(SeqState(ids, state.data), meta, PREFIX_MAGIC, path, sync=True)


def _load_prefix(path: Path) -> tuple[SeqState, dict[str, str], list[int]]:
    state, header = _load_file(path, PREFIX_MAGIC)
    meta = {k: str(v) for k, v in header.items() if k != "crcs"}
    return state, meta, state.tokens.tolist()


def seq_prefix_codec() -> PrefixCodec[SeqState]:
    return PrefixCodec(suffix=".llpx", dump=_dump_prefix, load=_load_prefix)
