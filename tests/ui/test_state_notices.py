"""Damaged or foreign state, told once in the window: settings from another version, a damaged
index.db rebuilt, a damaged hearth.db read-only with recovery; in English and in Chinese."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication

from app.core.paths import Paths
from app.ui.i18n import TRANSLATIONS

WAIT_MS = 15000


@pytest.fixture(params=["en", "zh_CN"])
def language(request: pytest.FixtureRequest, qapp: Any) -> Iterator[str]:
    translator = QTranslator()
    if request.param != "en":
        assert translator.load(f"hearth_{request.param}", str(TRANSLATIONS))
        QApplication.installTranslator(translator)
    yield request.param
    QApplication.removeTranslator(translator)


@pytest.fixture
def open_window(qapp: Any, qtbot: Any, hearth_home: Path) -> Iterator[Callable[[], Any]]:
    """Start Hearth and its window on the home as the test left it (the real root)."""
    from app.main import Hearth
    from app.ui.context import UiContext
    from app.ui.ops import Ops
    from app.ui.shell.main_window import MainWindow

    made: list[tuple[Any, Any]] = []

    def build() -> Any:
        hearth, ops = Hearth(), Ops()
        window = MainWindow(UiContext(hearth, ops))
        qtbot.addWidget(window)
        window.show()
        made.append((hearth, ops))
        return window

    yield build
    for hearth, ops in made:
        assert ops.wait(WAIT_MS), "background work did not finish"
        qapp.processEvents()
        hearth.close()


def said(qtbot: Any, window: Any, *words: str) -> str:
    """Wait until one notice row holds all `words`; returns its text."""
    def found() -> str:
        return next((t for t in window.notices.texts() if all(w in t for w in words)), "")
    qtbot.waitUntil(lambda: bool(found()), timeout=WAIT_MS)
    assert window.notices.isVisible()
    return found()


WORDS = {
    "settings": {"en": ("another version", "kept and ignored", "replaced by their defaults"),
                 "zh_CN": ("另一个版本", "已保留", "默认值")},
    "index": {"en": ("search index was damaged", "being rebuilt"),
              "zh_CN": ("搜索索引已损坏", "正在重建")},
    "history": {"en": ("damaged", "opened read-only", "cannot be saved"),
                "zh_CN": ("已损坏", "只读", "无法保存")},
    "recovered": {"en": ("Recovered", "Restart Hearth"), "zh_CN": ("已将", "重新启动")},
}


def test_settings_from_another_version_are_told_once(open_window: Callable[[], Any],
                                                     hearth_home: Path, qtbot: Any,
                                                     language: str) -> None:
    settings = Paths.from_env().ensure().settings_file
    settings.write_text(json.dumps({"a_setting_from_2027": True, "watched_folders": 7}))
    window = open_window()
    text = said(qtbot, window, *WORDS["settings"][language])
    assert "a_setting_from_2027" in text and "watched_folders" in text  # the keys, as they are
    if language == "zh_CN":  # each setting's problem is a code, worded in Chinese too
        assert "此版本不认识" in text and "值的类型不对" in text, text
        assert "expected" not in text and "not a setting" not in text, text
    assert window.ctx.hearth.settings.watched_folders == []  # the default, not 7
    window.notices.rows[0].dismiss.click()
    assert not window.notices.texts()
    assert json.loads(settings.read_text())["a_setting_from_2027"] is True  # kept
    again = open_window()  # the next start says nothing more
    qtbot.waitUntil(lambda: not again.ctx.ops.busy, timeout=WAIT_MS)
    assert again.notices.texts() == []


def test_a_damaged_index_is_told_as_rebuilt(open_window: Callable[[], Any], hearth_home: Path,
                                            tmp_path: Path, qtbot: Any, language: str) -> None:
    from skills.documents import DocumentIndex

    paths = Paths.from_env().ensure()
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text("granite orchard " * 200)
    index = DocumentIndex(paths.index_db)
    index.add_paths([folder])
    index.close()
    conn = sqlite3.connect(paths.index_db)
    conn.execute("pragma wal_checkpoint(truncate)")
    conn.close()
    data = bytearray(paths.index_db.read_bytes())
    data[4096:8192] = os.urandom(4096)  # a page of garbage after the header's
    paths.index_db.write_bytes(bytes(data))
    window = open_window()
    window.ctx.ops.run(lambda: window.ctx.part("documents"))  # as indexing opens it at start
    text = said(qtbot, window, *WORDS["index"][language])
    assert "index.db.damaged-" in text
    assert list(paths.cache.glob("index.db.damaged-*"))  # moved aside, not deleted


def damage_history(path: Path) -> bytes:
    """A history whose crash-recovery index is garbage: the opening checks pass, the first
    write fails (SQLITE_CORRUPT), reading still works."""
    from app.core.history import HistoryStore

    store = HistoryStore(path)
    for i in range(12):
        conversation = store.create_conversation(f"Trip {i}")
        store.add_message(conversation.id, "user", f"pack boots {i} " * 40)
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("pragma wal_checkpoint(truncate)")
    (root,) = conn.execute("select rootpage from sqlite_master where name = 'messages_status'"
                           ).fetchone()
    page = conn.execute("pragma page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * page:root * page] = os.urandom(page)
    path.write_bytes(bytes(data))
    return bytes(data)


def test_a_damaged_history_is_read_only_and_recovered_into_a_new_file(
        open_window: Callable[[], Any], hearth_home: Path, qtbot: Any, language: str) -> None:
    from app.core.history import HistoryStore

    path = Paths.from_env().ensure().history_db
    damaged = damage_history(path)
    window = open_window()
    said(qtbot, window, *WORDS["history"][language])  # the sidebar opened the history
    assert window.sidebar.isVisible()
    (row,) = window.notices.rows
    assert row.notice.damaged and row.action.isVisible() and row.action.text() != ""
    row.action.click()  # on a worker: the window stays responsive meanwhile
    said(qtbot, window, *WORDS["recovered"][language])
    (kept,) = path.parent.glob("hearth.damaged-*.db")
    assert kept.read_bytes() == damaged  # the original, never written to
    assert kept.name in row.text.text()
    recovered = HistoryStore(path)
    try:
        assert not recovered.read_only
        assert len(recovered.list_conversations()) == 12
        assert recovered.search("boots")
    finally:
        recovered.close()


def test_why_a_database_was_set_aside_is_a_code_worded_by_the_window(qapp: Any) -> None:
    """The reason crosses as a code: a Chinese window words each one in Chinese (the English
    reason, "not a SQLite database", sat in the Chinese sentence before); the CLI's line keeps
    its English."""
    from app.core.notices import Notice, NoticeKind
    from app.ui.notice_banner import describe
    from skills.index_health import Damage, DamageWhy, SetAside
    from tests.ui.test_chinese_everywhere import english_in

    def notice(why: DamageWhy) -> Notice:
        return Notice(NoticeKind.INDEX_REBUILT, "", path="/c/index-2.db", count=3,
                      damage=Damage(why, "42"))

    translator = QTranslator()
    assert translator.load("hearth_zh_CN", str(TRANSLATIONS))
    QApplication.installTranslator(translator)
    try:
        worded = {why: describe(notice(why)) for why in DamageWhy}
    finally:
        QApplication.removeTranslator(translator)
    assert {why: english_in(text) for why, text in worded.items()
            if set(english_in(text)) - {"SQLite"}} == {}
    assert len(set(worded.values())) == len(DamageWhy)
    aside = SetAside(Damage(DamageWhy.NOT_SQLITE), Path("/c/index.db.damaged-1"))
    assert aside.notice().startswith("the search index was not a SQLite database;")
