"""Icons, styles, prompts and translations, loaded with importlib.resources."""
