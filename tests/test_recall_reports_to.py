"""Whom the asker reports to is the asker's manager: "what's my boss called?" is answered by "I report to Dana
Okoro, the COO" though it says neither "boss" nor "manager". Read as a manager's name, not as a synonym of "boss":
an account manager or a bank manager named elsewhere is no one the asker reports to."""

from __future__ import annotations

from engram import Memory
from engram.recall.kin import kin_words, names_in, searched

NOTES = (
    "Senior engineer on the mobile team at Lumen, eight of us, and I report to Dana Okoro, the COO.",
    "Cloudline (our hosting vendor) renews in March. Account manager Tom Ferris, quoted £30,000.",
    "Bank manager at the Leeds branch said the loan paperwork takes two weeks.",
    "Team lunch is every other Friday at the Thai place.",
)


def test_whom_the_asker_reports_to_is_named_as_the_manager() -> None:
    said = kin_words("what's my boss called?")["boss"]
    assert "report" in searched({"boss": said})
    assert names_in(said, NOTES) == ("Dana Okoro",)  # the account manager and the bank manager are not mine
    assert names_in(said, ["Tom reports to Dana on the budget."]) == ()  # someone else's


def test_a_question_for_the_boss_finds_whom_the_asker_reports_to(notes: Memory) -> None:
    for question in ("what's my boss called?", "who is my line manager?"):
        hits = notes.recall(question, mode="ranked", limit=3, touch=False)
        assert hits and hits[0].record.content.startswith("Senior engineer"), (question, hits[:2])
