"""Markdown loads after the window: until then a message shows its text as it is, never waits."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from app.ui import markdown
from app.ui.chat.text_view import MessageText

WAIT_MS = 15000


@pytest.fixture
def held_loader(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """A load of the Markdown libraries that has started and goes on only when released."""
    release = threading.Event()
    warm = markdown.warm_up
    monkeypatch.setattr(markdown, "_loaded", threading.Event())
    monkeypatch.setattr(markdown, "_loader", None)
    monkeypatch.setattr(markdown, "warm_up", lambda: (release.wait(WAIT_MS / 1000), warm()))
    markdown.start_loading()
    yield release
    release.set()
    loader = markdown._loader
    assert loader is not None
    loader.join(WAIT_MS / 1000)


def test_text_shows_as_it_is_while_markdown_loads_then_rendered(qtbot: Any,
                                                                held_loader: threading.Event
                                                                ) -> None:
    view = MessageText()
    qtbot.addWidget(view)
    view.resize(400, 100)
    view.set_markdown("Some **bold** words\n\n```python\nx = 1\n```", now=True)
    shown = view.toPlainText()
    assert "Some **bold** words" in shown and "x = 1" in shown  # nothing lost, nothing waited
    assert view.pending  # still to be rendered
    held_loader.set()
    qtbot.waitUntil(lambda: not view.pending, timeout=WAIT_MS)
    assert "**" not in view.toPlainText()
    assert "font-weight:700" in view.toHtml().replace(" ", "")  # rendered as Markdown now
    assert "Copy" in view.toPlainText()  # the code block's own row

