"""Searching history: words found with highlights, any typed text is safe, CJK text works."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.history import HistoryStore


@pytest.fixture
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    opened = HistoryStore(tmp_path / "hearth.db")
    trip = opened.create_conversation("Trip to Kyoto")
    opened.add_message(trip.id, "user", "Plan a meeting with Anna in Kyoto next Tuesday")
    opened.add_message(trip.id, "assistant", "Booked the ryokan.", reasoning="Check trains first")
    recipes = opened.create_conversation("Recipes")
    opened.add_message(recipes.id, "user", "A café recipe for crème brûlée")
    opened.add_message(recipes.id, "assistant", "今天天气很好，我们做甜点吧。")
    yield opened
    opened.close()


def test_hits_are_highlighted_and_name_their_conversation(store: HistoryStore) -> None:
    [hit] = store.search("anna kyoto")
    assert hit.conversation_title == "Trip to Kyoto" and hit.role == "user"
    assert "[[Anna]]" in hit.snippet and "[[Kyoto]]" in hit.snippet


def test_every_word_must_appear_and_words_match_as_prefixes(store: HistoryStore) -> None:
    assert [h.snippet for h in store.search("meet tues")] == [
        "Plan a [[meeting]] with Anna in Kyoto next [[Tuesday]]"
    ]
    assert store.search("meeting recipe") == []


def test_reasoning_is_searchable(store: HistoryStore) -> None:
    [hit] = store.search("trains")
    assert hit.role == "assistant" and "[[trains]]" in hit.snippet


def test_accents_do_not_matter(store: HistoryStore) -> None:
    assert [h.conversation_title for h in store.search("creme brulee cafe")] == ["Recipes"]


def test_chinese_words_inside_a_sentence_are_found(store: HistoryStore) -> None:
    [hit] = store.search("天气")
    assert hit.conversation_title == "Recipes"
    assert "[[天气]]" in hit.snippet


def test_rare_characters_beyond_the_basic_block_are_found_inside_a_word(
        store: HistoryStore) -> None:
    """CJK Extension B (U+20000...), as in many names: the history's own copy of the CJK
    class lacked it, so such a word was searched as one whole token and never found inside."""
    conversation = store.create_conversation("Family names")
    store.add_message(conversation.id, "user", "我的祖父叫𠀀𠀁𠀂先生")
    [hit] = store.search("𠀁𠀂")
    assert hit.conversation_id == conversation.id and "[[𠀁𠀂]]" in hit.snippet


@pytest.mark.parametrize(
    ("query", "titles"),
    [
        ('"kyoto', ["Trip to Kyoto"] * 2),  # its title, then its message
        ("kyoto)", ["Trip to Kyoto"] * 2),
        ("NEAR(kyoto anna)", []),  # NEAR is a word here, and no message has it
        ("title:kyoto", []),  # not a column filter: "title" must appear too
        ("ryokan*", ["Trip to Kyoto"]),
        ("^booked", ["Trip to Kyoto"]),
        ("-anna", ["Trip to Kyoto"]),
        ("'; drop table messages; --", []),
        ("OR NOT", []),
        ("*", []),
        ("", []),
        ("   ", []),
        ("\x00", []),
        ("kyoto " * 1000, ["Trip to Kyoto"] * 2),
    ],
)
def test_fts_syntax_in_queries_is_plain_text(
    store: HistoryStore, query: str, titles: list[str]
) -> None:
    assert [hit.conversation_title for hit in store.search(query)] == titles
    assert store.search("kyoto")  # and the store is still fine


def test_operators_are_searched_as_words(store: HistoryStore) -> None:
    chat = store.create_conversation("Logic")
    store.add_message(chat.id, "user", "cats AND dogs")
    assert [h.conversation_title for h in store.search("AND")] == ["Logic"]


def test_limit_caps_the_results(store: HistoryStore) -> None:
    chat = store.create_conversation("Many")
    for n in range(10):
        store.add_message(chat.id, "user", f"repeated note {n}")
    assert len(store.search("repeated", limit=3)) == 3
    assert store.search("repeated", limit=0) == []


def test_streamed_text_is_searchable_as_it_is_now(store: HistoryStore) -> None:
    chat = store.create_conversation("Stream")
    answer = store.add_message(chat.id, "assistant", "draft wording", status="streaming")
    store.update_message(answer.id, content="final phrasing", status="complete")
    assert store.search("draft") == []
    assert [h.message_id for h in store.search("phrasing")] == [answer.id]


# The store is shared across examples on purpose (searching never writes); too_slow is off
# because this box is shared with other jobs, and a slow example proves nothing wrong.
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(query=st.text(max_size=40))
def test_any_typed_text_searches_without_error(store: HistoryStore, query: str) -> None:
    for hit in store.search(query):
        assert hit.message_id or (hit.role == "title" and "[[" in hit.snippet)


def test_a_remembered_title_finds_its_conversation_first(store: HistoryStore) -> None:
    empty = store.create_conversation("Kyoto temples shortlist")  # no messages yet
    hits = store.search("kyoto")
    assert [(h.conversation_title, h.role, h.message_id) for h in hits[:2]] == [
        ("Kyoto temples shortlist", "title", ""),  # the most recently active first
        ("Trip to Kyoto", "title", ""),
    ]
    assert hits[0].conversation_id == empty.id
    assert hits[0].snippet == "[[Kyoto]] temples shortlist"
    assert [h.role for h in hits[2:]] == ["user"]  # then the messages, as before
    assert [h.snippet for h in store.search("temp short")] == ["Kyoto [[temples]] [[shortlist]]"]


def test_title_words_match_like_message_words(store: HistoryStore) -> None:
    store.create_conversation("Résumé tips")
    assert [h.snippet for h in store.search("resu")] == ["[[Résumé]] tips"]
    assert store.search("tips kyoto") == []  # every word, in the same title or message
    chat = store.create_conversation("北京旅行计划")
    [hit] = store.search("旅行")
    assert (hit.conversation_id, hit.snippet) == (chat.id, "北京[[旅行]]计划")


def test_renamed_and_deleted_titles_are_searched_as_they_are_now(store: HistoryStore) -> None:
    chat = store.create_conversation("Budget draft")
    store.rename(chat.id, "Holiday savings")
    assert store.search("budget") == []
    assert [h.conversation_id for h in store.search("savings")] == [chat.id]
    store.set_pinned(chat.id, True)  # other updates keep the title findable
    assert [h.conversation_id for h in store.search("holiday")] == [chat.id]
    store.delete_conversation(chat.id)
    assert store.search("holiday") == []


def test_title_hits_count_toward_the_limit(store: HistoryStore) -> None:
    for n in range(3):
        store.create_conversation(f"Kyoto day {n}")
    assert [h.role for h in store.search("kyoto", limit=2)] == ["title", "title"]
    assert len(store.search("kyoto", limit=5)) == 5


def test_a_deleted_title_leaves_no_trace_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "hearth.db"
    store = HistoryStore(path)
    secret = store.create_conversation("Surprise party xylophonequartz")
    store.rename(secret.id, "Surprise party xylophonequartz plans")
    store.create_conversation("Groceries")
    store.delete_conversation(secret.id)
    store.close()
    on_disk = b"".join(p.read_bytes() for p in tmp_path.glob("hearth.db*") if p.is_file())
    assert b"xylophonequartz" not in on_disk and b"Groceries" in on_disk
