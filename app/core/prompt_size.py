"""How many tokens the fixed prompt prefix costs: the system message and each tool schema."""

from __future__ import annotations

import dataclasses
from typing import Any

from backends.base import GenerateOptions, LocalEngine, Message


def measure(engine: LocalEngine, messages: list[Message],
            options: GenerateOptions) -> dict[str, Any]:
    """Token counts with the loaded model's own tokenizer, as its chat template renders them.

    "system": the system message alone; "tools": what each schema adds on its own (the
    template's tool header included, so these sum to a little more than "tools_total");
    "total": the whole prefix every new conversation starts with."""
    system = messages[:1]
    bare = engine.prefix_tokens(system, dataclasses.replace(options, tools=[]))
    total = engine.prefix_tokens(system, options)
    tools = {}
    for spec in options.tools:
        alone = engine.prefix_tokens(system, dataclasses.replace(options, tools=[spec]))
        tools[str(spec.get("function", {}).get("name", "?"))] = alone - bare
    characters = len(str(system[0].get("content", ""))) if system else 0
    return {"system": bare, "tools_total": total - bare, "total": total, "tools": tools,
            "system_characters": characters}
