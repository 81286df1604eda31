"""`hearth memory add|list|delete|instructions`: what Hearth remembers about you, from a terminal."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from app.cli.groups import add_action, command_group, confirm_all, dispatch, show
from app.cli.output import fail, fail_on, local_time
from app.core.failures import FailureKind, exit_code

if TYPE_CHECKING:
    from app.core.memory import Memory
    from app.main import Hearth

BAD_INPUT = exit_code(FailureKind.BAD_INPUT)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    actions = command_group(sub, "memory", "facts Hearth remembers about you, and your standing "
                            "instructions (both go into every chat)", run)
    adding = add_action(actions, "add", "remember a fact (typed by you: no approval needed)",
                        run_add)
    adding.add_argument("text", help="the fact, e.g. \"I live in Lyon\"")

    listing = add_action(actions, "list", "every memory, oldest first", run_list)
    listing.add_argument("--query", default="", help="only memories holding this text")

    deleting = add_action(actions, "delete", "forget one memory by id, or all of them",
                          run_delete)
    deleting.add_argument("id", nargs="?", type=int, help="the memory's id (see list)")
    deleting.add_argument("--all", action="store_true", help="forget every memory")
    deleting.add_argument("--yes", action="store_true", help="do not ask before --all")

    instructions = add_action(actions, "instructions",
                              "show, set or clear the standing instructions", run_instructions)
    instructions.add_argument("text", nargs="?", help="the new instructions (replaces them)")
    instructions.add_argument("--clear", action="store_true", help="remove the instructions")


def run(args: argparse.Namespace, hearth: Hearth) -> int:
    try:
        return dispatch(args, hearth)
    except ValueError as exc:  # an empty or too long text, an unknown id
        return fail_on(exc)


def run_add(args: argparse.Namespace, hearth: Hearth) -> int:
    kept = hearth.memory.add(args.text)
    return show(args.json, kept.to_json(), f"Remembered {kept.id}: {kept.text}")


def run_list(args: argparse.Namespace, hearth: Hearth) -> int:
    found = hearth.memory.entries(args.query)
    for memory in found:
        show(args.json, memory.to_json(), _line(memory))
    if not found and not args.json:
        print("Nothing matches." if args.query else "No memories yet.")
    return 0


def _line(memory: Memory) -> str:
    source = "typed" if memory.typed else f"chat {memory.source[:8]}"
    return f"{memory.id:>4}  {local_time(memory.created, True)}  {source:<13} {memory.text}"


def run_delete(args: argparse.Namespace, hearth: Hearth) -> int:
    if args.all == (args.id is not None):
        return fail("give a memory id, or --all", BAD_INPUT)
    if args.all:
        return _delete_all(args, hearth)
    gone = hearth.memory.delete(args.id)
    return show(args.json, {"deleted": gone.id, **gone.to_json()},
                f"Forgot {gone.id}: {gone.text}")


def _delete_all(args: argparse.Namespace, hearth: Hearth) -> int:
    count = len(hearth.memory.entries())
    stop = confirm_all(count, args.yes, f"Forget all {count} memories? [y/N] ",
                       f"this forgets all {count} memories; add --yes to confirm",
                       "Nothing forgotten.")
    if stop is not None:
        return stop
    gone = hearth.memory.delete_all()
    return show(args.json, {"deleted": gone}, f"Forgot {gone} memor{'y' if gone == 1 else 'ies'}.")


def run_instructions(args: argparse.Namespace, hearth: Hearth) -> int:
    if args.clear and args.text is not None:
        return fail("give new instructions, or --clear, not both", BAD_INPUT)
    if args.clear:
        text = hearth.memory.set_instructions("")
    elif args.text is not None:
        if not args.text.strip():
            return fail("the instructions are empty: use --clear to remove them", BAD_INPUT)
        text = hearth.memory.set_instructions(args.text)
    else:
        text = hearth.memory.instructions()
    said = "Standing instructions cleared." if args.clear else (
        text or "No standing instructions.")
    return show(args.json, {"instructions": text}, said)


class Taught:
    """What deleted chats taught Hearth: forgotten with them (--forget-memories), or named on
    stderr with the command that forgets them, so a delete never keeps them unsaid."""

    def __init__(self, hearth: Hearth, conversation_ids: list[str], forget: bool) -> None:
        self.hearth = hearth
        self.forget = forget
        found = hearth.memory.entries()
        wanted = set(conversation_ids)
        self.by_chat = {cid: [m for m in found if m.source == cid] for cid in wanted}

    def record(self, conversation_id: str) -> dict[str, list[int]]:
        """For --json: the memory ids that came from this chat, kept or forgotten."""
        ids = [m.id for m in self.by_chat.get(conversation_id, [])]
        if not ids:
            return {}
        return {"memories_forgotten" if self.forget else "memories_kept": ids}

    def settle(self) -> None:
        taught = [m for found in self.by_chat.values() for m in found]
        if not taught:
            return
        if self.forget:
            self.hearth.memory.delete_many(m.id for m in taught)
            return
        ids = " ".join(str(m.id) for m in taught)
        sys.stderr.write(f"hearth: Hearth still remembers {len(taught)} thing"
                         f"{'s' if len(taught) != 1 else ''} it learned there: "
                         + "; ".join(f"[{m.id}] {m.text}" for m in taught)
                         + f". Forget them with: hearth memory delete ID ({ids})\n")
