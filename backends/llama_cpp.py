"""llama.cpp engine: renders the GGUF's own chat template, samples in C, streams parsed events."""

from __future__ import annotations

import json
import time
from collections.abc import Generator, Iterator
from pathlib import Path
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
from backends.chat_format import ChatTemplate, read_template_file
from backends.cpu import cpu_refusal, engine_threads, wait_without_spinning
from backends.engines import Engine
from backends.errors import (
    BackendError,
    EngineUnavailable,
    FailureKind,
    ModelCorrupt,
    NotLoaded,
    NoUsableTemplate,
    UnsupportedModel,
)
from backends.events import Done, Event, Prefill, StreamError
from backends.known_templates import known_template
from backends.kv_cache import ConversationCaches, model_fingerprint
from backends.llama_answer import Answer, sampling_params, set_seed
from backends.llama_backends import ggml_in_use, load_backends
from backends.llama_batch import CAPACITY, Batch, BatchHost, holds_batches, open_llama
from backends.llama_gguf import GgufSummary, inspect_gguf, model_shape
from backends.llama_log import TAP
from backends.llama_prefix import LlamaPrefix, reusable_prefix
from backends.llama_speculate import speculative_tokens
from backends.llama_state import (
    SEQ,
    SeqState,
    restore_sequence,
    save_sequence,
    seq_state_codec,
)
from backends.local import LocalBackend
from backends.nanbeige import STOP_TEXTS
from backends.prefix_cache import (
    DEFAULT_LIMIT_BYTES,
    PrefixOutcome,
)
from backends.prompt_lookup import PromptLookup
from backends.safe_tokens import (
    ControlStrings,
    EncodedPrompt,
    encode,
    llama_controls,
    plain_by_pieces,
)

# ggml_type values for llama.cpp's KV cache (quantized V needs flash attention).
KV_GGML_TYPES = {"f32": 0, "f16": 1, "q4_0": 2, "q4_1": 3, "q5_0": 6, "q5_1": 7, "q8_0": 8}
N_BATCH = 512
# Flash attention for every KV type (llama.cpp's own default where the device has it): on the
# CPU decode steps and long prompts are faster (a 4-sequence batch step ~15-25%, a 1,536-token
# prefill 16%), the batch's sequences skip each other's cells, and gemma3-270m's perplexity is
# 21.97 with it against 22.03 without (bench/RESULTS.md, session 12). A quantized V needs it.
FLASH_ATTENTION = True


class LlamaCppBackend(LocalBackend):
    """One GGUF model in llama-cpp-python. Not thread-safe: one ModelRunner thread owns it."""

    def __init__(self, model_path: str, context_length: int = 0, kv_type: str = "f16",
                 cache_dir: Path | None = None, n_threads: int | None = None,
                 chat_template: str | None = None,
                 prefix_limit_bytes: int = DEFAULT_LIMIT_BYTES,
                 known_template: bool = False, template_file: str = "",
                 speculate: bool = True) -> None:
        """chat_template overrides the GGUF's own (for files that carry none, like base models);
        known_template: a file without one uses its architecture's well-known template (the
        user agreed to it, backends/known_templates.py); template_file: a .jinja file the user
        chose for it instead; prefix_limit_bytes bounds the saved prompt-prefix states under
        cache_dir; speculate: verify prompt-lookup drafts (backends/llama_speculate.py) instead
        of decoding one token per forward pass."""
        super().__init__(kv_type, KV_GGML_TYPES, speculate)
        self.model_path = model_path
        self.context_length = context_length
        self.kv_type = kv_type
        self._engine_version = ""  # llama-cpp-python's, read at load: part of every state key
        self.cache_dir = cache_dir
        self.n_threads = n_threads
        self.chat_template = chat_template
        self.known_template = known_template
        self.template_file = template_file
        self.prefix_limit_bytes = prefix_limit_bytes
        # One info object for the backend's life, so what others write on it (reason) stays.
        self._info = BackendInfo(engine=Engine.LLAMA, model_path=model_path,
                                 model_name=Path(model_path).name, kv_type=kv_type)
        self._prefix: LlamaPrefix | None = None
        self._llm: Any = None
        self._summary: GgufSummary | None = None
        self._stop_ids: frozenset[int] = frozenset()
        self._controls = ControlStrings(())
        self._caches: ConversationCaches[SeqState] | None = None
        self._active_key: str | None = None
        self._device = "cpu"
        self._plan_message = ""

    # -- Backend interface ----------------------------------------------------------------

    @property
    def info(self) -> BackendInfo:
        """The figures of what is loaded now (none after unload)."""
        info, summary, llm = self._info, self._summary, self._llm
        info.context_length = llm.n_ctx() if llm is not None else 0
        info.num_loops = summary.num_loops if summary else 1
        info.quantization = summary.file_type if summary else ""
        info.device = self._device
        info.extra.update(architecture=summary.architecture if summary else "",
                          memory_plan=self._plan_message,
                          threads=llm.n_threads if llm is not None else 0)
        return info

    @property
    def loaded(self) -> bool:
        return self._llm is not None

    def load(self) -> None:
        if self._llm is not None:
            return
        summary = inspect_gguf(self.model_path)
        context = self._plan_context(summary)
        llama_cpp = _import_engine()
        self._engine_version = str(getattr(llama_cpp, "__version__", "unknown"))
        self._llm = self._open(llama_cpp, summary, context)
        try:
            self._summary = summary
            self._template = self._make_template(summary)
            self._stop_ids = self._find_stop_ids(llama_cpp)
            self._controls = llama_controls(llama_cpp, self._llm)
            self._caches = self._make_caches(context)
            self._prefix = LlamaPrefix(self.cache_dir, self._fingerprint(context),
                                       self.prefix_limit_bytes, N_BATCH)
        except BaseException:
            self._llm.close()  # never half-loaded: free the weights again
            self._llm = None
            raise

    def unload(self) -> None:
        if self._llm is None:
            return
        if self._caches is not None:
            self._park_active()  # keep the live conversation too, so it reopens warm
            self._caches.flush()
        self._llm.close()
        self._llm = None
        self._template = None
        self._active_key = None

    def render_prompt(self, messages: list[Message], options: GenerateOptions) -> str:
        if self._template is None:
            raise NotLoaded("Load the model before rendering a prompt")
        return self._template.render(messages, options)

    def count_tokens(self, text: str) -> int:
        return len(self.plain_tokens(text))

    def plain_tokens(self, text: str) -> list[int]:
        return list(self._require().tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def encode_prompt(self, messages: list[Message], options: GenerateOptions,
                      add_generation_prompt: bool = True) -> EncodedPrompt:
        """The prompt's token ids: special tokens only from the template (backends/safe_tokens)."""
        llm = self._require()
        if self._template is None:
            raise NotLoaded("Load the model before rendering a prompt")
        return encode(self._template, self._controls, messages, options,
                      markup=lambda text: llm.tokenize(text.encode(), add_bos=False, special=True),
                      plain=plain_by_pieces(self._controls, lambda text: llm.tokenize(
                          text.encode(), add_bos=False, special=False)),
                      add_generation_prompt=add_generation_prompt)

    def stream(self, messages: list[Message], options: GenerateOptions,
               should_stop: ShouldStop) -> Iterator[Event]:
        self._require()
        started = time.perf_counter()
        read = self._read_prompt(messages, options, self._llm.n_ctx())
        if isinstance(read, list):
            yield from read
            return
        prompt, tokens = read.text, read.tokens
        self._switch_conversation(options.cache_key)
        outcome = self._ensure_prefix(messages, options, tokens, should_stop)
        if not outcome.ready:  # Stop came while the prefix was read: the part read stays
            yield Done("cancelled", prompt_tokens=len(tokens))
            return
        yield from self._generate(tokens, prompt, options, should_stop, started, outcome.computed)

    def batch_capacity(self) -> int:
        return CAPACITY if self._llm is not None and holds_batches(self._llm) else 1

    def stream_batch(self, first: list[BatchRequest], take_more: TakeMore
                     ) -> Iterator[tuple[BatchRequest, Event]]:
        """Decode several generations in one forward pass (backends/llama_batch.py). The
        context is the batch's until it returns (or is closed): nothing else may use it."""
        llm = self._require()
        host = BatchHost(llm, lambda messages, options: self._read_prompt(
            messages, options, llm.n_ctx()), self._stop_ids, self._make_room, self.pass_costs,
            lambda tokens, text, options: self._drafter(tokens, text, options,
                                                        self.batch_evidence),
            self.batch_pace)
        yield from Batch(host, take_more).events(first)

    def prepare_prefix(self, messages: list[Message], options: GenerateOptions,
                       should_stop: ShouldStop, on_progress: OnProgress | None = None) -> bool:
        """Warm-up: bring the prefix of `messages` (system message + tools) into the context,
        from disk or by computing it; True when it is complete, False when stopped early."""
        llm = self._require()
        key = self._key(messages, options, None)
        if key is None or self._prefix is None:
            return True
        self._switch_conversation(None)  # park a live conversation before touching the KV
        return self._prefix.ensure(llm, key, should_stop, on_progress).ready

    def clear_saved_states(self) -> None:
        """Forget every saved prompt prefix and conversation state, in memory and on disk."""
        if self._caches is not None:
            self._caches.clear()
        if self._prefix is not None:
            self._prefix.store.clear()

    # -- loading ----------------------------------------------------------------------------

    def _plan_context(self, summary: GgufSummary) -> int:
        from backends import memory

        shape = model_shape(summary, summary.path.stat().st_size)
        plan = memory.plan_for_shape(shape, self.kv_type, self.context_length)
        if self.kv_type not in ("f16", "f32") and shape.head_dim % 32:
            # llama.cpp stores quantized KV in blocks of 32 values along each head.
            raise UnsupportedModel(f"A {self.kv_type} KV cache needs a head size divisible by 32; "
                                   f"this model's is {shape.head_dim}: use f16")
        memory.require_fit(plan)  # InsufficientMemory, before llama.cpp allocates anything
        self._plan_message = plan.message
        return plan.context_length

    def _open(self, llama_cpp: Any, summary: GgufSummary, context: int) -> Any:
        gpu = bool(llama_cpp.llama_supports_gpu_offload())
        self._device = _device_name(llama_cpp) if gpu else "cpu"
        ggml_type = KV_GGML_TYPES[self.kv_type]
        # One thread per physical core for prefill and decode alike (llama-cpp-python's own
        # default counts hyper-threads for prefill, which oversubscribes the cores).
        threads = engine_threads(self.n_threads or 0)
        TAP.install(llama_cpp)
        TAP.clear()
        try:
            return open_llama(
                model_path=str(summary.path), n_ctx=context, n_batch=N_BATCH, n_ubatch=N_BATCH,
                n_gpu_layers=-1 if gpu else 0, n_threads=threads,
                n_threads_batch=threads, type_k=ggml_type, type_v=ggml_type,
                flash_attn=FLASH_ATTENTION, verbose=False,
            )
        except (ValueError, RuntimeError, OSError) as exc:
            raise _load_error(summary, str(exc), TAP.text(), TAP.explain()) from exc

    def _make_template(self, summary: GgufSummary) -> ChatTemplate:
        # The file's own template is the truth; the header reader already has it, llama.cpp's
        # metadata is the fallback for templates stored in a way the reader skipped.
        # What the user chose for a file without a usable one comes first (the file's own may
        # be there and not compile).
        own = summary.chat_template or str(self._llm.metadata.get("tokenizer.chat_template", ""))
        known = known_template(summary.architecture) if self.known_template else None
        try:
            chosen = read_template_file(self.template_file) if self.template_file else ""
            source = (self.chat_template or chosen
                      or (known.source if known is not None else "") or own)
            if not source:
                raise NoUsableTemplate(f"{summary.path.name} carries no chat template, so "
                                       "Hearth cannot format a conversation for it")
            return ChatTemplate(source, bos_token=self._token_text(self._llm.token_bos()),
                                eos_token=self._token_text(self._llm.token_eos()))
        except NoUsableTemplate:
            raise
        except UnsupportedModel as exc:  # unreadable, or it does not compile
            raise NoUsableTemplate(f"{summary.path.name}: {exc}") from exc

    def _token_text(self, token: int) -> str:
        if token < 0:
            return ""
        return bytes(self._llm.detokenize([token], special=True)).decode("utf-8", "replace")

    def _find_stop_ids(self, llama_cpp: Any) -> frozenset[int]:
        # Every end-of-generation token llama.cpp knows (Gemma's <end_of_turn> too), plus ours.
        vocab = llama_cpp.llama_model_get_vocab(self._llm.model)
        ids = {t for t in range(self._llm.n_vocab()) if llama_cpp.llama_vocab_is_eog(vocab, t)}
        ids.add(self._llm.token_eos())
        for text in STOP_TEXTS:
            found = self._llm.tokenize(text.encode(), add_bos=False, special=True)
            if len(found) == 1:  # a model without this special token would split it into pieces
                ids.add(found[0])
        return frozenset(ids)

    def _fingerprint(self, context: int) -> str:
        # The engine's version too: another llama.cpp may lay out its state bytes differently,
        # and an update must never restore (or crash on) what the old one saved.
        # Flash attention too: without it llama.cpp stores V transposed, and a state saved so
        # does not restore into a context with it (nor the other way round).
        return model_fingerprint(self.model_path, context, self.kv_type, self._engine_version,
                                 f"flash_attn={FLASH_ATTENTION}")

    def _make_caches(self, context: int) -> ConversationCaches[SeqState]:
        folder = None
        if self.cache_dir is not None:
            folder = Path(self.cache_dir) / "kv-llama" / self._fingerprint(context)
            for old in folder.glob("*.llkv.npz"):  # the format before issue 28: never read again
                old.unlink(missing_ok=True)
        return ConversationCaches(seq_state_codec(), folder)

    def _require(self) -> Any:
        if self._llm is None:
            raise NotLoaded("The model is not loaded yet")
        return self._llm

    # -- conversation caches ----------------------------------------------------------------

    def _switch_conversation(self, key: str | None) -> None:
        """Park the live conversation's KV and bring back the next one's, if it was kept."""
        if key == self._active_key or self._caches is None:
            return
        self._park_active()
        self._active_key = key
        state = self._caches.take(key) if key is not None else None
        # Without a saved state the live KV stays: its common prefix (the system prompt) is
        # still reused by llama-cpp-python's longest-prefix match.
        if state is not None and not restore_sequence(self._llm, state):
            self._llm.reset()

    def _ensure_prefix(self, messages: list[Message], options: GenerateOptions,
                       tokens: list[int], should_stop: ShouldStop) -> PrefixOutcome:
        """Before a turn: the shared prefix from the live context, the disk or a fresh prefill."""
        key = self._key(messages, options, tokens)
        if key is None or self._prefix is None:
            return PrefixOutcome(ready=True)  # nothing to share: the prompt is read as a whole
        return self._prefix.ensure(self._llm, key, should_stop)

    def forget_conversation(self, cache_key: str) -> None:
        if self._caches is not None:
            self._caches.forget(cache_key)
        # The live KV may hold this chat, or a title written about it (key None): drop both.
        if self._active_key in (cache_key, None):
            self._active_key = None  # never parked (saved) again
            if self._llm is not None:
                self._llm.reset()

    def _make_room(self) -> None:
        """Park the live conversation and empty its sequence: a batch needs all the cells."""
        self._park_active()
        self._active_key = None  # its next turn takes it back from the caches
        self._llm.reset()
        self._llm._ctx.kv_cache_seq_rm(SEQ, -1, -1)

    def _park_active(self) -> None:
        if self._caches is not None and self._active_key is not None and self._llm.n_tokens > 0:
            self._caches.put(self._active_key, save_sequence(self._llm))

    # -- generation -------------------------------------------------------------------------

    def _generate(self, tokens: list[int], prompt: str, options: GenerateOptions,
                  should_stop: ShouldStop, started: float, computed: int = 0) -> Iterator[Event]:
        llm = self._llm
        # Prefix tokens this turn computed itself are not cached, though the context now holds
        # them: reading goes on from all it holds, the count of cached ones leaves them out.
        reusable = reusable_prefix(llm, tokens)
        cached = max(0, reusable - computed)
        set_seed(llm, options)
        answer = Answer(llm, prompt, tokens, options, started, self._stop_ids)
        finish = "stop"
        drafter = self._drafter(tokens, prompt, options)
        try:
            grammar = _grammar(options.json_schema)
        except ValueError as exc:
            yield StreamError(f"The JSON schema cannot be followed: {exc}",
                              kind=FailureKind.BAD_INPUT)
            yield Done("error", prompt_tokens=len(tokens))
            return
        try:
            if (yield from _prefill(llm, tokens, reusable, should_stop)):
                finish = "cancelled"  # stopped while reading: generate() would read the rest
            for token in (_decode(llm, tokens, options, drafter, grammar)
                          if finish == "stop" else ()):
                events, reason = answer.take(token, should_stop)
                yield from events
                if reason:
                    finish = reason
                    break
        except (RuntimeError, ValueError, OSError) as exc:  # llama_decode failed mid-stream
            yield StreamError(f"llama.cpp stopped with an error: {exc}",
                              kind=FailureKind.ENGINE_FAILED)
            finish = "error"
        ending, done = answer.end(finish, cached)
        yield from ending
        yield self.with_drafts(done, drafter)


PREFILL_CHUNK = 256  # tokens read between two progress reports


def _decode(llm: Any, tokens: list[int], options: GenerateOptions,
            drafter: PromptLookup | None, grammar: Any = None) -> Iterator[int]:
    """The answer's tokens: one forward pass each, or drafts verified many at a time (not
    under a grammar: each token's choices depend on the tokens before it)."""
    sampling = sampling_params(options)
    if drafter is None or grammar is not None:
        return iter(llm.generate(tokens, reset=True, grammar=grammar, **sampling))
    return speculative_tokens(llm, tokens, llm._init_sampler(**sampling), drafter,
                              greedy=sampling["temp"] == 0.0)


def _prefill(llm: Any, tokens: list[int], cached: int, should_stop: ShouldStop
             ) -> Generator[Event, None, bool]:
    """Read a long prompt in chunks and say how far it got: the first token can be seconds
    away. generate() then finds all but the last token already read and reuses them."""
    todo = len(tokens) - 1 - cached
    if todo < 2 * PREFILL_CHUNK:
        return False  # over in a blink: nothing worth showing
    llm.n_tokens = cached  # eval() drops the old sequence's KV from here on
    yield Prefill(0, todo)
    for start in range(cached, len(tokens) - 1, PREFILL_CHUNK):
        if should_stop():
            return True  # stopped: what was read stays for the next turn to reuse
        llm.eval(tokens[start:min(start + PREFILL_CHUNK, len(tokens) - 1)])
        yield Prefill(min(start + PREFILL_CHUNK, len(tokens) - 1) - cached, todo)
    return False


def _grammar(schema: dict[str, Any] | None) -> Any:
    """llama.cpp's grammar for JSON valid against `schema` (constrained sampling), or None."""
    if schema is None:
        return None
    llama_cpp = _import_engine()
    try:
        return llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
    except (ValueError, RuntimeError, KeyError, TypeError) as exc:
        raise ValueError(str(exc) or type(exc).__name__) from exc


def _device_name(llama_cpp: Any) -> str:
    info = bytes(llama_cpp.llama_print_system_info() or b"").decode("utf-8", "replace").upper()
    for name in ("CUDA", "METAL", "VULKAN", "HIP", "SYCL"):
        if f"{name} = 1" in info or f"{name} :" in info:
            return name.lower()
    return "gpu"


def _import_engine() -> Any:
    wait_without_spinning()  # no effect once llama.cpp is loaded: main() calls it first too
    refusal = cpu_refusal()  # before the library loads: an old CPU gets a sentence, not SIGILL
    if refusal:
        raise EngineUnavailable(refusal)
    try:
        import llama_cpp
        from llama_cpp import _ggml
    except ImportError as exc:
        raise EngineUnavailable("llama.cpp is not installed: pip install llama-cpp-python") from exc
    try:  # a build that loads its backends at run time: this CPU's, from the package's folder
        load_backends(ggml_in_use(_ggml.libggml), Path(_ggml.libggml_base_path))
    except RuntimeError as exc:
        raise EngineUnavailable(f"{exc}. Connect to a model server instead (Settings > Engine > "
                                "Remote server).") from exc
    return llama_cpp


def _load_error(summary: GgufSummary, error: str, log: str, reason: str) -> BackendError:
    name = summary.path.name
    if "unknown model architecture" in log:
        return UnsupportedModel(f"{name} is a '{summary.architecture}' model, which this "
                                "llama.cpp build cannot run; update llama-cpp-python")
    if "llama_context" in error:  # the weights loaded; the cache or compute buffers did not
        return BackendError(f"llama.cpp loaded {name} but could not set up its context: "
                            f"{reason or error}")
    return ModelCorrupt(f"llama.cpp could not load {name}: "
                        f"{reason or 'the file is damaged or incomplete'}")
