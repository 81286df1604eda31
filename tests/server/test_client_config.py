"""The ready-to-paste configurations hold only fields their programs' schemas know, with values
they accept. OpenClaw's strict config schema (src/config/zod-schema.core.ts: ModelProviderSchema,
ModelDefinitionSchema; types.mcp.ts): an unknown field or a zero context window fails it.
Continue's config.yaml (packages/config-yaml/src/schemas: index.ts, models.ts): name, version
and schema are required at the top, and a model needs name, provider and model."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema
import pytest
import yaml

from app.core.server.client_config import (
    Endpoint,
    continue_config,
    mcp_command,
    mcp_config,
    mcp_entry,
    openclaw_config,
)
from app.main import main
from tests.server.served import ROOT

if TYPE_CHECKING:
    from mcp.client.stdio import StdioServerParameters

PROVIDER_FIELDS = {"baseUrl", "apiKey", "auth", "api", "injectNumCtxForOpenAICompat", "headers",
                   "authHeader", "models"}
MODEL_FIELDS = {"id", "name", "api", "reasoning", "input", "cost", "contextWindow", "maxTokens",
                "headers", "compat"}
API_KINDS = {"openai-completions", "openai-responses", "anthropic-messages"}


# Continue's zod schemas written as JSON Schema; closed objects, so a misspelt field shows.
_NUMBER = {"type": "number"}
CONTINUE_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["name", "version", "schema"], "additionalProperties": False,
    "properties": {
        "name": {"type": "string"}, "version": {"type": "string"}, "schema": {"type": "string"},
        "models": {"type": "array", "items": {
            "type": "object", "required": ["name", "provider", "model"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string"}, "provider": {"type": "string"},
                "model": {"type": "string"}, "apiBase": {"type": "string"},
                "apiKey": {"type": "string"},
                "roles": {"type": "array", "items": {"enum": [
                    "chat", "autocomplete", "embed", "rerank", "edit", "apply", "summarize"]}},
                "capabilities": {"type": "array", "items": {"enum": ["tool_use", "image_input"]}},
                "defaultCompletionOptions": {
                    "type": "object", "additionalProperties": False,
                    "properties": {"contextLength": _NUMBER, "maxTokens": _NUMBER}},
            }}},
        "mcpServers": {"type": "array", "items": {
            "type": "object", "required": ["name", "command"], "additionalProperties": False,
            "properties": {"name": {"type": "string"}, "command": {"type": "string"},
                           "args": {"type": "array", "items": {"type": "string"}},
                           "env": {"type": "object",
                                   "additionalProperties": {"type": "string"}}}}},
    },
}


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
    assert config["mcp"]["servers"]["hearth"] == mcp_entry()


def test_no_context_window_is_written_before_a_model_is_loaded() -> None:
    (model,) = json.loads(openclaw_config(_endpoint(0)))["models"]["providers"]["hearth"][
        "models"]
    assert "contextWindow" not in model  # OpenClaw requires a positive number
    assert "contextLength" not in continue_config(_endpoint(0))


def test_continue_config_is_a_whole_config_yaml_that_fits_its_schema() -> None:
    config = yaml.safe_load(continue_config(_endpoint(32768)))
    jsonschema.validate(config, CONTINUE_SCHEMA)
    (model,) = config["models"]
    assert model["provider"] == "openai" and model["model"] == "Nanbeige4.2-3B-Q4_K_M"
    assert model["apiBase"] == "http://127.0.0.1:8484/v1" and model["apiKey"] == "hearth-key"
    assert "tool_use" in model["capabilities"]  # else Continue keeps its agent's tools away
    assert model["defaultCompletionOptions"] == {"contextLength": 32768, "maxTokens": 4096}
    assert config["mcpServers"] == [{"name": "Hearth", **mcp_entry()}]


def test_continue_config_keeps_odd_names_and_paths_whole(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """A model file named with YAML's own marks, and a Windows bundle's executable path."""
    exe = r"C:\Program Files\Hearth\Hearth.exe"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", exe)
    end = Endpoint(base_url="http://[::1]:8484/v1", api_key="k#1", model="a: b #c [d]",
                   context_window=0, max_tokens=0)
    config = yaml.safe_load(continue_config(end))
    jsonschema.validate(config, CONTINUE_SCHEMA)
    (model,) = config["models"]
    assert (model["model"], model["apiKey"], model["apiBase"]) == (
        "a: b #c [d]", "k#1", "http://[::1]:8484/v1")
    assert "defaultCompletionOptions" not in model  # nothing known yet: Continue's defaults
    assert config["mcpServers"][0]["command"] == exe
    assert config["mcpServers"][0]["args"] == ["mcp", "serve"]


def test_each_generated_mcp_entry_runs_as_a_client_starts_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each entry started exactly as written, by the mcp SDK's client, with an empty PATH and
    from another folder: the absolute command runs, and HEARTH_HOME reaches it (the server
    reads this Hearth's data: a document added there is listed).
    PYTHONPATH only makes this worktree's code the one imported."""
    from mcp.client.stdio import StdioServerParameters  # slow to import: here, not at collection

    home = tmp_path / "home"
    monkeypatch.setenv("HEARTH_HOME", str(home))
    folder = tmp_path / "chosen"
    folder.mkdir()
    (folder / "kettle-notes.txt").write_text("descale monthly", encoding="utf-8")
    assert main(["docs", "add", str(folder)]) == 0
    openclaw = json.loads(openclaw_config(_endpoint(32768)))["mcp"]["servers"]["hearth"]
    continued = yaml.safe_load(continue_config(_endpoint(32768)))["mcpServers"][0]
    plain = json.loads(mcp_config())["mcpServers"]["hearth"]
    for entry in (openclaw, continued, plain):
        assert Path(entry["command"]).is_absolute()
        assert entry["env"] == {"HEARTH_HOME": str(home)}
        params = StdioServerParameters(command=entry["command"], args=entry["args"],
                                       env={**entry["env"], "PATH": "", "PYTHONPATH": str(ROOT)},
                                       cwd=str(tmp_path))
        tools, listed = asyncio.run(_session(params))
        assert "search_documents" in tools and "kettle-notes.txt" in listed
    monkeypatch.delenv("HEARTH_HOME")
    assert "env" not in mcp_entry()


async def _session(params: StdioServerParameters) -> tuple[list[str], str]:
    from mcp import Client
    from mcp.client.stdio import stdio_client

    # The server's stderr to the null device: the SDK's default is sys.stderr as it was when
    # the SDK was first imported, which under capsys is a buffer with no file descriptor.
    with open(os.devnull, "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog),
                          read_timeout_seconds=120) as client:
            tools = [tool.name for tool in (await client.list_tools()).tools]
            listed = await client.call_tool("list_documents", {})
            return tools, "".join(getattr(part, "text", "") for part in listed.content)


def test_other_apps_start_the_windows_bundles_console_twin_for_mcp() -> None:
    """Hearth.exe is windowed (no stdin/stdout): an MCP client pointed at it heard nothing."""
    folder = r"C:\Users\Ann Lee\AppData\Local\Programs\Hearth"
    assert mcp_command(folder + r"\Hearth.exe", frozen=True, platform="win32") == [
        folder + r"\hearth-cli.exe", "mcp", "serve"]
    assert mcp_command("/Applications/Hearth.app/Contents/MacOS/Hearth", frozen=True,
                       platform="darwin")[0].endswith("MacOS/Hearth")  # stdio works there
    assert Path(mcp_command(frozen=False)[0]).is_absolute()  # a source install: its own path
