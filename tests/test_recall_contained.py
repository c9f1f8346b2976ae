"""Which of a query's stems each candidate says, read once per query (engram.recall.contained)."""

from __future__ import annotations

import pytest

from engram.lang.text import stems_among
from engram.recall.contained import Contained, overlap_stems, overlaps

TEXTS = [
    "My dad's birthday party is at the lake house in June.",
    "We moved the fishing trip to the lake; father drove.",
    "Nothing about it here, only e-mail and wi-fi troubles.",
    "用PostgreSQL 存储 party photos",
]


def test_a_narrower_ask_of_the_same_texts_answers_as_a_fresh_read() -> None:
    contained = Contained()
    wide = frozenset({"parti", "lake", "june", "father", "dad", "fish"})
    assert contained(TEXTS, wide) == stems_among(TEXTS, wide)
    for narrow in (frozenset({"lake"}), frozenset({"parti", "june"}), frozenset()):
        assert contained(TEXTS, narrow) == stems_among(TEXTS, narrow)


def test_stems_beyond_the_first_read_or_other_texts_are_read_anew() -> None:
    contained = Contained()
    contained(TEXTS, frozenset({"lake"}))
    assert contained(TEXTS, frozenset({"lake", "june"})) == [{"lake", "june"}, {"lake"}, set(), set()]
    assert contained(TEXTS[:1], frozenset({"lake"})) == [{"lake"}]


def test_what_overlaps_adds_to_an_answer_does_not_change_the_next() -> None:
    contained = Contained()
    # "dad" (a short word, looked for as itself) stands in for father in the first text: overlaps counts it there
    share, _ = overlaps(
        {"lake": 1.5, "father": 2.0}, TEXTS, None, {"father": [frozenset({"dad"})]}, contained
    )
    assert share[0] == 1.0
    assert contained(TEXTS, frozenset({"lake", "father"}))[0] == {"lake"}


def test_overlaps_read_through_it_equal_overlaps_read_directly() -> None:
    weights = {"lake": 1.5, "father": 2.0, "parti": 0.7}
    standins = {"father": [frozenset({"dad"})]}
    contained = Contained()
    through = overlaps(weights, TEXTS, {"fish": 0.4}, standins, contained)
    direct = overlaps(weights, TEXTS, {"fish": 0.4}, standins)
    assert through[0].tolist() == direct[0].tolist() and through[1].tolist() == direct[1].tolist()
    topic = {"lake": 1.5, "father": 2.0}
    assert (
        overlaps(topic, TEXTS, None, standins, contained)[0].tolist()
        == overlaps(topic, TEXTS, None, standins)[0].tolist()
    )
    assert direct[0][0] > 0  # "dad" stands in for father there


def test_texts_read_ahead_and_the_rest_answer_as_one_read_of_all() -> None:
    wanted = frozenset({"parti", "lake", "father", "dad"})
    contained = Contained()
    contained.read_ahead([TEXTS[1], TEXTS[3]], wanted)
    texts = [*TEXTS, TEXTS[1]]
    assert contained(texts, wanted) == stems_among(texts, wanted)
    assert contained(texts, frozenset({"lake"})) == stems_among(texts, frozenset({"lake"}))


def test_texts_read_ahead_for_other_stems_are_read_again() -> None:
    contained = Contained()
    contained.read_ahead(TEXTS, frozenset({"lake"}))
    assert contained(TEXTS, frozenset({"june", "lake"})) == stems_among(TEXTS, frozenset({"june", "lake"}))


def test_overlaps_ask_for_the_stems_read_ahead() -> None:
    weights = {"lake": 1.5, "father": 2.0, "parti": 0.7}
    standins = {"father": [frozenset({"dad"}), frozenset({"papa", "bear"})]}
    asked: list[frozenset[str]] = []

    def contains(texts: object, wanted: frozenset[str]) -> list[set[str]]:
        asked.append(wanted)
        return stems_among(TEXTS, wanted)

    overlaps(weights, TEXTS, {"fish": 0.4}, standins, contains)
    assert asked == [overlap_stems(weights, {"fish": 0.4}, standins)]
    assert "dad" not in asked[0] and "papa" in asked[0]  # a short other word is looked for as itself


def test_a_text_read_ahead_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    import engram.recall.contained as contained_module

    read: list[list[str]] = []

    def counted(texts: list[str], wanted: frozenset[str]) -> list[set[str]]:
        read.append(list(texts))
        return stems_among(texts, wanted)

    monkeypatch.setattr(contained_module, "stems_among", counted)
    wanted = frozenset({"lake", "parti"})
    contained = Contained()
    contained.read_ahead([TEXTS[1], TEXTS[3]], wanted)
    contained([*TEXTS, TEXTS[0]], wanted)
    assert read == [[TEXTS[1], TEXTS[3]], [TEXTS[0], TEXTS[2]]]


def test_a_short_other_word_is_found_where_its_stem_is_rewritten() -> None:
    # "once a day" stems to onc / a / dai: each is looked for as a word, and "day" and "once" are those stems.
    texts = [
        "Taking ferrous sulphate 200mg once a day for three months.",
        "Band practice on Thursday nights.",
    ]
    standins = {"medic": [frozenset({"onc", "a", "dai"})]}
    share, _ = overlaps({"medic": 1.0}, texts, None, standins)
    assert share.tolist() == [1.0, 0.0]
    # The stem less its last letter starts many words; only those that stem to it count ("dad" is no day).
    share, _ = overlaps({"medic": 1.0}, ["Dad said once a dance."], None, standins)
    assert share.tolist() == [0.0]
