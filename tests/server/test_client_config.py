"""The ready-to-paste OpenClaw configuration holds only fields OpenClaw's strict config schema
knows (src/config/zod-schema.core.ts: ModelProviderSchema, ModelDefinitionSchema; types.mcp.ts),
with values it accepts: an unknown field or a zero context window fails its validation."""

from __future__ import annotations

import json

from app.core.server.client_config import Endpoint, continue_config, mcp_command, openclaw_config

PROVIDER_FIELDS = {"baseUrl", "apiKey", "auth", "api", "injectNumCtxForOpenAICompat", "headers",
                   "authHeader", "models"}
MODEL_FIELDS = {"id", "name", "api", "reasoning", "input", "cost", "contextWindow", "maxTokens",
                "headers", "compat"}
API_KINDS = {"openai-completions", "openai-responses", "anthropic-messages"}


def _endpoint(context_window: int) -> Endpoint:
    return Endpoint(base_url="http://127.0.0.1:8484/v1", api_key="hearth-key",
                    model="Nanbeige4.2-3B-Q4_K_M", context_window=context_window,
                    max_tokens=4096)


def test_openclaw_provider_model_and_mcp_entry_fit_its_schema() -> None:
    config = json.loads(openclaw_config(_endpoint(32768)))
    assert set(config) == {"models", "agents", "mcp"}
    assert config["models"]["mode"] in ("merge", "replace")
    provider = config["models"]["providers"]["hearth"]
    assert set(provider) <= PROVIDER_FIELDS and provider["api"] in API_KINDS
    assert provider["baseUrl"] == "http://127.0.0.1:8484/v1"
    (model,) = provider["models"]
    assert set(model) <= MODEL_FIELDS and model["name"]  # name is required, non-empty
    assert model["contextWindow"] == 32768 and model["maxTokens"] == 4096
    assert model["input"] == ["text"] and model["reasoning"] is True
    assert set(model["cost"]) == {"input", "output", "cacheRead", "cacheWrite"}
    assert config["agents"]["defaults"]["model"]["primary"] == "hearth/Nanbeige4.2-3B-Q4_K_M"
    command, *args = mcp_command()
    assert config["mcp"]["servers"]["hearth"] == {"command": command, "args": args}


def test_no_context_window_is_written_before_a_model_is_loaded() -> None:
    (model,) = json.loads(openclaw_config(_endpoint(0)))["models"]["providers"]["hearth"][
        "models"]
    assert "contextWindow" not in model  # OpenClaw requires a positive number
    assert "contextLength" not in continue_config(_endpoint(0))
    assert "contextLength: 32768" in continue_config(_endpoint(32768))
