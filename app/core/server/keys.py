"""The server's bearer key: random, created on first use, kept only in the user's settings."""

from __future__ import annotations

import secrets

from app.core.settings import Settings

KEY_PREFIX = "hearth-"


def new_api_key() -> str:
    """A fresh random key (256 bits), recognisable as Hearth's in a client's config."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def ensure_api_key(settings: Settings) -> bool:
    """Give settings a key if they have none; True when one was created (save the settings)."""
    if settings.server_api_key:
        return False
    settings.server_api_key = new_api_key()
    return True


def key_matches(expected: str, authorization: str | None) -> bool:
    """A constant-time check of an `Authorization: Bearer KEY` header."""
    if not expected or not authorization:
        return False
    scheme, _, given = authorization.partition(" ")
    if scheme.lower() != "bearer":
        return False
    return secrets.compare_digest(given.strip().encode(), expected.encode())
