"""Per-conversation KV caches: a small in-memory LRU that spills to a size-bounded folder."""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

S = TypeVar("S")
GIB = 1024**3
# The key of a request without a conversation (titles, one-shot asks): it may quote any chat.
ANONYMOUS_KEY = "__default__"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StateCodec(Generic[S]):
    """How one engine measures, writes and reads its saved state (llama.cpp bytes, MLX caches)."""

    suffix: str  # file name ending, e.g. ".llkv" or ".safetensors"
    size: Callable[[S], int]
    dump: Callable[[S, Path], None]
    load: Callable[[Path], S]


def model_fingerprint(model_path: str | Path, *parts: object) -> str:
    """A short id for a model file plus the settings its state depends on (context, KV type).

    Saved states live in a folder per fingerprint, so a state is never restored into a
    different model or a differently shaped cache."""
    path = Path(model_path).expanduser().resolve()
    stat = path.stat()
    text = "|".join([str(path), str(stat.st_size), str(stat.st_mtime_ns), *map(str, parts)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def file_stem(key: str) -> str:
    """The file name (without suffix) of `key`'s saved state, in every engine's folder."""
    # Hashed names: conversation ids may hold characters a file system refuses.
    return hashlib.sha256(key.encode()).hexdigest()[:40]


def forget_saved(cache_dir: Path, key: str) -> int:
    """Delete every saved state of `key` and the anonymous one (a title may quote the chat)
    under `cache_dir`: all engines, models and KV types, half-written temporaries too.
    Returns how many files went."""
    removed = 0
    if cache_dir.is_dir():
        for stem in (file_stem(key), file_stem(ANONYMOUS_KEY)):
            for path in cache_dir.rglob(stem + "*"):
                if path.is_file():
                    path.unlink(missing_ok=True)
                    removed += 1
    return removed


class ConversationCaches(Generic[S]):
    """Saved engine states by conversation key.

    The most recent `memory_entries` states (and at most `memory_bytes`) stay in memory; older
    ones are written to `folder` (when given), whose total size is kept under `disk_bytes` by
    deleting the least recently written files. Reading a bad file is not an error: the state is
    simply recomputed, so the cache can never break a conversation."""

    def __init__(self, codec: StateCodec[S], folder: Path | None = None, memory_entries: int = 3,
                 memory_bytes: int = 2 * GIB, disk_bytes: int = 8 * GIB) -> None:
        self.codec = codec
        self.folder = folder
        self.memory_entries = memory_entries
        self.memory_bytes = memory_bytes
        self.disk_bytes = disk_bytes
        self._memory: OrderedDict[str, tuple[S, int]] = OrderedDict()

    def put(self, key: str, state: S) -> None:
        """Keep `state` as the newest entry for `key` (replacing an older one)."""
        self._memory.pop(key, None)
        self._memory[key] = (state, self.codec.size(state))
        while self._memory and (len(self._memory) > self.memory_entries
                                or self.bytes_in_memory() > self.memory_bytes):
            old_key, (old_state, _) = self._memory.popitem(last=False)
            self._spill(old_key, old_state)

    def take(self, key: str) -> S | None:
        """The saved state for `key`, from memory or disk, or None when there is none."""
        if key in self._memory:
            return self._memory.pop(key)[0]
        path = self.path_for(key)
        if path is None or not path.is_file():
            return None
        try:
            return self.codec.load(path)
        except Exception as exc:  # noqa: BLE001 - a damaged or foreign file: drop it and recompute
            log.warning("Ignoring unreadable conversation cache %s: %s", path, exc)
            path.unlink(missing_ok=True)
            return None

    def flush(self) -> None:
        """Write every in-memory state to disk (before unloading the model)."""
        while self._memory:
            key, (state, _) = self._memory.popitem(last=False)
            self._spill(key, state)

    def forget(self, key: str) -> None:
        """Drop `key`'s state from memory and its file from this folder (the chat was deleted)."""
        self._memory.pop(key, None)
        path = self.path_for(key)
        if path is not None:
            path.unlink(missing_ok=True)

    def clear(self) -> None:
        """Forget every state, in memory and on disk."""
        self._memory.clear()
        if self.folder is not None:
            for path in self.folder.glob("*" + self.codec.suffix):
                path.unlink(missing_ok=True)

    def bytes_in_memory(self) -> int:
        """What the states kept in memory take (the rest of the KV budget is free)."""
        return sum(size for _, size in self._memory.values())

    def path_for(self, key: str) -> Path | None:
        if self.folder is None:
            return None
        return self.folder / (file_stem(key) + self.codec.suffix)

    def _spill(self, key: str, state: S) -> None:
        path = self.path_for(key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            self.codec.dump(state, tmp)
            os.replace(tmp, path)  # atomic: a crash never leaves half a file under the real name
            # File times can be as coarse as a few ms; stamp a precise one so age order is exact.
            now = time.time_ns()
            os.utime(path, ns=(now, now))
        except OSError as exc:  # a full disk loses a cache, not the conversation
            log.warning("Could not save conversation cache %s: %s", path, exc)
            return
        self._trim_disk(keep=path)

    def _trim_disk(self, keep: Path) -> None:
        assert self.folder is not None
        files = []
        for path in self.folder.glob("*" + self.codec.suffix):
            try:
                stat = path.stat()
            except OSError:  # deleted meanwhile (another Hearth process trimming too)
                continue
            files.append((stat.st_mtime_ns, stat.st_size, path))
        files.sort()
        total = sum(size for _, size, _ in files)
        for _, size, path in files:  # oldest first; the file just written always stays
            if total <= self.disk_bytes:
                break
            if path != keep:
                total -= size
                path.unlink(missing_ok=True)
