"""Why a document was skipped crosses the seam as a code: the window words it in its language,
the CLI in English, each in one place (it matched English sentences by regex before, so a
reworded sentence showed English in a Chinese window)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from app.ui.i18n import Translations
from app.ui.skip_reasons import skip_reason
from skills.documents.skips import Skip, SkipWhy
from tests.ui.scripts import WAIT_MS
from tests.ui.test_chinese_everywhere import english_in

TERMS = {"OCR", "UTF", "DOCX"}  # names that stay as they are in Chinese


@pytest.fixture
def chinese(qapp: Any) -> Iterator[Translations]:
    translations = Translations(qapp)
    assert translations.apply("zh_CN") == "zh_CN"
    yield translations
    translations.apply("en")


def test_every_skip_code_is_worded_once_in_each_language(chinese: Translations) -> None:
    details = ("PDF", "3")
    worded = {why: skip_reason(Skip(why, details)) for why in SkipWhy if why is not SkipWhy.OTHER}
    english_left = {why: text for why, text in worded.items()
                    if not text or set(english_in(text)) - TERMS}
    assert english_left == {}
    assert len(set(worded.values())) == len(worded)  # no two codes share words
    assert worded[SkipWhy.TIMEOUT].count("PDF") == 1  # the details are in the sentence
    english = {why: Skip(why, details).words for why in SkipWhy}
    assert len(set(english.values())) == len(SkipWhy)
    assert english[SkipWhy.DAMAGED] == "damaged or unreadable PDF file: 3"
    assert skip_reason(Skip(SkipWhy.OTHER, ("as it came",))) == "as it came"


def test_the_library_shows_why_files_were_skipped_in_chinese(ctx, qtbot, chinese,
                                                             tmp_path) -> None:
    """A damaged file and a link out of the folder (whose English reason showed as it was)."""
    from app.ui.pages.library import LibraryView

    inbox, outside = tmp_path / "inbox", tmp_path / "outside"
    inbox.mkdir()
    outside.mkdir()
    (inbox / "broken.docx").write_bytes(b"not a zip")
    (outside / "secret.txt").write_text("private", encoding="utf-8")
    (inbox / "link.txt").symlink_to(outside / "secret.txt")
    ctx.hearth.documents.add_paths([str(inbox)])
    view = LibraryView(ctx)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: view.table.rowCount() == 2 and view.failures.count() == 2,
                    timeout=WAIT_MS)
    statuses = {view.table.item(r, 0).text(): view.table.item(r, 3).text() for r in range(2)}
    problems = [view.failures.item(r).text() for r in range(2)]
    assert "不是有效的 DOCX 文件" in statuses["broken.docx"], statuses
    assert "所选文件夹之外" in statuses["link.txt"], statuses
    assert all("已跳过" in s for s in statuses.values())
    words = {w for text in [*statuses.values(), *problems] for w in english_in(text)}
    assert words - TERMS == set(), (statuses, problems)
