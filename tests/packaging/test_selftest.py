"""`hearth selftest` from source: what a bundle's self-test reports, and that it catches breakage."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.main import main


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["selftest", "--json", *argv])
    return code, json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_selftest_passes_from_source_and_loads_the_tiny_model(
        tiny_model: Any, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _report(capsys, "--no-window", "--model", str(tiny_model.gguf_path))
    failed = {k: v for k, v in report["checks"].items() if v != "ok"}
    assert code == 0 and report["ok"], failed
    assert report["checks"]["model model.gguf"] == "ok"
    assert report["checks"]["import llama_cpp"] == "ok"  # the engine's native libraries load
    assert report["frozen"] is False  # a bundle says True: the smoke test relies on it


def test_selftest_names_a_broken_model_and_exits_non_zero(
        hearth_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = hearth_home / "broken.gguf"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_bytes(b"GGUF" + b"\0" * 64)
    code, report = _report(capsys, "--no-window", "--model", str(broken))
    assert code == 1 and not report["ok"]
    assert report["checks"]["model broken.gguf"] != "ok"
    assert report["checks"]["prompts"] == "ok"  # one failure does not hide the other checks


def test_window_selftest_opens_and_closes_the_real_window(qapp: Any) -> None:
    from app.main import Hearth
    from app.ui.shell.selftest import window_selftest

    hearth = Hearth()
    try:
        window_selftest(hearth)
        visible = [w for w in qapp.topLevelWidgets() if w.isVisible()]
        assert not visible, "the self-test left a window open"
    finally:
        hearth.close()
        _reset_app(qapp)


def test_window_selftest_fails_when_the_icons_are_missing(
        qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bundle that lost resources/icons still opens a window; the self-test must notice."""
    from app.main import Hearth
    from app.ui.shell.selftest import window_selftest

    monkeypatch.setattr("app.ui.icons.ICONS", tmp_path)
    hearth = Hearth()
    try:
        with pytest.raises(RuntimeError, match="icon"):
            window_selftest(hearth)
    finally:
        hearth.close()
        _reset_app(qapp)


def _reset_app(qapp: Any) -> None:
    """Desktop styles the whole application; leave it as the next test expects."""
    from PySide6.QtGui import QIcon, QPalette

    qapp.setStyleSheet("")
    qapp.setPalette(QPalette())
    qapp.setWindowIcon(QIcon())
    for child in qapp.children():
        if type(child).__name__ in ("Desktop", "ThemeManager"):
            child.setParent(None)
