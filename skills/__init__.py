"""Tools the assistant can call: files, calendar, documents (and a small built-in one)."""
