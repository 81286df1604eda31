"""pytest-qt tests that drive the real Hearth widgets offscreen."""
