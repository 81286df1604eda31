"""Folder digest: summaries by the real tiny model (llama.cpp), cached by content hash,
pausable and cancellable, reused by the report tool."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from app.core.runner import ModelRunner
from app.core.summaries import ModelSummarizer
from app.main import main
from skills.base import SkillContext, SkillError
from skills.office import DigestCache, Digester, DigestJob, OfficeAccess, office_skills
from tests.documents.corpus import write_pdf

WAIT = 120


def make_folder(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    write_pdf(folder / "contract.pdf", [["Lease for the shop"], ["Rent is 900 euros a month."]])
    (folder / "notes.md").write_text("# Notes\n\nThe audit is on 3 March.\n", encoding="utf-8")
    (folder / "broken.docx").write_bytes(b"not a zip")
    return folder


class CountingSummarizer:
    """Counts the model calls a digest makes (the text comes from the real model)."""

    def __init__(self, inner: ModelSummarizer) -> None:
        self.inner = inner
        self.name = "counting"
        self.calls = 0

    def summarize(self, title: str, text: str, should_stop: Any) -> str:
        self.calls += 1
        return self.inner.summarize(title, text, should_stop)


@pytest.fixture
def llama_runner(tiny_model: Any) -> Any:
    from backends.llama_cpp import LlamaCppBackend

    runner = ModelRunner()
    runner.load(LlamaCppBackend(str(tiny_model.gguf_path), context_length=4096)).result(WAIT)
    yield runner
    runner.close()


def test_digest_summarises_once_then_answers_from_the_cache(
        tmp_path: Path, llama_runner: Any) -> None:
    folder = make_folder(tmp_path / "docs")
    summarizer = CountingSummarizer(ModelSummarizer(llama_runner, max_tokens=16))
    cache = DigestCache(tmp_path / "index.db")
    digester = Digester(cache, summarizer)
    access = OfficeAccess(roots=lambda: [str(folder)], output=lambda: str(tmp_path / "out"))
    tools = {s.name: s for s in office_skills(access, digester=digester)}
    try:
        first = tools["office_digest"].run({"folder": str(folder), "question": "rent?"},
                                           SkillContext(conversation_id="c"))
        assert summarizer.calls == 2 and first.data["cache_hits"] == 0
        assert {Path(f["path"]).name for f in first.data["files"]} == {"contract.pdf",
                                                                       "notes.md"}
        assert "broken.docx" in first.text  # said, not hidden
        pdf = next(s for s in first.sources if s.title == "contract.pdf")
        assert pdf.location == "pages 1-2" and pdf.page == 1
        second = tools["office_digest"].run({"folder": str(folder)}, SkillContext())
        assert summarizer.calls == 2 and second.data["cache_hits"] == 2
        (folder / "notes.md").write_text("# Notes\n\nMoved to 4 March.\n", encoding="utf-8")
        third = tools["office_digest"].run({"folder": str(folder)}, SkillContext())
        assert summarizer.calls == 3 and third.data["cache_hits"] == 1  # only the edited file
        # The report tool appends the cached map as a Sources section.
        report = tools["office_report"].run({"markdown": "# Report", "digest": str(folder),
                                             "output": "r.docx"}, SkillContext())
        import docx

        texts = [p.text for p in docx.Document(report.data["written"]).paragraphs]
        assert "Sources" in texts and any(t.startswith("contract.pdf") for t in texts)
    finally:
        digester.close()
        cache.close()


def test_a_paused_digest_waits_and_a_cancelled_one_keeps_what_it_made(
        tmp_path: Path, llama_runner: Any) -> None:
    folder = make_folder(tmp_path / "docs")
    cache = DigestCache(tmp_path / "index.db")
    digester = Digester(cache, ModelSummarizer(llama_runner, max_tokens=8))
    seen: list[int] = []
    paused = threading.Event()

    def progress(done: int, total: int, current: str) -> None:
        seen.append(done)
        if done == 1 and not paused.is_set():
            paused.set()
            job.pause()

    job = DigestJob(progress)
    box: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: box.setdefault("r", digester.run(str(folder), job)))
    worker.start()
    assert paused.wait(WAIT)
    worker.join(0.3)
    assert worker.is_alive() and seen == [0, 1]  # waiting, not working
    job.cancel()
    worker.join(WAIT)
    report = box["r"]
    assert report.cancelled and len(report.files) == 1
    again = digester.run(str(folder), DigestJob())
    assert again.cache_hits == 1 and len(again.files) == 2
    digester.close()
    cache.close()


def test_digest_refuses_a_folder_outside_the_chosen_ones(tmp_path: Path) -> None:
    access = OfficeAccess(roots=lambda: [str(tmp_path / "chosen")],
                          output=lambda: str(tmp_path / "out"))
    digester = Digester(DigestCache(tmp_path / "index.db"), CountingSummarizer(None))  # type: ignore[arg-type]
    tool = {s.name: s for s in office_skills(access, digester=digester)}["office_digest"]
    with pytest.raises(SkillError, match="outside"):
        tool.run({"folder": str(tmp_path)}, SkillContext())


def test_cli_digest_on_the_tiny_model(tiny_model: Any, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_folder(tmp_path / "docs")
    args = ["office", "digest", str(folder), "--model", str(tiny_model.gguf_path),
            "--question", "What is the rent?", "--json"]
    assert main(args) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [e["done"] for e in lines if e["event"] == "progress"][-1] == 3  # broken.docx too
    done = lines[-1]
    assert done["event"] == "done" and len(done["files"]) == 2 and done["cache_hits"] == 0
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["cache_hits"] == 2
