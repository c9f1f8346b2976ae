"""bench.tags' check that no tag ends in a verb reads the tag in its sentence, with spaCy's tagger and parser."""

from __future__ import annotations

import pytest

from bench.tags import _ends_in_verb


@pytest.mark.parametrize(
    ("tag", "text", "verb"),
    [
        # fragments of a clause: the tag's last word is the sentence's verb
        ("sister-clara-lives", "My sister Clara lives in Hamburg.", True),
        (
            "staging-database-runs",
            "The staging database runs Postgres 16 while production stays on 14.",
            True,
        ),
        ("gym-membership-costs", "The gym membership costs 39 euros a month.", True),
        # a noun the small tagger reads as a verb where the parse has it as the subject
        ("interview", "Interview with the candidate for the data role went well, strong SQL.", False),
        # a date format, its hyphens skipped
        ("yyyy-mm-dd", "Format dates as YYYY-MM-DD.", False),
        # the object of an instruction, which a capitalised first word made the tagger read as the verb
        ("memories", "Tag memories about clients with the client's name.", False),
        ("lease", "Send the signed lease back to the landlord by Friday.", False),
    ],
)
def test_a_tag_ends_in_a_verb_as_its_sentence_reads(tag: str, text: str, verb: bool) -> None:
    assert _ends_in_verb(tag, text) is verb
