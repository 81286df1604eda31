"""Several generations in one llama.cpp forward pass, each in a KV sequence of its own.

API requests from several agents at once share the model (issue 28 item 2). Each step is one
llama_decode of a llama_batch carrying the next token of every decoding sequence and a chunk of
the prompt of those still reading theirs; each sequence samples its row of logits with a
sampler chain of its own, and its tokens go through the same Answer as on the single path
(backends/llama_answer.py), so a request gets the events stream() would have sent it.

The context holds N_SEQ_MAX sequences in one unified KV: they share the n_ctx cells, so
sequence 0, llama-cpp-python's own (the single path, the person's chat), keeps the whole
context as before. A batch leaves sequence 0 where it is and uses 1..CAPACITY: the person's
next turn goes on from its KV at once, with no park and restore on the way to its first token.
Only a request that cannot fit beside it, when nothing else in the batch runs, parks it (the
backend's conversation caches take it back on that conversation's next turn).

A request's prompt is read from where another sequence's KV stops matching it: the cells of the
longest common prefix held by sequence 0 (the conversation the single path last served) or by a
running member (agents sending the same system prompt and tools) are shared, not recomputed
(llama_memory_seq_cp: in a unified KV the cells take one more sequence id, nothing is copied).

Memory plan: a request reserves its prompt + max_tokens cells (at most n_ctx) when it starts,
and one that does not fit in the cells left waits inside the batch, first come first served,
until others end. A prompt longer than the context is refused as on the single path.

Prompt-lookup drafts are verified in the batch too (backends/prompt_lookup.py, as on the single
path): in a step where every member decodes, the members' drafters offer the tokens they
expect next, the pass takes the likeliest of them all where the rows they add pay (on a GPU
nearly always; on a CPU whose kernel takes rows 4 at a time, when together they fill the next
4), and each member keeps the draft tokens its own sampler picks, row by row; the rest leave its
KV. Free text, which drafts do not hit, adds no rows. Each step that only decodes is timed into
the engine's pass costs by the tokens it carries: what the drafters price their drafts with and
the model runner weighs before it starts a batch or lets a request join one."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from backends.base import BatchRequest, GenerateOptions, Message, TakeMore
from backends.errors import FailureKind
from backends.events import Event, Prefill, StreamError
from backends.llama_answer import Answer, sampling_params, set_seed
from backends.llama_prefix import matching_tokens
from backends.llama_state import SEQ as PERSON_SEQ
from backends.pass_costs import DraftPace, PassCosts
from backends.prefix_cache import common_prefix
from backends.prompt_lookup import PromptLookup, drafts_for_pass
from backends.safe_tokens import EncodedPrompt

CAPACITY = 4
"""Generations one forward pass carries. On a CPU a decode step reads every weight once
whatever the batch, so 4 tokens cost little more than 1; with many more the step becomes
compute-bound and each sequence's share of the n_ctx cells small. 4 covers what agents send at
once (a client and a few sub-agents)."""
N_SEQ_MAX = CAPACITY + 1  # the batch's sequences are 1..CAPACITY; PERSON_SEQ is the single path's
PROMPT_CHUNK = 256
"""Prompt tokens read per step, all sequences together: a step holds the decoding ones back
for that long, and should_stop is looked at between steps (the single path's prefill reports
progress as often)."""

Out = tuple[BatchRequest, Event]
ReadPrompt = Callable[[list[Message], GenerateOptions], "EncodedPrompt | list[Event]"]
# A generation's drafter from its prompt tokens and text, None where drafts are not verified.
MakeDrafter = Callable[[list[int], str, GenerateOptions], "PromptLookup | None"]


def open_llama(sequences: int = N_SEQ_MAX, **params: Any) -> Any:
    """llama_cpp.Llama(**params) whose context holds `sequences` sequences in one unified KV."""
    return _many_sequences(sequences)(**params)


@cache
def _many_sequences(sequences: int) -> type:
    from llama_cpp import Llama

    class ManySequences(Llama):
        """Llama() has no n_seq_max: its context parameters get the fields as they are
        assigned, before the context is created from them (llama.py sets them once, first)."""

        @property
        def context_params(self) -> Any:
            return self.__dict__["_hearth_context_params"]

        @context_params.setter
        def context_params(self, params: Any) -> None:
            params.n_seq_max = sequences
            params.kv_unified = True  # one pool of n_ctx cells, not n_ctx / n_seq_max each
            self.__dict__["_hearth_context_params"] = params

    return ManySequences


def holds_batches(llm: Any) -> bool:
    """The context was made with room for the batch's sequences (open_llama took effect)."""
    import llama_cpp

    return int(llama_cpp.llama_n_seq_max(llm.ctx)) >= N_SEQ_MAX


@dataclass(frozen=True)
class BatchHost:
    """What a batch takes from the backend that owns the context."""

    llm: Any
    read_prompt: ReadPrompt  # the prompt's text and tokens, or the events refusing it
    stop_ids: frozenset[int]
    make_room: Callable[[], None]  # park sequence 0's conversation and empty it
    costs: PassCosts  # the engine's pass timings, which decoding steps add to
    drafter: MakeDrafter
    pace: DraftPace  # what the batches' drafts make of their steps, which each batch adds to


@dataclass(eq=False)
class _Member:
    """One request of the batch: waiting for a sequence, reading its prompt, or decoding."""

    request: BatchRequest
    answer: Answer
    tokens: list[int]  # the prompt's, then the resume tokens
    reserve: int  # KV cells it may fill
    seq: int = -1
    cached: int = 0  # leading prompt tokens whose cells it shares with another sequence
    fed: list[int] = field(default_factory=list)  # the tokens its KV holds, position by position
    pending: list[int] = field(default_factory=list)  # tokens to feed at the next step
    sampler: Any = None
    sampled: bool = False  # it has produced a token (it no longer reads its prompt)
    drafter: PromptLookup | None = None
    draft: list[int] = field(default_factory=list)  # the draft the current step checks


class Batch:
    """One stream_batch() call: its members, their sequences and the llama_batch they share."""

    def __init__(self, host: BatchHost, take_more: TakeMore) -> None:
        import llama_cpp
        from llama_cpp import _internals

        self._lib = llama_cpp
        self._host = host
        self._llm = host.llm
        self._take_more = take_more
        self._mem = llama_cpp.llama_get_memory(host.llm.ctx)
        self._chunk = min(PROMPT_CHUNK, int(host.llm.n_batch) - CAPACITY)
        self._batch: Any = _internals.LlamaBatch(n_tokens=CAPACITY + self._chunk, embd=0,
                                                 n_seq_max=1, verbose=False)
        self._free = list(range(PERSON_SEQ + 1, N_SEQ_MAX))
        self._waiting: list[_Member] = []
        self._running: list[_Member] = []
        self._failed = False
        self._made = 0  # the tokens decoding steps made
        self._plain = 0.0  # the tokens plain steps (no drafts) would have made in their time
        # Cells past llm.n_tokens are no conversation's (llama-cpp-python drops them at its
        # next eval): free them now, and anything a batch left behind.
        llama_cpp.llama_memory_seq_rm(self._mem, PERSON_SEQ, int(host.llm.n_tokens), -1)
        for seq in self._free:
            llama_cpp.llama_memory_seq_rm(self._mem, seq, -1, -1)

    def events(self, first: list[BatchRequest]) -> Iterator[Out]:
        """Decode `first` and whatever take_more gives, step by step, until none is left."""
        try:
            yield from self._join(first)
            while not self._failed:
                places = CAPACITY - len(self._waiting) - len(self._running)
                if places > 0:
                    yield from self._join(self._take_more(places))
                if not self._waiting and not self._running:
                    return
                yield from self._stopped()
                yield from self._admit()
                if self._running:
                    yield from self._step()
        finally:
            self._close()

    # -- members come and go ----------------------------------------------------------------

    def _join(self, requests: list[BatchRequest]) -> Iterator[Out]:
        for request in requests:
            started = time.perf_counter()
            read = self._host.read_prompt(request.messages, request.options)
            if isinstance(read, list):  # refused, as the single path refuses it
                yield from ((request, event) for event in read)
                continue
            prompt, tokens = read.text, read.tokens
            answer = Answer(self._llm, prompt, tokens, request.options, started,
                            self._host.stop_ids)
            reserve = min(answer.n_prompt + request.options.max_tokens, self._llm.n_ctx())
            # Under a grammar each token's choices hang on the ones before: no drafts (as alone).
            drafter = (self._host.drafter(tokens, prompt, request.options)
                       if request.options.json_schema is None else None)
            self._waiting.append(_Member(request, answer, tokens, reserve, drafter=drafter))

    def _stopped(self) -> Iterator[Out]:
        """Members stopped before their first token (a decoding one looks after each token)."""
        for member in [*self._waiting, *self._running]:
            if not member.sampled and member.request.should_stop():
                yield from self._end(member, "cancelled")

    def _admit(self) -> Iterator[Out]:
        """Waiting members take a sequence, first come first served, while their cells fit."""
        while self._waiting and self._free:
            member = self._waiting[0]
            if member.reserve > self._cells_left():
                if self._running:
                    return  # it waits for others to end
                self._host.make_room()  # only the live conversation is in its way
            yield from self._start(member)

    def _cells_left(self) -> int:
        person = int(self._lib.llama_memory_seq_pos_max(self._mem, PERSON_SEQ)) + 1
        return int(self._llm.n_ctx()) - person - sum(m.reserve for m in self._running)

    def _start(self, member: _Member) -> Iterator[Out]:
        self._waiting.remove(member)
        member.seq = self._free.pop(0)
        set_seed(self._llm, member.request.options)
        # The chain the single path builds for these options: the same tokens at any
        # temperature, from the same logits and seed.
        member.sampler = self._llm._init_sampler(**sampling_params(member.request.options))
        self._share_prefix(member)
        member.pending = member.tokens[member.cached:]
        self._running.append(member)
        if self._shows_prefill(member):
            yield member.request, Prefill(0, self._to_read(member))

    def _share_prefix(self, member: _Member) -> None:
        """Take the longest prefix of its prompt another sequence holds (all but the last
        token, whose logits it needs)."""
        held = [(PERSON_SEQ, matching_tokens(self._llm, member.tokens))]
        held += [(m.seq, common_prefix(m.fed, member.tokens)) for m in self._running]
        source, shared = max(held, key=lambda pair: pair[1])
        member.cached = min(shared, len(member.tokens) - 1)
        if member.cached:
            self._lib.llama_memory_seq_cp(self._mem, source, member.seq, 0, member.cached)
            member.fed = member.tokens[:member.cached]

    def _to_read(self, member: _Member) -> int:
        return len(member.tokens) - 1 - member.cached  # the last one is read with the answer

    def _shows_prefill(self, member: _Member) -> bool:
        return self._to_read(member) >= 2 * self._chunk  # long enough to be worth showing

    def _end(self, member: _Member, finish: str) -> Iterator[Out]:
        self._release(member)
        events, done = member.answer.end(finish, member.cached)
        if member.drafter is not None:
            done.timings.update(member.drafter.stats.timings())
        yield from ((member.request, event) for event in [*events, done])

    def _release(self, member: _Member) -> None:
        if member in self._waiting:
            self._waiting.remove(member)
            return
        self._running.remove(member)
        self._lib.llama_memory_seq_rm(self._mem, member.seq, -1, -1)
        self._free.append(member.seq)
        member.sampler.close()

    def _fail(self, reason: str) -> Iterator[Out]:
        """The forward pass failed: every member ends with the error, and the batch with them
        (the context may hold part of the failed step; the next call starts from clean)."""
        self._failed = True
        for member in [*self._running, *self._waiting]:
            yield member.request, StreamError(f"llama.cpp stopped with an error: {reason}",
                                              kind=FailureKind.ENGINE_FAILED)
            yield from self._end(member, "error")

    def _close(self) -> None:
        self._host.pace.record(self._made, self._plain)
        for member in list(self._running):
            self._release(member)
        self._waiting.clear()
        self._batch.close()

    # -- one forward pass -------------------------------------------------------------------

    def _step(self) -> Iterator[Out]:
        rows = self._fill()
        decoding = all(member.sampled for member, _rows in rows)  # no prompt read in this step
        if decoding:
            self._add_drafts(rows)
        size = int(self._batch.batch.n_tokens)
        began = time.perf_counter()
        code = int(self._lib.llama_decode(self._llm.ctx, self._batch.batch))
        if code != 0:
            yield from self._fail(f"llama_decode returned {code}")
            return
        # Every member's tokens first, then the events: the step is timed from feeding it to
        # having its picks, as a verify pass is, without the callers' time spent on events.
        picks = [(member, self._picks(member, logits)) for member, logits in rows]
        if decoding and rows:
            self._host.costs.record(size, time.perf_counter() - began)
            self._paced(len(rows), size, sum(len(tokens) for _member, tokens in picks))
        for member, tokens in picks:
            yield from self._advance(member, tokens)

    def _paced(self, members: int, size: int, tokens: int) -> None:
        """A decoding step of `members` over `size` rows made `tokens`; plain steps would have
        made `members` tokens in each plain step's time."""
        costs = self._host.costs
        self._made += tokens
        self._plain += members * costs.relative(size) / costs.relative(members)

    def _picks(self, member: _Member, logits: list[int]) -> list[int]:
        """The tokens sampled from the member's rows: its next token, or as many draft tokens
        as the sampler picks in a row and then its own pick after them (none: still reading)."""
        picked: list[int] = []
        for index, row in enumerate(logits):
            picked.append(int(member.sampler.sample(self._llm._ctx, row)))
            if index >= len(member.draft) or picked[-1] != member.draft[index]:
                break
        return picked

    def _fill(self) -> list[tuple[_Member, list[int]]]:
        """Every running member's next tokens into the batch: a decoding one's last token, a
        reading one's next prompt chunk (self._chunk tokens in all). Returns the members fed,
        each with the batch rows of its logits (none: it is still reading)."""
        self._batch.batch.n_tokens = 0
        budget = self._chunk
        rows: list[tuple[_Member, list[int]]] = []
        for member in self._running:
            count = len(member.pending) if member.sampled else min(len(member.pending), budget)
            if count:
                budget -= 0 if member.sampled else count
                rows.append((member, self._add(member, count)))
        return rows

    def _add_drafts(self, rows: list[tuple[_Member, list[int]]]) -> None:
        """The decoding members' drafts after the pass's own tokens, chosen together (their
        likeliest tokens first, priced by what they add to the pass); each draft's rows join
        its member's logits rows."""
        drafting = [(member, member.drafter, logits) for member, logits in rows
                    if member.drafter is not None]
        # Each member's room: its cells, past the pending token.
        offers = [(drafter, member.reserve - len(member.fed) - 1)
                  for member, drafter, _logits in drafting]
        drafts = drafts_for_pass(offers, int(self._batch.batch.n_tokens), self._host.costs)
        for (member, _drafter, logits), draft in zip(drafting, drafts, strict=True):
            member.draft = draft
            for token in draft:
                logits.append(self._put(member, token, logits=True))

    def _add(self, member: _Member, count: int) -> list[int]:
        for token in member.pending[:count]:
            self._put(member, token, logits=False)
        del member.pending[:count]
        if member.pending:
            return []
        batch = self._batch.batch
        batch.logits[batch.n_tokens - 1] = 1
        return [int(batch.n_tokens) - 1]

    def _put(self, member: _Member, token: int, logits: bool) -> int:
        """`token` into the batch at the member's next position; returns its row."""
        batch = self._batch.batch
        row = int(batch.n_tokens)
        batch.token[row], batch.pos[row], batch.logits[row] = token, len(member.fed), int(logits)
        batch.n_seq_id[row], batch.seq_id[row][0] = 1, member.seq
        batch.n_tokens = row + 1
        member.fed.append(token)
        return row

    def _advance(self, member: _Member, tokens: list[int]) -> Iterator[Out]:
        """After the pass: a reading member's progress, a decoding one's tokens and events."""
        if not member.sampled and self._shows_prefill(member):
            total = self._to_read(member)
            yield member.request, Prefill(min(len(member.fed) - member.cached, total), total)
        if not tokens:
            return
        member.sampled = True
        self._keep(member, len(tokens) - 1)
        for token in tokens:
            if member.drafter is not None:
                member.drafter.extend((token,))
            events, reason = member.answer.take(token, member.request.should_stop)
            yield from ((member.request, event) for event in events)
            if reason:
                yield from self._end(member, reason)
                return
        member.pending = [tokens[-1]]

    def _keep(self, member: _Member, kept: int) -> None:
        """The draft's first `kept` tokens stay in the member's KV; the rest were wrong guesses."""
        drafted = len(member.draft)
        if member.drafter is not None and drafted:
            member.drafter.feedback(drafted, kept)
        if kept < drafted:
            del member.fed[len(member.fed) - drafted + kept:]
            self._lib.llama_memory_seq_rm(self._mem, member.seq, len(member.fed), -1)
        member.draft = []
