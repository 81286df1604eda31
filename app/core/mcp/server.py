"""`hearth mcp serve`: Hearth's own skills for other agents, as an MCP server over stdio.

Read tools run here, over the same indexes the app uses, inside the folders the user chose.
Calendar changes are never made here: they go to the running Hearth as proposals the user
approves there (through its local server), or they are refused with a clear message."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp_types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
    ToolAnnotations,
)

from backends.parser import by_schema
from skills.base import Skill, SkillContext, SkillError, SkillResult, object_schema

READ_TOOLS = ("search_documents", "read_document", "list_documents", "search_files",
              "list_events", "find_free_time")
CHANGE_TOOLS = ("add_event", "update_event", "delete_event")
PATH_ARGUMENTS = ("document", "folder", "path")
DESTRUCTIVE_TOOLS = ("update_event", "delete_event")  # a proposal that overwrites or removes

_TEXT = {"type": ["string", "null"]}
OUTPUT_SCHEMA = object_schema({
    "sources": {"type": "array", "description": "The passages cited as [n] in the text.",
                "items": object_schema({
                    "citation": {"type": "integer"}, "file": {"type": "string"},
                    "title": _TEXT, "location": _TEXT, "page": {"type": ["integer", "null"]},
                    "text": _TEXT})},
    "data": {"description": "The tool's own result (events, files, slots, documents)."},
}, additionalProperties=False)

Propose = Callable[[str, dict[str, Any]], str]
"""Hands a change to the running Hearth for the user's approval; returns the outcome text or
raises SkillError (refused, or Hearth not running)."""


class HearthTools:
    """The tools other agents see, each a Hearth skill, checked against the chosen folders."""

    def __init__(self, skills: list[Skill], roots: list[str], timezone: str,
                 propose: Propose) -> None:
        self.skills = {s.name: s for s in skills if s.name in READ_TOOLS + CHANGE_TOOLS}
        self.roots = [Path(os.path.abspath(os.path.expanduser(r))) for r in roots]
        self.timezone = timezone
        self.propose = propose

    def tools(self) -> list[Tool]:
        listed = []
        for skill in self.skills.values():
            description = skill.description
            if skill.name in CHANGE_TOOLS:
                description += (" This is a proposal: the user approves or refuses it in "
                                "Hearth, and nothing changes until they do.")
            changes = skill.name in CHANGE_TOOLS
            listed.append(Tool(name=skill.name, description=description,
                               input_schema=skill.parameters, output_schema=OUTPUT_SCHEMA,
                               annotations=ToolAnnotations(
                                   read_only_hint=not changes,
                                   destructive_hint=skill.name in DESTRUCTIVE_TOOLS,
                                   open_world_hint=False)))
        return listed

    def call(self, name: str, arguments: dict[str, Any]) -> CallToolResult:
        skill = self.skills.get(name)
        if skill is None:
            return _error(f"Hearth has no tool called {name!r}.")
        try:
            arguments = _by_schema(name, arguments, skill.parameters)
            jsonschema.validate(arguments, skill.parameters)
        except SkillError as exc:
            return _error(str(exc))
        except jsonschema.ValidationError as exc:
            return _error(f"{name}: {exc.message}")
        try:
            self._check_paths(arguments)
            if name in CHANGE_TOOLS:
                return CallToolResult(content=[TextContent(type="text",
                                                           text=self.propose(name, arguments))],
                                      structured_content={})
            result = skill.run(arguments, self._context())
        except SkillError as exc:
            return _error(str(exc))
        except (ValueError, TypeError, KeyError) as exc:
            return _error(f"{name} could not run with these arguments: {exc}")
        return _result(result)

    def _context(self) -> SkillContext:
        counter = iter(range(1, 1_000_000))
        return SkillContext(conversation_id="", allowed_roots=list(self.roots),
                            timezone=self.timezone, next_citation=lambda: next(counter))

    def _check_paths(self, arguments: dict[str, Any]) -> None:
        for key in PATH_ARGUMENTS:
            value = arguments.get(key)
            if not isinstance(value, str) or not _looks_like_path(value):
                continue
            if not self._context().allows(value):
                raise SkillError(f"{value} is outside the folders you chose in Hearth; only "
                                 "those can be read.")


def _by_schema(name: str, arguments: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """Arguments as the tool's schema types them where the client's JSON type was off but the
    meaning is not (`2` for a page range, `"3"` for a count); one it does not take is refused
    by name rather than ignored."""
    properties = schema.get("properties") or {}
    unknown = sorted(set(arguments) - set(properties))
    if unknown:
        raise SkillError(f"{name} has no argument {unknown[0]!r}; it takes "
                         f"{', '.join(properties) or 'none'}.")
    return {key: by_schema(value, properties[key]) for key, value in arguments.items()}


def _looks_like_path(value: str) -> bool:
    return value.startswith(("/", "~", ".")) or os.sep in value or (
        os.altsep is not None and os.altsep in value) or (len(value) > 1 and value[1] == ":")


def _error(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def _result(result: SkillResult) -> CallToolResult:
    # The text keeps the skill's own words, <document_data> frame included: it is what a client
    # shows the model; structuredContent is the same result for programs.
    structured: dict[str, Any] = {}
    if result.sources:
        structured["sources"] = [
            {"citation": s.citation, "file": s.document, "title": s.title,
             "location": s.location, "page": s.page, "text": s.text} for s in result.sources]
    if result.data is not None:
        structured["data"] = json.loads(json.dumps(result.data, default=str))
    return CallToolResult(content=[TextContent(type="text", text=result.text)],
                          structured_content=structured, is_error=not result.ok)


def build_server(tools: HearthTools, version: str) -> Server[Any]:
    async def list_tools(_context: object, _params: PaginatedRequestParams | None
                         ) -> ListToolsResult:
        return ListToolsResult(tools=tools.tools())

    async def call_tool(_context: object, params: CallToolRequestParams) -> CallToolResult:
        return tools.call(params.name, dict(params.arguments or {}))

    return Server("hearth", version=version, title="Hearth",
                  instructions="Search and read the user's documents and files (with page "
                  "citations) and read their calendar. Calendar changes are proposals the user "
                  "approves in Hearth.", on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_stdio(tools: HearthTools, version: str) -> None:
    server = build_server(tools, version)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
