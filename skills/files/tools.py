"""The assistant's file tools: search_files and file_info read the index; open_file and
reveal_file act on the desktop and so need the user's approval (changes_things=True)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skills.base import ReadOnlyTool, Skill, SkillContext, SkillError, SkillResult, object_schema
from skills.common.formats import human_size
from skills.files.kinds import KINDS
from skills.files.models import FileHit
from skills.files.opener import Opener, SystemOpener, file_manager_name
from skills.files.parse import parse_size, parse_when
from skills.files.runnable import runnable_reason

if TYPE_CHECKING:
    from skills.files.index import FileIndex

_PATH = object_schema({"path": {"type": "string", "description": "Full path (from search_files)."}},
                      required=["path"], additionalProperties=False)


def _line(number: int, hit: FileHit) -> str:
    when = hit.modified.strftime("%Y-%m-%d %H:%M")
    text = f"{number}. {hit.name} ({hit.kind}, {human_size(hit.size)}, modified {when})\n"
    text += f"   {hit.path}"
    return text + (f"\n   …{hit.snippet}…" if hit.snippet else "")


class _FileSkill(ReadOnlyTool):

    def __init__(self, index: FileIndex, opener: Opener | None = None) -> None:
        self.index = index
        self.opener = opener or SystemOpener()

    def _resolve(self, arguments: dict[str, Any]) -> str:
        path = arguments.get("path")
        if not isinstance(path, str) or not path.strip():
            raise SkillError("path is required: the full path of a file from search_files")
        try:
            return self.index.resolve(path.strip())
        except ValueError as exc:
            raise SkillError(str(exc)) from None


class SearchFiles(_FileSkill):
    name = "search_files"
    description = ("Find files in the folders the user chose by words in the name or content,"
                   " kind, extension, folder, modification date and size.")
    parameters = object_schema({
        "query": {"type": "string"},
        "kind": {"type": "string", "enum": list(KINDS)},
        "extensions": {"type": "array", "items": {"type": "string"},
                       "description": "e.g. [\"pdf\"]"},
        "folder": {"type": "string", "description": "Only inside it."},
        "modified_after": {"type": "string", "description": "ISO date"},
        "modified_before": {"type": "string", "description": "ISO date"},
        "larger_than": {"type": ["integer", "string"],
                        "description": "Bytes or '10MB'"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
    }, additionalProperties=False)

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        try:
            hits = self.index.search(**_search_args(arguments))
        except (ValueError, TypeError) as exc:
            raise SkillError(str(exc)) from None
        hits = [h for h in hits if context.allows(h.path)]
        if not hits:
            return SkillResult(text="No files matched.", data=[])
        lines = [_line(n, h) for n, h in enumerate(hits, 1)]
        text = f"Found {len(hits)} file(s):\n" + "\n".join(lines)
        return SkillResult(text=text, data=[h.to_dict() for h in hits])


def _search_args(arguments: dict[str, Any]) -> dict[str, Any]:
    """Tool arguments -> FileIndex.search keyword arguments, with readable errors."""
    args: dict[str, Any] = {}
    for key in ("query", "kind", "folder"):
        if arguments.get(key):
            args[key] = str(arguments[key])
    if arguments.get("extensions"):
        exts = arguments["extensions"]
        args["extensions"] = [exts] if isinstance(exts, str) else [str(e) for e in exts]
    for key in ("modified_after", "modified_before"):
        if arguments.get(key):
            args[key] = parse_when(str(arguments[key]))
    if arguments.get("larger_than") not in (None, ""):
        args["larger_than"] = parse_size(arguments["larger_than"])
    if arguments.get("limit") is not None:
        args["limit"] = max(1, min(int(arguments["limit"]), 100))
    return args


class FileDetails(_FileSkill):
    name = "file_info"
    description = "Size, kind and dates of one file in the user's chosen folders."
    parameters: dict[str, Any] = _PATH

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        real = self._resolve(arguments)
        try:
            info = self.index.info(real)
        except (OSError, ValueError) as exc:
            raise SkillError(str(exc)) from None
        data = info.to_dict()
        text = "\n".join(f"{key}: {value}" for key, value in data.items())
        return SkillResult(text=text, data=data)


class OpenFile(_FileSkill):
    name = "open_file"
    description = "Open a file from the user's chosen folders in its default application."
    parameters: dict[str, Any] = _PATH
    changes_things = True

    def describe_change(self, arguments: dict[str, Any]) -> str:
        path = str(arguments.get("path", ""))
        reason = runnable_reason(path) if path else None
        if reason:
            return (f"Show {path} in {file_manager_name()} (it will not be opened: {reason}).")
        return f"Open {path} in its default application."

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        real = self._resolve(arguments)
        reason = runnable_reason(real)
        try:
            if reason:  # opening would run it: never, whatever was approved
                self.opener.reveal(real)
            else:
                self.opener.open(real)
        except OSError as exc:
            raise SkillError(f"could not open the file: {exc}") from None
        if reason:
            return SkillResult(
                text=f"Did not open {arguments['path']}: {reason}, and Hearth never runs "
                     f"programs. Showed it in {file_manager_name()} instead.",
                data={"path": arguments["path"], "revealed": True, "reason": reason})
        return SkillResult(text=f"Opened {arguments['path']}.", data={"path": arguments["path"]})


class RevealFile(_FileSkill):
    name = "reveal_file"
    description = "Show a file from the user's chosen folders in the system file manager."
    parameters: dict[str, Any] = _PATH
    changes_things = True

    def describe_change(self, arguments: dict[str, Any]) -> str:
        return f"Show {arguments.get('path', '')} in {file_manager_name()}."

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        real = self._resolve(arguments)
        try:
            self.opener.reveal(real)
        except OSError as exc:
            raise SkillError(f"could not show the file: {exc}") from None
        return SkillResult(text=f"Showed {arguments['path']} in {file_manager_name()}.",
                           data={"path": arguments["path"]})


def file_skills(index: FileIndex, opener: Opener | None = None) -> list[Skill]:
    """The file tools, sharing one index (and one opener; tests pass a recording fake)."""
    chosen = opener or SystemOpener()
    return [SearchFiles(index, chosen), FileDetails(index, chosen), OpenFile(index, chosen),
            RevealFile(index, chosen)]
