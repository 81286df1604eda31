"""The Think toggle tells the truth: a chat about a spreadsheet always thinks (office mode),
so the toggle shows it on (and locked) there, live and reopened, and gives the person's own
choice back in other chats."""

from __future__ import annotations

from tests.office.conftest import make_sales
from tests.ui.scripts import TITLE, WAIT_MS, answer
from tests.ui.test_documents import drop, wait_indexed


def test_a_spreadsheet_chat_shows_think_on(window, backend, qtbot, ctx, tmp_path) -> None:
    think = window.chat.composer.think
    think.setChecked(False)  # the person chose no thinking
    drop(window, [make_sales(tmp_path / "sales.xlsx")])
    wait_indexed(qtbot, window)
    assert think.isChecked() and not think.isEnabled()
    assert think.text() == "✓ Think"
    backend.queue(answer("Let me look at the sheet.", "There are 6 rows."), TITLE)
    window.chat.send("how many rows?")
    qtbot.waitUntil(lambda: not window.chat.streaming and backend.pending == 0,
                    timeout=WAIT_MS)
    assert backend.calls[0].options.enable_thinking  # it did think, as the toggle said
    cid = window.chat.conversation_id

    window.new_chat()  # another chat: the person's own choice again
    assert not think.isChecked() and think.isEnabled()
    with qtbot.waitSignal(window.chat.history_loaded, timeout=WAIT_MS):
        window.chat.load_conversation(cid)
    assert think.isChecked() and not think.isEnabled()  # reopened: the same truth
