"""Lane sums: a chunk checksum at memory speed, summed from pieces at any offset, in any order."""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy itself loads on first use, off the app's start-up path
    import numpy as np
    from numpy.typing import NDArray

LANES = 512  # 64-bit words per row: 4 KiB rows, which numpy adds at memory speed
ROW = 8 * LANES


def lane_sum(view: memoryview) -> int:
    """A chunk's checksum at a third of zlib's CRC-32 cost: its 64-bit words summed in LANES
    lanes (word i into lane i % LANES, modulo 2**64), then one CRC-32 of the lane sums and of
    the bytes after the last whole row.

    Damage to a single word (a flipped bit or byte) always changes its lane's sum; like any
    other damage, it then goes unseen only if the CRC-32 of the sums collides (1 in 2**32, the
    odds of a CRC-32 of the chunk itself against damage of more than 32 bits)."""
    import numpy as np

    whole = len(view) // ROW * ROW
    rows = np.frombuffer(view[:whole], dtype="<u8").reshape(-1, LANES)
    sums = np.add.reduce(rows, axis=0, dtype=np.uint64).astype("<u8")
    return zlib.crc32(view[whole:], zlib.crc32(sums.tobytes()))


class LaneSums:
    """lane_sum() of each `chunk` bytes of a `total`-byte stream, from pieces added in any order.

    The pieces are a file's arrays, summed where MLX read them into memory: they start at any
    byte of a chunk, not on a word. A sum is linear in the bytes, so a word split between two
    pieces is added as two words, each with the other piece's bytes zero."""

    def __init__(self, total: int, chunk: int) -> None:
        import numpy as np

        assert chunk % ROW == 0
        self.total, self.chunk = total, chunk
        last = (total - 1) // chunk * chunk if total else 0
        self.rows_end = last + (total - last) // ROW * ROW  # after it: bytes CRC-32'd as they are
        self.tail = bytearray(total - self.rows_end)
        self.sums = np.zeros((-(-total // chunk), LANES), dtype=np.uint64)
        self.pieces: list[tuple[int, int]] = []

    def add(self, offset: int, data: memoryview) -> None:
        """Count `data`, the stream's bytes from `offset` on."""
        self.pieces.append((offset, len(data)))
        end = offset + len(data)
        while offset < end:
            if offset >= self.rows_end:
                self.tail[offset - self.rows_end:end - self.rows_end] = data
                return
            stop = min(end, (offset // self.chunk + 1) * self.chunk, self.rows_end)
            self._add_words(self.sums[offset // self.chunk], offset % self.chunk,
                            data[:stop - offset])
            data, offset = data[stop - offset:], stop

    def digests(self) -> list[int]:
        """The lane_sum() of each chunk; raises ValueError unless the pieces added cover the
        stream exactly once."""
        at = 0
        for offset, size in sorted(self.pieces):
            if offset != at:
                raise ValueError("the pieces read do not cover the stream once")
            at += size
        if at != self.total:
            raise ValueError("the pieces read do not cover the stream once")
        crcs = [zlib.crc32(row.astype("<u8").tobytes()) for row in self.sums]
        if crcs:
            crcs[-1] = zlib.crc32(self.tail, crcs[-1])
        return crcs

    @staticmethod
    def _add_words(sums: NDArray[np.uint64], at: int, data: memoryview) -> None:
        """Add `data`, found `at` bytes into its chunk, to the chunk's lane `sums`."""
        import numpy as np

        head = min(-at % 8, len(data))
        if head:  # the end of a word begun in another piece
            _add_word(sums, at, data[:head])
        words = (len(data) - head) // 8
        lane, tail = (at + head) // 8 % LANES, head + 8 * words
        values = np.frombuffer(data[head:tail], dtype="<u8")
        first = min(words, -lane % LANES)
        sums[lane:lane + first] += values[:first]
        rows = (words - first) // LANES
        if rows:
            middle = values[first:first + rows * LANES].reshape(rows, LANES)
            sums += np.add.reduce(middle, axis=0, dtype=np.uint64)
        rest = values[first + rows * LANES:]
        sums[:len(rest)] += rest
        if tail < len(data):  # the start of a word another piece ends
            _add_word(sums, at + tail, data[tail:])


def _add_word(sums: NDArray[np.uint64], at: int, part: memoryview) -> None:
    """Add the bytes of one word found `at` bytes into the chunk, the word's other bytes zero."""
    import numpy as np

    word = bytes(at % 8) + bytes(part) + bytes(8 - at % 8 - len(part))
    lane = at // 8 % LANES
    sums[lane:lane + 1] += np.frombuffer(word, dtype="<u8")
