"""Read an .ics file into components without trusting it: unfold (RFC 5545 3.1) first, then
split into top-level components with their line numbers, bounded in size, count and depth.
A component that is broken is marked with the reason; the rest of the file still reads."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from skills.calendar.report import Fault, IssueWhy, fault

MAX_BYTES = 64 * 1024 * 1024  # a 50,000-event calendar is ~15 MB
MAX_COMPONENTS = 200_000
MAX_DEPTH = 8  # VCALENDAR > VEVENT > VALARM is 3; deeper is not a calendar program's output
MAX_LINES = 20_000  # content lines in one component (a series with 20,000 EXDATE lines is odd)
MAX_LINE = 256 * 1024  # characters in one unfolded line
_CONTENT_LINE = re.compile(r"^[A-Za-z0-9-]+(;[^:]*)?:")
KEPT = ("VEVENT", "VTODO", "VTIMEZONE")


@dataclass
class Block:
    """One top-level component: its name, the line its BEGIN is on, its unfolded lines."""

    name: str
    line: int
    lines: list[tuple[int, str]] = field(default_factory=list)
    problem: Fault | None = None  # why it cannot be imported (None when it can)
    problem_line: int = 0
    ignored: list[int] = field(default_factory=list)  # lines dropped: not content lines

    def text(self, keep: frozenset[str] | None = None) -> str:
        """The component as text; with `keep`, only those properties (and BEGIN/END), so the
        parser skips what Hearth does not use (attendee lists are most of an export)."""
        lines = [text for _, text in self.lines
                 if keep is None or split(text)[0] in keep or split(text)[0] in ("BEGIN", "END")]
        return "\r\n".join(lines) + "\r\n"

    def first(self, prop: str) -> tuple[int, str] | None:
        """(line, value) of the first `prop` line of this component itself."""
        return next(self._own(prop), None)

    def all(self, prop: str) -> list[tuple[int, str]]:
        return list(self._own(prop))

    def _own(self, prop: str) -> Iterator[tuple[int, str]]:
        # (line, value) of each `prop` line of this component, not of those nested in it.
        depth = 0
        for number, text in self.lines[1:]:
            name, value = split(text)
            if name == "BEGIN":
                depth += 1
            elif name == "END":
                depth -= 1
            elif depth == 0 and name == prop:
                yield number, value


@dataclass
class Parsed:
    properties: dict[str, str]  # the calendar's own (X-WR-CALNAME, X-WR-TIMEZONE, ...)
    blocks: list[Block]
    notes: list[tuple[int, Fault]]  # file-level problems (cut off, too many components)


def split(text: str) -> tuple[str, str]:
    head, _, value = text.partition(":")
    return head.split(";", 1)[0].strip().upper(), value


def unfold(text: str) -> list[tuple[int, str]]:
    """Logical lines with the physical line each starts on. A line that begins with a space
    or tab continues the previous one (Google folds in the middle of parameters)."""
    lines: list[tuple[int, str]] = []
    for number, raw in enumerate(re.split(r"\r\n|\n|\r", text), start=1):
        if raw[:1] in (" ", "\t") and lines:
            start, previous = lines[-1]
            if len(previous) < MAX_LINE:
                lines[-1] = (start, previous + raw[1:])
        elif raw.strip():
            lines.append((number, raw))
    return lines


def read_blocks(text: str) -> Parsed:
    props: dict[str, str] = {}
    blocks: list[Block] = []
    notes: list[tuple[int, Fault]] = []
    stack: list[str] = []
    current: Block | None = None
    seen_calendar = bare = False
    overflow = 0  # BEGINs deeper than MAX_DEPTH not yet closed
    for number, line in unfold(text):
        if not _CONTENT_LINE.match(line):
            if current is not None:
                current.ignored.append(number)
            elif stack:
                notes.append((number, fault(IssueWhy.NOT_CONTENT_LINE, repr(line[:40]))))
            continue
        name, value = split(line)
        upper = value.strip().upper()
        if name == "BEGIN":
            if not stack and upper in KEPT and not seen_calendar:
                stack.append("VCALENDAR")  # bare components (RFC 5545 has them wrapped)
                seen_calendar = bare = True
            if not stack and upper != "VCALENDAR":
                continue  # text before the calendar (an e-mail header, say)
            if upper == "VCALENDAR" and not stack:
                seen_calendar = True
            if len(stack) > MAX_DEPTH:  # counted, not kept: closing them stays O(1)
                overflow += 1
                if current is not None and not current.problem:
                    current.problem = fault(IssueWhy.TOO_DEEP, MAX_DEPTH)
                    current.problem_line = number
                continue
            stack.append(upper)
            if len(stack) == 2:
                if len(blocks) >= MAX_COMPONENTS:
                    if len(blocks) == MAX_COMPONENTS:
                        notes.append((number, fault(IssueWhy.TOO_MANY_COMPONENTS,
                                                    f"{MAX_COMPONENTS:,}")))
                    current = None
                else:
                    current = Block(upper, number)
                    blocks.append(current)
        elif name == "END":
            if overflow:
                overflow -= 1
                continue
            if upper not in stack:
                if current is not None and not current.problem:
                    current.problem = fault(IssueWhy.END_UNOPENED, upper)
                    current.problem_line = number
                continue
            while stack and stack[-1] != upper:  # END:VEVENT with a VALARM still open
                if current is not None and not current.problem:
                    current.problem = fault(IssueWhy.END_EARLY, upper, stack[-1])
                    current.problem_line = number
                stack.pop()
            stack.pop()
        elif len(stack) == 1:
            props.setdefault(name, value)
            continue
        if current is not None and len(stack) >= 1:
            if len(current.lines) < MAX_LINES:
                current.lines.append((number, line))
            elif not current.problem:
                current.problem = fault(IssueWhy.TOO_MANY_LINES, f"{MAX_LINES:,}")
                current.problem_line = number
        if len(stack) == 1:
            current = None
        if bare and stack == ["VCALENDAR"] and name == "END":
            stack.pop()  # the next bare component opens it again
            seen_calendar = False
    if not seen_calendar and not bare:
        raise ValueError("no BEGIN:VCALENDAR found")
    if len(stack) > 1 and current is not None and not current.problem:
        current.problem = fault(IssueWhy.CUT_OFF, stack[1])
        current.problem_line = current.line
    if stack:
        notes.append((0, fault(IssueWhy.CUT_OFF, "VCALENDAR")))
    return Parsed(props, [b for b in blocks if b.name in KEPT], notes)
