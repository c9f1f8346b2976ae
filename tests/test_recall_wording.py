"""Questions worded unlike the memories, from using the product by hand on a second user's memories
(bench/data/wording): a person named by role ("my manager") where the memory names them, a partner named where
the memories say "X and I have been together", and a long document whose passages, taken three times among the
best matches that pseudo-relevance feedback moves the query toward, outranked the short memory that answers. Each question below found another memory
first before the rules it tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engram import Memory
from engram.recall.kin import kin_words, names_in

DATA = Path(__file__).resolve().parent.parent / "bench" / "data" / "wording" / "memories.jsonl"
_KEPT = {"w04", "w13", "w16", "w20", "w24", "w31", "w37", "w39", "w40", "w41", "w47", "w50", "w51", "w52"}
NOTES = tuple(
    item["content"]
    for line in DATA.read_text(encoding="utf-8").splitlines()
    if line.strip() and (item := json.loads(line))["key"] in _KEPT
)


def test_a_role_and_a_partner_reach_the_names_the_memories_give_them() -> None:
    texts = [
        "My manager is Rhiannon Evans; our one-to-ones are on Mondays at 11.",
        "Our accountant is Gareth Price at Price & Co.",
        "The spare key is with our neighbour Doreen at number 14.",
        "Kofi and I have been together since 2019.",
        "Sara and I went to the market together.",
    ]
    assert names_in(kin_words("which book did my manager suggest")["manager"], texts) == ("Rhiannon Evans",)
    assert names_in(kin_words("who is my boss")["boss"], texts) == ("Rhiannon Evans",)
    assert names_in(kin_words("our accountant's number")["accountant"], texts) == ("Gareth Price",)
    assert names_in(kin_words("my neighbor")["neighbor"], texts) == ("Doreen",)
    # Together with the asker as a couple, not doing something together.
    assert names_in(kin_words("my boyfriend's birthday")["boyfriend"], texts) == ("Kofi",)
    assert names_in(kin_words("my partner")["partner"], texts[4:]) == ()


def test_the_store_holds_the_long_document() -> None:
    assert len(NOTES) == len(_KEPT)
    assert max(len(n.split()) for n in NOTES) > 1000


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("which book did my manager suggest?", "Just Enough Research"),  # was: "My manager is Rhiannon Evans"
        ("when do I call my grandma?", "Oma Hilde"),  # was: the document's first passage ("video calls")
    ],
)
def test_a_question_in_other_words_finds_its_memory_first(notes: Memory, question: str, answer: str) -> None:
    found = notes.search_memory(question, {"min_confidence": "low"}, touch=False)["results"]
    assert found, question
    assert answer in found[0]["content"], [r["content"][:60] for r in found[:3]]
