"""Tests of the frozen app builds (packaging/)."""
