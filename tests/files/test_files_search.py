"""Queries: prefix words in names and content, the ranking users expect, and every filter."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import openpyxl
import pytest

from tests.files.files_helpers import write

DAY = 86_400
NOW = datetime.now(UTC).timestamp()


@pytest.fixture
def index(root: Path, make_index):  # type: ignore[no-untyped-def]
    write(root / "Lease agreement.txt", "signed copy", mtime=NOW - 300 * DAY)
    write(root / "letters" / "landlord.txt", "about the lease renewal", mtime=NOW - 2 * DAY)
    write(root / "letters" / "old-landlord.txt", "an older lease", mtime=NOW - 90 * DAY)
    write(root / "Trip" / "TripBudget2025.xlsx", "", mtime=NOW - 10 * DAY)
    write(root / "Trip" / "photos" / "beach.jpg", "x" * 5000, mtime=NOW - 9 * DAY)
    write(root / "code" / "résumé_builder.py", "def build(): pass", mtime=NOW - 1 * DAY)
    built = make_index(root)
    built.scan()
    return built


def names(hits) -> list[str]:  # type: ignore[no-untyped-def]
    return [h.name for h in hits]


def test_name_hits_rank_above_content_hits_and_recent_above_old(index) -> None:
    assert names(index.search("lease")) == [
        "Lease agreement.txt",  # name hit, though the oldest
        "landlord.txt",  # content hits, newest first
        "old-landlord.txt",
    ]


def test_words_match_as_prefixes_in_any_order(index) -> None:
    assert names(index.search("agr lea")) == ["Lease agreement.txt"]
    assert names(index.search("renew")) == ["landlord.txt"]


def test_camel_case_digits_and_accents_in_names_are_found(index) -> None:
    assert names(index.search("budget 2025")) == ["TripBudget2025.xlsx"]
    assert names(index.search("resume")) == ["résumé_builder.py"]


def test_content_snippet_marks_the_match(index) -> None:
    hit = index.search("renewal")[0]
    assert "**renewal**" in hit.snippet


def test_filters_kind_extension_folder_size_and_dates(index, root: Path) -> None:
    assert names(index.search(kind="spreadsheets")) == ["TripBudget2025.xlsx"]
    assert names(index.search(kind="image")) == ["beach.jpg"]
    assert names(index.search(extensions=[".PY"])) == ["résumé_builder.py"]
    assert set(names(index.search(folder=str(root / "Trip")))) == {
        "TripBudget2025.xlsx", "beach.jpg"}
    assert names(index.search(larger_than=4000)) == ["beach.jpg"]
    week_ago = datetime.now(UTC) - timedelta(days=7)
    assert set(names(index.search(modified_after=week_ago))) == {
        "landlord.txt", "résumé_builder.py"}
    assert names(index.search("lease", modified_before=week_ago)) == [
        "Lease agreement.txt", "old-landlord.txt"]


def test_no_query_lists_newest_first_and_limit_applies(index) -> None:
    assert names(index.search(limit=2)) == ["résumé_builder.py", "landlord.txt"]


def test_odd_queries_give_results_or_nothing_never_an_error(index) -> None:
    for query in ['"lease', "lease AND OR (", "NEAR(lease", "*", "-", "col:lease", "'"]:
        index.search(query)  # must not raise: FTS syntax is never passed through
    assert names(index.search('"lease AND')) == names(index.search("lease and"))


def test_bad_filters_are_refused_in_plain_words(index, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown kind"):
        index.search(kind="spaceship")
    with pytest.raises(ValueError, match="outside the folders"):
        index.search(folder=str(tmp_path))
    with pytest.raises(ValueError, match="limit"):
        index.search("lease", limit=0)


def test_both_query_plans_rank_the_same(index, monkeypatch) -> None:
    from skills.files import query

    queries = ["lease", "l", "txt", "le an", "trip", ""]
    usual = [[h.path for h in index.search(q, limit=3)] for q in queries]
    monkeypatch.setattr(query, "BROAD", 0)  # every tier walks the modification-time index
    assert [[h.path for h in index.search(q, limit=3)] for q in queries] == usual
    assert usual[0] == [index.search("lease")[i].path for i in range(3)]


def test_snippets_bold_every_match_and_fold_accents() -> None:
    from skills.files.snippet import make_snippet

    text = "Intro. " + "filler " * 30 + "the Café menu and café_prices; cafeteria too."
    snippet = make_snippet(text, ["caf"])
    assert snippet.startswith("filler") and "**Café** menu" in snippet
    assert "**café**_prices" in snippet
    assert "**cafeteria**" in snippet
    assert make_snippet("Mon résumé final", ["resume"]) == "Mon **résumé** final"
    assert make_snippet("nothing here", ["zebra"]) == ""


def test_a_spreadsheets_column_names_are_searched_with_its_cells(root: Path, make_index) -> None:  # type: ignore[no-untyped-def]
    """The first filled row of a sheet names its columns: searching for one finds the file."""
    book = openpyxl.Workbook()
    book.active.append(["Invoice", "Walrusfee"])
    book.active.append(["INV-7", 40])
    book.save(root / "ledger.xlsx")
    index = make_index(root)
    index.scan()
    assert names(index.search("walrusfee")) == ["ledger.xlsx"]
    assert names(index.search("INV-7")) == ["ledger.xlsx"]
