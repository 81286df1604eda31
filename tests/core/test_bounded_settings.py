"""A settings.json nested 1,000 deep is set aside with one line; every command still runs."""

from __future__ import annotations

from pathlib import Path

from tests.support.capped import hearth_env, run_capped


def test_deep_settings_fall_back_to_defaults_with_one_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "data").mkdir(parents=True)
    settings = home / "data" / "settings.json"
    settings.write_text('{"theme": ' + "[" * 1000 + "]" * 1000 + "}", encoding="utf-8")
    ran = run_capped(["-m", "app.main", "calendar", "list"], hearth_env(home), timeout=300)
    assert ran.code == 0, ran.err
    lines = [line for line in ran.err.splitlines() if line.strip()]
    assert len(lines) == 1 and "json_depth" in lines[0], ran.err
    assert (home / "data" / "settings.damaged.json").exists()
    assert not settings.exists()  # defaults are used; nothing is written over it
