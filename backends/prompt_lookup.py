"""Prompt-lookup drafts: guess the next tokens from where the last few appeared before.

Much of what an assistant writes is copied from what it read (a quoted passage, a value from a
sheet, a file name, tool arguments taken from the question). When the last tokens of the
prompt + answer appeared earlier, the tokens that followed them there are a cheap guess at what
comes next; the engine checks all of them in one forward pass and keeps the ones it would have
produced anyway. Engine-agnostic: llama.cpp (backends/llama_speculate.py) and MLX use it.
Besides the prompt and the answer, it drafts from texts the model never reads, built from the
prompt as answers rewrite it (a CSV sheet as a Markdown table, a tool call's frame and values:
backends/draft_sources.py).

Of the earlier places where the answer's last two tokens appeared, those that agree with the
answer furthest back are followed: the longer that match, the likelier the answer is copying
from there. Where equally long matches part (a one-shot example's call goes on with its next
parameter after one value and with `</function>` after the other), the draft follows most of
them (the latest of equals), and the tokens past the fork count as likely kept only in the share
of matches that agree: where checks cost, a draft stops at the fork. A draft is worth its check
only when enough of it is kept, since
checking k tokens costs more than one (backends/pass_costs.py). So the drafter keeps, for short,
middling and long matches, a decaying count of drafted tokens kept and missed, and drafts the
length that gives the most expected tokens per unit of time, or nothing when no length beats
plain decoding. That is its back-off: once drafts stop hitting, it stops drafting. A draft it
does not send is still scored against the tokens that come next (checking it then is free), so
it notices when the answer starts copying again without paying for a try. The members of a
batch keep that count together (ClassEvidence), so a request joining a batch starts from how
drafts fared for the ones before it, and their drafts are chosen together: a batch's pass takes
the likeliest of all the tokens its members offer (drafts_for_pass)."""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate

import numpy as np

from backends.frame_drafts import FrameDrafts
from backends.pass_costs import PassCosts
from backends.token_search import occurrences

MIN_MATCH = 2  # tokens at the answer's end that must have appeared before for any draft
LONG_MATCH = 16  # how far back a match is followed
CANDIDATES = 64  # latest earlier occurrences compared for the longest match
MIN_GAIN = 1.1  # expected speed over plain decoding a draft must promise (estimates are rough)
DECAY = 0.9  # weight of what was seen before, for each drafted token's outcome
# Match lengths from which a match is "middling" and "long", and the evidence each class
# starts with (kept, missed): a 2-3 token echo is a weak sign, 10 tokens copied a strong one.
MATCH_CLASSES = (4, 10)
# A middling match (4-9 tokens: the rest of a value after a changed name, a call's frame)
# starts at 3:1: at 2:1 it never paid for a pass on the CPU's prices before its evidence
# was in, which in a 50-token tool call it never is (bench/RESULTS.md, item 1).
# The fourth class: the tokens of a tool call's frame its state gives (backends/frame_drafts.py).
PRIORS = ((1.0, 2.0), (3.0, 1.0), (9.0, 1.0), (9.0, 1.0))
FRAME = 3
SEPARATOR = -1  # between draft sources and the prompt in the history: equals no token


@dataclass
class LookupStats:
    """What speculation did in one answer (reported with the answer's timings)."""

    drafts: int = 0  # verify passes that carried a draft
    drafted: int = 0  # draft tokens checked
    accepted: int = 0  # draft tokens the model agreed with (each one a decode step saved)

    @property
    def acceptance(self) -> float:
        return self.accepted / self.drafted if self.drafted else 0.0

    def timings(self) -> dict[str, float]:
        """The figures an answer's Done reports (its timings) when it verified drafts."""
        return {"drafted_tokens": float(self.drafted),
                "accepted_draft_tokens": float(self.accepted)}


class ClassEvidence:
    """How drafts of each match class fared, lately, across the generations that share it: a
    batch's members learn from one another and from the members before them, so a fresh
    request starts from what drafts made in the batches just run, not from PRIORS' hopes (in a
    batch of 4 on a CPU each member's draft costs a share of a step, so hopes cost dearly)."""

    def __init__(self) -> None:
        self._counts = [list(prior) for prior in PRIORS]  # per match class: [kept, missed]

    def start(self) -> list[list[float]]:
        """The counts a new generation's drafter starts from (its own copy)."""
        return [list(counts) for counts in self._counts]

    def learn(self, klass: int, kept: int, missed: int) -> None:
        _fade(self._counts[klass], kept, missed)


class PromptLookup:
    """Drafts from the token history; told how drafts fared and what passes cost, it adapts."""

    def __init__(self, tokens: Iterable[int], costs: PassCosts | None = None,
                 sources: Iterable[Sequence[int]] = (), frames: FrameDrafts | None = None,
                 shared: ClassEvidence | None = None) -> None:
        """tokens: the prompt; sources: more token sequences to draft from, never read by the
        model (the prompt's sheets as the tables an answer writes: backends/draft_sources.py);
        frames: the offered tools' call frames, drafted from the call's state; shared: the
        evidence of the generations this one runs among, which it starts from and adds to."""
        self.costs = costs if costs is not None else PassCosts()
        self._shared = shared
        self._frames = frames if frames else None
        # The history lives in one numpy buffer and is searched there: building an index of
        # a long prompt in Python would hold the GIL the window's thread needs.
        prompt = list(tokens)
        first = np.asarray(_joined(sources, prompt), dtype=np.int64)
        self._start = len(first) - len(prompt)  # where the prompt starts, past the sources
        self._history = np.empty(max(256, 2 * len(first)), dtype=np.int64)
        self._history[:len(first)] = first
        self._size = len(first)
        # Per match class: [kept, missed]; alone, from the priors (a ClassEvidence of its own).
        self._evidence = (shared if shared is not None else ClassEvidence()).start()
        self._sent: list[int] = []  # the class of each token of the draft being checked
        # A draft not sent, scored as the real tokens come: (token, its class).
        self._shadow: list[tuple[int, int]] = []
        # The draft last offered: its tokens, their classes and shares (send takes from it).
        self._offered: tuple[list[int], list[int], list[float]] = [], [], []
        self.stats = LookupStats()

    def extend(self, tokens: Iterable[int]) -> None:
        for token in tokens:
            if self._shadow:
                guessed, klass = self._shadow.pop(0)
                hit = token == guessed
                self._learn(klass, int(hit), int(not hit))
                if not hit:
                    self._shadow = []
            if self._size == len(self._history):
                self._history = np.concatenate([self._history, np.empty_like(self._history)])
            self._history[self._size] = token
            self._size += 1

    def propose(self, limit: int) -> list[int]:
        """Up to `limit` tokens likely to come next, or none (no match, or not worth a check):
        the draft of a pass that carries this generation's next token alone."""
        return drafts_for_pass([(self, limit)], 1, self.costs)[0]

    def offer(self, limit: int) -> list[float]:
        """The draft this drafter could send (at most `limit` tokens), as the chance of each
        of its tokens being kept: that it and every token before it are right."""
        room = min(limit, self.costs.largest - 1)
        guess, shares, match = self._lookup(room) if room > 0 else ([], [], 0)
        classes = [sum(match >= edge for edge in MATCH_CLASSES)] * len(guess)
        if self._frames is not None and room > 0:
            # Where the call's state knows the frame, it replaces the match's continuation.
            at, frame = self._frames.after(self._history[self._start:self._size], guess, room)
            if frame:
                guess, shares = guess[:at] + frame, shares[:at] + [1.0] * len(frame)
                classes = classes[:at] + [FRAME] * len(frame)
        self._offered = guess, classes, shares
        rates = [kept / (kept + missed) for kept, missed in self._evidence]
        # Each token is kept with its class's rate, given the ones before it were, times the
        # share of the matches that agree on it.
        return list(accumulate((rates[klass] * share for klass, share in
                                zip(classes, shares, strict=True)), operator.mul))

    def send(self, length: int) -> list[int]:
        """The offer's first `length` tokens, the draft to check; with none sent the offer is
        still scored as the real tokens come (checking it then is free)."""
        guess, classes, shares = self._offered
        self._offered = [], [], []
        if not length:
            if not self._shadow and guess:
                # Scored up to where the matches part only: past a fork a miss says nothing
                # of how well matches of this class predict.
                agreed = next((i for i, share in enumerate(shares) if share < 1.0), len(guess))
                self._shadow = list(zip(guess[:agreed], classes[:agreed], strict=True))
            return []
        self._shadow, self._sent = [], classes[:length]
        return guess[:length]

    def feedback(self, drafted: int, accepted: int) -> None:
        """How a proposed draft fared: `accepted` of its `drafted` tokens were kept."""
        if drafted <= 0:
            return
        self.stats.drafts += 1
        self.stats.drafted += drafted
        self.stats.accepted += accepted
        # Tokens after the first miss were never judged: they are no evidence either way.
        # Each class learns from its own run of the draft (a match's tokens, then a frame's).
        start = 0
        for klass, count in _runs(self._sent[:drafted]):
            kept = min(max(accepted - start, 0), count)
            missed = int(start <= accepted < start + count and accepted < drafted)
            if kept or missed:
                self._learn(klass, kept, missed)
            start += count

    def timed(self, size: int, seconds: float) -> None:
        """The engine's pass over `size` tokens took `seconds`."""
        self.costs.record(size, seconds)

    def _learn(self, klass: int, kept: int, missed: int) -> None:
        _fade(self._evidence[klass], kept, missed)
        if self._shared is not None:
            self._shared.learn(klass, kept, missed)

    def _lookup(self, size: int) -> tuple[list[int], list[float], int]:
        """What followed the earlier occurrences of the last tokens that match furthest back
        (the way most of them go: _agreed), the share of them that agree at each token, and
        how many tokens the match covers."""
        history, total, n = self._history[:self._size], self._size, MIN_MATCH
        if total <= n:
            return [], [], 0
        # Occurrences of the last n tokens that end before the last token: each has one after.
        found = occurrences(history[:total - 1], history[total - n:])
        hits = _narrowed(history, found, total - n)[-CANDIDATES:]
        if not hits.size:
            return [], [], 0
        back = np.arange(1, LONG_MATCH - n + 1)
        theirs, mine = hits[:, None] - back, total - n - back
        agree = (theirs >= 0) & (mine >= 0)
        agree &= history[np.maximum(theirs, 0)] == history[np.maximum(mine, 0)]
        lengths = n + np.cumprod(agree, axis=1).sum(axis=1)
        before = hits + n - lengths - 1
        whole = (before >= 0) & (history[np.maximum(before, 0)] == SEPARATOR)
        # A match that runs back to a source's start (a value on a line of its own, a table's
        # header) agrees with all the source could: it outranks longer matches elsewhere and
        # counts as a long one (the answer wrote all of the source's beginning).
        rank = np.where(whole, LONG_MATCH + 1, lengths)
        for top in sorted(set(rank.tolist()), reverse=True):
            starts = hits[rank == top] + n
            guess, shares = _agreed([history[start:start + size].tolist() for start in starts])
            if guess:  # else all these matches' sources end there: shorter ones go on
                break
        else:
            return [], [], 0
        best = int(lengths[rank == top].max())
        return guess, shares, max(best, MATCH_CLASSES[1]) if top > LONG_MATCH else best


def drafts_for_pass(drafters: Sequence[tuple[PromptLookup, int]], base: int,
                    costs: PassCosts) -> list[list[int]]:
    """Each drafter's draft (at most its limit) for one forward pass that carries `base`
    tokens already, one per generation (the person's answer alone: 1; a batch: its members').

    Of all the tokens they offer, likeliest first, the pass takes the number that gives the
    most expected tokens per unit of time, and none unless that beats the pass without them by
    MIN_GAIN: n tokens kept with chances c1..cn yield base + c1 + ... + cn tokens for a pass
    over base + n. Chosen together, a batch's members share the rows a kernel computes at
    once: on a CPU whose kernel takes rows 4 at a time, four members' likely tokens fill a
    second tile that none of them would pay for alone."""
    room = costs.largest - base
    offers = sorted(((chance, index) for index, (drafter, limit) in enumerate(drafters)
                     for chance in drafter.offer(min(limit, room))),
                    key=lambda offer: -offer[0])[:max(room, 0)]  # stable: each one's in order
    plain = base / costs.relative(base)  # tokens per one-token pass's time without drafts
    best, best_gain, expected = 0, MIN_GAIN, float(base)
    for count, (chance, _index) in enumerate(offers, 1):
        expected += chance
        gain = expected / costs.relative(base + count) / plain
        if gain > best_gain:
            best, best_gain = count, gain
    taken = Counter(index for _chance, index in offers[:best])
    return [drafter.send(taken[index]) for index, (drafter, _limit) in enumerate(drafters)]


def _fade(counts: list[float], kept: int, missed: int) -> None:
    """A class's [kept, missed] after `kept` + `missed` more drafted tokens' outcomes."""
    fade = DECAY ** (kept + missed)
    counts[0] = counts[0] * fade + kept
    counts[1] = counts[1] * fade + missed


def _agreed(continuations: list[list[int]]) -> tuple[list[int], list[float]]:
    """The continuation most of the equally long matches follow, token by token (of equal
    votes the latest's), and at each token the share of those still in agreement that vote
    for it: where they part, which way the answer goes is a guess the draft's length must
    weigh. A continuation that ends (its source's end) drops out with no vote."""
    alive = [tokens[:tokens.index(SEPARATOR)] if SEPARATOR in tokens else tokens
             for tokens in continuations]
    alive = [tokens for tokens in alive if tokens]
    guess: list[int] = []
    shares: list[float] = []
    while alive:
        at = len(guess)
        votes = Counter(tokens[at] for tokens in alive)
        most = max(votes.values())
        # Of equal votes the latest match's token (the last one listed).
        token = next(t[at] for t in reversed(alive) if votes[t[at]] == most)
        guess.append(token)
        shares.append(most / len(alive))
        alive = [tokens for tokens in alive if tokens[at] == token and len(tokens) > at + 1]
    return guess, shares


def _runs(classes: Sequence[int]) -> list[tuple[int, int]]:
    """The draft's tokens as runs of one class: (class, tokens)."""
    runs: list[tuple[int, int]] = []
    for klass in classes:
        if runs and runs[-1][0] == klass:
            runs[-1] = (klass, runs[-1][1] + 1)
        else:
            runs.append((klass, 1))
    return runs


def _joined(sources: Iterable[Sequence[int]], tokens: Iterable[int]) -> list[int]:
    """The sources, each between SEPARATORs (a match that reaches one has matched its
    source's whole start), then the prompt: a match never spans two of them, and of equally
    long matches that part, the prompt's own (later) one breaks a tie."""
    joined: list[int] = [SEPARATOR]
    for source in sources:
        joined.extend(source)
        joined.append(SEPARATOR)
    if len(joined) == 1:
        joined = []  # no sources: the prompt's start is no source's
    joined.extend(tokens)
    return joined


def _narrowed(history: np.ndarray, hits: np.ndarray, end: int) -> np.ndarray:
    """Of many occurrences (a long sheet repeats every two tokens of a row), those that
    agree with the tokens before `end` furthest back, until CANDIDATES or fewer are left:
    the longest match is among them, where the latest CANDIDATES may miss it."""
    for back in range(1, LONG_MATCH - MIN_MATCH + 1):
        if hits.size <= CANDIDATES or end - back < 0:
            break
        before = hits - back
        agree = (before >= 0) & (history[np.maximum(before, 0)] == history[end - back])
        if not agree.any():
            break
        hits = hits[agree]
    return hits
