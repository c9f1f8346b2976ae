"""A name the question asks about counts as said when the memory writes it another way: a place's name with its
road written short ("Cricklade Rd"), a family asked about in the plural ("the Prices"); and a holiday of several
words ("New Year") names when, not whom (engram.recall.named)."""

from __future__ import annotations

from datetime import UTC, datetime

from engram.model.results import Scored
from engram.recall.named import names_asked, names_said, unnamed
from engram.store.values import Facts

_WHEN = datetime(2026, 11, 1, tzinfo=UTC)


def _hit(memory_id: str, content: str) -> Scored[Facts]:
    facts = Facts(memory_id, content, 0.5, _WHEN, _WHEN, None, 0, 1.0, False)
    return Scored(facts, 0.5)


def test_a_holiday_of_several_words_is_no_name() -> None:
    assert names_asked("Chinese New Year plans") == ()
    assert names_asked("where are we going for New Year's Eve?") == ()
    assert names_asked("what did Sam bring on Boxing Day?") == ("sam",)
    # A place of two capitalised words is still a name.
    assert names_asked("what is the weather in New York?") == ("new", "york")


def test_a_name_written_short_or_as_a_family_is_said() -> None:
    assert names_said("mortgage on cricklade rd: kent reliance, £412 a month", "road")
    assert names_said("jordan price works nights at the warehouse", "prices")
    assert not names_said("jordan price works nights at the warehouse", "harrisons")
    assert not names_said("ros said she would come", "ross")  # a name ending in "ss" keeps it


def test_the_memory_naming_the_place_short_is_not_judged_unnamed() -> None:
    question = "how much is the loan on Cricklade Road costing me a month?"
    answer = _hit("a", "mortgage on Cricklade Rd: Kent Reliance, 4.89% fixed, £412 a month")
    other = _hit("b", "Cricklade Road tenants pay rent on the 1st")
    elsewhere = _hit("c", "mortgage on Gloucester Street is £300 a month")
    shown = [answer, elsewhere]
    assert unnamed(shown, [answer, other, elsewhere], names_asked(question)) == {"c"}


def test_a_family_asked_about_in_the_plural_is_named_by_its_surname() -> None:
    question = "are the Prices allowed to keep a pet?"
    answer = _hit("a", "Jordan Price works nights; they've got a cat - allowed, I agreed it in writing")
    other = _hit("b", "the Prices moved into Cricklade Road in March")
    rule = _hit("c", "no pets in the Prospect Place flat, it says so in the lease")
    assert unnamed([answer, rule], [answer, other, rule], names_asked(question)) == {"c"}


def test_a_title_stays_a_name() -> None:
    # "Mrs Patel" is not "Raj Patel": the title says which Patel is asked about.
    assert names_asked("what is Mrs Patel's first name") == ("mrs", "patel")
