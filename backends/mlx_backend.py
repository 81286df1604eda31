"""The MLX engine: mlx_lm's stream_generate over the model's looped cache, reused across turns."""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter
from typing import Any

from backends.base import (
    BackendInfo,
    BatchRequest,
    GenerateOptions,
    Message,
    OnProgress,
    ShouldStop,
    TakeMore,
)
from backends.chat_format import ChatTemplate
from backends.engines import Engine
from backends.errors import (
    EngineUnavailable,
    FailureKind,
    ModelCorrupt,
    NotLoaded,
    UnsupportedModel,
)
from backends.events import Done, Event, StreamError
from backends.kv_cache import ConversationCaches
from backends.local import LocalBackend, one_line
from backends.memory import plan_for_model, require_fit
from backends.mlx_batch import CAPACITY, Batch
from backends.mlx_cache import DEFAULT_KEY, CacheEntry, conversation_caches
from backends.mlx_folder import MlxFolder, inspect_folder
from backends.mlx_prefix import MlxPrefix
from backends.mlx_speculate import LookupRun, lookup_stream
from backends.mlx_turn import PREFILL_STEP, Text, Turn, ending, failed, final_events, reader, take
from backends.nanbeige import STOP_TEXTS
from backends.parser import Reading
from backends.prefix_cache import (
    DEFAULT_LIMIT_BYTES,
    PrefixKey,
    PrefixOutcome,
    common_prefix,
)
from backends.safe_tokens import (
    ControlStrings,
    EncodedPrompt,
    encode,
    hf_controls,
    plain_by_pieces,
)

KV_BITS: dict[str, int | None] = {"f16": None, "q8_0": 8, "q4_0": 4}
WARM_SLOT = "__prefix__"  # the warm-up's cache, handed to the first new conversation


class _PrefillCancelled(Exception):
    """Raised from mlx_lm's progress callback to abandon a long prefill the user cancelled."""


@dataclass(frozen=True)
class _Engine:
    """The few mlx / mlx_lm entry points we use, imported only when a model loads."""

    mx: Any
    load_model: Any
    load_tokenizer: Any
    stream_generate: Any
    make_sampler: Any
    make_prompt_cache: Any
    can_trim_prompt_cache: Any
    trim_prompt_cache: Any
    maybe_quantize: Any


def _engine_version(engine: _Engine) -> str:
    """mlx's and mlx-lm's versions: part of every saved state's key."""
    lm = sys.modules.get("mlx_lm")
    return f"mlx {getattr(engine.mx, '__version__', '?')} mlx-lm {getattr(lm, '__version__', '?')}"


def _import_engine() -> _Engine:
    try:
        mx = importlib.import_module("mlx.core")
        generate = importlib.import_module("mlx_lm.generate")
        cache = importlib.import_module("mlx_lm.models.cache")
        sample = importlib.import_module("mlx_lm.sample_utils")
        utils = importlib.import_module("mlx_lm.utils")
    except (ImportError, OSError) as exc:
        raise EngineUnavailable(
            "MLX is not installed: pip install mlx-lm (Apple Silicon) or \"mlx-lm[cpu]\" "
            f"(Linux) ({one_line(exc)})") from exc
    return _Engine(mx, utils.load_model, utils.load_tokenizer, generate.stream_generate,
                   sample.make_sampler, cache.make_prompt_cache, cache.can_trim_prompt_cache,
                   cache.trim_prompt_cache, generate.maybe_quantize_kv_cache)


class MlxBackend(LocalBackend):
    """Nanbeige (or any mlx_lm model) on MLX: Metal on a Mac, the CPU build on Linux."""

    def __init__(self, model_path: str, context_length: int = 0, kv_type: str = "f16",
                 cache_dir: Path | None = None,
                 prefix_limit_bytes: int = DEFAULT_LIMIT_BYTES, speculate: bool = True) -> None:
        """speculate: verify prompt-lookup drafts (backends/mlx_speculate.py) instead of
        decoding one token per forward pass."""
        super().__init__(kv_type, KV_BITS, speculate)
        self._path = model_path
        self._requested_context = context_length
        self._kv_type = kv_type
        self._cache_dir = cache_dir
        self._info = BackendInfo(engine=Engine.MLX, model_path=model_path,
                                 model_name=Path(model_path).name, kv_type=kv_type)
        self._engine: _Engine | None = None
        self._model: Any = None
        self._tokenizer: Any = None
        self._controls = ControlStrings(())
        self._store: ConversationCaches[CacheEntry] | None = None
        self._prefix: MlxPrefix | None = None
        self._prefix_limit = prefix_limit_bytes
        self._kv_group = 64
        self._kv_per_token = 1  # KV bytes of one token (memory plan), for batches

    @property
    def info(self) -> BackendInfo:
        return self._info

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self) -> None:
        """Check the folder and memory first, then load weights and tokenizer with mlx_lm."""
        if self.loaded:
            return
        folder = inspect_folder(self._path)
        kv_storage = folder.kv_storage(self._kv_type)
        shape, plan = plan_for_model(folder.path, kv_storage, self._requested_context)
        require_fit(plan)
        self._template = ChatTemplate(folder.chat_template, folder.bos_token, folder.eos_token)
        self._kv_group = _kv_group_size(shape.head_dim, self._kv_type)
        engine = _import_engine()
        self._info.extra["device_note"] = _usable_device(engine.mx)
        self._model, self._tokenizer = _load_weights(engine, folder)
        self._tokenizer.eos_token_ids = _stop_ids(self._tokenizer)
        self._controls = hf_controls(self._tokenizer)
        self._engine = engine
        fingerprint = folder.fingerprint(self._kv_type, _engine_version(engine))
        self._store = conversation_caches(self._cache_dir, fingerprint, kv_budget=plan.kv_bytes)
        self._kv_per_token = max(1, plan.kv_bytes // max(1, plan.context_length))
        self._prefix = MlxPrefix(self._cache_dir, f"{fingerprint}-{plan.context_length}",
                                 self._prefix_limit, PREFILL_STEP)
        self._info.context_length = plan.context_length
        self._info.num_loops = shape.num_loops
        self._info.quantization = folder.quantization
        self._info.device = _device_name(engine.mx)
        self._info.kv_type = kv_storage
        self._info.extra.update(memory_verdict=plan.verdict, memory_message=plan.message)

    def unload(self) -> None:
        """Keep conversation caches on disk, then free the model."""
        if self._store is not None:
            self._store.flush()
        self._store = None
        self._model = self._tokenizer = None
        if self._engine is not None:
            self._engine.mx.clear_cache()
        self._engine = None

    def forget_conversation(self, cache_key: str) -> None:
        if self._store is not None:
            self._store.forget(cache_key)
            self._store.forget(DEFAULT_KEY)  # a title or one-shot ask may have quoted it

    def render_prompt(self, messages: list[Message], options: GenerateOptions) -> str:
        if self._template is None:  # --print-prompt may come before the weights load
            folder = inspect_folder(self._path)
            self._template = ChatTemplate(folder.chat_template, folder.bos_token,
                                          folder.eos_token)
        return self._template.render(messages, options)

    def count_tokens(self, text: str) -> int:
        return len(self.plain_tokens(text))

    def plain_tokens(self, text: str) -> list[int]:
        if self._tokenizer is None:
            raise NotLoaded("The MLX model is not loaded yet")
        return [int(t) for t in self._tokenizer.encode(text, add_special_tokens=False)]

    def encode_prompt(self, messages: list[Message], options: GenerateOptions,
                      add_generation_prompt: bool = True) -> EncodedPrompt:
        """The prompt's token ids: special tokens only from the template (backends/safe_tokens)."""
        if not self.loaded or self._template is None:
            raise NotLoaded("The MLX model is not loaded yet")
        tokenizer = self._tokenizer

        def markup(text: str) -> list[int]:
            return [int(t) for t in tokenizer.encode(text, add_special_tokens=False)]
        return encode(self._template, self._controls, messages, options, markup,
                      plain_by_pieces(self._controls, markup),
                      add_generation_prompt=add_generation_prompt)

    def stream(self, messages: list[Message], options: GenerateOptions,
               should_stop: ShouldStop) -> Iterator[Event]:
        opened = self._open(messages, options, should_stop, perf_counter())
        if isinstance(opened, list):
            yield from opened
            return
        prefix = self._key(messages, options, opened.tokens)
        room = self._info.context_length - len(opened.tokens)
        yield from self._run(opened, options, should_stop, room, prefix)

    def batch_capacity(self) -> int:
        """Generations one forward pass carries (backends/mlx_batch.py) with an f16 KV cache,
        else 1 (no batching): mlx_lm's batch cache cannot hold quantized KV, and a q8_0 answer
        batched in f16 would not be the answer the single path gives."""
        return CAPACITY if self.loaded and self._kv_type == "f16" else 1

    def stream_batch(self, first: list[BatchRequest], take_more: TakeMore
                     ) -> Iterator[tuple[BatchRequest, Event]]:
        """Several generations in one forward pass (backends/base.py BatchEngine)."""
        if not self.loaded:
            raise NotLoaded("The MLX model is not loaded yet")
        return Batch(self).run(first, take_more)

    def _open(self, messages: list[Message], options: GenerateOptions, should_stop: ShouldStop,
              started: float) -> Turn | list[Event]:
        """A generation's turn, or the events that end it before it starts (a refused prompt,
        one too long for the context, a stop already asked for)."""
        if not self.loaded:
            raise NotLoaded("The MLX model is not loaded yet")
        if options.json_schema is not None:
            return [StreamError("Structured output (a JSON schema in response_format or "
                                "text.format) is not supported on the MLX engine: load the "
                                "model with the llama.cpp engine, or leave the schema out.",
                                kind=FailureKind.BAD_INPUT), Done("error")]
        read = self._read_prompt(messages, options, self._info.context_length)
        if isinstance(read, list):
            return read
        if should_stop():
            return [Done("cancelled", prompt_tokens=len(read.tokens))]
        return Turn(read.text, read.tokens, 0, started, resumed=list(options.resume_tokens))

    def prepare_prefix(self, messages: list[Message], options: GenerateOptions,
                       should_stop: ShouldStop, on_progress: OnProgress | None = None) -> bool:
        """Warm-up: compute (or find on disk) the prefix of `messages`; what is computed waits
        in memory for the first new conversation. True when complete, False when stopped."""
        if not self.loaded:
            raise NotLoaded("The MLX model is not loaded yet")
        assert self._store is not None
        key = self._key(messages, options, None)
        if key is None:
            return True
        entry = self._store.take(WARM_SLOT) or CacheEntry([], [])
        entry, outcome = self._ensure_prefix(entry, key, should_stop, on_progress)
        self._store.put(WARM_SLOT, entry)
        return outcome.ready

    def clear_saved_states(self) -> None:
        """Forget every saved prompt prefix and conversation cache, in memory and on disk."""
        if self._store is not None:
            self._store.clear()
        if self._prefix is not None:
            self._prefix.store.clear()

    def _ensure_prefix(self, entry: CacheEntry, key: PrefixKey, should_stop: ShouldStop,
                       on_progress: OnProgress | None = None
                       ) -> tuple[CacheEntry, PrefixOutcome]:
        assert self._prefix is not None and self._engine is not None
        engine, model = self._engine, self._model
        return self._prefix.ensure(entry, key, lambda: engine.make_prompt_cache(model),
                                   self._prefill, engine.trim_prompt_cache, should_stop,
                                   on_progress)

    def _prefill(self, cache: list[Any], tokens: list[int]) -> None:
        """Feed prompt tokens into the cache as mlx_lm's own prefill does (quantizing alike)."""
        assert self._engine is not None
        mx = self._engine.mx
        self._model(mx.array(tokens)[None], cache=cache)
        options = self._kv_options()
        if options:
            self._engine.maybe_quantize(cache, options["quantized_kv_start"],
                                        options["kv_group_size"], options["kv_bits"])
        mx.eval([c.state for c in cache])

    def _run(self, turn: Turn, options: GenerateOptions, should_stop: ShouldStop,
             room: int, prefix: PrefixKey | None = None) -> Iterator[Event]:
        assert self._store is not None
        key = options.cache_key or DEFAULT_KEY
        entry = self._reusable_entry(key, turn, prefix, should_stop)
        keep = True
        try:
            yield from self._generate(turn, entry, options, should_stop, room)
        except Exception as exc:  # noqa: BLE001 - an MLX runtime failure must end this turn, not the app
            keep = False  # the cache may be half-updated: never put it back
            yield from failed(turn, exc)
        finally:
            if keep:
                self._keep(key, entry, turn)

    def _reusable_entry(self, key: str, turn: Turn, prefix: PrefixKey | None = None,
                        should_stop: ShouldStop = lambda: False) -> CacheEntry:
        """This conversation's cache, trimmed back to the prefix the new prompt shares; a new
        conversation starts from the warm-up's cache or the saved prefix state."""
        assert self._store is not None and self._engine is not None
        entry = self._store.take(key)
        if entry is None:
            entry = self._store.take(WARM_SLOT)
        if entry is None or not self._engine.can_trim_prompt_cache(entry.cache):
            entry = CacheEntry([], self._engine.make_prompt_cache(self._model))
        turn.prefill_started = perf_counter()
        if prefix is not None:
            entry, outcome = self._ensure_prefix(entry, prefix, should_stop)
            turn.computed = outcome.computed
        held = min(_offset(entry.cache), len(entry.tokens))
        # At least one prompt token must be fed so the model produces logits for this turn.
        reuse = min(common_prefix(entry.tokens[:held], turn.tokens), len(turn.tokens) - 1)
        self._engine.trim_prompt_cache(entry.cache, _offset(entry.cache) - reuse)
        entry.tokens = turn.tokens[:reuse]
        turn.reused = reuse
        return entry

    def _generate(self, turn: Turn, entry: CacheEntry, options: GenerateOptions,
                  should_stop: ShouldStop, room: int) -> Iterator[Event]:
        assert self._engine is not None
        engine = self._engine
        if options.seed is not None:
            engine.mx.random.seed(options.seed)
        reading, text = reader(turn, options, self._tokenizer)
        max_tokens = turn.new_token_limit(options, room)
        drafter = self._drafter(turn.tokens, turn.prompt, options)
        if drafter is None:
            responses = engine.stream_generate(
                self._model, self._tokenizer, engine.mx.array(turn.tokens[turn.reused:]),
                max_tokens=max_tokens, prompt_cache=entry.cache,
                sampler=self._sampler(options), prefill_step_size=PREFILL_STEP,
                prompt_progress_callback=_progress_check(should_stop), **self._kv_options())
        else:
            run = LookupRun(engine, self._model, self._tokenizer, entry.cache,
                            self._sampler(options), max_tokens, PREFILL_STEP,
                            _progress_check(should_stop), self._kv_options())
            responses = lookup_stream(run, turn.tokens[turn.reused:], drafter)
        turn.prefill_started = turn.prefill_started or perf_counter()
        try:
            yield from self._decode(turn, responses, reading, text, should_stop)
        except _PrefillCancelled:
            turn.finish = "cancelled"
        finally:
            responses.close()
        yield from final_events(reading, turn)
        yield self.with_drafts(turn.done(), drafter)

    def _decode(self, turn: Turn, responses: Any, reading: Reading, text: Text,
                should_stop: ShouldStop) -> Iterator[Event]:
        for response in responses:
            yield from take(turn, response, reading, text)
            finish = ending(response, reading, should_stop)
            if finish:
                turn.finish = finish
                return

    def _sampler(self, options: GenerateOptions) -> Any:
        assert self._engine is not None
        return self._engine.make_sampler(temp=options.effective_temperature(),
                                         top_p=options.top_p, min_p=options.min_p,
                                         top_k=options.top_k)

    def _kv_options(self) -> dict[str, Any]:
        bits = KV_BITS[self._kv_type]
        if bits is None:
            return {}
        # Quantize from the first token, as llama.cpp's q8_0 cache does (and as planned).
        return {"kv_bits": bits, "kv_group_size": self._kv_group, "quantized_kv_start": 0}

    def _keep(self, key: str, entry: CacheEntry, turn: Turn) -> None:
        """Put the cache back, recording exactly the tokens its positions hold."""
        assert self._store is not None and self._engine is not None
        held = turn.tokens + turn.generated
        offset = _offset(entry.cache)
        if offset > len(held):  # never expected; keep the cache and its token list in step
            self._engine.trim_prompt_cache(entry.cache, offset - len(held))
        entry.tokens = held[:offset]
        self._store.put(key, entry)


def _progress_check(should_stop: ShouldStop) -> Any:
    def check(processed: int, total: int) -> None:
        if processed < total and should_stop():
            raise _PrefillCancelled
    return check


def _offset(cache: list[Any]) -> int:
    return int(getattr(cache[0], "offset", 0)) if cache else 0


def _kv_group_size(head_dim: int, kv_type: str) -> int:
    if KV_BITS[kv_type] is None:
        return 64
    for group in (64, 32):
        if head_dim % group == 0:
            return group
    raise UnsupportedModel(f"Quantized KV ({kv_type}) needs a head size divisible by 32; this "
                           f"model's is {head_dim}: use f16")


def _load_weights(engine: _Engine, folder: MlxFolder) -> tuple[Any, Any]:
    """mlx_lm's load, in its two steps, so a failure names the part that is broken."""
    path = folder.path
    try:
        model, config = engine.load_model(path)
    except NotImplementedError as exc:
        raise UnsupportedModel(f"{path.name} uses model options MLX does not support: "
                               f"{one_line(exc)}") from exc
    except ValueError as exc:
        if "not supported" in str(exc):
            raise UnsupportedModel(f"This MLX installation cannot run model_type "
                                   f"{folder.model_type!r}; update mlx-lm or choose another "
                                   "model") from exc
        raise ModelCorrupt(f"{path.name}: the weights do not match config.json "
                           f"({one_line(exc)})") from exc
    except Exception as exc:  # mlx and safetensors raise many types on damaged files
        raise ModelCorrupt(f"{path.name}: the weights could not be read ({one_line(exc)})") from exc
    try:
        with _quiet("transformers"):
            tokenizer = engine.load_tokenizer(path, eos_token_ids=config.get("eos_token_id"))
    except Exception as exc:  # transformers raises OSError, ValueError, KeyError, ...
        raise ModelCorrupt(f"{path.name}: the tokenizer files are missing or damaged "
                           f"({one_line(exc)})") from exc
    return model, tokenizer


@contextmanager
def _quiet(logger_name: str) -> Iterator[None]:
    # transformers warns that "nanbeige" is not one of its model types; users cannot act on it.
    logger = logging.getLogger(logger_name)
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _stop_ids(tokenizer: Any) -> set[int]:
    vocab = tokenizer.get_vocab()
    ids = {int(i) for i in tokenizer.eos_token_ids}
    return ids | {int(vocab[t]) for t in STOP_TEXTS if t in vocab}


def metal_status() -> str:
    """For `hearth selftest`: "" when MLX runs on Metal, else why it runs on the CPU; raises
    EngineUnavailable when the Metal kernels cannot be found (a broken app bundle)."""
    return _usable_device(_import_engine().mx)


def _usable_device(mx: Any) -> str:
    """Fall back to the CPU where the Mac has no Metal device (a VM); a missing metallib is a
    broken installation and stays an error. Returns a note for the status ("" when fine)."""
    if mx.default_device().type != mx.gpu:
        return ""
    try:
        mx.eval(mx.ones(2) + 1)  # the first GPU operation creates the device, loads the kernels
    except RuntimeError as exc:
        if "metallib" in str(exc):
            raise EngineUnavailable(f"MLX cannot find its Metal kernels: {one_line(exc)}") from exc
        mx.set_default_device(mx.cpu)
        return f"no usable Metal device ({one_line(exc)}): MLX runs on the CPU"
    return ""


def _device_name(mx: Any) -> str:
    if mx.default_device().type == mx.gpu:
        return "metal" if sys.platform == "darwin" else "gpu"
    return "cpu"
