"""Applies the context budget to one step, writing a summary into history when turns must go."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from app.core.assistant.context_budget import (
    ContextBudget,
    Fit,
    fallback_summary,
    reserve_for,
    result_cap,
    transcript,
)
from app.core.assistant.transcript import HistoryLike, engine_messages
from app.core.events import AssistantEvent, ContextCompacted, Queued
from app.core.oneshot import generate_text
from app.core.prompts import prompt_text
from app.core.runner import ModelRunner
from backends.base import Backend, GenerateOptions, Message
from backends.chat_format import estimate_tokens

if TYPE_CHECKING:
    from app.core.history.records import StoredMessage


log = logging.getLogger(__name__)

SUMMARY_TOKENS = 400
TEMPLATE_BYTES = 8192  # the template's own text around tools and turns (Nanbeige's: ~3 KB)
MESSAGE_BYTES = 32  # role markers per message
SUMMARY_TIMEOUT_S = 600.0  # a long prefill on a CPU; the user's Stop ends it sooner


@dataclass
class StepPrompt:
    """One step's messages (system first) and options; seqs[i] is the stored seq behind
    messages[i] (0 for the system message)."""

    messages: list[Message]
    options: GenerateOptions
    seqs: list[int] = field(default_factory=list)

    def with_history(self, stored: list[StoredMessage]) -> StepPrompt:
        pairs = engine_messages(stored)
        return StepPrompt(self.messages[:1] + [m for _, m in pairs], self.options,
                          [0] + [seq for seq, _ in pairs])


def fit_context(prompt: StepPrompt, runner: ModelRunner, history: HistoryLike, conv: str,
                emit: Callable[[AssistantEvent], None], cancel: threading.Event) -> StepPrompt:
    """The prompt fitted to the loaded model's window (unchanged when nothing is loaded)."""
    info, backend = runner.info, runner.backend
    if info is None or backend is None or info.context_length <= 0:
        return prompt
    if surely_fits(prompt, info.context_length):
        return prompt  # no need to wait for the model's thread to count
    budget = ContextBudget(info.context_length, _counter(backend), backend.render_prompt)
    if runner.pending:
        emit(Queued(runner.pending))  # counting waits for the model's thread like a request
    try:
        fit = runner.call(lambda: budget.fit(prompt.messages, prompt.options)).result()
        if not fit.fits and fit.summarize > 0 and not cancel.is_set():
            prompt, fit = _compact(prompt, fit, budget, runner, history, conv, emit, cancel)
        if not fit.fits:
            messages = fit.messages
            fit = runner.call(lambda: budget.squeeze(messages, prompt.options)).result()
    except Exception:  # the engine says what is wrong with this prompt when it streams it
        log.exception("could not apply the context budget")
        return prompt
    return StepPrompt(fit.messages, _fitted(prompt.options, fit), prompt.seqs)


def surely_fits(prompt: StepPrompt, window: int) -> bool:
    """True when the prompt fits without counting: a token is at least one byte, so the bytes
    of the messages, the tools and the template's own text bound the token count."""
    room = window - reserve_for(window, prompt.options.max_tokens)
    cap = result_cap(window)
    total = TEMPLATE_BYTES + len(json.dumps(prompt.options.tools, ensure_ascii=False).encode())
    for message in prompt.messages:
        size = len(json.dumps(message, ensure_ascii=False).encode()) + MESSAGE_BYTES
        if message["role"] == "tool" and size > cap:
            return False
        total += size
    return total <= room


def _fitted(options: GenerateOptions, fit: Fit) -> GenerateOptions:
    budget = options.thinking_budget
    if budget is not None:  # leave the answer a third of what is left
        budget = min(budget, max(1, fit.max_tokens * 2 // 3))
    return replace(options, max_tokens=fit.max_tokens, thinking_budget=budget)


def _compact(prompt: StepPrompt, fit: Fit, budget: ContextBudget, runner: ModelRunner,
             history: HistoryLike, conv: str, emit: Callable[[AssistantEvent], None],
             cancel: threading.Event) -> tuple[StepPrompt, Fit]:
    """Summarize the oldest turns, store the summary, and fit again with it."""
    count = fit.summarize
    head = fit.messages[1:1 + count]
    text = summarize(runner, budget, head, cancel) or fallback_summary(head)
    kept = prompt.seqs[1 + count]  # a user message: summaries end at a turn
    stored = history.add_message(conv, "system", text, summary_of=kept - 1)
    messages = history.messages(conv)
    again = StepPrompt(prompt.messages[:1], prompt.options).with_history(messages)
    refit = runner.call(lambda: budget.fit(again.messages, again.options)).result()
    first_kept = next((str(m.id) for m in messages if m.seq == kept), "")
    emit(ContextCompacted(conv, str(stored.id), count, fit.prompt_tokens, refit.prompt_tokens,
                          text, first_kept))
    return again, refit


def summarize(runner: ModelRunner, budget: ContextBudget, head: list[Message],
              cancel: threading.Event) -> str:
    """The model's summary of `head` ("" when it gives none); the transcript is cut to fit."""
    window = budget.window
    options = GenerateOptions(enable_thinking=False, temperature=0.3,
                              max_tokens=max(32, min(SUMMARY_TOKENS, window // 8)))
    limit = window * 3
    for _ in range(6):
        messages: list[Message] = [
            {"role": "system", "content": prompt_text("summary").strip()},
            {"role": "user", "content": transcript(head, limit)}]
        used = runner.call(_measure(budget, messages, options)).result()
        if used + options.max_tokens < window:
            return generate_text(runner, messages, options, cancel, SUMMARY_TIMEOUT_S).strip()
        limit //= 2
    return ""


def _measure(budget: ContextBudget, messages: list[Message],
             options: GenerateOptions) -> Callable[[], int]:
    return lambda: budget.count(budget.render(messages, options))


def _counter(backend: Backend) -> Callable[[str], int]:
    count = getattr(backend, "count_tokens", None)
    return count if callable(count) else estimate_tokens
