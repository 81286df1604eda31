"""The GUI-free assistant core: turn loop, model runner, history, settings and paths."""
