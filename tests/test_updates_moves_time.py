"""A change only of when a thing is leaves the older memory's where, who and why first for questions asking them; a
change that names a new place or person is not one, but a reason naming someone is no new place."""

from __future__ import annotations

from engram.write.updates import moves_time

RUNS = "Training: long run Sundays 8am along the canal, easy runs Tues and Thurs round the park"


def test_a_new_time_with_a_reason_naming_someone_moves_only_the_time() -> None:
    assert moves_time(
        "long run's moving to Saturday mornings at 7 from March because Priya works Sundays now", RUNS
    )


def test_a_new_place_given_with_its_month_is_more_than_a_time() -> None:
    assert not moves_time(
        "Tom started at Hillside Secondary in September.", "Tom teaches at Oakfield Primary."
    )
