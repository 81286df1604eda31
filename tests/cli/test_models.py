"""`hearth models`: list builds with a fit verdict, download with resume and sha256, choose one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.model_catalog import BUILDS
from app.core.paths import Paths
from app.core.settings import load_settings
from app.main import main
from tests.support.fake_hub import FakeHub, hub_in_use

GGUF = next(b for b in BUILDS if b.kind == "gguf")


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHub]:
    with hub_in_use(monkeypatch, size=1 << 20, delay=0.0) as server:
        yield server


def lines(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    return [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.strip()]


def test_list_gives_every_build_a_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "list", "--json"]) == 0
    rows = lines(capsys)
    assert [r["id"] for r in rows] == [b.id for b in BUILDS]
    assert all(r["verdict"] in ("fits", "tight", "won't fit") for r in rows)
    assert not any(r["downloaded"] for r in rows)


def test_download_verifies_and_becomes_the_model_in_use(
        hub: FakeHub, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "download", GGUF.id, "--json"]) == 0
    events = lines(capsys)
    assert events[-1]["type"] == "done"
    target = Path(str(events[-1]["path"]))
    assert target.read_bytes() == hub.payload
    assert load_settings(Paths.from_env().settings_file).model_path == str(target)


def test_resume_continues_from_the_partial_file(
        hub: FakeHub, capsys: pytest.CaptureFixture[str]) -> None:
    partial = GGUF.target(Paths.from_env().ensure().models)
    partial.parent.mkdir(parents=True)
    partial.with_name(partial.name + ".part").write_bytes(hub.payload[:300_000])
    assert main(["models", "download", GGUF.id, "--json"]) == 0
    assert hub.ranges[-1] == "bytes=300000-"
    assert partial.read_bytes() == hub.payload


def test_corrupt_download_is_refused_and_not_used(
        hub: FakeHub, capsys: pytest.CaptureFixture[str]) -> None:
    hub.advertised_sha = "0" * 64
    assert main(["models", "download", GGUF.id]) == 1
    assert "checksum" in capsys.readouterr().err
    assert not GGUF.target(Paths.from_env().models).exists()
    assert load_settings(Paths.from_env().settings_file).model_path == ""


def test_use_a_local_model_and_refuse_a_missing_one(
        tiny_model, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert main(["models", "use", str(tiny_model.gguf_path), "--json"]) == 0
    (row,) = lines(capsys)
    assert row["engine"] == "llama" and row["reason"]
    assert main(["models", "use", "/nowhere/model.gguf"]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_use_switches_off_a_saved_remote_engine(tiny_model, hearth_home,  # type: ignore[no-untyped-def]
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """It said "with llama" but left engine=remote, so the server still answered (issue 16)."""
    import json

    from app.core.settings import load_settings

    (hearth_home / "data").mkdir(parents=True, exist_ok=True)
    (hearth_home / "data" / "settings.json").write_text(json.dumps(
        {"engine": "remote", "remote_url": "http://127.0.0.1:8080/v1"}))
    assert main(["models", "use", str(tiny_model.gguf_path), "--json"]) == 0
    assert lines(capsys)[0]["engine"] == "llama"
    saved = load_settings(hearth_home / "data" / "settings.json")
    assert saved.engine == "auto" and saved.model_path == str(tiny_model.gguf_path.resolve())
