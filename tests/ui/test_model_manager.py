"""The model manager against a fake Hub on 127.0.0.1: download, pause, resume, verify."""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton

from app.core.model_catalog import BUILDS
from app.core.model_download import ChecksumMismatch, Downloader, RemoteFile
from app.ui.models.manager import ModelManager
from tests.support.cache_lock import gemma_model
from tests.support.fake_hub import FakeHub, hub_in_use
from tests.ui.scripts import WAIT_MS


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHub]:
    with hub_in_use(monkeypatch) as server:
        yield server


@pytest.fixture
def manager(ctx: Any, qtbot: Any) -> ModelManager:
    dialog = ModelManager(ctx, first_run=True)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def click(qtbot: Any, button: Any) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def part_file(ctx: Any) -> Path:
    build = BUILDS[0]
    return build.target(Path(ctx.hearth.paths.models)).with_suffix(".gguf.part")


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_first_run_explains_and_lists_the_known_builds_with_a_verdict(manager, qtbot) -> None:
    assert "no model here yet" in manager.findChildren(type(manager.rows[0].status))[1].text()
    assert [r.build.title for r in manager.rows][:2] == ["Nanbeige4.2-3B · Q4_K_M",
                                                         "Nanbeige4.2-3B · Q8_0"]
    assert manager.rows[0].size_label.text() == "2.7 GB"
    qtbot.waitUntil(lambda: "Checking" not in manager.rows[0].verdict.text(), timeout=WAIT_MS)
    assert any(v in manager.rows[0].verdict.text() for v in ("Fits", "Tight", "Won't fit"))


def test_pause_then_resume_after_a_restart_and_verify(ctx, manager, hub, qtbot) -> None:
    row = manager.rows[0]
    click(qtbot, row.download_button)
    qtbot.waitUntil(lambda: row.bar.value() > 0, timeout=WAIT_MS)
    assert "MB/s" in row.status.text() or "KB/s" in row.status.text()
    click(qtbot, row.pause_button)
    qtbot.waitUntil(lambda: row.state == "paused", timeout=WAIT_MS)
    paused_at = part_file(ctx).stat().st_size
    assert 0 < paused_at < len(hub.payload)
    assert row.download_button.text() == "Resume"
    manager.close()

    ctx.hearth.settings.model_path = "/models/older.gguf"  # a model is already in use
    again = ModelManager(ctx)  # as after quitting and reopening Hearth
    qtbot.addWidget(again)
    again.show()
    row = again.rows[0]
    assert row.state == "paused" and row.download_button.text() == "Resume"
    click(qtbot, row.download_button)
    qtbot.waitUntil(lambda: row.state == "done", timeout=WAIT_MS)
    final = BUILDS[0].target(Path(ctx.hearth.paths.models))
    assert sha(final) == hub.sha256
    assert not part_file(ctx).exists()
    assert hub.ranges[-1] == f"bytes={paused_at}-"  # resumed, not restarted

    chosen: list[str] = []
    again.model_chosen.connect(chosen.append)
    click(qtbot, row.use_button)
    assert chosen == [str(final)]
    # Not "In use" before the runner has it (the window loads it, then says so).
    assert row.use_button.text() == "Loading…" and not row.use_button.isEnabled()


def test_a_checksum_mismatch_deletes_the_file_and_offers_retry(ctx, manager, hub, qtbot) -> None:
    hub.advertised_sha = "0" * 64
    row = manager.rows[0]
    click(qtbot, row.download_button)
    qtbot.waitUntil(lambda: row.state == "failed", timeout=WAIT_MS)
    assert "damaged" in row.status.text() and "checksum" in row.status.toolTip()
    final = BUILDS[0].target(Path(ctx.hearth.paths.models))
    assert not final.exists() and not part_file(ctx).exists()
    assert row.download_button.text() == "Retry"
    hub.advertised_sha = hub.sha256
    chosen: list[str] = []
    manager.model_chosen.connect(chosen.append)
    click(qtbot, row.download_button)
    qtbot.waitUntil(lambda: row.state == "done", timeout=WAIT_MS)
    assert sha(final) == hub.sha256
    assert chosen == [str(final)]  # the first model downloaded is put to use at once


def failed_download(manager: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch,
                    endpoint: str) -> Any:
    """The first row's download from `endpoint` (a server that does not answer), once failed."""
    import huggingface_hub.constants

    monkeypatch.setenv("HF_ENDPOINT", endpoint)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    row = manager.rows[0]
    click(qtbot, row.download_button)
    qtbot.waitUntil(lambda: row.state == "failed", timeout=WAIT_MS)
    return row


def test_an_unreachable_server_fails_with_a_reason(ctx, manager, qtbot, monkeypatch) -> None:
    row = failed_download(manager, qtbot, monkeypatch, "http://127.0.0.1:9")
    assert row.status.text().startswith("⚠")
    assert row.download_button.text() == "Retry"


def test_a_server_that_ignores_range_restarts_cleanly(tmp_path, hub) -> None:
    hub.ignore_range = True
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "model.gguf.part").write_bytes(b"stale bytes from another file")
    remote = RemoteFile("model.gguf", f"{hub.url}/x/resolve/main/model.gguf",
                        len(hub.payload), hub.sha256)
    Downloader(folder).run([remote])
    assert sha(folder / "model.gguf") == hub.sha256


def test_a_corrupt_download_is_never_kept(tmp_path, hub) -> None:
    remote = RemoteFile("model.gguf", f"{hub.url}/x/resolve/main/model.gguf",
                        len(hub.payload), "1" * 64)
    with pytest.raises(ChecksumMismatch):
        Downloader(tmp_path).run([remote])
    assert list(tmp_path.iterdir()) == []


def test_using_a_model_saves_it_in_settings(ctx, qtbot, tmp_path) -> None:
    from app.ui.shell.main_window import MainWindow

    window = MainWindow(ctx)
    qtbot.addWidget(window)
    model = tmp_path / "local.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 64)
    window.use_model(str(model))
    settings_file = Path(ctx.hearth.paths.settings_file)
    qtbot.waitUntil(lambda: settings_file.exists() and json.loads(
        settings_file.read_text())["model_path"] == str(model), timeout=WAIT_MS)
    # Loading this fake file fails: the window says why and stays usable.
    qtbot.waitUntil(lambda: window.chat.banner.isVisibleTo(window), timeout=WAIT_MS)
    assert window.engine_label.text() == "No model loaded"


# -- issue 16: what the manager shows first, what it hides, what it says ------------------

def test_builds_that_cannot_run_here_are_marked_and_listed_last(manager, qtbot,
                                                               monkeypatch) -> None:
    if sys.platform == "darwin":
        pytest.skip("on a Mac every build runs")
    kinds = [r.build.kind for r in manager.rows]
    assert kinds == sorted(kinds, key=lambda k: k == "mlx")  # GGUF first
    mlx = [r for r in manager.rows if r.build.kind == "mlx"]
    qtbot.waitUntil(lambda: "Checking" not in mlx[0].verdict.text(), timeout=WAIT_MS)
    assert "Not for this computer" in mlx[0].verdict.text()
    assert not mlx[0].download_button.isEnabled()
    gguf = manager.rows[0].verdict.text()
    assert "of weights" in gguf and "Fits: " not in gguf  # one language, no English prefix


def test_an_offline_download_says_so_in_plain_words(ctx, manager, qtbot, monkeypatch) -> None:
    row = failed_download(manager, qtbot, monkeypatch, "http://no-such-host.invalid")
    assert row.status.text().startswith("⚠ Could not reach the download server")
    assert "Errno" not in row.status.text()


def test_the_model_in_use_and_recent_ones_come_first(ctx, qtbot, tmp_path) -> None:
    in_use, older = tmp_path / "in-use.gguf", tmp_path / "older.gguf"
    for path in (in_use, older):
        path.write_bytes(b"GGUF")
    ctx.hearth.settings.model_path = str(in_use)
    ctx.hearth.runner.info.model_path = str(in_use)  # "In use" is what the runner has loaded
    ctx.hearth.settings.recent_models = [str(older), str(tmp_path / "gone.gguf")]
    dialog = ModelManager(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    labels = [w.text() for w in dialog.local.findChildren(QLabel)]
    assert labels == ["On this computer", "in-use.gguf", "older.gguf", "gone.gguf"]
    buttons = {b.accessibleDescription(): b for b in dialog.local.findChildren(QPushButton)}
    assert not buttons["in-use.gguf"].isEnabled() and buttons["in-use.gguf"].text() == "In use"
    assert buttons["gone.gguf"].text() == "Not found" and not buttons["gone.gguf"].isEnabled()
    with qtbot.waitSignal(dialog.model_chosen, timeout=WAIT_MS) as chosen:
        buttons["older.gguf"].click()
    assert chosen.args == [str(older)]


def test_a_gguf_without_a_chat_template_is_explained_in_the_dialog(ctx, manager, qtbot,
                                                                  tmp_path) -> None:
    path = gemma_model()
    chosen: list[str] = []
    manager.model_chosen.connect(chosen.append)
    manager.open_gguf(str(path))
    qtbot.waitUntil(manager.error.isVisible, timeout=WAIT_MS)
    assert "has no usable chat template" in manager.error.text() and chosen == []
    assert "(gemma3)" in manager.error.text() and manager.template_file.isVisible()
    broken = tmp_path / "half.gguf"
    broken.write_bytes(b"GGUF\x03\x00")
    manager.open_gguf(str(broken))
    qtbot.waitUntil(lambda: "not a complete GGUF" in manager.error.text(), timeout=WAIT_MS)
    assert chosen == []


def test_a_gguf_without_a_template_of_a_known_architecture_gets_an_offer(
        ctx, manager, qtbot, tmp_path, tiny_model) -> None:
    pytest.importorskip("llama_cpp")
    from backends.base import GenerateOptions
    from tests.support.tiny_model import copy_without_template

    bare = tmp_path / "bare-nanbeige.gguf"
    copy_without_template(tiny_model.gguf_path, bare)
    chosen: list[str] = []
    manager.model_chosen.connect(chosen.append)
    manager.open_gguf(str(bare))
    qtbot.waitUntil(manager.template_offer.isVisible, timeout=WAIT_MS)
    assert "no usable chat template of its own" in manager.error.text()
    assert manager.template_offer.text() == "Use the Nanbeige4.2 template"
    assert chosen == [] and ctx.hearth.settings.known_template_models == []  # asked first
    qtbot.mouseClick(manager.template_offer, Qt.MouseButton.LeftButton)
    assert chosen == [str(bare)] and ctx.hearth.settings.known_template_models == [str(bare)]
    assert manager.error.isHidden() and manager.template_offer.isHidden()
    backend = ctx.hearth.make_backend(str(bare), engine="llama")
    backend.load()  # the engine the app builds for this file formats conversations with it
    try:
        assert "<|im_start|>user\nhi" in backend.render_prompt(
            [{"role": "user", "content": "hi"}], GenerateOptions())
    finally:
        backend.unload()


def test_the_chat_header_picks_a_recent_model(ctx, qtbot, tmp_path, monkeypatch) -> None:
    from app.ui.shell.main_window import MainWindow

    first, second = str(tmp_path / "a.gguf"), str(tmp_path / "b.gguf")
    ctx.hearth.settings.model_path = first
    ctx.hearth.runner.info.model_path = first  # the picker names what the runner has loaded
    ctx.hearth.settings.recent_models = [first, second]
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    monkeypatch.setattr(window, "load_model", lambda: None)  # no engine for these names
    window.show()
    picker = window.model_picker
    assert picker.isVisible()
    items = [picker.itemText(i) for i in range(picker.count()) if picker.itemText(i)]
    assert items == ["a.gguf", "b.gguf", "Manage models…"]
    picker.activated.emit(1)
    assert ctx.hearth.settings.model_path == second
    assert ctx.hearth.settings.recent_models[:2] == [second, first]
    assert ctx.ops.wait(WAIT_MS)
    with qtbot.waitSignal(picker.manage, timeout=WAIT_MS):
        picker.activated.emit(picker.count() - 1)
    window.show_page("library")
    assert not picker.isVisible()  # it belongs to the chat


def shown_whole(picker) -> bool:
    """The picker's current text fits its field: nothing of the name is cut off."""
    from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

    option = QStyleOptionComboBox()
    picker.initStyleOption(option)
    field = picker.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                          QStyle.SubControl.SC_ComboBoxEditField, picker)
    return picker.fontMetrics().horizontalAdvance(picker.currentText()) <= field.width()


def test_the_picker_shows_a_models_whole_name_and_shortens_only_a_very_long_one(
        ctx, qtbot, tmp_path, monkeypatch) -> None:
    from app.ui.shell.main_window import MainWindow

    usual = str(tmp_path / "Nanbeige4.2-3B-Instruct-Q4_K_M.gguf")
    huge = str(tmp_path / ("a-merge-of-" * 8 + "Q8_0.gguf"))
    ctx.hearth.runner.info.model_path = usual
    ctx.hearth.settings.recent_models = [usual, huge]
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    monkeypatch.setattr(window, "load_model", lambda: None)
    window.show()
    picker = window.model_picker
    assert picker.currentText() == "Nanbeige4.2-3B-Instruct-Q4_K_M.gguf"
    assert shown_whole(picker)
    long_name = picker.itemText(1)
    assert "…" in long_name and long_name.endswith("Q8_0.gguf")  # the end tells models apart
    assert picker.itemData(1, Qt.ItemDataRole.ToolTipRole) == huge
    ctx.hearth.runner.info.model_path = huge
    picker.refresh()
    assert picker.currentText() == long_name and shown_whole(picker)


def test_each_build_says_what_it_is_good_for_in_the_window_language(ctx, qtbot,
                                                                    qapp) -> None:
    """What a build is good for is a code in the catalogue: the dialog words it (in Chinese
    here), where it passed the catalogue's English sentence through translate before."""
    from PySide6.QtWidgets import QLabel

    from app.ui.i18n import Translations

    translations = Translations(qapp)
    assert translations.apply("zh_CN") == "zh_CN"
    try:
        dialog = ModelManager(ctx, first_run=True)
        qtbot.addWidget(dialog)
        notes = [[label.text() for label in row.findChildren(QLabel)] for row in dialog.rows]
    finally:
        translations.apply("en")
    assert len(notes) == len(BUILDS)
    for texts in notes:
        assert any("GGUF" in t or "MLX" in t for t in texts)
        assert not any("Good quality" in t or "Higher quality" in t or "Closest" in t
                       or "fastest choice" in t for t in texts), texts
