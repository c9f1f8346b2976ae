"""Changes a dog groomer tells as people do: a role changed and who holds it now ("Changed accountant - it's now
Tom Reilly"), a date put back, a price put up without naming the older memory's own word for it, and a plan given up on for another.
Each pair embeds as far apart as measured with the default model (the cosine given)."""

from __future__ import annotations

import pytest

from engram.write.holders import holder
from engram.write.updates import updates

PRICES = "I charge £45 for a small dog full groom, £60 medium, £75 large; nail clip only is £12"


@pytest.mark.parametrize(
    ("new", "old", "cosine"),
    [
        (
            "Changed accountant - it's now Tom Reilly at Reilly Tax, Priya retired",
            "Accountant is Priya Shah at Shah & Co, priya@shahco.co.uk, 01423 556 210",
            0.514,
        ),
        ("Put my small dog price up to £50 from January", PRICES, 0.615),
        (
            "The van's MOT has been put back to Thursday 10 December, the garage is short-staffed",
            "Van MOT booked at Kwik Fit for Monday 7 December at 9am",
            0.632,
        ),
        (
            "Dev's given up on the drill idea, he wants a fishing rod for his birthday now",
            "Dev's birthday is 22 December, he wants a new cordless drill",
            0.718,
        ),
    ],
)
def test_a_change_told_as_people_tell_it_marks_the_older_memory(new: str, old: str, cosine: float) -> None:
    assert updates(new, old, cosine)


@pytest.mark.parametrize(
    ("new", "old", "cosine"),
    [
        # No sum of money in the newer one: a price list is a thing, not a new price.
        ("Put the price list up on the van door", PRICES, 0.62),
        # Two words of its own: the dog food's price is not the grooming's.
        ("The dog food price went up to £30 a bag", PRICES, 0.62),
    ],
)
def test_a_look_alike_is_no_change(new: str, old: str, cosine: float) -> None:
    assert not updates(new, old, cosine)


def test_who_holds_a_role_is_read_after_the_role_changed() -> None:
    assert holder("Changed accountant - it's now Tom Reilly at Reilly Tax") == ("accountant", "tom")
    assert holder("Switched dentist: Dr Patel at Smile Clinic") == ("dentist", "patel")
    assert holder("Changed dentist, the new one is lovely") is None
    assert holder("I changed my mind about the dentist") is None
