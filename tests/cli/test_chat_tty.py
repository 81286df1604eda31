"""`hearth chat` in a real terminal: Ctrl+C stops the answer being written, the chat goes on."""

from __future__ import annotations

import codecs
import json
import os
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from app.core.history import HistoryStore
from app.core.paths import Paths
from tests.support.model_output import answer
from tests.support.processes import popen_with_ctrl_c

REPO = Path(__file__).resolve().parents[2]
WAIT = 60  # bound on every wait; a healthy run needs a few seconds
WORDS = 400


class Terminal:
    """A process on a pseudo-terminal, as a person runs it; reads its screen with bounded waits."""

    def __init__(self, argv: list[str]) -> None:
        import pty  # POSIX only

        self.master, slave = pty.openpty()
        try:
            self.process = popen_with_ctrl_c(argv, stdin=slave, stdout=slave, stderr=slave,
                                             cwd=REPO, start_new_session=True)
        finally:
            os.close(slave)
        self.screen = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def expect(self, text: str, start: int = 0) -> int:
        """Read until `text` shows at or after `start`; returns the index just past it."""
        deadline = time.monotonic() + WAIT
        while (found := self.screen.find(text, start)) < 0:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never appeared; the screen ends:\n{self.screen[-1500:]}"
            if select.select([self.master], [], [], left)[0]:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # EIO: the process closed its terminal
                    chunk = b""
                assert chunk, f"the process ended before {text!r}:\n{self.screen[-1500:]}"
                self.screen += self._decoder.decode(chunk)
        return found + len(text)

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(WAIT)
        os.close(self.master)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_ctrl_c_in_chat_stops_the_answer_and_the_chat_goes_on(tmp_path: Path) -> None:
    story = " ".join(f"word{i}" for i in range(WORDS))
    script = tmp_path / "script.json"
    script.write_text(json.dumps([answer(story), answer("Still here."), "Story time"]),
                      encoding="utf-8")
    term = Terminal([sys.executable, "-m", "app.main", "chat", "--engine", "scripted",
                     "--script", str(script), "--script-delay", "0.02", "--think"])
    try:
        at = term.expect("you> ")
        term.type("tell me a long story")
        at = term.expect("word5 ", at)  # streaming: ~16 s to go
        term.process.send_signal(signal.SIGINT)
        at = term.expect("(stopped)", at)
        at = term.expect("you> ", at)
        assert term.process.poll() is None  # still running, and still answering:
        term.type("are you there?")
        at = term.expect("Still here.", at)
        term.expect("you> ", at)
        term.type("/quit")
        assert term.process.wait(WAIT) == 0
    finally:
        term.close()
    assert f"word{WORDS - 1}" not in term.screen
    store = HistoryStore(Paths.from_env().history_db)
    try:
        (conversation,) = store.list_conversations()
        saved = store.messages(conversation.id)
    finally:
        store.close()
    assert [(m.role, m.status) for m in saved] == [
        ("user", "complete"), ("assistant", "cancelled"),
        ("user", "complete"), ("assistant", "complete")]
    cut = saved[1].content
    assert cut.startswith("word0 word1") and f"word{WORDS - 1}" not in cut
    assert saved[3].content == "Still here."
