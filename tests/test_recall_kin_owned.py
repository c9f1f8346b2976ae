"""A thing a kin word owns in the question ("my dad's birthday") is not answered by the same thing of someone else
named whom another memory relates otherwise ("Tom's birthday is 5 January", "Flatmate is Tom Reyes"), unless the
memory also speaks of that kin or by a name the memories give it.
Without the rule, "when is my dad's birthday?" got the flatmate's birthday at medium confidence."""

from __future__ import annotations

from datetime import UTC, datetime

from engram import Memory
from engram.model.results import Scored
from engram.recall.named import owned_by_another
from engram.store.values import Facts


def _facts(memory_id: str, content: str, episode: str | None = None) -> Scored[Facts]:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    return Scored(Facts(memory_id, content, 0.5, at, at, None, 0, 1.0, False, episode=episode), 0.5)


def test_another_persons_thing_is_doubtful_for_a_kin_words() -> None:
    shown = [
        _facts("flatmate", "Flatmate is Tom Reyes, he works nights"),
        _facts("tom", "Tom's birthday is 5 January, he wants climbing shoes"),
        _facts("dad", "Dad's birthday is 2 March, he turns 70"),
        _facts("emeka", "Emeka's birthday is 2 March"),
        _facts(
            "turn", "Sam's birthday is on Friday", episode="chat"
        ),  # a turn leaves names to its conversation
        _facts("plain", "Birthday party at the bowling alley"),
    ]
    dad = {"dad": ("dad", "father", "Emeka")}
    assert owned_by_another(shown, shown, "when is my dad's birthday?", dad) == {"tom"}
    # A name no memory relates may be the kin's own: "Isla's birthday" for "my daughter's birthday".
    assert owned_by_another(shown[1:], shown[1:], "when is my dad's birthday?", dad) == set()
    # Nor is one related as the kin asked about: "Tom, my dad".
    fathers = [_facts("tom", "Tom's birthday is 5 January"), _facts("is", "Tom, my dad, is 70 next year")]
    assert owned_by_another(fathers, fathers, "when is my dad's birthday?", dad) == set()
    # A question without a kin word owning a thing judges nothing.
    assert owned_by_another(shown, shown, "when is Dad having his birthday party?", dad) == set()
    assert owned_by_another(shown, shown, "when is my birthday?", {}) == set()


def test_the_flatmates_birthday_does_not_answer_for_dad(real: Memory) -> None:
    for text in (
        "Flatmate is Tom Reyes, he works nights at the Royal Infirmary as a radiographer",
        "Tom's birthday is 5 January, he wants climbing shoes (size 9)",
        "My dad lives in Glasgow, Partick, he's 68 and has type 2 diabetes",
    ):
        real.store_memory(text)
    dad = real.search_memory("when is my dad's birthday?", touch=False)["results"]
    assert all(r["confidence"] == "low" for r in dad), dad
    flatmate = real.search_memory("what should I get my flatmate for his birthday?", touch=False)["results"]
    assert flatmate and "climbing shoes" in flatmate[0]["content"], flatmate
    assert flatmate[0]["confidence"] in {"medium", "high"}, flatmate[0]
