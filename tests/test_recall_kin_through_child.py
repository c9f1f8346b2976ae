"""Kin through the asker's child: a grandchild is the child's child, a daughter- or son-in-law the child's spouse,
found by the names the memories give them ("Nina, Oskar and Lea's baby girl", "our son Oskar ... with his wife
Lea"), as "my grandson" or "my daughter-in-law" is rarely said. The rule on its own, then with the real model:
without it, each question below found the memory that names the child first, or its answer only at low."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall.kin import by_name, kin_words, names_in, searched

NOTES = (
    "Our son Oskar moved to Bristol with his wife Lea last spring; he teaches physics.",
    "Nina, Oskar and Lea's baby girl, was born on 2 March.",
    "Lea works as a midwife at Southmead hospital.",
    "Nina is allergic to eggs, so no cake with egg when she visits.",
    "My daughter Freya is married to Tom; he is a carpenter.",
    "Hugo is Freya's son; he started school in September.",
    "The neighbours' boy Sam mows our lawn in summer.",
    "Cake sale at church on Saturday; I promised a lemon drizzle.",
    "Egg boxes go in the food waste, not the recycling.",
    "Lea is vegetarian, and so is Oskar these days.",
)


def test_a_grandchild_and_a_child_in_law_are_named_through_the_child() -> None:
    kin = kin_words("when is my granddaughter's birthday?")
    assert {"son", "daughter", "girl"} <= set(searched(kin))
    assert names_in(kin["granddaughter"], NOTES) == ("Nina",)
    assert names_in(kin_words("what does my daughter-in-law do?")["daughter-in-law"], NOTES) == ("Lea",)
    assert (
        names_in(kin_words("where is my son-in-law from?")["son-in-law"], NOTES) == ()
    )  # no "her husband Tom"
    assert names_in(kin_words("how old is my grandson?")["grandson"], NOTES) == ("Hugo",)
    # The neighbours' boy is nobody's grandchild: no child of the asker is named with him.
    assert "Sam" not in names_in(kin_words("my grandchildren")["grandchildren"], NOTES)
    assert names_in(kin_words("my grandson")["grandson"], NOTES[6:]) == ()
    named = [("daughter-in-law", ("Lea",))]
    assert by_name("what does my daughter-in-law do?", named) == "what does Lea do?"


@pytest.fixture
def family(real: Memory) -> Memory:
    for text in NOTES:
        real.store_memory(text)
    return real


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("what can't my granddaughter eat?", "allergic to eggs"),
        ("does my daughter-in-law eat meat?", "vegetarian"),
        ("what does my daughter-in-law do for work?", "midwife"),
        ("which school does my grandson go to?", "started school"),
    ],
)
def test_kin_through_the_child_finds_the_answer_surely(family: Memory, question: str, answer: str) -> None:
    found = family.search_memory(question, {"limit": 3}, touch=False)["results"]
    assert found and answer in found[0]["content"], [r["content"] for r in found]
    assert found[0]["confidence"] in {"medium", "high"}, found[0]
