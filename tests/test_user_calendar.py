"""What comes up on a person's calendar, as a user asks for it: a birthday or an anniversary with its day, an age
turned, a flight or a visit on a day are listed when their days come; a rule that repeats every few days is not."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import time_machine

from engram import FakeEmbedder, Memory
from engram.config import Settings
from engram.lang import due, events
from engram.model.record import Category
from engram.recall.intent import intent
from engram.recall.query import read_search

SAID = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)  # a Friday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("My mother-in-law Rosa turns 70 on 12 February.", "2027-02-12"),
        ("My wife Lena's birthday is on 3 March.", "2027-03-03"),
        ("Dad's birthday is 21 January, he likes single malt whisky.", "2027-01-21"),
        ("Heinz and Rosa's 45th wedding anniversary is on 8 May.", "2027-05-08"),
        ("Our daughter Mia turns seven on 6 December; she wants a bike.", "2026-12-06"),
        ("Flight to Lisbon on 22 December at 7:15am, TAP TP571, seat 14C.", "2026-12-22"),
        ("Lena's parents Rosa and Heinz visit us from 27 December to 30 December.", "2026-12-27"),
        ("Anniversary dinner with Lena on 14 June.", "2027-06-14"),
    ],
)
def test_an_occasion_or_a_journey_on_a_day_is_on_the_calendar(text: str, day: str) -> None:
    assert events.on_calendar(text)
    found = due.deadline_day(text, SAID)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    "text",
    [
        "Spoke with Grandma on her 90th birthday; she remembered every grandchild.",  # no day: a story
        "I'm terrible at remembering birthdays.",
        "We flew to Lisbon on 3 May and loved it.",  # what was done
        "The office is on the third floor.",
        "The flight to Lisbon takes two hours.",
    ],
)
def test_a_story_or_a_fact_is_not_on_the_calendar(text: str) -> None:
    assert not events.on_calendar(text) or due.deadline_day(text, SAID) is None


@pytest.mark.parametrize(
    "text",
    [
        "Rotate the staging API keys every 90 days.",
        "Water the orchids every two weeks.",
        "Back up the laptop once a month.",
        "Descale the kettle twice a year.",
    ],
)
def test_a_task_repeated_every_few_days_is_a_habit(text: str) -> None:
    assert due.standing(text)


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        yield m


def _store(memory: Memory, text: str) -> dict[str, object]:
    with time_machine.travel(SAID, tick=False):
        return dict(memory.store_memory(text)["analysis"])


def _ask(memory: Memory, question: str, at: datetime = SAID) -> dict[str, Any]:
    """search_memory asked at `at`, the clock set to it."""
    with time_machine.travel(at, tick=False):
        return dict(memory.search_memory(question, now=at))


def test_a_birthday_with_its_day_is_a_reminder_listed_when_it_comes(memory: Memory) -> None:
    rosa = _store(memory, "My mother-in-law Rosa turns 70 on 12 February.")
    assert rosa["detected_category"] == Category.REMINDERS.value and rosa["due_date"] == "2027-02-12"
    _store(memory, "Prepare the slides for my Berlin conference talk by 4 December.")
    for question in ("what's coming up in February?", "what is happening in February?"):
        found = _ask(memory, question)
        listed = {h["content"]: h.get("due") for h in found["results"]}
        assert listed == {"My mother-in-law Rosa turns 70 on 12 February.": "2027-02-12"}, question
        assert all(h["confidence"] == "high" for h in found["results"])


def test_a_forced_category_stays(memory: Memory) -> None:
    with time_machine.travel(SAID, tick=False):
        stored = memory.store_memory("Lena's birthday is on 3 March.", {"force_category": "contexts"})
    assert stored["analysis"]["detected_category"] == "contexts"


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("what do I have next week?", True),
        ("what's happening this weekend?", True),
        ("anything happening in March?", True),
        ("what's happening with the billing migration?", False),  # a topic, not the calendar
        ("what do I have in the fridge?", False),
        ("what's on 22 December?", True),
        # A weekday is searched too: a diary's day holds each week's things (tests/test_recall_user_words.py).
        ("what's on Friday?", False),
        ("what's on the 3rd?", True),
        ("what's on my mind lately?", False),
        ("any upcoming birthdays?", True),
        ("what are my appointments this week?", True),
        ("when is Lena's birthday?", False),  # a fact asked for, no list
        ("what did I get Lena for her birthday?", False),
        ("what events happened last week?", False),
        ("anything in December?", True),  # the coming December, not last year's
        ("what do I have in December?", True),
        ("what did I tell you in December?", False),  # what was said then
    ],
)
def test_a_question_about_the_calendar_asks_for_things_to_do(question: str, asks: bool) -> None:
    assert (intent(question) == "remind") is asks


def test_an_occasion_said_in_a_chat_is_listed_as_one_stored_directly_is(real: Memory) -> None:
    said = "2026-11-27T09:00:00+00:00"
    messages = [
        {"role": "user", "content": "My mother-in-law Rosa turns 70 on 12 February.", "ts": said},
        {"role": "user", "content": "I prefer window seats on long flights.", "ts": said},
    ]
    with time_machine.travel(SAID, tick=False):
        real.ingest(messages, scope="global")
        found = real.search_memory("what's happening in February?", now=SAID)
    listed = {h["content"]: h.get("due") for h in found["results"]}
    assert listed.get("My mother-in-law Rosa turns 70 on 12 February.") == "2027-02-12", listed
    assert "I prefer window seats on long flights." not in listed


@pytest.mark.parametrize("question", ["appointments next week", "birthdays coming up", "what's overdue?"])
def test_a_calendar_word_with_a_time_asks_for_the_list(question: str) -> None:
    query = read_search(question, SAID, longest=1000)
    assert query.asks_for_tasks()


def test_the_due_day_cache_holds_no_long_document() -> None:
    """A write reads a text's due day twice (for its kind and its category), so texts are cached; a long
    document was cached whole, and a server that stored 4,096 pasted documents held them all (about 400 MB)."""
    document = "The team reviewed the plan by the end of the quarter and agreed the budget. " * 1300
    due.deadline_day(
        "Send the slides by Friday 4 December", SAID
    )  # what a first read loads (dateparser's data)
    tracemalloc.start()
    try:
        for i in range(40):
            due.deadline_day(f"Part {i}. {document}", SAID)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 1_000_000, (
        f"{held / 1e6:.1f} MB held after reading 40 documents of {len(document):,} characters"
    )


@pytest.mark.parametrize(
    "text",
    [
        "Plan the Easter party by the weekend",
        "Book the Christmas table by 31. Dezember, before the trip in March",
        "My mother-in-law Rosa turns 70 on 12 February",
    ],
)
def test_a_memory_dated_at_the_end_of_the_calendar_leaves_the_lists_working(
    memory: Memory, text: str
) -> None:
    """A record an import dated 9999-12-31 (any SHODH file could, before imports and remember refused a time ahead;
    a store may still hold one) named days after the calendar's last: "what's due" and session_context raised
    ValueError (a 500) for the whole store."""
    end = datetime(9999, 12, 31, 23, 0, tzinfo=UTC)
    assert due.deadline_day(text, end) is None and due.reminder_day(text, end) is None
    assert due.window("what is due on Friday or at Easter or on 31. Dezember?", end) is None
    kept = memory.remember(text)
    held = {"category": Category.REMINDERS, "created_at": end}
    memory.store.update(memory.get(kept.id).model_copy(update=held))
    assert memory.get(kept.id).created_at == end
    listed = memory.search_memory("what's due this week?")
    assert listed["results"] == [] or all(h.get("due") is None for h in listed["results"])
    memory.session_context()


def test_a_birthday_comes_up_again_the_next_year(memory: Memory) -> None:
    _store(memory, "My wife Lena's birthday is on 3 March.")
    asked = datetime(2028, 2, 20, 9, 0, tzinfo=UTC)
    found = _ask(memory, "what's happening in March?", asked)
    assert [h.get("due") for h in found["results"]] == ["2028-03-03"]


def test_a_task_on_a_day_is_due_once(memory: Memory) -> None:
    """Only a yearly occasion comes up again: a journey on a day, a year later, is in no list of its month."""
    _store(memory, "Flight to Lisbon on 22 December at 7:15am, TAP TP571, seat 14C.")
    _store(memory, "Heinz and Rosa's wedding anniversary is on 20 December.")
    asked = datetime(2027, 12, 1, 9, 0, tzinfo=UTC)
    found = _ask(memory, "what's happening in December?", asked)
    assert [h.get("due") for h in found["results"]] == ["2027-12-20"]


def test_birthdays_coming_up_lists_the_next_ones(memory: Memory) -> None:
    _store(memory, "My wife Lena's birthday is on 3 March.")
    asked = datetime(2028, 2, 20, 9, 0, tzinfo=UTC)
    found = _ask(memory, "birthdays coming up", asked)
    assert found["query_analysis"]["search_scope"].endswith("reminders")
    assert [h.get("due") for h in found["results"]] == ["2028-03-03"]


def test_a_month_named_alone_asks_for_the_coming_one(memory: Memory) -> None:
    """Asked in November, "anything in December?" filtered memories to last December and found nothing."""
    _store(memory, "Flight to Lisbon on 22 December at 7:15am, TAP TP571, seat 14C.")
    _store(memory, "I prefer window seats on long flights.")
    found = _ask(memory, "anything in December?")
    assert [(h["content"][:16], h.get("due")) for h in found["results"]] == [
        ("Flight to Lisbon", "2026-12-22")
    ]
    assert found["query_analysis"]["time_range"]["after"] == "2026-12-01T00:00:00+00:00"


@pytest.mark.parametrize(
    "question", ["birthdays coming up", "any upcoming birthdays?", "birthdays in February"]
)
def test_asked_for_birthdays_only_occasions_are_listed(memory: Memory, question: str) -> None:
    _store(memory, "My mother-in-law Rosa turns 70 on 12 February.")
    _store(memory, "Prepare the slides for my Berlin conference talk by 4 December.")
    _store(memory, "Dentist check-up on 17 December at 8:40am.")
    found = _ask(memory, question)
    listed = [(h["content"][:24], h.get("due")) for h in found["results"]]
    assert listed == [("My mother-in-law Rosa tu", "2027-02-12")], listed


def test_what_is_overdue_lists_what_was_due_before_today(memory: Memory) -> None:
    with time_machine.travel(datetime(2026, 11, 10, 9, 0, tzinfo=UTC), tick=False):
        memory.store_memory("Send the invoice to Acme by 20 November.")
    _store(memory, "Prepare the slides for my Berlin conference talk by 4 December.")
    found = _ask(memory, "what's overdue?")
    assert [(h["content"][:16], h.get("due")) for h in found["results"]] == [
        ("Send the invoice", "2026-11-20")
    ]
    assert found["query_analysis"]["time_range"]["before"] == "2026-11-27T00:00:00+00:00"
