"""A question among the best candidates lends its reply its score: in a conversation the answer is the turn
after the question, and it says none of the question's words."""

from __future__ import annotations

from datetime import timedelta

from engram import Memory
from engram.model.record import utcnow
from engram.recall.replies import ASKING

ASKED = "what is Nate's favourite dish from the cooking show"


def _conversation(mem: Memory, asking: str) -> list[str]:
    now = utcnow() - timedelta(days=3)
    turns = [
        ("chat", "Nate: I hosted a cooking show last Monday, teaching people to cook."),
        ("chat", asking),
        ("chat", "Nate: Coconut milk ice cream is at the top of my list, so smooth and creamy."),
        ("chat", "Joanna: Sounds lovely, I will try making it this weekend."),
        ("other", "Nate: The cooking show had a dish of the day and a favourite guest."),
        ("other", "Joanna: My favourite show is on tonight, a cooking one."),
        ("other", "Nate: Which dish did the show start with? I forget."),
        ("other", "Joanna: Something with lentils, I think."),
        ("third", "Nate: My favourite dish is whatever my mum cooks."),
        ("third", "Joanna: The show's cooking dish was burnt, Nate."),
    ]
    return [
        mem.remember(text, episode_id=episode, sequence_number=i, created_at=now).id
        for i, (episode, text) in enumerate(turns)
    ]


def _above(ranked: list[str], one: str, others: list[str]) -> bool:
    return all(o not in ranked or ranked.index(one) < ranked.index(o) for o in others)


def test_the_reply_to_a_question_among_the_best_ranks_with_it(mem: Memory) -> None:
    ids = _conversation(
        mem, "Joanna: Congrats on the cooking show, Nate! What's your favourite dish from it?"
    )
    ranked = [h.record.id for h in mem.recall(ASKED, mode="ranked", limit=10, touch=False)]
    # The question is among the best (a turn Nate says, sharing the question's words, may lead: the question names
    # him) and its reply ranks beside it, weighed as Nate's other turns are.
    assert ids[1] in ranked[:3] and ids[2] in ranked[:3]
    # Over turns that share a word of the question and answer nothing ("Which dish did the show start with?").
    assert _above(ranked, ids[2], [ids[0], ids[6]])
    hit = next(h for h in mem.recall(ASKED, mode="ranked", limit=10, touch=False) if h.record.id == ids[2])
    assert hit.why == "reply"
    # The same in search_memory, which ranks by score alone.
    found = [r["id"] for r in mem.search_memory(ASKED, {"min_confidence": "low"}, touch=False)["results"]]
    assert _above(found, ids[2], [ids[0], ids[6]])


def test_a_turn_that_asks_nothing_lends_nothing(mem: Memory) -> None:
    ids = _conversation(
        mem, "Joanna: Congrats on the cooking show, Nate! Your favourite dish from it was great."
    )
    hits = mem.recall(ASKED, mode="ranked", limit=10, touch=False)
    # Among the best, where a question would lend its reply.
    assert ids[1] in [h.record.id for h in hits[:ASKING]]
    assert all(h.why == "match" for h in hits)
    assert not _above([h.record.id for h in hits], ids[2], [ids[0], ids[6]])
