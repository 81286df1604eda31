"""Retrieval quality: 100 questions over 56 generated documents, answer place in the top 5."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from skills.documents import DocumentIndex
from skills.documents.worker import ParserPool
from tests.documents.corpus import Question, build_collection


@pytest.fixture(scope="module")
def collection(
    tmp_path_factory: pytest.TempPathFactory, shared_pool: ParserPool
) -> Iterator[tuple[DocumentIndex, list[Question]]]:
    root = tmp_path_factory.mktemp("collection")
    questions = build_collection(root / "docs")
    index = DocumentIndex(root / "index.db", pool=shared_pool)
    report = index.add_paths([root / "docs"])
    assert report.failures == [] and report.added >= 50
    yield index, questions
    index.close()


def test_the_right_page_is_in_the_top_five_for_nine_in_ten_questions(
    collection: tuple[DocumentIndex, list[Question]],
) -> None:
    index, questions = collection
    assert len(questions) == 100
    kinds = {Path(q.document).suffix for q in questions}
    assert {".pdf", ".docx", ".xlsx", ".pptx", ".md"} <= kinds
    found = [
        any(q.matches(p.document, p.page, p.location) for p in index.search(q.text, limit=5))
        for q in questions
    ]
    assert sum(found) >= 90, [q.text for q, ok in zip(questions, found, strict=True) if not ok]


def test_the_passage_that_ranks_first_contains_the_answer(
    collection: tuple[DocumentIndex, list[Question]],
) -> None:
    index, questions = collection
    top = [index.search(q.text, limit=1) for q in questions]
    with_answer = sum(1 for q, hits in zip(questions, top, strict=True)
                      if hits and q.answer in hits[0].text)
    assert with_answer >= 80
