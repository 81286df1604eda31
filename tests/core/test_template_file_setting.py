"""The chat template file chosen for a GGUF is kept per model across a restart (issue 26)."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings, load_settings, save_settings


def test_the_chosen_template_file_survives_a_restart_per_model(tmp_path: Path) -> None:
    settings = Settings()
    settings.choose_template_file("/models/a.gguf", "/t/first.jinja")
    settings.choose_template_file("/models/b.gguf", "/t/b.jinja")
    settings.choose_template_file("/models/a.gguf", "/t/second.jinja")  # chosen again
    save_settings(settings, tmp_path / "settings.json")
    again = load_settings(tmp_path / "settings.json")
    assert again.template_file("/models/a.gguf") == "/t/second.jinja"
    assert again.template_file("/models/b.gguf") == "/t/b.jinja"
    assert again.template_file("/models/c.gguf") == ""
    assert len(again.chat_template_files) == 2 and not again.load_notes
