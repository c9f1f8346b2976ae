"""A dog or a cat is named as kin are, often by its breed ("Pickle, our beagle", "Rufus (springer spaniel, 6)",
"Biscuit (the cat)"): "the dog" reaches the memories that only name it. The rule on its own, then with the real
model: without it, each question below found another memory first, or its answer only at low."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall.kin import by_name, kin_words, names_in

NOTES = (
    "Juniper (border collie, 4) is insured with Bought By Many, policy BBM-20931.",
    "Juniper is terrified of fireworks; keep the curtains shut and the telly on.",
    "Juniper gets her booster at Meadow Vets on 8 December.",
    "Our neighbour's kids set off fireworks in the garden every year.",
    "Mochi (the cat) only eats the salmon pouches, twice a day.",
    "Walk the long loop by the canal on Sundays.",
    "The car is due its service at Kwik Fit in January.",
)


def test_a_pet_is_named_by_its_kind_or_breed() -> None:
    assert names_in(kin_words("when is the dog's jab?")["dog"], NOTES) == ("Juniper",)
    assert names_in(kin_words("what does the cat eat?")["cat"], NOTES) == ("Mochi",)
    assert names_in(kin_words("the dog")["dog"], ("Walk the dog before work.",)) == ()
    assert by_name("how do we calm the dog on bonfire night?", [("dog", ("Juniper",))]) == (
        "how do we calm Juniper on bonfire night?"
    )
    assert "pet" not in kin_words("where does our pet sleep?")  # of several pets, which one is unknown


@pytest.fixture
def pets(real: Memory) -> Memory:
    for text in NOTES:
        real.store_memory(text)
    return real


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("how do we calm the dog on bonfire night?", "terrified of fireworks"),
        ("when is the dog's jab?", "booster"),
    ],
)
def test_the_dog_finds_what_is_said_of_it_by_name(pets: Memory, question: str, answer: str) -> None:
    found = pets.search_memory(question, {"limit": 3}, touch=False)["results"]
    assert found and answer in found[0]["content"], [r["content"] for r in found]
    assert found[0]["confidence"] in {"medium", "high"}, found[0]


def test_a_pet_named_without_my_or_with_a_contraction() -> None:
    """Said of the household's pet as people write it: no "my", "'s called", "is named"."""
    cat = kin_words("what can't the cat eat?")["cat"]
    dog = kin_words("the dog")["dog"]
    assert names_in(cat, ("Cat's called Pesto, ginger tom, 4 yrs old.",)) == ("Pesto",)
    assert names_in(cat, ("Our cat is named Miso.",)) == ("Miso",)
    assert names_in(dog, ("Moved house in May. The dog's called Bramble, she's a rescue.",)) == ("Bramble",)
    # A possessive before anything but "called" or "named" names no pet: "the dog's Vet" is not its name.
    assert names_in(dog, ("The dog's Vet is Meadow Vets.",)) == ()
    # A kin word in capitals is an acronym: "the CAT tool" asks about no cat.
    assert "cat" not in kin_words("how much is the CAT tool subscription?")
    # Kin stay the asker's own: "the" does not stand for "my" before a person.
    assert names_in(kin_words("my mum")["mum"], ("The mum's called Ruth.",)) == ()


def test_the_cat_named_with_a_contraction_finds_its_diet(real: Memory) -> None:
    for text in (
        "Cat's called Pesto, ginger tom, 4 yrs old. Vet is Ashworth Vets on Wilmslow Rd",
        "Pesto has to have the renal diet food, no treats with fish in",
        "I'm lactose intolerant, oat milk in coffee please",
        "Climbing at the Depot on Mondays and Thursdays with Gabi, usually 7pm",
    ):
        real.store_memory(text)
    found = real.search_memory("what can't the cat eat?", {"limit": 3}, touch=False)["results"]
    assert found and "renal diet" in found[0]["content"], [r["content"] for r in found]
