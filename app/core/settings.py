"""Typed, versioned user settings stored as JSON; unknown or bad values fall back to defaults."""

from __future__ import annotations

import json
import logging
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core import settings_compat
from app.core.settings_compat import SettingNote
from skills.common.limits import LIMITS, deeper_than

SETTINGS_VERSION = 1
log = logging.getLogger(__name__)


@dataclass
class McpServer:
    """An external MCP server the user listed: a stdio command or a streamable HTTP URL."""

    name: str
    command: list[str] = field(default_factory=list)
    url: str = ""
    trusted: bool = False
    unknown: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass
class TemplateChoice:
    """A chat template file (.jinja) the person chose for a GGUF that has no usable one."""

    model: str
    template: str
    unknown: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass
class Settings:
    """Everything the user can choose. Field defaults are what a new user gets."""

    version: int = SETTINGS_VERSION
    model_path: str = ""
    engine: str = "auto"  # auto | llama | mlx | remote
    remote_url: str = ""
    remote_model: str = ""
    context_length: int = 0  # 0: choose from free memory
    kv_type: str = "f16"  # f16 | q8_0
    thinking_default: bool = False
    max_tokens: int = 4096
    watched_folders: list[str] = field(default_factory=list)
    file_roots: list[str] = field(default_factory=list)
    file_ignore_patterns: list[str] = field(default_factory=list)
    hotkey: str = ""  # "": the platform default
    theme: str = "system"  # system | light | dark
    language: str = "system"  # system | en | zh_CN
    mcp_servers: list[McpServer] = field(default_factory=list)
    # Tool names the model may use; empty: all, ["-"]: none (app.core.skill_switches)
    enabled_skills: list[str] = field(default_factory=list)
    step_limit: int = 8
    # Sampling per step (MODEL.md): the first step of a turn is chat, steps after a tool result
    # are agentic work.
    chat_temperature: float = 0.6
    chat_top_p: float = 0.95
    chat_top_k: int = 20
    tool_temperature: float = 1.0
    tool_top_p: float = 0.95
    tool_top_k: int = 20
    # Reasoning tokens per kind of request before Hearth closes the reasoning (0: no reasoning).
    thinking_budget_chat: int = 2048
    thinking_budget_quick: int = 1024
    thinking_budget_tools: int = 1024
    thinking_budget_title: int = 0
    # The OpenAI-compatible server for other programs (app/core/server): off until switched on.
    server_enabled: bool = False
    server_host: str = "127.0.0.1"  # another address exposes the model to the network: warned
    server_port: int = 8484
    server_api_key: str = ""  # created on first use; this file is owner-only
    server_cors_origins: list[str] = field(default_factory=list)  # empty: no browser page
    max_tool_calls_per_step: int = 10  # also with --yes: the rest are refused, not run
    max_tool_calls_per_turn: int = 40
    recent_models: list[str] = field(default_factory=list)  # newest first, for quick switching
    tray_notice_shown: bool = False  # "still running in the tray" is said once, ever
    settings_notes_told: list[str] = field(default_factory=list)  # problems said once, ever
    # Not settings: keys of other versions (kept when saving) and this load's problems.
    unknown: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    load_notes: list[SettingNote] = field(default_factory=list, compare=False, repr=False)
    office_output_folder: str = ""  # "": a "Hearth" folder in the user's Documents
    threads: int = 0  # engine threads; 0: one per physical core
    prefix_cache_mb: int = 2048  # disk for saved prompt-prefix states (least recently used go)
    # Verify guesses copied from the prompt many tokens per forward pass (issue 28); off: one
    # token per pass. Applies when a model is loaded.
    prompt_lookup: bool = True
    # GGUF files without a chat template the user chose to run with their architecture's
    # well-known one (backends/known_templates.py), asked in the model manager.
    known_template_models: list[str] = field(default_factory=list)
    # ...and those the person gave a chat template file of their choosing (newest last).
    chat_template_files: list[TemplateChoice] = field(default_factory=list)
    # Memory (Settings > Memory): saved facts go into every chat; the model's proposals to
    # remember ask first unless the person chose otherwise (forgetting always asks).
    memory_enabled: bool = True
    remember_without_asking: bool = False

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Settings:
        """Every field checked on its own (app/core/settings_compat.py); problems in load_notes."""
        notes: list[SettingNote] = []
        settings = settings_compat.build(cls, raw, "", notes)
        settings.load_notes = notes
        return settings

    def to_dict(self) -> dict[str, Any]:
        return settings_compat.plain(self)

    def template_file(self, model: str) -> str:
        """The chat template file chosen for this model ("" for none)."""
        return next((c.template for c in reversed(self.chat_template_files) if c.model == model),
                    "")

    def choose_template_file(self, model: str, template: str) -> None:
        self.chat_template_files = [c for c in self.chat_template_files if c.model != model]
        self.chat_template_files.append(TemplateChoice(model, template))


def load_settings(path: Path) -> Settings:
    """Read settings; a missing or damaged file gives defaults (the damaged one is kept aside)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if deeper_than(raw, LIMITS.json_depth):
            raise RecursionError
    except FileNotFoundError:
        return Settings()
    except RecursionError:  # json's own limit, or ours: either way not settings
        return _set_aside(path, f"it nests deeper than {LIMITS.json_depth} levels "
                          "(Hearth's json_depth limit)")
    except (OSError, ValueError) as exc:
        return _set_aside(path, f"it is not readable JSON ({type(exc).__name__})")
    return Settings.from_dict(raw) if isinstance(raw, dict) else Settings()


def _set_aside(path: Path, why: str) -> Settings:
    """The defaults, the damaged file kept beside as settings.damaged.json, and one line."""
    aside = path.with_suffix(".damaged.json")
    try:
        path.replace(aside)
    except OSError:
        aside = path  # a read-only folder: used as defaults all the same
    log.warning("settings.json was not used: %s; Hearth runs on its defaults (the file is "
                "kept as %s)", why, aside.name)
    return Settings()


def save_settings(settings: Settings, path: Path) -> None:
    """Write atomically so a crash or a full disk never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".settings-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(settings.to_dict(), handle, indent=2, ensure_ascii=False)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)  # it holds the server's API key: owner-only (mkstemp's mode too)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
