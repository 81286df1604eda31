"""Prompt-lookup speculation: the same answers as plain decoding, drafts that back off when wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from backends.base import GenerateOptions
from backends.events import Done, ReasoningDelta, TextDelta
from backends.pass_costs import PRIOR, DraftPace, PassCosts
from backends.prompt_lookup import ClassEvidence, PromptLookup, drafts_for_pass
from tests.support.tiny_model import TinyModel

SYSTEM = {"role": "system", "content": "You are Hearth."}
PROMPTS = [  # text that repeats, text the tiny model's corpus holds, and hardly anything
    "Copy this: the quick brown fox jumps over the lazy dog. the quick brown fox jumps over "
    "the lazy dog.",
    "def main():\n    return [x * 2 for x in range(10)]  # comment\n" * 3,
    "hello",
    # A sheet to rewrite as a table: drafts also come from its Markdown rendering.
    "Sheet:\nregion,quarter,revenue\nNorth,Q1,12500\nSouth,Q2,9800\nThe same rows as a Markdown "
    "table:\n| region | quarter | revenue |\n|---|---|---|\n| North |",
]
# A question for a tool, the tool offered: drafts also come from the call's frame and values.
WRITE_FILE = {"type": "function", "function": {
    "name": "write_file", "description": "Write a file.", "parameters": {
        "type": "object", "properties": {"path": {"type": "string"}, "title": {"type": "string"}}}}}
TOOL_PROMPT = ("Create a file named notes_2026.md in the folder /home/anna/Notes with the title "
               "'Notes for 2026'.")
CASES: list[tuple[str, list[dict[str, Any]]]] = [*((p, []) for p in PROMPTS),
                                                 (TOOL_PROMPT, [WRITE_FILE])]


def answer(backend: Any, prompt: str, temperature: float = 0.0, tokens: int = 96,
           seed: int | None = None, tools: list[dict[str, Any]] | None = None
           ) -> tuple[str, Done]:
    events = list(backend.stream([SYSTEM, {"role": "user", "content": prompt}],
                                 GenerateOptions(max_tokens=tokens, temperature=temperature,
                                                 seed=seed, tools=tools or []), lambda: False))
    done = events[-1]
    assert isinstance(done, Done) and done.finish_reason in ("stop", "length")
    return "".join(e.text for e in events if isinstance(e, TextDelta | ReasoningDelta)), done


def llama(tiny_model: TinyModel, speculate: bool, cache_dir: Path | None = None) -> Any:
    pytest.importorskip("llama_cpp")
    from backends.llama_cpp import LlamaCppBackend

    backend = LlamaCppBackend(str(tiny_model.gguf_path), context_length=1024,
                              speculate=speculate, cache_dir=cache_dir)
    # Checking a draft priced as one token: whether it drafts does not hang on the machine's
    # speed, and it drafts often, so drafts are both kept and refused.
    backend.pass_costs = PassCosts(FREE, learn=False)
    backend.load()
    return backend


# -- the drafter ----------------------------------------------------------------------------

FREE = {1: 1.0, 16: 1.0}  # checking up to 16 tokens costs what one does (a GPU, roughly)
CPU = {1: 1.0, 4: 2.7, 8: 4.1, 12: 5.3, 16: 6.8}  # as measured on 2 cores (bench/RESULTS.md)


def drafter(tokens: list[int], costs: dict[int, float]) -> PromptLookup:
    return PromptLookup(tokens, PassCosts(costs, learn=False))


def test_a_draft_is_what_followed_the_earlier_match_that_agrees_furthest_back() -> None:
    # [2, 3] ends the history and appeared twice before: after [1, 2, 3] (agrees 3 back, as
    # the end does) and, later, after [4, 2, 3] (agrees 2 back). The longer match wins.
    tokens = [1, 2, 3, 9, 5, 6, 7, 8, 4, 2, 3, 10, 11, 1, 2, 3]
    assert drafter(tokens, FREE).propose(20)[:3] == [9, 5, 6]
    assert drafter(tokens, FREE).propose(2) == [9, 5]  # never more than there is room for
    assert drafter([1, 2, 3, 4], FREE).propose(10) == []  # nothing repeats: no draft


CONTEXT = list(range(100, 112))  # 12 tokens: a long match wherever they recur


def test_beside_other_sequences_a_draft_is_priced_by_what_it_adds_to_their_pass() -> None:
    """In a batch the pass is paid for already: a draft must pay for the rows it adds."""
    copied = list(range(10, 30))
    tokens = copied + [99] + copied[:12]  # a long match: drafts are likely kept
    # 4 rows cost what 1 does, 5 and more cost 4 times as much (a GPU-like step of 4).
    steps = {1: 1.0, 4: 1.0, 8: 4.0, 16: 8.0}
    assert drafter(tokens, steps).propose(3) == [22, 23, 24]  # alone: 4 rows for one's price
    beside_3 = drafter(tokens, steps)
    assert drafts_for_pass([(beside_3, 3)], 4, beside_3.costs) == [[]]  # a 5th row costs 4x
    # Where rows are free, a pass still carries 16 tokens at most: the others' and its own.
    free = drafter(tokens, FREE)
    assert len(drafts_for_pass([(free, 20)], 4, free.costs)[0]) == 16 - 4
    assert drafts_for_pass([(free, 20)], 13, free.costs) == [[22, 23, 24]]


def test_a_batch_fills_the_rows_its_kernel_computes_at_once_with_its_likeliest_tokens() -> None:
    """This CPU's Q8_0 kernel takes rows 4 at a time: beside 4 members a 5th row costs what 4
    more do. No member's draft of 2 pays for that second tile alone; the members' drafts
    together do, and the tokens taken are the likeliest of all they offer."""
    copied = list(range(10, 30))
    costs = PassCosts({1: 1.0, 4: 2.0, 8: 3.2, 16: 6.0}, learn=False)

    def batch() -> list[PromptLookup]:  # three long matches (kept 9 in 10), a 2-token echo
        return [*(PromptLookup(copied + [99] + copied[:12], costs) for _ in range(3)),
                PromptLookup([1, 2, 3, 4, 1, 2], costs)]

    assert [drafts_for_pass([(member, 2)], 4, costs) for member in batch()] == [[[]]] * 4
    drafts = drafts_for_pass([(member, 2) for member in batch()], 4, costs)
    assert drafts == [[22, 23], [22], [22], []]  # a second token at 0.81 before the echo's


def test_where_equally_long_matches_part_a_paid_draft_stops() -> None:
    # Two earlier occurrences of the answer's last 12 tokens: both go on with [1, 2, 3], then
    # one with [10, ...], the later one with [20, ...]. Which way the answer goes is a coin
    # toss: on the CPU, where a longer pass costs more, the draft is the 3 tokens they agree
    # on, not the later one's 8.
    tokens = [*CONTEXT, 1, 2, 3, 10, 11, 12, 13, 14, 98, *CONTEXT, 1, 2, 3, 20, 21, 22, 23, 24,
              99, *CONTEXT]
    assert drafter(tokens, CPU).propose(8) == [1, 2, 3]
    # Where a check of 16 costs what one does, the tokens past the fork are worth a try.
    assert drafter(tokens, FREE).propose(8) == [1, 2, 3, 20, 21, 22, 23, 24]


def test_where_equally_long_matches_part_the_draft_follows_most_of_them() -> None:
    ten = [1, 2, 3, 10, 11, 12, 13, 14, 98]
    tokens = [*CONTEXT, *ten, *CONTEXT, *ten, *CONTEXT, 1, 2, 3, 20, 21, 22, 23, 24, 99, *CONTEXT]
    assert drafter(tokens, FREE).propose(8) == [1, 2, 3, 10, 11, 12, 13, 14]
    assert drafter(tokens, CPU).propose(8)[:3] == [1, 2, 3]


def test_when_checking_k_tokens_costs_k_passes_nothing_is_drafted() -> None:
    copied = list(range(10, 30))
    tokens = copied + [99] + copied[:12]  # the answer is copying a long passage
    assert drafter(tokens, FREE).propose(20)
    assert not drafter(tokens, {k: float(k) for k in range(1, 17)}).propose(20)


def test_a_draft_has_the_length_whose_pass_gives_most_tokens_per_unit_of_time() -> None:
    copied = list(range(10, 40))
    tokens = copied + [99] + copied[:12]  # a long match: drafts are likely kept
    # On the CPU's costs, 4, 8, 12 or 16 tokens a pass (not 2, 3 or 5, priced as their
    # next listed size): the draft plus the pending token fill one of those.
    assert len(drafter(tokens, CPU).propose(20)) + 1 in (4, 8, 12, 16)
    # A short echo (two tokens) is a weak sign: on the CPU it is not worth a pass.
    assert not drafter([5, 6, 7, 8, 9, 5, 6], CPU).propose(20)


def test_drafts_that_miss_stop_being_sent_and_resume_when_the_answer_copies_again() -> None:
    copied = list(range(10, 40))
    lookup = drafter(copied + [99] + copied[:12], CPU)
    sent = 0
    for _ in range(200):
        draft = lookup.propose(20)
        if draft:
            sent += 1
            lookup.feedback(len(draft), 0)  # the model never agrees
    assert sent <= 3 and not lookup.propose(20)
    # The drafts it no longer sends are scored as the real tokens come: once the answer is
    # seen copying them, drafting goes on, without a single draft sent to find out.
    lookup.extend(copied[12:20])
    assert lookup.propose(20)[:2] == copied[20:22]


def test_a_batch_member_starts_from_how_drafts_fared_for_the_members_before_it() -> None:
    """Members of a batch share their evidence: where the requests before drafted in vain, a
    new one does not spend its first steps finding that out again; a generation that shares
    nothing (the person's chat alone) still starts from the priors."""
    copied = list(range(10, 40))
    tokens = copied + [99] + copied[:12]
    costs = PassCosts(CPU, learn=False)
    shared = ClassEvidence()
    first = PromptLookup(tokens, costs, shared=shared)
    assert PromptLookup(tokens, costs, shared=shared).propose(20)  # nothing learnt yet
    for _ in range(20):
        draft = first.propose(20)
        if draft:
            first.feedback(len(draft), 0)  # the model never agrees
    assert not PromptLookup(tokens, costs, shared=shared).propose(20)
    assert PromptLookup(tokens, costs).propose(20)  # alone: the priors
    # A middling match (6 tokens) is not worth a pass on the priors; once the members before
    # were seen copying after such matches (scored, not sent), a newcomer drafts from it.
    middling = copied + [99] + copied[:6]
    assert not PromptLookup(middling, costs).propose(20)
    kept = ClassEvidence()
    copier = PromptLookup(middling, costs, shared=kept)
    for token in copied[6:24]:
        copier.propose(20)
        copier.extend([token])
    assert PromptLookup(middling, costs, shared=kept).propose(20)[:2] == copied[6:8]
    assert not PromptLookup(middling, costs).propose(20)


def test_drafts_kept_only_in_part_stop_being_sent() -> None:
    copied = list(range(10, 40))
    lookup = drafter(copied + [99] + copied[:12], CPU)
    sent = 0
    for _ in range(200):
        draft = lookup.propose(20)
        if draft:
            sent += 1
            lookup.feedback(len(draft), len(draft) // 2)
    assert sent <= 6


def test_pass_costs_are_learnt_from_the_engines_own_timings() -> None:
    costs = PassCosts({1: 1.0, 4: 3.0, 16: 8.0})
    assert costs.relative(2) == 3.0  # unmeasured and unlisted: the next listed size's price
    costs.record(1, 9.0)  # a size's first pass also builds its graph: not counted
    costs.record(4, 9.0)
    for _ in range(3):
        costs.record(1, 0.1)
        costs.record(4, 0.2)
    costs.record(4, 5.0)  # a spike (the machine was busy): the median holds
    assert costs.relative(4) == pytest.approx(2.0)
    # Never more per token than a smaller size measured: 16 tokens at most 4 x 2.0.
    assert costs.relative(16) == pytest.approx(8.0) and costs.relative(8) == pytest.approx(4.0)
    pinned = PassCosts({1: 1.0, 4: 3.0}, learn=False)
    for _ in range(5):
        pinned.record(4, 1.0)
        pinned.record(1, 1.0)
    assert pinned.relative(4) == 3.0


def timed(costs: PassCosts, size: int, seconds: float) -> None:
    for _ in range(4):  # a size's first pass builds its graph: not counted
        costs.record(size, seconds)


def test_sizes_not_yet_run_are_priced_like_the_next_larger_size_measured() -> None:
    """A GPU that measured 4 tokens at 1.15 one-token passes prices 2 and 3 as cheaply (not
    the CPU prior's 1.3 and 2.3), so they get tried; a CPU that measured 4 at its prior keeps
    the prior's shape, 3 dearer than 4; a dear 4 makes 2 dear too (on the line)."""
    gpu = PassCosts()
    timed(gpu, 1, 0.01)
    assert gpu.relative(2) == PRIOR[2] and gpu.relative(3) == PRIOR[3]
    timed(gpu, 4, 0.0115)
    assert gpu.relative(2) == pytest.approx(1.05)  # on the line between 1 and 4 measured
    assert gpu.relative(3) == pytest.approx(PRIOR[3] * 1.15 / PRIOR[4])
    assert gpu.relative(3) < 2.0  # the figure a step of 3 must beat to gain over drafts
    cpu = PassCosts()
    timed(cpu, 1, 0.5)
    timed(cpu, 4, 0.5 * PRIOR[4])
    assert cpu.relative(2) == pytest.approx(1 + (PRIOR[4] - 1) / 3)  # at least on the line
    assert cpu.relative(3) > cpu.relative(4)
    dear = PassCosts()
    timed(dear, 1, 0.1)
    timed(dear, 4, 1.8)  # MLX's CPU wheel with the reference BLAS: 4 rows cost 18 rows
    assert dear.relative(2) == pytest.approx(1 + 17 / 3)  # on the line from 1 to 4's 18


def test_an_engine_that_has_only_run_batches_prices_sizes_by_what_they_measured() -> None:
    """API requests since launch and no chat: no one-token pass is ever timed, yet a batch's
    drafts stop once the rows they add measured dear (this CPU's 4-row kernel: a 6-row step
    costs 1.9 of a 4-row one, where a prior from another build says 1.15)."""
    costs = PassCosts()
    timed(costs, 4, 1.10)
    timed(costs, 6, 2.08)
    assert costs.relative(6) / costs.relative(4) == pytest.approx(2.08 / 1.10)
    copied = list(range(10, 30))
    tokens = copied + [99] + copied[:12]
    hoping = PromptLookup(tokens, PassCosts({1: 1.0, 4: 2.6, 6: 3.0, 16: 6.3}))
    knowing = PromptLookup(tokens, costs)
    assert drafts_for_pass([(hoping, 2)], 4, hoping.costs) == [[22, 23]]  # the prior
    assert drafts_for_pass([(knowing, 2)], 4, knowing.costs) == [[]]


def test_a_size_between_two_measured_ones_costs_at_least_its_share_of_the_line() -> None:
    """This CPU's 4-row kernel (session 12): 4 rows 0.59 s, 8 rows 0.93 s, 6 rows 1.00 s. Before
    5 is measured it is priced at least on the line between 4 and 6 (or 8), not at a prior's
    1.15 of 4, so a batch's drafts that would make it 5 or 6 rows are not sent on that hope."""
    costs = PassCosts()
    timed(costs, 4, 0.59)
    timed(costs, 8, 0.93)
    assert costs.relative(6) / costs.relative(4) >= 0.76 / 0.59 - 1e-9
    timed(costs, 6, 1.00)
    assert costs.relative(5) / costs.relative(4) == pytest.approx(0.795 / 0.59)
    assert costs.relative(7) / costs.relative(4) == pytest.approx(0.965 / 0.59)
    hoping = PassCosts({1: 1.0, 4: 2.6, 6: 3.0, 16: 6.3})  # a prior from another build
    timed(hoping, 4, 0.59)
    timed(hoping, 8, 0.93)
    assert hoping.relative(6) / hoping.relative(4) == pytest.approx(0.76 / 0.59)  # the line
    assert costs.relative(2) == PRIOR[2]  # below the smallest measured: as before


def test_the_lone_pace_follows_recent_answers_from_plain_decodings_one() -> None:
    pace = DraftPace()
    assert pace.gain == 1.0  # nothing measured: drafts are assumed to gain nothing
    pace.record(200, 100.0)  # an answer that copied: 200 tokens for 100 passes' time
    copying = pace.gain
    assert 1.5 < copying < 2.0  # the prior still weighs a little
    pace.record(0, 0.0)  # an answer that never decoded (stopped while reading) says nothing
    assert pace.gain == copying
    for _ in range(12):
        pace.record(50, 52.0)  # answers that copy nothing: refused drafts cost a little
    assert 0.95 < pace.gain < 1.05
    pinned = DraftPace(1.6, learn=False)
    pinned.record(10, 10.0)
    assert pinned.gain == 1.6


# -- llama.cpp ------------------------------------------------------------------------------

def test_llama_answers_are_token_for_token_those_of_plain_decoding(tiny_model: TinyModel
                                                                   ) -> None:
    plain, fast = llama(tiny_model, False), llama(tiny_model, True)
    kept = 0.0
    for prompt, tools in CASES:
        text, done = answer(plain, prompt, tools=tools)
        same, sped = answer(fast, prompt, tools=tools)
        assert same == text and sped.completion_tokens == done.completion_tokens
        assert "drafted_tokens" not in done.timings
        kept += sped.timings["accepted_draft_tokens"]
        # Drafts were also refused (their KV rolled back) without changing a token.
        assert sped.timings["drafted_tokens"] >= sped.timings["accepted_draft_tokens"]
    assert kept > 0  # the drafts did save forward passes
    # What a batch must beat: more than a token a pass alone with drafts (checks cost one
    # pass here), one without.
    assert fast.lone_gain() > 1.0 and plain.lone_gain() == 1.0
    plain.unload()
    fast.unload()


def test_the_engines_drafter_drafts_the_sheet_as_the_markdown_table_the_answer_writes(
        tiny_model: TinyModel) -> None:
    fast = llama(tiny_model, True)
    # The answer so far: the table's header and the first row's first cell.
    options = GenerateOptions(enable_thinking=False, assistant_prefix=(
        "| region | quarter | revenue |\n|---|---|---|\n| North |"))
    sheet = "Sheet:\nregion,quarter,revenue\nNorth,Q1,12500\nSouth,Q2,9800\nAs a table, please."
    prompt = fast.encode_prompt([SYSTEM, {"role": "user", "content": sheet}], options)
    drafter = fast._drafter(prompt.tokens, prompt.text, options)
    assert drafter is not None
    draft = drafter.propose(15)
    assert fast._llm.detokenize(draft).decode().startswith(" Q1 | 12500 |")
    fast.unload()


def test_after_refused_drafts_the_kept_context_answers_the_next_turn_alike(
        tiny_model: TinyModel, tmp_path: Path) -> None:
    """What a turn leaves in the KV is exactly its tokens: the next turn reuses it and still
    writes what a fresh engine writes."""
    fast = llama(tiny_model, True, tmp_path / "a")
    first, _ = answer(fast, PROMPTS[0])
    follow = f"{PROMPTS[0]}\n{first}\nAgain, please."
    again, done = answer(fast, follow)
    fresh = llama(tiny_model, False, tmp_path / "b")
    expected, _ = answer(fresh, follow)
    assert again == expected and done.cached_prompt_tokens > 0
    fast.unload()
    fresh.unload()


def test_sampling_above_temperature_0_with_drafts_is_repeatable_and_complete(
        tiny_model: TinyModel) -> None:
    fast = llama(tiny_model, True)
    one, done = answer(fast, PROMPTS[0], temperature=0.8, seed=7)
    two, _ = answer(fast, PROMPTS[0], temperature=0.8, seed=7)
    assert one == two and done.completion_tokens > 0
    fast.unload()


# -- MLX ------------------------------------------------------------------------------------

def mlx(tiny_model: TinyModel, speculate: bool) -> Any:
    pytest.importorskip("mlx_lm")
    from backends.mlx_backend import MlxBackend

    backend = MlxBackend(str(tiny_model.mlx_dir), speculate=speculate)
    backend.pass_costs = PassCosts(FREE, learn=False)
    backend.load()
    return backend


def test_mlx_answers_are_token_for_token_those_of_plain_decoding(tiny_model: TinyModel) -> None:
    plain, fast = mlx(tiny_model, False), mlx(tiny_model, True)
    kept = 0.0
    for prompt, tools in CASES:
        text, done = answer(plain, prompt, tools=tools)
        same, sped = answer(fast, prompt, tools=tools)
        assert same == text and sped.completion_tokens == done.completion_tokens
        assert sped.finish_reason == done.finish_reason
        kept += sped.timings["accepted_draft_tokens"]
        assert sped.timings["drafted_tokens"] > sped.timings["accepted_draft_tokens"]
    assert kept > 0
    assert fast.lone_gain() > 1.0 and plain.lone_gain() == 1.0
    # The conversation's cache was trimmed back past refused drafts: the next turn reuses it
    # and still writes what plain decoding writes.
    follow = f"{PROMPTS[0]}\n{text}\nAgain."
    assert answer(fast, follow)[0] == answer(plain, follow)[0]
    plain.unload()
    fast.unload()


def test_mlx_sampling_above_temperature_0_with_drafts_is_repeatable(tiny_model: TinyModel
                                                                    ) -> None:
    fast = mlx(tiny_model, True)
    one, done = answer(fast, PROMPTS[0], temperature=0.8, seed=7)
    two, _ = answer(fast, PROMPTS[0], temperature=0.8, seed=7)
    assert one == two and done.completion_tokens > 0
    fast.unload()
