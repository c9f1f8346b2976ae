"""A weekday written short ("Tues 5pm", "Mon Wed Fri") is that weekday to a question naming it in full: "what does
Poppy do on Tuesdays?" found "Poppy does swimming Tues 5pm" only as a low guess, judged to name only Thursday."""

from __future__ import annotations

from engram.recall.synonyms import other_words
from engram.recall.typed import _weekdays


def test_a_short_weekday_is_read_as_the_day() -> None:
    assert _weekdays("Poppy does swimming Tues 5pm, Alfie does Beavers on Thursday") == {
        "tuesday",
        "thursday",
    }
    assert _weekdays("Mon Wed Fri 8.30-3") == {"monday", "wednesday", "friday"}
    assert _weekdays("we sat in the sun") == frozenset()


def test_a_question_naming_a_weekday_searches_its_short_forms() -> None:
    assert "tues" in other_words("what does Poppy do on Tuesdays?")["tuesdays"]
    assert "thurs" in other_words("who works on Thursday?")["thursday"]
