"""A pastime named by its -ing word is a topic when nothing follows as its object, and courtesy or an abbreviated
unit is none: without these rules "Climbing at the Depot" was tagged only with its place and companion, "oat milk
in coffee please" gave `coffee-please`, and "4 yrs old" gave `yrs`."""

from __future__ import annotations

import pytest

from engram.tags.phrases import topics


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("Climbing at the Depot on Mondays and Thursdays with Gabi, usually 7pm", "climbing"),
        ("I hate running, will never do a marathon", "running"),
        ("I go swimming on Fridays before work", "swimming"),
    ],
)
def test_a_pastime_without_an_object_is_a_topic(text: str, topic: str) -> None:
    assert topic in topics(text)


def test_a_pastime_with_an_object_is_a_verb() -> None:
    found = topics("Running the Bath Half in March")
    assert "running" not in found and "Bath Half" in found
    assert "painting" not in topics("Painting the hallway this weekend")


def test_courtesy_and_abbreviated_units_are_no_topic() -> None:
    milk = topics("I'm lactose intolerant, oat milk in coffee please")
    assert "coffee" in milk and not any("please" in t for t in milk)
    cat = topics("Cat's called Pesto, ginger tom, 4 yrs old. Vet is Ashworth Vets on Wilmslow Rd")
    assert "yrs" not in cat and "Pesto" in cat


def test_a_weekday_or_part_of_the_day_is_no_part_of_a_topic() -> None:
    found = topics("Poppy does swimming Tues 5pm at Pyramids pool")
    assert "swimming" in found and not any("Tues" in t for t in found)
    assert not any(
        "afternoons" in t.lower() for t in topics("Ring Mum on Sunday afternoons, she gets lonely")
    )
