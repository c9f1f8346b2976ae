"""A change told in the older note's own words is one even from further apart ("changed the locker combo to
8-8-0-3" after "gym locker is the blue padlock, combo 4-2-7-1"): the newer note is short, the older one says more,
and the two embed apart. Who told it ("Dee says ...") is not whom it is about; "from next term" is when, not a
topic; "put my 0% overdraft up" says a change; a texted "bc" ends a clause as "because" does."""

from __future__ import annotations

from engram.write.updates import updates

APART = 0.55  # closer than the threshold for a changed note of other words, further than its own


def test_a_change_in_the_older_notes_own_words_updates_it_from_further_apart() -> None:
    older = "gym locker is the blue padlock, combo 4-2-7-1"
    assert updates("changed the locker combo to 8-8-0-3, too many people watched me", older, APART)
    # Words of its own (another thing's combo) are no update from this far apart.
    assert not updates("changed the bike shed combo to 8-8-0-3", older, APART)
    # Nor a change that shares a single word with it.
    assert not updates("changed the combo to 8-8-0-3", older, APART)


def test_from_next_term_is_when_and_a_percentage_may_stand_before_up() -> None:
    older = "Nationwide current account: overdraft up to £1,000 with no fees"
    assert updates("Nationwide have put my overdraft up to £1,500 from next term", older, APART)
    assert updates("Nationwide have put my 0% overdraft up to £1,500", older, APART)


def test_who_told_of_the_change_is_not_whom_it_is_about() -> None:
    older = "weekend job at the pub, £9.80 an hour to start, paid monthly"
    assert updates("Dee says my rate goes up to £10.40 an hour from 1 March", older, 0.65)


def test_a_texted_because_ends_the_clause_that_says_the_change() -> None:
    older = "my supervisor is Dr Alan Pryce, room 3.11 in the Biology building"
    newer = "I've got a new supervisor bc Dr Pryce is on sabbatical, it's Dr Helen Moss now"
    assert updates(newer, older, 0.65)
