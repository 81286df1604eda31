"""Saved model state of the prompt prefix (system message + tools): one checked file per prefix."""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from backends.base import GenerateOptions, Message
from backends.safe_tokens import EncodedPrompt

S = TypeVar("S")
MIB = 1024**2
DEFAULT_LIMIT_BYTES = 2048 * MIB  # about four full-size Nanbeige prefixes at f16

log = logging.getLogger(__name__)


@dataclass
class PrefixOutcome:
    """How the prefix got into the context: already there, restored, computed, or cut short."""

    ready: bool = False
    restored: bool = False
    computed: int = 0  # prefix tokens this call evaluated (not "cached" for the turn's figures)


class PrefixFileError(Exception):
    """A saved prefix file that must not be loaded: truncated, damaged, foreign or stale."""


@dataclass(frozen=True)
class PrefixKey:
    """Which prefix a state belongs to: the model (file, context, KV type) and the exact tokens.

    `fingerprint` is backends.kv_cache.model_fingerprint(path, context, kv type); `digest`
    hashes the rendered prefix text and its token ids, so any change to the system message,
    the tools, the language or the tokenizer gives a different file."""

    fingerprint: str
    digest: str
    tokens: tuple[int, ...]

    @classmethod
    def of(cls, fingerprint: str, text: str, tokens: Sequence[int]) -> PrefixKey:
        hasher = hashlib.sha256(text.encode("utf-8"))
        hasher.update(b"\0" + ",".join(map(str, tokens)).encode())
        return cls(fingerprint, hasher.hexdigest()[:32], tuple(int(t) for t in tokens))

    def meta(self) -> dict[str, str]:
        """What a file records about itself, checked again before it is loaded."""
        return {"fingerprint": self.fingerprint, "digest": self.digest,
                "n_tokens": str(len(self.tokens))}


@dataclass(frozen=True)
class PrefixCodec(Generic[S]):
    """How one engine writes and reads a prefix state with its metadata (llama.cpp, MLX).

    load returns the state, the metadata written with it and the tokens it holds; it raises
    (anything) on a file it cannot read."""

    suffix: str
    dump: Callable[[S, dict[str, str], Sequence[int], Path], None]
    load: Callable[[Path], tuple[S, dict[str, str], list[int]]]


class PrefixStore(Generic[S]):
    """Prefix states under `root/<fingerprint>/<digest><suffix>`, at most `limit_bytes` in all.

    Writes are atomic (a temporary file renamed into place); the least recently used files go
    first when the limit is passed. A file that fails any check is deleted and reported in one
    log line; the caller then recomputes the prefix, so a bad file never breaks a turn."""

    def __init__(self, codec: PrefixCodec[S], root: Path | None,
                 limit_bytes: int = DEFAULT_LIMIT_BYTES) -> None:
        self.codec = codec
        self.root = root
        self.limit_bytes = limit_bytes

    def path_for(self, key: PrefixKey) -> Path | None:
        if self.root is None:
            return None
        return self.root / key.fingerprint / (key.digest + self.codec.suffix)

    def load(self, key: PrefixKey) -> S | None:
        path = self.path_for(key)
        if path is None or not path.is_file():
            return None
        try:
            state, meta, tokens = self.codec.load(path)
            _check(meta, tokens, key)
        except Exception as exc:  # noqa: BLE001 - any unreadable file is recomputed, not raised
            log.warning("Ignoring saved prompt state %s (recomputing it): %s", path.name,
                        _one_line(exc))
            path.unlink(missing_ok=True)
            return None
        _touch(path)  # recently used: the last to go when the limit is reached
        return state

    def save(self, key: PrefixKey, state: S) -> bool:
        """Write the state; False (one log line) when the disk refuses it."""
        path = self.path_for(key)
        if path is None:
            return False
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.codec.dump(state, key.meta(), key.tokens, tmp)
            os.replace(tmp, path)  # a crash or a full disk never leaves half a file in place
            _touch(path)
        except Exception as exc:  # noqa: BLE001 - a full disk loses a cache, never the turn
            log.warning("Could not save the prompt state %s: %s", path.name, _one_line(exc))
            tmp.unlink(missing_ok=True)
            return False
        self.trim(keep=path)
        return True

    def trim(self, keep: Path | None = None) -> None:
        files = sorted(self._files())
        total = sum(size for _, size, _ in files)
        for _, size, path in files:  # least recently used first; the newest file stays
            if total <= self.limit_bytes:
                break
            if path != keep:
                path.unlink(missing_ok=True)
                total -= size

    def clear(self) -> None:
        """Forget every saved prefix state (the Clear button in Settings)."""
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)

    def _files(self) -> list[tuple[int, int, Path]]:
        if self.root is None or not self.root.is_dir():
            return []
        found = []
        for path in self.root.glob("*/*" + self.codec.suffix):
            try:
                stat = path.stat()
            except OSError:  # deleted meanwhile by another Hearth process
                continue
            found.append((stat.st_mtime_ns, stat.st_size, path))
        return found


def _check(meta: dict[str, str], tokens: list[int], key: PrefixKey) -> None:
    if meta.get("fingerprint") != key.fingerprint:
        raise PrefixFileError("it was saved for another model or context size")
    if meta.get("digest") != key.digest or tuple(tokens) != key.tokens:
        raise PrefixFileError("it holds a different prompt")
    if meta.get("n_tokens") != str(len(key.tokens)):
        raise PrefixFileError("its token count does not match")


def _touch(path: Path) -> None:
    now = time.time_ns()  # a precise stamp: coarse file times would blur the LRU order
    os.utime(path, ns=(now, now))


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]


def leading_system(messages: Sequence[Message]) -> list[Message]:
    """The opening system message: the part every conversation shares. Only the first one, so
    nothing a conversation adds (a summary, a note) can ever end up in a shared saved state."""
    return list(messages[:1]) if messages and messages[0].get("role") == "system" else []


class PromptEncoder(Protocol):
    """An engine that turns messages into the exact tokens it is fed (llama.cpp, MLX)."""

    def encode_prompt(self, messages: list[Message], options: GenerateOptions,
                      add_generation_prompt: bool = True) -> EncodedPrompt: ...


def encode_prefix(engine: PromptEncoder, messages: Sequence[Message],
                  options: GenerateOptions) -> EncodedPrompt | None:
    """The shared prefix (system message + tools) as `engine` reads it; None without one."""
    lead = leading_system(messages)
    return engine.encode_prompt(lead, options, add_generation_prompt=False) if lead else None


def prefix_length(engine: PromptEncoder, messages: Sequence[Message],
                  options: GenerateOptions) -> int:
    """Tokens of the rendered prefix (system message + tool schemas), 0 without one."""
    prefix = encode_prefix(engine, messages, options)
    return len(prefix.tokens) if prefix is not None else 0


def engine_prefix_key(engine: PromptEncoder, fingerprint: str, messages: Sequence[Message],
                      options: GenerateOptions,
                      prompt_tokens: Sequence[int] | None) -> PrefixKey | None:
    """The key of `messages`' prefix as `engine` encodes it (see prefix_key), or None."""
    prefix = encode_prefix(engine, messages, options)
    if prefix is None:
        return None
    return prefix_key(fingerprint, prefix.text, prefix.tokens, prompt_tokens)


def prefix_key(fingerprint: str, text: str, prefix_tokens: Sequence[int],
               prompt_tokens: Sequence[int] | None = None) -> PrefixKey | None:
    """The key of a prefix, or None when there is nothing worth saving or the prompt's own
    tokens do not begin with the prefix's (a tokenizer that merges across the boundary)."""
    n = len(prefix_tokens)
    if not text or n == 0:
        return None
    if prompt_tokens is not None and (len(prompt_tokens) <= n
                                      or list(prompt_tokens[:n]) != list(prefix_tokens)):
        return None
    return PrefixKey.of(fingerprint, text, prefix_tokens)


def common_prefix(held: Sequence[int], tokens: Sequence[int]) -> int:
    """How many leading tokens the two sequences have in common."""
    pairs = enumerate(zip(held, tokens, strict=False))
    differ = (index for index, (old, new) in pairs if old != new)
    return next(differ, min(len(held), len(tokens)))
