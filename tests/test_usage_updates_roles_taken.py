"""A role handed on at work, told name first ("Lena took over as tech lead", "Dmitri is now engineering manager"):
the new holder replaces the older memory that names who held the role, however far apart the two embed, and a
statement naming two roles is read for each."""

from __future__ import annotations

import pytest

from engram.write.holders import holders
from engram.write.updates import updates

OLD = "Tech lead is Dmitri, he wants ADRs for anything that touches the payment flow"


@pytest.mark.parametrize(
    ("text", "held"),
    [
        (
            "Dmitri is now engineering manager, Lena took over as tech lead",
            (("engineering manager", "dmitri"), ("tech lead", "lena")),
        ),
        ("Omar is our new landlord", (("landlord", "omar"),)),
        ("Kasia has taken over as my supervisor", (("supervisor", "kasia"),)),
        ("Our product owner is Ines", (("product owner", "ines"),)),
        ("She is now the new manager", ()),  # whom is not said
        ("Sam took over as captain", ()),  # a role of which a team has one, but not one of a person's own
    ],
)
def test_each_role_a_statement_gives_and_its_holder(text: str, held: tuple[tuple[str, str], ...]) -> None:
    assert holders(text) == held


def test_a_role_taken_over_replaces_the_older_holder_but_not_the_same_one() -> None:
    assert updates("Dmitri is now engineering manager, Lena took over as tech lead", OLD, 0.41)
    assert updates("Lena took over as tech lead", OLD, 0.2)
    assert not updates("Dmitri is still tech lead, now on the payments team too", OLD, 0.7)
    assert not updates("Lena took over as tech lead", "My manager is Sandra Okafor", 0.3)  # another role
