"""The context budget: every step's prompt plus a reserved answer fits the model's window.

In order of least loss: tool results are capped (the note tells the model how to ask for
more), older reasoning is dropped, then older turns are replaced by a summary the model wrote
(stored in history as a system message with `summary_of`; the originals stay). The system
message and tools, the cacheable prefix, are never touched."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

from backends.base import GenerateOptions, Message

Count = Callable[[str], int]
Render = Callable[[list[Message], GenerateOptions], str]

RESULT_CUT = ("\n\n[Hearth cut this result: it shows the first {shown:,} of {total:,} characters, "
              "because the whole does not fit the model's context. To read more, call the tool "
              "again for a narrower part: a page range, a later section, or fewer results.]")
MESSAGE_CUT = "\n\n[… {cut:,} characters of this message left out: it does not fit the context …]\n\n"
SUMMARY_INTRO = ("[Summary of the earlier conversation, written by you because the older "
                 "messages no longer fit the context window. The user still sees them.]\n\n")
MIN_RESERVE = 256
KEEP_SHARE = 0.5  # after a compaction the recent turns may fill half the window


@dataclass
class Fit:
    """The prompt for one step after the budget was applied."""

    messages: list[Message]
    prompt_tokens: int
    max_tokens: int  # answer tokens left in the window (never more than asked for)
    fits: bool
    capped_results: int = 0
    dropped_reasoning: bool = False
    # When it does not fit: how many engine messages after the system message to summarize
    # (always whole turns, so no tool result loses its call).
    summarize: int = 0


def reserve_for(window: int, max_tokens: int) -> int:
    """Answer tokens every prompt leaves room for: a quarter of the window, at most what the
    request asks for, at least a short answer's worth."""
    return max(min(max_tokens, window // 4), min(MIN_RESERVE, window // 2))


def result_cap(window: int) -> int:
    """The most tokens one tool result may take of the window."""
    return max(128, window // 4)


class ContextBudget:
    """Fits one step's messages into `window` tokens, measured with the engine's tokenizer."""

    def __init__(self, window: int, count: Count, render: Render) -> None:
        self.window = window
        self.count = count
        self.render = render

    def fit(self, messages: list[Message], options: GenerateOptions) -> Fit:
        """Cap results, then drop older reasoning; report what a summary would have to cover."""
        messages = copy.deepcopy(messages)
        reserve = reserve_for(self.window, options.max_tokens)
        capped = sum(self._cap(m, result_cap(self.window)) for m in messages if m["role"] == "tool")
        tokens = self._measure(messages, options)
        dropped = False
        if tokens + reserve > self.window and _drop_reasoning(messages):
            dropped = True
            tokens = self._measure(messages, options)
        fit = Fit(messages, tokens, self._room(tokens, options), tokens + reserve <= self.window,
                  capped, dropped)
        if not fit.fits:
            fit.summarize = self._summary_span(messages, options, reserve)
        return fit

    def squeeze(self, messages: list[Message], options: GenerateOptions) -> Fit:
        """The last resort, when the current turn alone is too long: cap its tool results and
        its user message harder until prompt and answer fit. The conversation always goes on."""
        messages = copy.deepcopy(messages)
        reserve = reserve_for(self.window, options.max_tokens)
        tokens = self._measure(messages, options)
        capped = 0
        for share in (8, 16, 32, 64):
            if tokens + reserve <= self.window:
                break
            cap = max(32, self.window // share)
            capped += sum(self._cap(m, cap) for m in messages[1:]
                          if m["role"] in ("tool", "user"))
            tokens = self._measure(messages, options)
        return Fit(messages, tokens, self._room(tokens, options),
                   tokens + min(reserve, MIN_RESERVE) <= self.window, capped)

    # -- parts ------------------------------------------------------------------------------
    def _measure(self, messages: list[Message], options: GenerateOptions) -> int:
        return self.count(self.render(messages, options))

    def _room(self, tokens: int, options: GenerateOptions) -> int:
        return max(1, min(options.max_tokens, self.window - tokens - 1))

    def _cap(self, message: Message, cap: int) -> bool:
        """Cut one message's text to about `cap` tokens. True when it was cut."""
        text = message.get("content")
        if not isinstance(text, str) or len(text.encode("utf-8")) <= cap:
            return False  # a token is at least a byte: no need to count
        total = self.count(text)
        if total <= cap:
            return False
        keep = int(len(text) * cap / total)
        while keep > 0:
            head = text[:keep]
            if self.count(head) <= cap:
                break
            keep = int(keep * 0.85)
        if message["role"] == "tool":
            message["content"] = text[:keep] + RESULT_CUT.format(shown=keep, total=len(text))
        else:  # a user message keeps its start and its end (the question is often last)
            half = keep // 2
            message["content"] = (text[:half] + MESSAGE_CUT.format(cut=len(text) - 2 * half)
                                  + text[len(text) - half:])
        return True

    def _summary_span(self, messages: list[Message], options: GenerateOptions,
                      reserve: int) -> int:
        """How many messages after the system message to summarize: whole turns from the
        oldest, until the rest takes at most half the window (so compaction is rare)."""
        starts = [i for i, m in enumerate(messages) if i > 1 and m["role"] == "user"
                  and not _is_summary(m)]
        last_user = max((i for i, m in enumerate(messages) if m["role"] == "user"), default=0)
        budget = int(self.window * KEEP_SHARE) - reserve
        system_only = self._measure(messages[:1], options)
        chosen = 0
        for start in starts:
            if start > last_user:
                break
            chosen = start - 1
            rest = self._measure(messages[:1] + messages[start:], options)
            if rest - system_only <= budget:
                break
        return chosen


def _drop_reasoning(messages: list[Message]) -> bool:
    """Remove the reasoning of every assistant message but the newest. True when any went."""
    dropped = False
    assistants = [m for m in messages if m["role"] == "assistant"]
    for message in assistants[:-1]:
        if message.pop("reasoning_content", None):
            dropped = True
    return dropped


def _is_summary(message: Message) -> bool:
    content = message.get("content")
    return isinstance(content, str) and content.startswith(SUMMARY_INTRO)


def summary_message(text: str) -> Message:
    """How a stored summary reaches the model: a user-turn note right after the system prompt."""
    return {"role": "user", "content": SUMMARY_INTRO + text.strip()}


def transcript(messages: list[Message], limit_chars: int) -> str:
    """Messages as plain text for the summarizer, within limit_chars: long tool results are
    shortened, then every message, then the oldest go."""
    lines: list[str] = []
    for message in messages:
        role = message["role"]
        content = message.get("content")
        text = content if isinstance(content, str) else ""
        if _is_summary(message):
            lines.append("Earlier summary: " + text.removeprefix(SUMMARY_INTRO))
            continue
        if role == "tool":
            text = _shorten(text, 600)
            lines.append(f"Tool result: {text}")
        elif role == "assistant":
            calls = [c.get("function", {}) for c in message.get("tool_calls") or []]
            called = "; ".join(f"{c.get('name', '')}({_args(c.get('arguments'))})" for c in calls)
            lines.append("Hearth: " + (text or "") + (f" [called {called}]" if called else ""))
        else:
            lines.append(f"User: {_shorten(text, 2000)}")
    joined = "\n\n".join(lines)
    if len(joined) > limit_chars:  # every message keeps its start rather than the oldest going
        each = max(40, limit_chars // max(1, len(lines)) - 2)
        joined = "\n\n".join(_shorten(line, each) for line in lines)
    return joined if len(joined) <= limit_chars else "…" + joined[len(joined) - limit_chars:]


def fallback_summary(messages: list[Message]) -> str:
    """When the model gives no summary: what the user asked, in their own words."""
    asked = [_shorten(str(m.get("content", "")), 160) for m in messages
             if m["role"] == "user" and not _is_summary(m)]
    earlier = [str(m.get("content", "")).removeprefix(SUMMARY_INTRO) for m in messages
               if _is_summary(m)]
    parts = earlier + (["The user had asked: " + " | ".join(asked)] if asked else [])
    return "\n\n".join(parts) or "Earlier messages were left out to fit the context."


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _args(arguments: object) -> str:
    return _shorten(str(arguments), 120)
