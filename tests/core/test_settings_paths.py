"""Settings survive restarts and damage; every path honours HEARTH_HOME."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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


def test_settings_from_another_version_keep_unknown_keys_and_fix_wrong_types(
        tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({
        "file_roots": 5, "watched_folders": ["/docs", 7], "theme": "dark", "future_flag": True,
        "chat_temperature": 1,
        "mcp_servers": [{"name": "notes", "command": ["notes-mcp"], "env": {"A": "1"}},
                        {"command": ["nameless"]}, "junk"],
    }))
    loaded = load_settings(path)
    assert loaded.file_roots == [] and loaded.watched_folders == ["/docs"]
    assert loaded.theme == "dark" and loaded.chat_temperature == 1.0
    assert [s.name for s in loaded.mcp_servers] == ["notes"]
    notes = "\n".join(note.words for note in loaded.load_notes)
    assert "file_roots: expected a list of text, found int; using the default" in notes
    assert "future_flag: not a setting this version knows (kept, ignored)" in notes
    assert "mcp_servers[0].env: not a setting this version knows" in notes
    assert "mcp_servers[1]: expected McpServer; left out" in notes
    save_settings(loaded, path)
    saved = json.loads(path.read_text())
    assert saved["future_flag"] is True and saved["mcp_servers"][0]["env"] == {"A": "1"}
    assert "unknown" not in saved and "load_notes" not in saved


def test_the_user_is_told_once_and_every_command_still_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from app.main import main

    home = Paths.from_env().ensure()
    home.settings_file.write_text(json.dumps({
        "mcp_servers": [{"name": "n", "command": ["x"], "transport": "stdio"}],
        "file_roots": [3], "model_path": 12}))
    assert main(["history", "list"]) == 0
    err = capsys.readouterr().err
    assert err.count("settings.json comes from another version") == 1
    assert "Traceback" not in err
    assert main(["files", "status"]) == 0
    assert "another version" not in capsys.readouterr().err  # told once
    assert json.loads(home.settings_file.read_text())["mcp_servers"][0]["transport"] == "stdio"
    assert (home.data / "settings.previous.json").exists()
