"""Topic tags of texts with few noun phrases: the adjective a linking verb says the subject is ("I'm
vegetarian") stands as a topic when the text names fewer than two; a capitalised noun the tagger misread is a
name ("Lily gets carsick"); a fragment's opening verb is no topic ("renew car insurance"); an amount's "max" is
none either, nor a chat line's "tbh"."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.tags.phrases import topics


@pytest.mark.parametrize(
    ("text", "wanted", "unwanted"),
    [
        ("I'm vegetarian since 2019", {"vegetarian"}, set()),
        ("I'm strictly vegan", {"vegan"}, {"strictly"}),
        ("I'm left-handed.", {"left-handed"}, set()),
        ("Lily gets carsick on long drives, she has to sit in the front.", {"Lily", "drives"}, {"carsick"}),
        ("renew car insurance - expires soon", {"car insurance"}, {"renew car insurance"}),
        ("Ibuprofen: max 1200mg a day without a doctor's advice.", {"Ibuprofen", "doctor"}, {"max"}),
        ("i hate early morning shoots tbh", set(), {"tbh"}),
    ],
)
def test_topics_of_texts_with_few_nouns(text: str, wanted: set[str], unwanted: set[str]) -> None:
    found = set(topics(text))
    assert wanted <= found, found
    assert not unwanted & found, found


@pytest.mark.parametrize(
    "text",
    [
        "Mia is allergic to peanuts and eggs.",  # two noun phrases already: the adjective adds nothing
        "I'm allergic to penicillin.",  # the complement names the topic
        "The rent is due on the 1st.",  # a deadline word, a context tag's
        "The server is a big help.",  # an adjective before its noun is no predicate
        "I run 5k every Tuesday.",
    ],
)
def test_no_predicate_where_nouns_suffice_or_none_is_said(text: str) -> None:
    found = {t.lower() for t in topics(text)}
    assert not found & {"allergic", "big", "due"}, found


def test_store_memory_tags_a_diet(tmp_path: Path) -> None:
    settings = Settings(tag_on_topic=-1.0)  # the fake embedder says nothing of closeness
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=settings) as memory:
        got = memory.store_memory("I'm vegetarian since 2019")
    assert "vegetarian" in got["analysis"]["generated_tags"]


def test_an_occasion_named_by_a_time_word_keeps_its_owner() -> None:
    assert "Parents evening" in topics("Parents' evening is on Thursday 3 December from 4pm.")
    found = set(topics("The kids' bikes need new tyres."))  # whose, not an occasion: two topics
    assert {"kids", "bikes"} <= found, found
