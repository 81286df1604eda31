"""Read a saved model state at disk speed: the file mapped once, checked, handed over in place.

A saved KV state is hundreds of MiB. Reading it into bytes, slicing it and copying it again for
llama.cpp cost 4.7x a plain read of the file. Here the file is mapped read-only with the kernel
reading all of it ahead at once; the checksums run over the page cache's own pages and llama.cpp
copies the KV straight out of them, so the only passes over the data are the disk's, the
checksum's and llama.cpp's own copy (a plain read makes one more: into the process's buffer)."""

from __future__ import annotations

import mmap
import os
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

CHUNK = 8 * 1024 * 1024  # one CRC-32 per 8 MiB: a damaged file is named by where it is damaged

# A chunk's 32-bit checksum (zlib.crc32 unless a format says otherwise).
Digest = Callable[[memoryview], int]


class StateReadError(ValueError):
    """The file is shorter than its header says, or a chunk's checksum does not match."""


def chunk_crcs(data: bytes | bytearray | memoryview, chunk: int = CHUNK,
               digest: Digest = zlib.crc32) -> list[int]:
    """The CRC-32 (or `digest`) of each `chunk` bytes of `data` (what verify() checks on load)."""
    view = memoryview(data)
    return [digest(view[start:start + chunk]) for start in range(0, len(view), chunk)]


def map_file(path: Path, wait: bool = True) -> memoryview:
    """The whole file as a read-only view (a mapping: the page cache's pages, not a copy).

    Saved states are written beside their name and renamed into place, never rewritten in
    place, so a mapped file cannot change under the reader. `wait=False`: the disk is started
    on every page but the view comes back at once, so the caller's first pass over it (a
    checksum) runs while the rest arrives rather than after."""
    with path.open("rb") as handle:
        if os.name == "nt":  # Windows cannot delete a mapped file (a bad one is deleted)
            buffer = bytearray(os.fstat(handle.fileno()).st_size)
            handle.readinto(buffer)
            return memoryview(buffer)
        if wait and hasattr(mmap, "MAP_POPULATE"):  # Linux: read every page now, in large requests
            # Read-only: populating a writable private mapping would copy every page.
            mapped = mmap.mmap(handle.fileno(), 0, flags=mmap.MAP_SHARED | mmap.MAP_POPULATE,
                               prot=mmap.PROT_READ)
        else:
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            if hasattr(mapped, "madvise"):  # start the disk on every page at once
                mapped.madvise(mmap.MADV_WILLNEED)
    return memoryview(mapped)  # the mapping lives as long as a view of it does


def verify(view: memoryview, crcs: Sequence[int], chunk: int = CHUNK,
           digest: Digest = zlib.crc32) -> None:
    """Raise StateReadError unless each `chunk` bytes of `view` has its recorded CRC-32 (or
    `digest`)."""
    compare(chunk_crcs(view, chunk, digest), crcs, chunk)


def compare(found: Sequence[int], expected: Sequence[int], chunk: int = CHUNK) -> None:
    """Raise StateReadError unless the digests `found` of the state's chunks, in order, are the
    ones it was sealed with."""
    if len(found) != len(expected):
        raise StateReadError("the file's checksum list does not match its size")
    for index, (digest, crc) in enumerate(zip(found, expected, strict=True)):
        if digest != crc:
            raise StateReadError(f"the file is damaged (checksum mismatch at {index * chunk:,} "
                                 "bytes into the state)")
