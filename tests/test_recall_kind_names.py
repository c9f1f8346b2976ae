"""A person or a pet named once beside the relation or kind ("Claire (my partner)", "Bramble (springer, 6)") and then
by name alone is reached by the relation word: "my partner" and "the dog" search for the name as well. A pet's kind
is any name WordNet gives a kind of dog or cat. The rules on their own, then through search_memory and recall with
the fake embedder, which knows no word for another: only the learnt name links the question to the answer."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall.kin import kin_words, names_in

LINK = "Claire (my partner) is allergic to shellfish."
NOTES = (
    LINK,
    "Claire teaches year 4 at Lawn Primary.",
    "Bramble (springer, 6) can't have chicken, salmon kibble only.",
    "Bramble's booster jab is due at Westmead Vets on 2 December.",
    "The living room needs painting before January.",
    "Bins go out on Tuesday night.",
)


def test_a_relation_in_brackets_after_the_name_names_it() -> None:
    partner = kin_words("where does my partner work?")["partner"]
    assert names_in(partner, [LINK]) == ("Claire",)
    assert names_in(partner, ["Claire (my sister) lives in Leeds."]) == ()
    assert names_in(kin_words("my sister")["sister"], ["Claire (my sister) lives in Leeds."]) == ("Claire",)


def test_a_pet_is_named_by_any_name_of_its_kind() -> None:
    dog = kin_words("what's going on with the dog?")["dog"]
    assert names_in(dog, ["Bramble (springer, 6) can't have chicken."]) == ("Bramble",)
    assert names_in(dog, ["Pickle, the dog, sleeps all day."]) == ("Pickle",)
    assert names_in(dog, ["our weimaraner Otto needs a long walk."]) == ("Otto",)
    assert names_in(dog, ["Mochi (the cat) eats pouches."]) == ()
    assert names_in(kin_words("the cat")["cat"], ["Mochi (tabby, 3) eats pouches."]) == ("Mochi",)
    # A kind's name that is also a person's ("tom", a tomcat) names a pet only in lower case.
    assert names_in(kin_words("the cat")["cat"], ["Bank manager (Tom Ferris) said yes."]) == ()
    # A kind's other names state the pet, but a question saying one is not asking after a pet.
    assert kin_words("where did I put the boxer shorts?") == {}
    assert kin_words("is the toy box in the loft?") == {}


@pytest.fixture
def stored(mem: Memory) -> Memory:
    for text in NOTES:
        mem.store_memory(text)
    return mem


def _found(memory: Memory, question: str) -> list[str]:
    return [r["content"] for r in memory.search_memory(question, {"limit": 10}, touch=False)["results"]]


SHARING = "The living room needs painting before January."  # shares a word with the question, not its answer


def test_the_relation_word_reaches_the_memory_naming_only_the_person(stored: Memory) -> None:
    # The memory naming the partner and the one saying what Claire does come before one sharing a word.
    assert set(_found(stored, "what does my partner do for a living?")[:2]) == {LINK, NOTES[1]}
    assert "booster" in _found(stored, "when is the dog's jab?")[0]
    recalled = stored.recall("what does my partner do for a living?", limit=3, mode="ranked", touch=False)
    assert {h.record.content for h in recalled[:2]} == {LINK, NOTES[1]}


def test_the_memory_saying_the_relation_word_itself_is_kept(stored: Memory) -> None:
    stored.store_memory("My partner's school closes early on Fridays.")
    found = _found(stored, "when does my partner's school close?")
    assert found[0] == "My partner's school closes early on Fridays.", found


def test_with_no_memory_naming_the_relation_only_its_word_is_searched(mem: Memory) -> None:
    for text in NOTES[1:]:
        mem.store_memory(text)
    found = _found(mem, "what does my partner do for a living?")
    assert found.index(SHARING) < found.index(NOTES[1]), found


def test_a_forgotten_memory_takes_its_name_link_with_it(stored: Memory) -> None:
    link = next(r for r in stored.list(limit=20) if r.content == LINK)
    stored.forget(link.id)
    found = _found(stored, "what does my partner do for a living?")
    assert found.index(SHARING) < found.index(NOTES[1]), found
