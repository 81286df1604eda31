"""Ready-to-paste configuration for other programs: OpenClaw, a Continue-style editor plugin,
and MCP clients (for `hearth mcp serve`)."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path, PureWindowsPath

from backends.base import BackendInfo
from backends.errors import BackendError
from backends.model_shape import model_shape

PROVIDER = "hearth"
# OpenClaw's agent requests are 11-14K tokens (its instructions, tools and the history) before
# it is answered: a Hearth loaded with less context cannot serve it.
OPENCLAW_CONTEXT = 32768


def model_id(info: BackendInfo) -> str:
    """The name clients use for the loaded model: its file or folder name."""
    name = info.model_name or Path(info.model_path).name or info.engine
    return name.removesuffix(".gguf")


@dataclass(frozen=True)
class Endpoint:
    """What a client needs to know about the running server and its model."""

    base_url: str  # …/v1
    api_key: str
    model: str
    context_window: int
    max_tokens: int


def openclaw_config(end: Endpoint) -> str:
    """What to merge into openclaw.json: Hearth as a custom OpenAI-compatible provider
    (models.providers, fields as OpenClaw's ModelProviderSchema has them), its model as the
    agents' default, and `hearth mcp serve` under mcp.servers for Hearth's skills."""
    model: dict[str, object] = {
        "id": end.model, "name": f"{end.model} (Hearth)", "reasoning": True, "input": ["text"],
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},  # a local model
    }
    if end.context_window > 0:  # OpenClaw wants a positive number; unknown until loaded
        model["contextWindow"] = end.context_window
    if end.max_tokens > 0:
        model["maxTokens"] = end.max_tokens
    config = {
        "models": {"mode": "merge", "providers": {PROVIDER: {
            "baseUrl": end.base_url, "apiKey": end.api_key, "api": "openai-completions",
            "models": [model]}}},
        "agents": {"defaults": {"model": {"primary": f"{PROVIDER}/{end.model}"}}},
        "mcp": {"servers": {PROVIDER: mcp_entry()}},
    }
    return json.dumps(config, indent=2, ensure_ascii=False)


def continue_config(end: Endpoint) -> str:
    """A whole config.yaml for Continue (fields as its config-yaml schema has them): the top
    properties it requires, Hearth's model as an OpenAI-compatible provider that can use tools,
    and `hearth mcp serve` under mcpServers for Hearth's skills. Strings are written as JSON
    strings, which YAML reads as they are (a model or path with ':' or '\\' in it stays whole)."""
    quoted = json.dumps
    options = [*([f"      contextLength: {end.context_window}"] if end.context_window > 0 else []),
               *([f"      maxTokens: {end.max_tokens}"] if end.max_tokens > 0 else [])]
    command, *args = mcp_command()
    return "\n".join([
        "name: Hearth", "version: 1.0.0", "schema: v1",
        "models:",
        f"  - name: {quoted(f'{end.model} (Hearth)', ensure_ascii=False)}",
        "    provider: openai",
        f"    model: {quoted(end.model, ensure_ascii=False)}",
        f"    apiBase: {quoted(end.base_url)}",
        f"    apiKey: {quoted(end.api_key)}",
        "    roles: [chat, edit, apply]",
        "    capabilities: [tool_use]",
        *(["    defaultCompletionOptions:", *options] if options else []),
        "mcpServers:",
        "  - name: Hearth",
        f"    command: {quoted(command, ensure_ascii=False)}",
        f"    args: {quoted(args, ensure_ascii=False)}",
        *(["    env:", *(f"      {name}: {quoted(value, ensure_ascii=False)}"
                         for name, value in mcp_env().items())] if mcp_env() else []),
    ]) + "\n"


def mcp_command(executable: str = "", frozen: bool | None = None,
                platform: str = "") -> list[str]:
    """How another program starts Hearth's MCP server, named by its absolute path so it runs
    where this install is not on PATH (an app started from a dock or a service has a short
    one): the bundle's own executable, the `hearth` script beside this Python, or this Python
    running Hearth.

    On Windows the bundle's Hearth.exe is windowed, with no stdin or stdout: an MCP client
    would hear nothing. Its console twin hearth-cli.exe, in the same folder, speaks stdio."""
    frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    platform = platform or sys.platform
    here = executable or sys.executable
    if frozen:
        if platform == "win32":
            return [str(PureWindowsPath(here).with_name("hearth-cli.exe")), "mcp", "serve"]
        return [here, "mcp", "serve"]
    script = Path(here).with_name("hearth.exe" if platform == "win32" else "hearth")
    if script.exists():
        return [str(script), "mcp", "serve"]
    return [here, "-m", "app.main", "mcp", "serve"]


def mcp_env() -> dict[str, str]:
    """HEARTH_HOME when this Hearth runs with one, so the MCP server reads the same data."""
    home = os.environ.get("HEARTH_HOME")
    return {"HEARTH_HOME": os.path.abspath(os.path.expanduser(home))} if home else {}


def mcp_entry() -> dict[str, object]:
    """One MCP server entry (command, args, and env when it is needed)."""
    command, *args = mcp_command()
    env = mcp_env()
    return {"command": command, "args": args, **({"env": env} if env else {})}


def mcp_config() -> str:
    """The `mcpServers` entry MCP clients (OpenClaw, Claude Desktop, editors) read."""
    return json.dumps({"mcpServers": {PROVIDER: mcp_entry()}}, indent=2)


def context_for_openclaw(context_window: int) -> int:
    """The context to suggest when the loaded one is too short for OpenClaw (0: it fits, or
    nothing is loaded)."""
    return OPENCLAW_CONTEXT if 0 < context_window < OPENCLAW_CONTEXT else 0


def context_memory(info: BackendInfo, tokens: int) -> int:
    """Bytes of KV cache `tokens` of context take for the loaded model, at its KV type (0 when
    its file cannot say: a remote server's model, or no file)."""
    if info.engine == "remote" or not info.model_path:
        return 0
    try:
        return model_shape(info.model_path).kv_bytes_per_token(info.kv_type) * tokens
    except (BackendError, OSError, ValueError):
        return 0
