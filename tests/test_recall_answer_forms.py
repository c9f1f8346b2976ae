"""A memory holds the kind of answer asked for when it writes it loosely (engram.recall.typed): an hour said with
"ish" ("6.15ish"), a first name in brackets after a title and the surname ("Ms Okoro (Funmi)"), a role said in the
plural as a business names itself ("at Shawlands Vets"). Each was lowered as holding no answer."""

from __future__ import annotations

from datetime import UTC, datetime

from engram.lang.answers import gives
from engram.model.results import Scored
from engram.recall.typed import untyped
from engram.store.values import Facts

_WHEN = datetime(2026, 11, 1, tzinfo=UTC)


def _hit(memory_id: str, content: str) -> Scored[Facts]:
    return Scored(Facts(memory_id, content, 0.5, _WHEN, _WHEN, None, 0, 1.0, False), 0.5)


def test_an_hour_said_loosely_is_an_hour() -> None:
    assert gives("walk Bruno before work every day, 6.15ish, round the Quarry", "clock")
    assert gives("come round 7ish", "clock")
    assert not gives("walk Bruno before work every day round the Quarry", "clock")


def test_a_first_name_in_brackets_after_the_surname_is_given() -> None:
    question = "what's Ms Okoro's first name?"
    given = _hit("a", "Depute for pastoral is Ms Okoro (Funmi). Head of Science is Liz Rennie")
    missing = _hit("b", "Depute for pastoral is Ms Okoro. Head of Science is Liz Rennie")
    assert untyped([given, missing], question) == {"b"}


def test_a_role_said_in_the_plural_is_stated() -> None:
    question = "what time is Bramble's vet appointment?"
    stated = _hit("a", "Bramble's booster and nail clip Tuesday next week, 5.15 at Shawlands Vets")
    groomer = _hit("b", "Bramble's groomer Tuesday next week, 5.15 at Pawfect")
    assert untyped([stated, groomer], question) == {"b"}
