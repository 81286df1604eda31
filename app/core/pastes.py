"""A message longer than the model can read is kept whole as a text file in the chat's
documents: the model reads its start and end and searches or reads the rest with its tools."""

from __future__ import annotations

from pathlib import Path

FOLDER = "pasted"  # under the data folder: these are the person's own words
EXCERPT_CHARS = 600  # of the start and of the end (the question is often last)
NOTE = ("[The user's message is {chars:,} characters, more than fits your context, so Hearth "
        "attached it whole as the document {path}: search it with search_documents or read it "
        "in order with read_document before answering. Its start and its end:]\n\n"
        "{head}\n\n[…]\n\n{tail}")


def too_long(text: str, window: int) -> bool:
    """True when the message would take more of the window than one tool result may (the
    budget would cut it); a window of 0 (nothing loaded) never is."""
    # Here, not at the top: the assistant package's own import of this module would find
    # it half-initialised (assistant/__init__ -> transcript -> pastes -> assistant).
    from app.core.assistant.context_budget import result_cap
    from backends.chat_format import estimate_tokens  # jinja2: not before the first frame

    return window > 0 and estimate_tokens(text) > result_cap(window)


def save_paste(folder: Path, conversation_id: str, text: str) -> Path:
    """Write the message to a new numbered file of its chat ("Pasted text 2.txt")."""
    target = folder / FOLDER / conversation_id
    target.mkdir(mode=0o700, parents=True, exist_ok=True)
    number = 1
    while (target / f"Pasted text {number}.txt").exists():
        number += 1
    path = target / f"Pasted text {number}.txt"
    path.write_text(text, encoding="utf-8")
    return path


def is_paste(path: str) -> bool:
    """A file save_paste wrote (as named in a message's attachments)."""
    return Path(path).parent.parent.name == FOLDER


def model_text(text: str, path: str) -> str:
    """What the model is sent in place of a message kept whole in `path`."""
    if len(text) <= 2 * EXCERPT_CHARS:
        return text
    return NOTE.format(chars=len(text), path=path, head=text[:EXCERPT_CHARS],
                       tail=text[-EXCERPT_CHARS:])
