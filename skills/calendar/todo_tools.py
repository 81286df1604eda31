"""The model's to-do tools: list them, add one and mark one done (both asked first)."""

from __future__ import annotations

from typing import Any

from skills.base import ReadOnlyTool, Skill, SkillContext, SkillError, SkillResult, object_schema
from skills.calendar.calendar_tool import CalendarTool
from skills.calendar.store import CalendarStore
from skills.calendar.timeutil import describe, parse_when
from skills.calendar.todos import PRIORITY_WORDS, Todo


def todo_line(todo: Todo) -> str:
    due = f" due {describe(todo.due)}" if todo.due is not None else ""
    priority = f" ({PRIORITY_WORDS.get(todo.priority, f'priority {todo.priority}')})" \
        if todo.priority else ""
    done = " [done]" if todo.done else ""
    return f"- {todo.title}{due}{priority}{done} [id {todo.uid}]"


def build_todo(arguments: dict[str, Any], tz: str) -> Todo:
    due_text = str(arguments.get("due") or "").strip()
    due = parse_when(due_text, tz) if due_text else None
    return Todo("", str(arguments.get("title", "")), due, tz,
                int(arguments.get("priority") or 0), notes=str(arguments.get("notes") or ""))


class ListTodos(ReadOnlyTool, CalendarTool):
    name = "list_todos"
    description = "List the user's to-dos (open ones; all=true includes those done)."
    parameters = object_schema({"all": {"type": "boolean"}})

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        todos = self.store.todos.all(include_done=bool(arguments.get("all")))
        if not todos:
            return SkillResult("No to-dos.", data={"kind": "todos", "todos": []})
        return SkillResult("\n".join(todo_line(t) for t in todos),
                           data={"kind": "todos", "todos": [t.to_json() for t in todos]})


class AddTodo(CalendarTool):
    name = "add_todo"
    description = ("Add a to-do. due: an ISO date (2026-12-03) or time (2026-12-03T17:00) in "
                   "the user's zone; priority 1 (high), 5 (medium), 9 (low).")
    parameters = object_schema({"title": {"type": "string"}, "due": {"type": "string"},
                                "priority": {"type": "integer", "minimum": 0, "maximum": 9},
                                "notes": {"type": "string"}}, required=["title"])
    changes_things = True

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        todo = self.store.todos.add(build_todo(arguments, context.timezone))
        return SkillResult(f"Added the to-do {todo_line(todo)[2:]}.",
                           data={"kind": "todo", "uid": todo.uid})

    def describe_change(self, arguments: dict[str, Any]) -> str:
        try:
            return "Add the to-do " + todo_line(build_todo(arguments, self.timezone))[2:].split(
                " [id")[0]
        except SkillError as exc:
            return f"Add a to-do (the details are invalid: {exc})"


class CompleteTodo(CalendarTool):
    name = "complete_todo"
    description = "Mark a to-do done by its id (list_todos shows the ids)."
    parameters = object_schema({"id": {"type": "string"}}, required=["id"])
    changes_things = True

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        todo = self.store.todos.complete(str(arguments["id"]))
        return SkillResult(f"Marked done: {todo.title}.", data={"kind": "todo", "uid": todo.uid})

    def describe_change(self, arguments: dict[str, Any]) -> str:
        try:
            todo = self.store.todos.get(str(arguments.get("id", "")))
        except SkillError:
            return f"Mark to-do {arguments.get('id')!r} done (no such to-do)"
        return f"Mark the to-do \u201c{todo.title}\u201d done"


def todo_skills(store: CalendarStore, timezone: str = "UTC") -> list[Skill]:
    return [ListTodos(store), AddTodo(store, timezone), CompleteTodo(store)]
