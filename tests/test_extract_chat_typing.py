"""Extraction from messages as people type them to an assistant: two things in one run-on sentence, a greeting
before a statement, questions without their mark, moods, imagined plans, other people's details and habits."""

from __future__ import annotations

import pytest

from engram.review.extract import ASKED_TODO, Message, by_rule


def _kinds(text: str) -> list[str]:
    return [c.kind for c in by_rule(Message(role="user", content=text))[0]]


def _nothing(text: str) -> bool:
    """Neither a rule's candidate nor a statement left for the classifier."""
    found, rest = by_rule(Message(role="user", content=text))
    return found == [] and rest == []


def test_a_run_on_sentence_holding_two_kinds_gives_both() -> None:
    assert _kinds("im a nurse on nights and btw remind me to book the car in for its service") == [
        "profile",
        "todo",
    ]
    assert _kinds("we chose the green tiles and honestly I can't stand the grout colour") == [
        "decision",
        "preference",
    ]
    assert _kinds("my wife loves sailing and I hate it lol") == ["fact", "preference"]
    found = by_rule(Message(role="user", content="I live in Leeds, also remind me to call the bank"))[0]
    assert [(c.kind, c.content) for c in found] == [
        ("profile", "I live in Leeds"),
        ("todo", "remind me to call the bank"),
    ]
    assert found[1].span == (22, 48)


def test_one_thing_said_stays_one_sentence() -> None:
    assert _kinds("My partner and I live in Dublin.") == ["profile"]
    assert _kinds("My brother Tom and I live in Perth, we moved here in 2019") == ["profile"]
    assert _kinds("I cannot eat peanuts, I'm seriously allergic.") == ["constraint"]


def test_a_greeting_before_a_statement_keeps_the_statement() -> None:
    assert _kinds("hey so im a second year at a state college studying chemistry") == ["profile"]
    assert _nothing("hi there, how are you doing today")


@pytest.mark.parametrize(
    "text",
    [
        "how do i cite a podcast in APA",  # a question without its mark
        "what should i cook for six people on friday",
        "can u help me write a letter to my landlord",
        "give me three ideas for my dad's birthday",  # a request to the assistant
        "just finished a double shift and i'm absolutely knackered",  # a mood
        "honestly I'm so done with this week",
        "work is killing me this month",
        "if I had the money I'd buy a boat",  # a counterfactual
        "sorry typo, i meant friday not monday",  # a repair
        "Sam reckons we should sell the car but I'm not sure",  # someone's advice
    ],
)
def test_chatter_is_not_a_candidate(text: str) -> None:
    assert _nothing(text)


def test_a_request_that_asks_for_a_reminder_is_still_a_todo() -> None:
    assert _kinds("can you remind me to water the plants tomorrow") == ["todo"]


def test_someone_elses_details_are_a_fact_about_them() -> None:
    assert _kinds("my accountant is Gareth Price, gareth@pricebooks.co.uk") == ["fact"]
    assert _kinds("our childminder is called Bev, her number is 07700 900123") == ["fact"]
    assert _kinds("My son lives in Portland with his two boys") == ["fact"]
    assert _kinds("Linda's birthday is June 3rd") == ["fact"]
    # the speaker's own stay theirs
    assert _kinds("oh and my cell is 614-555-0192 now") == ["profile"]
    assert _kinds("Our address for deliveries is 12 Kings Road, Cardiff") == ["profile"]


def test_what_someone_said_is_not_a_fact_about_them() -> None:
    assert _kinds('My boss said "no leave in August" so I can\'t book a holiday then') == ["constraint"]


def test_preferences_as_typed() -> None:
    assert _kinds("I really dont like early lectures") == ["preference"]
    assert _kinds("I can\u2019t stand the smell of instant coffee") == ["preference"]
    assert _kinds("I'm not a fan of podcasts") == ["preference"]


def test_limits_and_conditions_are_constraints() -> None:
    assert _kinds("I'm type 2 diabetic so I watch the carbs") == ["constraint"]
    assert _kinds("I'm on a pension so nothing too expensive please") == ["constraint"]
    assert _kinds("My doctor says I have to keep my salt under 6 g a day") == ["constraint"]
    assert _kinds("our budget for the wedding is 8000 euros") == ["constraint"]
    assert "constraint" not in _kinds("Thanks for checking, so no worries about the booking")


def test_goals_and_projects_by_their_grammar() -> None:
    assert _kinds("gonna try to swim a mile without stopping by june") == ["goal"]
    assert _kinds("I'm trying to cut down on coffee") == ["goal"]
    assert _kinds("we're saving up for a new kitchen") == ["goal"]
    assert _kinds("I'm planning to move to Leeds next year") == ["goal"]
    assert _kinds("We're planning a cruise to Norway for our anniversary") == ["project"]
    assert _kinds("we're trialling a four day week at the shop") == ["project"]


def test_lists_notes_and_habits() -> None:
    assert _kinds("Hobbies: fishing, crosswords and woodworking") == ["keyword_set"]
    assert _kinds("NB: Grandma's flight lands at 6pm.") == ["note"]
    assert _kinds("The plumber's number is 0161 496 0000, note that down") == ["note"]
    assert _kinds("I bowl every Thursday with my brother") == ["fact"]
    found = by_rule(Message(role="user", content="To do today: call the bank, pay the window cleaner"))[0]
    assert [(c.kind, c.confidence) for c in found] == [("todo", ASKED_TODO)]
    found = by_rule(Message(role="user", content="Don\u2019t let me forget to renew my passport"))[0]
    assert [(c.kind, c.confidence) for c in found] == [("todo", ASKED_TODO)]


def test_who_the_speaker_is_by_age_work_and_diet() -> None:
    assert _kinds("I'm 81 and still do the crossword every morning") == ["profile"]
    assert _kinds("i work in a call centre for a broadband company") == ["profile"]
    assert _kinds("I'm vegan btw, have been for 5 years") == ["profile"]
    assert "profile" not in _kinds("I'm 5 minutes away from the station")


def test_what_reads_like_a_cue_but_is_none() -> None:
    assert _kinds("My son Max starts school in September") == ["fact"]  # a name, not a limit
    assert "project" not in _kinds("I'm making lasagne for the kids tonight")
    assert "project" not in _kinds("I'm doing a bit better today thanks")
    assert _kinds("I'm doing a top-up degree with the Open University") == ["project"]
