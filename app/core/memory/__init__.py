"""Memory: short facts about the person and their standing instructions, kept in hearth.db."""

from app.core.memory.store import Memory, MemoryStore, UnknownMemory

__all__ = ["Memory", "MemoryStore", "UnknownMemory"]
