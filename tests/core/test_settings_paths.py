"""Settings survive restarts and damage; every path honours HEARTH_HOME."""

from __future__ import annotations

import json
from pathlib import Path

from app.core.paths import Paths
from app.core.settings import McpServer, Settings, load_settings, save_settings


def test_hearth_home_moves_every_location(tmp_path: Path) -> None:
    paths = Paths.from_env({"HEARTH_HOME": str(tmp_path)}).ensure()
    for location in (paths.data, paths.cache, paths.models, paths.logs):
        assert location.is_dir()
        assert tmp_path in location.parents
    assert paths.history_db.parent == paths.data
    assert paths.index_db.parent == paths.cache  # derived data can be deleted and rebuilt


def test_default_paths_are_platform_locations() -> None:
    paths = Paths.from_env({})
    assert "Hearth" in str(paths.data)
    assert paths.data != paths.cache


def test_settings_round_trip(tmp_path: Path) -> None:
    settings = Settings(model_path="/m.gguf", kv_type="q8_0", watched_folders=["/docs"],
                        mcp_servers=[McpServer(name="notes", command=["notes-mcp"], trusted=True)])
    save_settings(settings, tmp_path / "settings.json")
    loaded = load_settings(tmp_path / "settings.json")
    assert loaded == settings


def test_damaged_settings_fall_back_to_defaults_and_keep_the_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{not json", encoding="utf-8")
    assert load_settings(path) == Settings()
    assert (tmp_path / "settings.damaged.json").read_text(encoding="utf-8") == "{not json"


def test_wrong_types_keep_defaults(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"max_tokens": "lots", "engine": "llama", "bogus": 1}))
    loaded = load_settings(path)
    assert loaded.max_tokens == Settings().max_tokens
    assert loaded.engine == "llama"


def test_failed_write_leaves_previous_settings(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "settings.json"
    save_settings(Settings(model_path="/old.gguf"), path)

    def full_disk(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("app.core.settings.json.dump", full_disk)
    try:
        save_settings(Settings(model_path="/new.gguf"), path)
    except OSError:
        pass
    assert load_settings(path).model_path == "/old.gguf"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no temp file left behind
