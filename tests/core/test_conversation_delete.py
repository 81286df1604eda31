"""Deleting a conversation forgets it everywhere: no byte of its text or its KV cache is left
in any file under HEARTH_HOME (history, index.db, the cache folder), on the real llama.cpp."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from app.core.history import NotFound
from app.core.runner import Priority
from app.main import Hearth, main
from backends.base import GenerateOptions, Message
from backends.events import Done
from backends.kv_cache import file_stem

QUESTION = "Plan the Xylophonia festival for Quendrick Marlowe near Vestrabridge harbour."
DOCUMENT = "Quarterly notes: the Zanthoria budget for Pellucid Gardens is confidential."
KEPT = "Keepsake conversation about Oberwyn lighthouses."
SAMPLE = 48  # bytes of the cache file looked for elsewhere


def files_under(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


def holders(root: Path, needle: bytes) -> list[str]:
    return [str(p.relative_to(root)) for p in files_under(root) if needle in p.read_bytes()]


def cache_samples(state: bytes, shared: bytes, most: int = 32) -> list[bytes]:
    """Pieces of a saved KV state that belong to this conversation alone: not found in the
    states every chat shares (the system prompt's), and not filler (MLX pads its buffers)."""
    pieces = [state[i:i + SAMPLE] for i in range(0, len(state) - SAMPLE, SAMPLE)]
    varied = [p for p in pieces if len(set(p)) > 4]
    step = max(1, len(varied) // most)
    # The first such piece in each stretch of the state: every `in` reads through megabytes of
    # shared states, and looking up every piece took seconds on MLX's.
    found = (next((p for p in varied[start:start + step] if p not in shared), None)
             for start in range(0, len(varied), step))
    return [p for p in found if p is not None]


def answer(hearth: Hearth, conversation_id: str, text: str) -> None:
    handle = hearth.assistant.send(conversation_id, text)
    assert handle.wait(120)
    assert handle.finish_reason != "error"


@pytest.fixture(params=["llama", "mlx"])
def hearth(request: pytest.FixtureRequest, tiny_model: Any, hearth_home: Path) -> Any:
    engine = request.param
    pytest.importorskip("llama_cpp" if engine == "llama" else "mlx_lm")
    made = Hearth()
    made.settings.model_path = str(tiny_model.gguf_path if engine == "llama"
                                   else tiny_model.mlx_dir)
    made.settings.engine = engine
    made.settings.context_length = 2048
    made.settings.max_tokens = 12
    made.settings.enabled_skills = ["get_current_time"]
    made.runner.load(made.make_backend()).result(120)
    yield made
    made.close()


def test_deleting_a_chat_leaves_no_byte_of_it_on_disk(hearth: Any, hearth_home: Path,
                                                      tmp_path: Path) -> None:
    kept = hearth.conversations.create()
    hearth.history.add_message(kept.id, "user", KEPT)
    chat = hearth.conversations.create()
    dropped = tmp_path / "dropped" / "zanthoria.md"
    dropped.parent.mkdir()
    dropped.write_text(DOCUMENT, encoding="utf-8")
    assert hearth.documents.add_paths([dropped], scope=chat.id).added == 1
    answer(hearth, chat.id, QUESTION)
    hearth.runner.unload().result(60)  # the chat's KV goes to disk
    saved = [p for p in files_under(hearth.paths.kv_cache_dir) if p.name.startswith(
        file_stem(chat.id))]
    assert len(saved) == 1
    # llama.cpp lays the KV out layer by layer, so any part of the file also holds rows of the
    # shared system prompt; the saved prompt-prefix state holds exactly those (and nothing of
    # this chat), so pieces found there are not the chat's own and are not looked for.
    shared = b"".join(p.read_bytes() for suffix in ("*.llpx", "*.mlxpx.safetensors")
                      for p in hearth.paths.kv_cache_dir.rglob(suffix))
    samples = cache_samples(saved[0].read_bytes(), shared)
    assert samples
    texts = [m.content for m in hearth.history.messages(chat.id) if len(m.content) >= 12]
    # Back in the chat: its KV is in the engine's memory again when it is deleted.
    hearth.runner.load(hearth.make_backend()).result(120)
    answer(hearth, chat.id, "And the weather at Vestrabridge?")

    forgotten = hearth.conversations.delete(chat.id)
    assert forgotten.documents == 1 and not saved[0].exists()
    hearth.close()  # unloads the model: nothing of the chat may be parked on disk now

    for needle in [QUESTION, DOCUMENT, "Zanthoria", "Vestrabridge", *texts]:
        assert holders(hearth_home, needle.encode()) == [], needle
    for piece in samples:
        assert holders(hearth_home, piece) == []
    assert holders(hearth_home, KEPT.encode()) == ["data/hearth.db"]  # the rest is kept
    assert dropped.read_text(encoding="utf-8") == DOCUMENT  # the user's own file is untouched
    again = Hearth()
    try:
        assert [c.id for c in again.history.list_conversations()] == [kept.id]
        assert again.documents.search("Zanthoria budget", scope=chat.id) == []
        with pytest.raises(NotFound):
            again.conversations.delete(chat.id)
    finally:
        again.close()


def test_requests_queued_for_a_deleted_chat_never_run_or_save_its_kv(
        hearth: Any, hearth_home: Path) -> None:
    """An API request and a warm-up for a chat wait behind other work when it is deleted: they
    end as cancelled without a token, and nothing of the chat's KV reaches memory or disk."""
    chat = hearth.conversations.create(title="Queued")
    hearth.history.add_message(chat.id, "user", QUESTION)
    messages: list[Message] = [{"role": "user", "content": QUESTION}]
    gate = threading.Event()
    holding = hearth.runner.call(gate.wait)  # the model thread is busy with earlier work
    events: list[object] = []
    queued = [hearth.runner.submit(messages, GenerateOptions(max_tokens=4, cache_key=chat.id),
                                   events.append, priority=priority)
              for priority in (Priority.API, Priority.WARMUP)]
    deleting = threading.Thread(target=hearth.conversations.delete, args=(chat.id,))
    deleting.start()
    assert all(handle.wait(60) for handle in queued)  # ended while the engine is still busy
    assert not holding.done()
    assert [type(e) for e in events] == [Done, Done]
    assert {e.finish_reason for e in events if isinstance(e, Done)} == {"cancelled"}
    gate.set()
    deleting.join(120)
    assert not deleting.is_alive() and hearth.history.get_conversation(chat.id) is None
    late = hearth.runner.submit(messages, GenerateOptions(max_tokens=4, cache_key=chat.id),
                                events.append)
    assert late.wait(60) and isinstance(events[-1], Done)
    assert events[-1].finish_reason == "cancelled"  # a request sent after it: refused too
    hearth.runner.unload().result(60)  # parks and writes out every KV the engine holds
    assert [p.name for p in files_under(hearth.paths.kv_cache_dir)
            if p.name.startswith(file_stem(chat.id))] == []
    assert holders(hearth_home, b"Xylophonia") == []


def test_delete_all_from_the_cli_forgets_every_chat(hearth_home: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    hearth = Hearth()
    for title in ("Garden", "Taxes"):
        chat = hearth.conversations.create(title=title)
        hearth.history.add_message(chat.id, "user", f"{title} secrets of Quendrick")
    hearth.close()
    assert main(["history", "delete", "--all"]) == 2  # not a terminal: it needs --yes
    assert "add --yes" in capsys.readouterr().err
    assert main(["history", "delete", "--all", "--yes"]) == 0
    assert sorted(line.split()[-1] for line in capsys.readouterr().out.splitlines()) == [
        "Garden", "Taxes"]
    assert holders(hearth_home, b"Quendrick") == []


def test_a_deleted_chat_only_takes_the_documents_no_one_else_holds(tmp_path: Path) -> None:
    from skills.documents import DocumentIndex

    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("only.md", "shared.md", "library.md"):
        (folder / name).write_text(f"Notes on {name[:-3]} gardens.", encoding="utf-8")
    index = DocumentIndex(tmp_path / "index.db")
    try:
        index.add_paths([folder / "only.md", folder / "shared.md"], scope="gone")
        index.add_paths([folder / "shared.md"], scope="other")
        index.add_paths([folder / "library.md"])
        index.add_paths([folder / "library.md"], scope="gone")
        assert index.forget_scope("gone") == 1
        assert [d.title for d in index.documents(scope="gone")] == ["library.md"]
        assert sorted(d.title for d in index.documents(scope="other")) == ["library.md", "shared.md"]
    finally:
        index.close()
