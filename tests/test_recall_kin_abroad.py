"""Kin said in the language a person grew up in, and a couple told as a note: "Abuela Rosa is 91" names the
grandmother "my gran" asks about, "Mamá (Carmen)" the mother, and "Dan and me together 6 yrs" the partner, as
"Dan and I have been together" did. The rules, then with the real model on memories a person writes."""

from __future__ import annotations

from datetime import UTC, datetime

import time_machine

from engram import Memory
from engram.recall.kin import kin_words, names_in

NOW = datetime(2026, 11, 26, 10, tzinfo=UTC)


def test_a_grandparent_or_parent_titled_in_another_language_is_named() -> None:
    texts = ["Abuela Rosa is 91, lives in a care home in Burjassot.", "Nonno Pino still drives at 88."]
    assert names_in(kin_words("where does my gran live")["gran"], texts) == ("Rosa",)
    assert names_in(kin_words("how old is my grandmother")["grandmother"], texts) == ("Rosa",)
    assert names_in(kin_words("is my grandad still driving")["grandad"], texts) == ("Pino",)
    assert names_in(kin_words("my mum")["mum"], ["Mamá (Carmen) rang today."]) == ("Carmen",)
    assert names_in(kin_words("my mum")["mum"], ["Mamma mia, what a day."]) == ()  # no name after it


def test_a_couple_told_without_the_verb_names_the_partner() -> None:
    said = kin_words("what's my boyfriend's name")["boyfriend"]
    assert names_in(said, ["Dan and me together 6 yrs, moved in 2022."]) == ("Dan",)
    assert names_in(said, ["Dan and me went to the match."]) == ()


def test_the_partner_and_the_in_laws_are_found_through_a_note(real: Memory) -> None:
    with time_machine.travel(datetime(2026, 10, 1, 8, tzinfo=UTC), tick=False):
        for text in (
            "Dan and me together 6 yrs, moved in together 2022. he drives the 86 bus for Stagecoach",
            "Dan's parents Pauline and Keith live in Cheadle Hulme",
            "my brother Javi is in Madrid with his wife Irene",
            "Mum (Carmen) and Dad (Vicente) still in Valencia",
            "Abuela Rosa is 91, lives in a care home in Burjassot",
        ):
            real.store_memory(text)
    with time_machine.travel(NOW, tick=False):
        for question, start in (
            ("where do my in-laws live?", "Dan's parents"),
            ("where does my gran live?", "Abuela Rosa"),
        ):
            hits = real.recall(question, now=NOW, touch=False)
            assert hits and hits[0].record.content.startswith(start), (
                question,
                [h.record.content for h in hits],
            )
