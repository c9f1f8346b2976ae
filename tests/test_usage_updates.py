"""A fact that changes over days, as a user tells it: "we moved the standup to 10am", "Clara moved to Porto", "correction:
the invoice is 1,250 EUR". store_memory names the older memory it updates; search_memory puts the newer first and
marks the older one; the session context shows the older one with its update. A statement about the same person that
did not change is left alone. Real model: whether two wordings are one fact is a matter of meaning."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import time_machine

from engram import Memory

MONDAY = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def _store(memory: Memory, day: int, text: str) -> dict[str, Any]:
    with time_machine.travel(MONDAY + timedelta(days=day), tick=False):
        return dict(memory.store_memory(text))


def _search(memory: Memory, day: int, question: str) -> list[dict[str, Any]]:
    when = MONDAY + timedelta(days=day)
    with time_machine.travel(when, tick=False):
        return [dict(h) for h in memory.search_memory(question, now=when)["results"]]


def test_a_move_names_the_older_place_and_search_puts_the_new_one_first(real: Memory) -> None:
    lisbon = _store(real, 0, "My sister Clara lives in Lisbon.")["memory_id"]
    _store(real, 0, "Clara has two cats.")
    porto = _store(real, 3, "Clara moved to Porto.")
    assert porto["recommendations"]["suggested_updates"] == [lisbon]
    found = _search(real, 4, "where does Clara live?")
    ids = [h["id"] for h in found]
    assert porto["memory_id"] in ids and ids.index(porto["memory_id"]) < ids.index(lisbon)
    older = next(h for h in found if h["id"] == lisbon)
    assert older["updated_by"] == porto["memory_id"]
    assert all("updated_by" not in h for h in found if h["id"] != lisbon)


def test_a_moved_meeting_and_a_corrected_amount_name_what_they_update(real: Memory) -> None:
    standup = _store(real, 0, "Our daily standup with Acme is at 9:30am on Zoom.")["memory_id"]
    retro = _store(real, 0, "Our weekly retro with Acme is on Fridays at 4pm.")["memory_id"]
    invoice = _store(real, 0, "Invoice #2026-031 to Brightside Bakery for 1,200 EUR is due on 4 December.")
    moved = _store(real, 2, "We moved the Acme standup to 10am.")
    assert moved["recommendations"]["suggested_updates"] == [standup]  # not the retro: another meeting
    fixed = _store(real, 3, "Correction: invoice #2026-031 to Brightside is 1,250 EUR, not 1,200.")
    assert fixed["recommendations"]["suggested_updates"] == [invoice["memory_id"]]
    found = _search(real, 3, "when is the Acme standup?")
    assert found[0]["id"] == moved["memory_id"]
    assert {h["id"]: h.get("updated_by") for h in found}.get(standup) == moved["memory_id"]
    assert retro not in {h["id"] for h in found if "updated_by" in h}


def test_another_person_or_an_unchanged_fact_is_no_update(real: Memory) -> None:
    _store(real, 0, "Leo has a dentist appointment on 2 December at 3pm.")
    _store(real, 0, "Clara's husband Tom works at Siemens.")
    _store(real, 0, "I prefer TypeScript over plain JavaScript for client projects.")
    assert (
        _store(real, 1, "Mia's dentist appointment moved to 9 December.")["recommendations"][
            "suggested_updates"
        ]
        == []
    )
    assert _store(real, 1, "Clara moved to Porto.")["recommendations"]["suggested_updates"] == []
    assert (
        _store(real, 1, "I now prefer Go over TypeScript for backend work.")["recommendations"][
            "suggested_updates"
        ]
        == []
    )


def test_the_session_context_shows_an_older_fact_with_its_update(real: Memory) -> None:
    _store(real, 0, "My sister Clara lives in Lisbon.")
    _store(real, 0, "Invoice #2026-031 to Brightside Bakery for 1,200 EUR is due on 4 December.")
    _store(real, 3, "Clara moved to Porto.")
    _store(real, 3, "Correction: invoice #2026-031 to Brightside is 1,250 EUR, not 1,200.")
    when = MONDAY + timedelta(days=4)
    text = real.session_context(now=when)["text"]
    lines = text.splitlines()
    lisbon = next(line for line in lines if "Lisbon" in line)
    assert "Porto" in lisbon and "updated" in lisbon
    invoice = next(line for line in lines if "due on 4 December" in line)
    assert "1,250 EUR" in invoice
    assert sum("1,250 EUR" in line for line in lines) == 1  # the correction is not listed again beside it


def test_forgetting_the_update_clears_the_mark(real: Memory) -> None:
    lisbon = _store(real, 0, "My sister Clara lives in Lisbon.")["memory_id"]
    porto = _store(real, 3, "Clara moved to Porto.")["memory_id"]
    real.forget(porto)
    record = real.get(lisbon)
    assert record is not None and "updated_by" not in record.metadata
    found = _search(real, 4, "where does Clara live?")
    assert found[0]["id"] == lisbon and "updated_by" not in found[0]
    assert "updated" not in real.session_context(now=MONDAY + timedelta(days=4))["text"]


def test_a_new_holder_of_a_role_updates_the_old_one_though_they_share_no_name(real: Memory) -> None:
    """ "My manager is now Priya Nair" after "My manager is Sofia Ruiz": one role, held by one person at a time."""
    sofia = _store(real, 0, "My manager is Sofia Ruiz.")["memory_id"]
    dentist = _store(real, 0, "My dentist is Dr. Weber in Schwabing.")["memory_id"]
    priya = _store(real, 5, "My manager is now Priya Nair, Sofia moved to the Berlin team.")
    assert priya["recommendations"]["suggested_updates"] == [sofia]
    found = _search(real, 6, "who is my manager?")
    ids = [h["id"] for h in found]
    assert ids.index(priya["memory_id"]) < ids.index(sofia)
    assert next(h for h in found if h["id"] == sofia)["updated_by"] == priya["memory_id"]
    # The same holder said again replaces no one; nor does a second sister, of whom there can be several.
    assert (
        _store(real, 7, "My dentist is now Dr. Weber at his new practice on Leopoldstrasse.")[
            "recommendations"
        ]["suggested_updates"]
        == []
    )
    clara = _store(real, 7, "My sister Clara lives in Lisbon.")["memory_id"]
    mia = _store(real, 8, "My sister Mia now lives in Berlin.")
    assert clara not in mia["recommendations"]["suggested_updates"]
    assert dentist in {h["id"] for h in _search(real, 8, "who is my dentist?")}


def test_a_new_holder_of_a_role_or_a_new_detail_updates_the_old_one_in_any_words(real: Memory) -> None:
    address = _store(real, 0, "My address is 12 Oak Road, Leeds LS6 2AB.")["memory_id"]
    dentist = _store(real, 0, "My dentist is Dr Shah at Moorland Dental.")["memory_id"]
    manager = _store(real, 0, "My manager is Priya Raman.")["memory_id"]
    mobile = _store(real, 0, "My mobile number is 07700 900123.")["memory_id"]
    pairs = {
        address: "We moved house! New address: 4 Elm Close, Harrogate HG1 5QP.",  # far apart by meaning
        dentist: "Switched dentist to Dr Evans at Bridge Street Dental, closer to the new house.",
        manager: "Priya left the company; my new manager is Tom Becker.",  # no word of change
        mobile: "New mobile number: 07700 900456.",
    }
    for older, text in pairs.items():
        assert _store(real, 5, text)["recommendations"]["suggested_updates"] == [older], text
    found = _search(real, 6, "what's my address?")
    ids = [h["id"] for h in found]
    assert ids.index(address) > 0 and found[ids.index(address)]["updated_by"] == ids[ids.index(address) - 1]
    with time_machine.travel(MONDAY + timedelta(days=6), tick=False):
        recalled = [h.record.id for h in real.recall("who is my manager?", touch=False)]
    assert manager in recalled and recalled.index(manager) > 0  # recall shows the change first too


def test_someone_else_s_detail_or_the_same_holder_again_is_no_update(real: Memory) -> None:
    olders = [
        _store(real, 0, "My address is 12 Oak Road, Leeds LS6 2AB.")["memory_id"],
        _store(real, 0, "My landlord is Mr Patel.")["memory_id"],
    ]
    olders.append(_store(real, 0, "Plumber Dave Hughes. Phone number: 07700 900111.")["memory_id"])
    _store(real, 2, "Electrician Sam Ortiz. Phone number: 07700 900222.")  # another contact's card
    _store(real, 2, "My sister's address is 9 Cedar Avenue, Leeds.")
    _store(real, 2, "My landlord is Mr Patel; rent is due on the 28th.")
    assert all("updated_by" not in real.get(older).metadata for older in olders)


def test_a_thing_sold_or_dropped_and_a_dose_changed_by_the_doctor_update_what_was_said(real: Memory) -> None:
    car = _store(real, 0, "I drive a 2016 Skoda Octavia.")["memory_id"]
    books = _store(real, 0, "We use Xero for the books.")["memory_id"]
    dose = _store(real, 0, "I'm on metformin 500mg twice a day.")["memory_id"]
    netflix = _store(real, 0, "Netflix login is on the fridge note, the kids' profile is Pickles.")[
        "memory_id"
    ]
    pairs = {
        car: "Sold the Skoda, bought a 2021 Toyota Corolla hybrid.",  # no change word; far apart by meaning
        books: "Stopped using Xero, moved the books to FreeAgent in September.",
        dose: "GP increased my metformin to 1000mg twice a day.",  # an acronym says who changed it: no topic
    }
    for older, text in pairs.items():
        assert _store(real, 4, text)["recommendations"]["suggested_updates"] == [older], text
    _store(real, 5, "Sold my old bike to a neighbour for £80.")  # ends a thing the older memories do not name
    _store(real, 5, "Cancelled the gym membership, too expensive.")
    assert "updated_by" not in real.get(netflix).metadata
    found = _search(real, 6, "what car do I drive?")  # "I drive" is the user's own; the change stays above it
    ids = [h["id"] for h in found]
    assert car in ids and ids.index(car) > 0
    newer = found[ids.index(car) - 1]
    assert (
        newer["content"].startswith("Sold the Skoda")
        and newer["confidence"] == found[ids.index(car)]["confidence"]
    )


def test_a_holder_named_at_a_clauses_start_a_heading_restated_and_more_change_verbs_update(
    real: Memory,
) -> None:
    olders = {
        "Electrician: Dave Rix, 07700 900333.": "Dave has retired, electrician is Mo Khan now, 07700 900444.",
        "My line manager is Ruth Ellis.": "Reporting to Sanjay Mehta since the restructure.",
        "Tea: builder's, two sugars.": "Tea: green tea, no sugar.",
        "The team tracks bugs in Bugzilla.": "We've migrated the bug tracking from Bugzilla to GitHub Issues.",
        "Taking lisinopril 10mg each morning.": "Stopped the lisinopril, the cough was too much.",
    }
    ids = {older: _store(real, 0, older)["memory_id"] for older in olders}
    for older, newer in olders.items():
        assert _store(real, 3, newer)["recommendations"]["suggested_updates"] == [ids[older]], newer


def test_a_heading_that_labels_the_statement_or_another_role_is_no_update(real: Memory) -> None:
    olders = [
        _store(real, 0, "Decided: we keep the Friday demo.")["memory_id"],
        _store(real, 0, "Plumber: Gary Stone, 07700 900555.")["memory_id"],
        _store(real, 0, "Dentist: Dr Shah at Moorland Dental.")["memory_id"],
    ]
    _store(real, 2, "Decided: we drop the Monday standup.")
    _store(real, 2, "Roofer: Kev Morris, 07700 900666.")  # another trade's card
    _store(
        real, 2, "Dentist: check-up on 15 January at 9:20."
    )  # a date under the heading, not another dentist
    assert all("updated_by" not in real.get(older).metadata for older in olders)
