"""The main window fits a small laptop screen with every page built, in English and Chinese
(a header row of buttons once made it wider than 1,280 pixels, squeezing the sidebar)."""

from __future__ import annotations

from typing import Any

import pytest

from app.ui.shell.main_window import MainWindow
from tests.ui.test_chinese_everywhere import chinese  # noqa: F401

SMALL_SCREEN = 1280  # a common laptop width
SIDEBAR_ROOM = 200  # what the conversation list needs to show titles


def _narrowest(window: MainWindow) -> int:
    for page in ("library", "files", "calendar", "chat"):  # each page built, then measured
        window.show_page(page)
    return window.minimumSizeHint().width()


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_page_fits_a_small_screen(ctx: Any, qtbot: Any, request: Any,
                                        language: str) -> None:
    if language == "zh_CN":
        ctx.translations = request.getfixturevalue("chinese")
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    assert _narrowest(window) <= SMALL_SCREEN - SIDEBAR_ROOM
