"""What the local engines (llama.cpp, MLX) share: reading a prompt or refusing it, the key of
its saved prefix, and the figures batching and drafting go by."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from jinja2 import TemplateError

from backends.base import GenerateOptions, Message
from backends.chat_format import ChatTemplate
from backends.draft_sources import draft_texts
from backends.errors import BackendError, FailureKind
from backends.events import Done, Event, StreamError
from backends.frame_drafts import FrameDrafts
from backends.pass_costs import DraftPace, PassCosts
from backends.prefix_cache import PrefixKey, engine_prefix_key, prefix_length
from backends.prompt_lookup import ClassEvidence, PromptLookup
from backends.safe_tokens import EncodedPrompt


class _Prefix(Protocol):
    fingerprint: str  # the loaded model's (file + context + KV type): part of every key


class LocalBackend:
    """The parts of LlamaCppBackend and MlxBackend that are the same on both engines."""

    resumes_output = True  # a generation paused (events.Paused) goes on from resume_tokens

    def __init__(self, kv_type: str, kv_types: Collection[str], speculate: bool) -> None:
        """kv_types: the KV cache types the engine offers; speculate: verify prompt-lookup
        drafts instead of decoding one token per pass."""
        if kv_type not in kv_types:
            raise BackendError(f"Unknown KV cache type {kv_type!r}: choose one of "
                               f"{', '.join(kv_types)}")
        self.speculate = speculate
        self.pass_costs = PassCosts()  # what this model's verify passes cost, as measured
        self.lone_pace = DraftPace()  # what the single path's drafts make of a pass, lately
        self.batch_pace = DraftPace()  # what a batch's drafts make of its steps, lately
        self.batch_evidence = ClassEvidence()  # how batch members' drafts fared, lately
        self._prefix: _Prefix | None = None
        self._template: ChatTemplate | None = None

    def encode_prompt(self, messages: list[Message], options: GenerateOptions,
                      add_generation_prompt: bool = True) -> EncodedPrompt:
        raise NotImplementedError  # each engine tokenizes its own way

    def batch_gain(self, size: int) -> float:
        # Batch steps and verify passes are timed alike; the batch's drafts gain on top.
        return self.pass_costs.batch_gain(size) * self.batch_pace.gain

    def lone_gain(self) -> float:
        return self.lone_pace.gain

    def prefix_tokens(self, messages: list[Message], options: GenerateOptions) -> int:
        """Tokens of the rendered prefix (system message + tool schemas), as the engine reads it."""
        return prefix_length(self, messages, options)

    def _key(self, messages: list[Message], options: GenerateOptions,
             tokens: list[int] | None) -> PrefixKey | None:
        if self._prefix is None or self._template is None:
            return None
        return engine_prefix_key(self, self._prefix.fingerprint, messages, options, tokens)

    def plain_tokens(self, text: str) -> list[int]:
        raise NotImplementedError  # `text` as the engine's tokenizer reads it, no special tokens

    def _drafter(self, tokens: list[int], prompt: str, options: GenerateOptions,
                 shared: ClassEvidence | None = None) -> MeteredLookup | None:
        """The drafter of a generation that goes on from `tokens` (the prompt's text `prompt`),
        when drafts are verified: it also drafts from the prompt's tables rewritten and the
        tool calls it may make (backends/draft_sources.py), and a call's frame from which of
        its parameters are written (backends/frame_drafts.py); `shared`: the evidence of the
        generations it runs among (a batch's members)."""
        if not self.speculate:
            return None
        sources = [self.plain_tokens(text) for text in
                   draft_texts(prompt, options.tools, options.tool_call_format)]
        # The XML call format's frame is what FrameDrafts knows (the format the model writes).
        tools = options.tools if options.tool_call_format == "xml" else []
        return MeteredLookup(tokens, self.pass_costs, sources,
                             FrameDrafts(tools, self.plain_tokens), shared)

    def with_drafts(self, done: Done, drafter: MeteredLookup | None) -> Done:
        """`done`, its timings with what the drafter did when the generation verified drafts;
        the single path's pace learns from them (lone_gain)."""
        if drafter is None:
            return done
        done.timings.update(drafter.stats.timings())
        # Each pass gives its sampled token and the draft tokens kept before it.
        self.lone_pace.record(drafter.passes + drafter.stats.accepted, drafter.spent)
        return done

    def _read_prompt(self, messages: list[Message], options: GenerateOptions,
                     context: int) -> EncodedPrompt | list[Event]:
        """The prompt's text and tokens (then the output it goes on from), or the events that
        refuse it: a template that cannot format it, or more tokens than the context holds."""
        try:
            encoded = self.encode_prompt(messages, options)
        except (ValueError, TypeError, TemplateError) as exc:  # messages the template refuses
            return [StreamError("The chat template could not format this conversation: "
                                f"{one_line(exc)}", kind=FailureKind.ENGINE_FAILED),
                    Done("error")]
        tokens = encoded.tokens + options.resume_tokens
        if len(tokens) >= context:
            return [StreamError(f"The conversation is {len(tokens):,} tokens long, more than the "
                                f"model's {context:,}-token context: start a new chat or raise "
                                "the context length", kind=FailureKind.CONTEXT_FULL),
                    Done("error", prompt_tokens=len(tokens))]
        return EncodedPrompt(encoded.text, tokens)


class MeteredLookup(PromptLookup):
    """A drafter that also adds up its generation's passes and what they cost in one-token
    passes (the engine times every pass it makes, plain or checking a draft, through timed)."""

    passes = 0
    spent = 0.0

    def timed(self, size: int, seconds: float) -> None:
        super().timed(size, seconds)
        self.passes += 1
        self.spent += self.costs.relative(size)


def one_line(exc: BaseException, limit: int = 300) -> str:
    # Library messages can span lines; the user sees one readable line.
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
