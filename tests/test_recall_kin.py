"""Other words for kin: a grandparent's pet names, in-laws said as "my brother's wife", and a doctor said as GP or
Dr; a link is said by its address; and a word is looked up as itself in the singular, not by its stem (a doctorate
is no doctor)."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall.synonyms import other_words


@pytest.mark.parametrize(
    ("asked", "phrase", "said"),
    [
        ("nan's recipe", "nan", "grandma"),
        ("what does my brother's wife do", "brother wife", "sister in law"),
        ("when do the in-laws arrive", "in laws", "mother in law"),
        ("where does my sister-in-law live", "sister in law", "brother wife"),
        ("my doctor's number", "doctor", "gp"),
        ("my parents", "parents", "mother"),
    ],
)
def test_a_kin_word_has_its_other_words(asked: str, phrase: str, said: str) -> None:
    found = other_words(asked)
    assert said in found.get(phrase, ()), found


def test_a_word_is_not_another_that_stems_like_it() -> None:
    # Porter stems "doctorate" to "doctor": looked up by stems, every doctor was a PhD.
    assert "phd" not in other_words("my doctor").get("doctor", ())
    assert "phd" in other_words("my doctorate").get("doctorate", ())


def test_a_relative_said_otherwise_is_found_first(real: Memory) -> None:
    aiko = real.store_memory("My sister-in-law Aiko lives in Osaka and teaches piano.")["memory_id"]
    rose = real.store_memory("Grandma Rose's apple crumble: 200g flour, 100g butter, bake 35 minutes.")[
        "memory_id"
    ]
    surgery = real.store_memory("Our GP surgery is Elm Tree Medical Centre, 029 2045 1234.")["memory_id"]
    for text in (
        "Passport number 533219874, expires June 2029.",
        "My brother Tunde plays five-a-side football on Wednesdays.",
        "Favourite podcast: In Our Time on BBC Radio 4.",
    ):
        real.store_memory(text)
    for question, wanted in (
        ("where does my brother's wife live", aiko),
        ("nan's crumble", rose),
        ("which surgery is my doctor at", surgery),
    ):
        found = real.search_memory(question, touch=False)["results"]
        assert found and found[0]["id"] == wanted, question


def test_a_question_for_links_finds_the_memory_that_holds_one(real: Memory) -> None:
    board = real.store_memory("Payments dashboard in Grafana: https://grafana.example.net/d/pay-01")[
        "memory_id"
    ]
    for text in (
        "I don't read work Slack after 7pm.",
        "My work email is sam@example.io and I check it twice a day.",
        "The team prefers short pull requests.",
    ):
        real.store_memory(text)
    found = real.search_memory("useful links for work", touch=False)["results"]
    assert found and found[0]["id"] == board
