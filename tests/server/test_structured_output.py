"""Structured output: a JSON schema in response_format (chat) or text.format (responses) is
honoured on the real llama.cpp engine with the tiny model: constrained sampling makes even a
random model write JSON that validates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from tests.server.served import Served
from tests.server.test_openai_contract import client

SCHEMA = {"type": "object", "additionalProperties": False, "required": ["answer", "sure"],
          "properties": {"answer": {"enum": ["yes", "no"]}, "sure": {"type": "boolean"}}}


def test_json_schema_is_followed_on_chat_and_responses(tmp_path: Path, tiny_model: Any) -> None:
    served = Served(tmp_path / "home", "--model", str(tiny_model.gguf_path),
                    settings={"context_length": 2048})
    try:
        model = served.wait_for("ready")["model"]
        sdk = client(served)
        question = [{"role": "user", "content": "Is the sky blue?"}]
        chat = sdk.chat.completions.create(
            model=model, messages=question, max_tokens=200, seed=3,
            response_format={"type": "json_schema",
                             "json_schema": {"name": "verdict", "schema": SCHEMA,
                                             "strict": True}})
        jsonschema.validate(json.loads(chat.choices[0].message.content or ""), SCHEMA)
        streamed = sdk.responses.create(
            model=model, input="Is the sky blue?", max_output_tokens=200, stream=True,
            text={"format": {"type": "json_schema", "name": "verdict", "schema": SCHEMA,
                             "strict": True}})
        final = [e for e in streamed if e.type == "response.completed"][0].response
        jsonschema.validate(json.loads(final.output_text), SCHEMA)
        anything = sdk.chat.completions.create(model=model, messages=question, max_tokens=200,
                                               seed=4, response_format={"type": "json_object"})
        assert isinstance(json.loads(anything.choices[0].message.content or ""), dict)
    finally:
        served.stop()
