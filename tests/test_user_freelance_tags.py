"""Tags of a freelance web developer's notes: a hyphenated word the tagger splits with a hyphen it calls a noun
("X-ray", "Co-op") and a shop or firm named with "&" ("Sugar & Slate") are one tag each, not "ray", "co" and
two halves; two people or family words joined by "&" stay two."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory
from engram.config import Settings
from engram.tags import phrases


@pytest.mark.parametrize(
    ("text", "whole", "parts"),
    [
        ("Renew the X-ray of my wrist at the physio.", "X-ray", {"ray", "X"}),
        ("Dad needs a chest X-ray on Friday.", "chest X-ray", {"ray", "chest X"}),
        ("Order moving boxes from the Co-op this weekend.", "Co-op", {"Co", "op"}),
        ("Sugar & Slate asked about a new website for their café.", "Sugar & Slate", {"sugar", "Slate"}),
        ("Pike & Pennant is an outdoor gear shop in Hebden Bridge.", "Pike & Pennant", {"Pike", "Pennant"}),
        ("We bought the sofa from Marks & Spencer.", "Marks & Spencer", {"Marks", "Spencer"}),
    ],
)
def test_a_word_or_a_name_the_tokenizer_splits_is_one_topic(text: str, whole: str, parts: set[str]) -> None:
    found = phrases.topics(text)
    assert whole in found and not parts & set(found)


@pytest.mark.parametrize(
    ("text", "people"),
    [
        ("Mum & Dad are coming on Sunday.", {"Mum", "Dad"}),
        ("I met Sarah & Ben at the pub.", {"Sarah", "Ben"}),
    ],
)
def test_two_people_joined_by_an_ampersand_stay_two(text: str, people: set[str]) -> None:
    assert people <= set(phrases.topics(text))


def test_the_stored_tags_keep_the_name_whole(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        tags = m.store_memory("Sugar & Slate asked about a new website; the X-ray is on Friday.")["analysis"][
            "generated_tags"
        ]
    assert "sugar-slate" in tags and "x-ray" in tags
    assert not {"sugar", "slate", "ray"} & set(tags)
