"""A duty handed on to someone new, and a state told with another thing's name. "Handed over fire warden duty to
Kemi" names someone the older memory does not: the new holder is the value that changed, not whom the fact is
about, so the pair is not set apart for sharing no name. "Mum's hydrotherapy session is 4pm now" says a time
changed of a thing the older memory ("Mum's physio sessions") does not name: a word of its own before the verb is
another thing, not the new value. Cosines are the default model's for each pair."""

from __future__ import annotations

from engram.write.updates import updates


def test_a_duty_handed_over_to_a_new_name_updates_who_held_it() -> None:
    older = "Dad does the Saturday swimming run with the twins."
    assert updates("Dad's passed the Saturday swimming run on to Uncle Ravi, he does it now.", older, 0.666)


def test_a_name_a_duty_was_handed_to_is_not_whom_the_older_memory_must_name() -> None:
    older = "I'm the fire warden for the second floor."
    assert updates("Handed over fire warden duty for the second floor to Kemi.", older, 0.614)
    # Another duty handed over is another topic, whoever it went to.
    assert not updates("Handed over first aid duty for the canteen to Kemi.", older, 0.614)


def test_a_word_of_its_own_before_the_verb_names_another_thing() -> None:
    older = "Mum's physio sessions are at 10am and 3pm."
    assert not updates("Mum's hydrotherapy session is 4pm now", older, 0.703)
    assert updates("Mum's physio session is 4pm now", older, 0.911)
