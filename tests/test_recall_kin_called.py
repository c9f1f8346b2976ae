"""A relative the memories speak of by the kin word ("Dad's pension ...") is asked about by that word: the name
found for them stands in the text the model embeds only where the memories use the name more. The rule on its
own, then with the real model on memories a person writes."""

from __future__ import annotations

from collections.abc import Sequence

from engram import Memory
from engram.lang.text import stem
from engram.recall.kin import called_by_name

NOTES = (
    "Dad is Idris Bowen, 79, a retired signalman from Llandovery. He moved in with us last spring.",
    "Dad's state pension goes into his Halifax account, sort code 11-22-33.",
    "Dad's chiropodist comes every eight weeks, next on a Tuesday.",
    "Dad likes the radio on in the mornings, never the telly.",
    "Dad's hearing aid batteries are in the kitchen drawer.",
    "Sophie and I got married in Lisbon in 2015.",
    "Sophie works as an architect at a practice in Clerkenwell.",
    "Sophie's office moved to Farringdon in May.",
    "Care notes for Dad's sitters: tea in his own mug, bed by ten, radio not telly.",
    "Mam died two years ago; Dad still asks for her in the evenings.",
    "Dad's flu jab is at the surgery on Saturday morning.",
    "Dad goes to the day centre on Mondays and Thursdays.",
    "Dad's blue badge needs renewing with a new photo.",
    "Dad's bank is the Halifax on Wind Street.",
    "Bins go out on Tuesday night, recycling every other week.",
    "Wifi password is on the back of the router.",
    "The boiler was serviced in March, next due in March.",
    "My dentist is on Walter Road, check-ups every six months.",
    "Car insurance renews in August with Admiral.",
    "Swimming on Saturday mornings at the leisure centre.",
    "Book club meets the last Wednesday of the month.",
    "The cat's flea treatment is due every month.",
)


def _counted(counts: dict[str, int]) -> object:
    def frequencies(stems: Sequence[str]) -> tuple[int, dict[str, int]]:
        return 50, {s: counts[s] for s in stems if s in counts}

    return frequencies


def test_the_name_stands_for_the_kin_word_unless_the_memories_almost_always_use_the_word() -> None:
    named = [("dad", ("Idris Bowen", "Idris")), ("wife", ("Sophie",)), ("husband", ("Tomás", "Tomas"))]
    kin = {"dad": ("father", "dad", "daddy", "papa"), "wife": ("wife",), "husband": ("husband",)}
    counts = {stem("dad"): 30, stem("idris"): 2, stem("wife"): 0, stem("sophie"): 5, stem("tomas"): 4}
    # Tomás is counted without his accent, as the full-text index folds it.
    assert [w for w, _ in called_by_name(named, kin, _counted(counts))] == ["wife", "husband"]  # type: ignore[arg-type]
    # Said in a few memories beside the kin word's many, the name still stands for it.
    counts[stem("dad")] = 5
    assert [w for w, _ in called_by_name(named, kin, _counted(counts))] == ["dad", "wife", "husband"]  # type: ignore[arg-type]


def test_a_relative_called_by_the_kin_word_is_found_by_what_was_asked(notes: Memory) -> None:
    for question, said in (
        ("who is Dad's chiropodist?", "Dad's chiropodist"),
        ("where's Dad's pension paid?", "Dad's state"),
    ):
        hits = notes.recall(question, touch=False, mode="ranked", limit=3)
        assert hits[0].record.content.startswith(said), (question, [h.record.content for h in hits])
    # A spouse the memories call by name is still found by it.
    hits = notes.recall("where does my wife work", touch=False, mode="ranked", limit=2)
    assert any("architect" in h.record.content for h in hits)
