"""Helpers history (app/core) and every skill share: CJK text, FTS, the clock, migrations, watching.

Not a skill: the lowest package of the layers, importing nothing of Hearth's own (a contract in
pyproject.toml), so each job has one definition instead of a copy per skill."""
