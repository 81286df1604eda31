"""Which OpenAI-compatible server answers, and what it needs to be spoken to correctly.

llama-cpp-python's own server renders the GGUF's template itself, drops `chat_template_kwargs`
(so Non-Think cannot be switched off there) and validates tool-call arguments as JSON strings,
which the Nanbeige template cannot render; it offers /v1/completions, so Hearth renders the
prompt with the model's own template and parses the raw output itself. llama-server, vLLM and
SGLang honour `chat_template_kwargs` and turn argument strings into mappings for the template
themselves; Ollama renders with its own template and has no raw prompt on /v1/completions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from backends.errors import BackendError, RemoteError
from backends.remote_http import Endpoint, HttpClient, as_int

LLAMA_CPP_PYTHON, LLAMA_SERVER, VLLM, SGLANG, OLLAMA = (
    "llama-cpp-python", "llama-server", "vllm", "sglang", "ollama")
GENERIC = "openai-compatible"


@dataclass(frozen=True)
class ServerKind:
    """What the probe found out about one server."""

    name: str
    template_kwargs: bool = True  # honours chat_template_kwargs (enable_thinking, ...)
    completions: bool = False  # takes a raw prompt on /v1/completions
    tokenize: str = ""  # its token-count endpoint ("" none)
    context_length: int = 0
    chat_template: str = ""  # the template it renders with, where it tells


def probe(http: HttpClient, endpoint: Endpoint, models: list[dict[str, Any]]) -> ServerKind:
    """Ask the endpoints each server is known by; a server that answers none is generic."""
    if any(m.get("owned_by") == "me" for m in models):  # llama_cpp.server's /v1/models
        return ServerKind(LLAMA_CPP_PYTHON, template_kwargs=False, completions=True,
                          tokenize="/extras/tokenize/count")
    props = _get(http, endpoint, "/props")
    if "default_generation_settings" in props or "chat_template" in props:
        settings = props.get("default_generation_settings")
        n_ctx = as_int(settings.get("n_ctx")) if isinstance(settings, dict) else 0
        template = props.get("chat_template")
        return ServerKind(LLAMA_SERVER, completions=True, tokenize="/tokenize",
                          context_length=n_ctx or as_int(props.get("n_ctx")),
                          chat_template=template if isinstance(template, str) else "")
    if "version" in _get(http, endpoint, "/api/version"):
        return ServerKind(OLLAMA, template_kwargs=False)
    if _get(http, endpoint, "/get_model_info"):
        return ServerKind(SGLANG, completions=True)
    if "version" in _get(http, endpoint, "/version"):
        return ServerKind(VLLM, completions=True)
    return ServerKind(GENERIC)


def served_template(models: list[dict[str, Any]]) -> str:
    """The template of a served model whose id is a model file on this machine (a local
    llama_cpp.server names its model by its path)."""
    from backends.llama_gguf import inspect_gguf
    from backends.mlx_folder import inspect_folder

    for model in models:
        path = Path(str(model.get("id", ""))).expanduser()
        try:
            if path.is_file():
                return inspect_gguf(path).chat_template
            if (path / "config.json").is_file():
                return inspect_folder(str(path)).chat_template
        except (BackendError, OSError, ValueError):
            continue
    return ""


def _get(http: HttpClient, endpoint: Endpoint, path: str) -> dict[str, Any]:
    try:
        return http.get_json(endpoint.prefix + path)
    except RemoteError:  # not this kind of server (404) or no answer: try the next
        return {}
