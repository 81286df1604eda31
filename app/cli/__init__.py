"""Headless commands (`hearth ask`, `hearth docs`, ...) over the same core the app uses."""
