"""Query understanding that survives wording: possessives, the words that frame a question, and other words for
what a question says (kinship, roles and their abbreviations, everyday category words)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engram import Memory
from engram.config import RankingProfile
from engram.lang.text import stems, stems_among, words
from engram.model.record import Kind, MemoryRecord
from engram.recall.query import read_query
from engram.recall.scoring import Candidate, Decay, overlaps, score
from engram.recall.synonyms import other_words

NOW = datetime(2026, 11, 26, 10, tzinfo=UTC)


def record(content: str) -> MemoryRecord:
    return MemoryRecord.model_validate(
        dict(
            id=content, content=content, content_hash=content, kind=Kind.NOTE, created_at=NOW, updated_at=NOW
        )
    )


def test_a_possessive_is_the_word_itself_but_a_contraction_stays_whole() -> None:
    assert words("Dad's birthday, Ada\u2019s school") == ["dad", "birthday", "ada", "school"]
    assert words("it's what's") == ["it's", "what's"]  # stopwords, left as they are
    assert stems("mom's number") == stems("mom number")
    # The overlap reads a memory's possessive as the word: "dad" is in "Post Dad's present".
    assert stems_among(["Post Dad's present", "a daddy"], stems("dad")) == [{"dad"}, set()]


def test_words_that_frame_a_question_are_not_searched() -> None:
    query = read_query("tell me anything about the house", NOW, longest=1000)
    assert query.terms == ("house",)
    # A question made only of such words still searches them.
    assert read_query("tell me something", NOW, longest=1000).terms == ("tell", "something")


def test_other_words_for_kin_roles_abbreviations_and_categories() -> None:
    assert "dad" in other_words("gift ideas for my father")["father"]
    assert "mum" in other_words("mom's number")["mom"]
    assert set(other_words("what's my spouse's job")["spouse"]) >= {"husband", "wife"}
    assert other_words("who is the chief financial officer") == {"chief financial officer": ("cfo",)}
    assert "manager" in other_words("my bosses")["bosses"]  # looked up by stem
    assert "dentist" in other_words("anything about my health")["health"]
    assert {"jwt", "login"} <= set(other_words("what did we decide about auth")["auth"])
    # A meeting of two written as figures, and a field's kind word and the tools a team names instead.
    assert "1 1" in other_words("when is my one to one?")["one to one"]
    assert "fastapi" in other_words("what's our framework choice?")["framework"]
    assert "celery" in other_words("which task queue do we use?")["task queue"]
    # One way only: a husband is a spouse, but a question about a husband is not about every wife.
    assert "wife" not in other_words("my husband").get("husband", ())
    assert other_words("the weather in Leeds") == {}


def test_a_memory_that_says_another_word_for_a_question_word_says_it() -> None:
    weights = {"father": 2.0, "birthdai": 1.0}
    said_otherwise = {"father": (frozenset({"dad"}),)}
    share, _ = overlaps(weights, ["Dad turns 70 on his birthday", "my birthday"], None, said_otherwise)
    assert share.tolist() == [1.0, 1 / 3]
    # Without the other words, only the birthday is found.
    assert overlaps(weights, ["Dad turns 70 on his birthday"])[0].tolist() == [1 / 3]
    # A phrase stands in only where all its words are: "cfo" for each word of "chief financial officer".
    phrase = {"cfo": (frozenset({"chief", "financi", "offic"}),)}
    found, _ = overlaps({"cfo": 1.0}, ["the chief financial officer", "the chief of staff"], None, phrase)
    assert found.tolist() == [1.0, 0.0]
    ranked = score(
        [Candidate(record("my birthday list"), 0.3), Candidate(record("Dad loves jazz"), 0.3)],
        {"father": 2.0},
        RankingProfile(),
        Decay(),
        NOW,
        standins=said_otherwise,
    )
    assert ranked[0].record.id == "Dad loves jazz"


def test_search_finds_a_memory_through_another_word_for_what_was_asked(real: Memory) -> None:
    dad = real.remember("Dad's favourite whisky is Lagavulin 16.", created_at=NOW - timedelta(days=9))
    real.remember("My favourite whisky glass broke last week.", created_at=NOW - timedelta(days=9))
    real.remember("The boiler was serviced in March.", created_at=NOW - timedelta(days=9))
    found = real.search_memory("which whisky does my father like", now=NOW)
    assert found["results"][0]["id"] == dad.id
    hits = real.recall("which whisky does my father like", now=NOW)
    assert hits and hits[0].record.id == dad.id


def test_a_decision_about_auth_is_found_with_confidence(real: Memory) -> None:
    jwt = real.remember("We decided to use JWT tokens with 24h expiry for the mobile app", created_at=NOW)
    real.remember("The nightly reconciliation job runs at 02:00 UTC", created_at=NOW)
    real.remember("I prefer tea in the evening, usually chamomile", created_at=NOW)
    found = real.search_memory("what did we decide about auth", now=NOW)["results"]
    assert found[0]["id"] == jwt.id and found[0]["confidence"] != "low"
