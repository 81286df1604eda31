"""Batched decoding on MLX: several generations in one forward pass, each with its own KV.

mlx_lm's BatchGenerator does the batching (left-padded BatchKVCache, continuous batching:
prompts inserted while others decode, one sampler per sequence); this module gives each
request the events the single path (MlxBackend.stream) would have sent it alone, through the
same turn book-keeping (backends/mlx_turn.py), and keeps the batch inside the memory plan.
Each step that only decodes is timed into the engine's pass costs by its number of sequences
(backends/pass_costs.py): what the model runner weighs before it batches."""

from __future__ import annotations

import importlib
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from time import perf_counter
from typing import TYPE_CHECKING, Any

from backends.base import BatchRequest, GenerateOptions, TakeMore
from backends.events import Event
from backends.mlx_cache import CacheEntry
from backends.mlx_turn import PREFILL_STEP, Text, Turn, ending, failed, final_events, reader, take
from backends.parser import Reading

if TYPE_CHECKING:
    from backends.mlx_backend import MlxBackend

CAPACITY = 4  # generations one forward pass carries
Pair = tuple[BatchRequest, Event]


@dataclass
class _Seq:
    """One request in the batch: its turn, reader and KV reservation."""

    request: BatchRequest
    turn: Turn
    reading: Reading
    text: Text
    limit: int  # new tokens it may write
    uid: int = -1  # BatchGenerator's id once it runs

    @property
    def reserve(self) -> int:
        """Positions its KV may reach: the prompt and every token it may write."""
        return len(self.turn.tokens) + self.limit


class Batch:
    """One stream_batch call: requests waiting for room, the running ones, the generator."""

    def __init__(self, backend: MlxBackend) -> None:
        self.backend = backend
        generate = importlib.import_module("mlx_lm.generate")
        self.sample = importlib.import_module("mlx_lm.sample_utils")
        self.mx = importlib.import_module("mlx.core")
        stops = sorted(int(t) for t in backend._tokenizer.eos_token_ids)
        self.generator: Any = generate.BatchGenerator(
            backend._model, stop_tokens=[[t] for t in stops], completion_batch_size=CAPACITY,
            prefill_batch_size=CAPACITY, prefill_step_size=PREFILL_STEP)
        self.waiting: deque[_Seq] = deque()
        self.running: dict[int, _Seq] = {}
        self.samplers: dict[tuple[float, float, float, int], Any] = {}

    def run(self, first: list[BatchRequest], take_more: TakeMore) -> Iterator[Pair]:
        try:
            yield from self._admit(first)
            while True:
                places = CAPACITY - len(self.waiting) - len(self.running)
                if places > 0:
                    yield from self._admit(take_more(places))
                yield from self._start_waiting()
                yield from self._stopped_before_output()
                if not self.running:
                    if not self.waiting:
                        return
                    continue
                began = perf_counter()
                try:
                    prompts, responses = self.generator.next()
                except Exception as exc:  # noqa: BLE001 - an MLX failure ends this batch's requests, not the app
                    yield from self._fail_all(exc)
                    return
                if responses and not prompts:  # a decoding step, no prompt read in it
                    self.backend.pass_costs.record(len(responses), perf_counter() - began)
                for response in responses:
                    yield from self._token(response)
        finally:
            self.generator.close()
            self.mx.clear_cache()  # the batch's KV buffers go back, not kept for reuse

    def _admit(self, requests: list[BatchRequest]) -> Iterator[Pair]:
        """Open each request as stream() does; those that end before starting end here."""
        for request in requests:
            opened = self.backend._open(request.messages, request.options, request.should_stop,
                                        perf_counter())
            if isinstance(opened, list):
                yield from ((request, event) for event in opened)
                continue
            room = self.backend.info.context_length - len(opened.tokens)
            reading, text = reader(opened, request.options, self.backend._tokenizer)
            self.waiting.append(_Seq(request, opened, reading, text,
                                     opened.new_token_limit(request.options, room)))

    def _start_waiting(self) -> Iterator[Pair]:
        """Start waiting requests, oldest first, while their KV fits beside the running ones."""
        while self.waiting and self._fits(self.waiting[0]):
            seq = self.waiting.popleft()
            try:
                started = self._start(seq)
            except Exception as exc:  # noqa: BLE001 - an MLX failure reading its prefix ends this request only
                yield from ((seq.request, e) for e in failed(seq.turn, exc))
                continue
            if not started:
                yield from self._end(seq, "cancelled")

    def _fits(self, seq: _Seq) -> bool:
        """Whether the batch's KV, seq included, stays within the memory plan's KV budget.

        BatchKVCache right-aligns its sequences, so it holds (sequences x longest) positions:
        the bound counts every sequence at the longest reservation. The person's conversation
        caches kept in memory share the budget; when only they stand in the way they are
        parked on disk, to be read back on the next turn as on a conversation switch."""
        backend = self.backend
        assert backend._store is not None
        reserves = [s.reserve for s in self.running.values()] + [seq.reserve]
        need = len(reserves) * max(reserves)
        budget = backend.info.context_length
        parked = -(-backend._store.bytes_in_memory() // backend._kv_per_token)
        if need <= budget - parked:
            return True
        if need <= budget:
            backend._store.flush()
            return True
        return False

    def _start(self, seq: _Seq) -> bool:
        """Insert seq into the generator, from its saved prefix state when there is one;
        False when its stop was asked for while the prefix was being computed."""
        backend, turn = self.backend, seq.turn
        options = seq.request.options
        turn.prefill_started = perf_counter()
        caches = None
        key = backend._key(seq.request.messages, options, turn.tokens)
        if key is not None and len(key.tokens) < len(turn.tokens):
            entry, outcome = backend._ensure_prefix(CacheEntry([], []), key,
                                                    seq.request.should_stop)
            if not outcome.ready:
                return False
            turn.computed, turn.reused = outcome.computed, len(key.tokens)
            caches = [entry.cache]
        (seq.uid,) = self.generator.insert(
            [turn.tokens[turn.reused:]], max_tokens=[seq.limit], caches=caches,
            all_tokens=[turn.tokens[:turn.reused]], samplers=[self._sampler(options)])
        self.running[seq.uid] = seq
        return True

    def _stopped_before_output(self) -> Iterator[Pair]:
        """Stops asked for before a first token (after it, each token checks its own, as in
        the single path)."""
        for seq in [s for s in self.waiting if s.request.should_stop()]:
            self.waiting.remove(seq)
            yield from self._end(seq, "cancelled")
        for uid, seq in list(self.running.items()):
            if not seq.turn.generated and seq.request.should_stop():
                self.generator.remove([uid])
                del self.running[uid]
                yield from self._end(seq, "cancelled")

    def _token(self, response: Any) -> Iterator[Pair]:
        seq = self.running[response.uid]
        turn, request = seq.turn, seq.request
        yield from ((request, e) for e in take(turn, response, seq.reading, seq.text))
        finish = ending(response, seq.reading, request.should_stop)
        if not finish:
            return
        del self.running[response.uid]
        if response.finish_reason is None:  # ended here, not by the generator: take it out
            self.generator.remove([response.uid])
        yield from self._end(seq, finish)

    def _end(self, seq: _Seq, finish: str) -> Iterator[Pair]:
        seq.turn.finish = finish
        for event in [*final_events(seq.reading, seq.turn), seq.turn.done()]:
            yield seq.request, event

    def _fail_all(self, exc: BaseException) -> Iterator[Pair]:
        for seq in [*self.running.values(), *self.waiting]:
            yield from ((seq.request, e) for e in failed(seq.turn, exc))
        self.running.clear()
        self.waiting.clear()

    def _sampler(self, options: GenerateOptions) -> Any:
        """The single path's sampler; requests that sample alike share one object, so the
        generator samples them in one call. A seeded one draws from its own key."""
        temp = options.effective_temperature()
        if options.seed is not None and temp > 0:
            return _Seeded(self.sample, self.mx, options)
        params = (temp, options.top_p, options.min_p, options.top_k) if temp > 0 else (0, 0, 0, 0)
        if params not in self.samplers:
            self.samplers[params] = self.backend._sampler(options)
        return self.samplers[params]


class _Seeded:
    """mlx_lm's sampler (make_sampler's filters in its order) drawing from a key of its own:
    the single path seeds MLX's global generator, which the batch's other requests share;
    this key advances exactly as the seeded global one does, one split per token."""

    def __init__(self, sample: Any, mx: Any, options: GenerateOptions) -> None:
        self.sample, self.mx = sample, mx
        self.key = mx.random.key(options.seed)
        self.temp = options.effective_temperature()
        self.options = options

    def __call__(self, logprobs: Any) -> Any:
        options, sample = self.options, self.sample
        if 0 < options.top_p < 1.0:
            logprobs = sample.apply_top_p(logprobs, options.top_p)
        if options.min_p != 0.0:
            logprobs = sample.apply_min_p(logprobs, options.min_p, 1)
        if options.top_k > 0:
            logprobs = sample.apply_top_k(logprobs, options.top_k)
        self.key, draw = self.mx.random.split(self.key)
        return self.mx.random.categorical(logprobs * (1.0 / self.temp), key=draw)
