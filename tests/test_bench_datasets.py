import gzip
import json
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bench.datasets import (
    LOCOMO_FILE,
    LONGMEMEVAL_FILE,
    data_dir,
    lme_is_scored,
    load_locomo,
    load_longmemeval,
    normalise_dia_id,
    normalise_evidence,
    parse_lme_question,
    parse_locomo_conversation,
)


def test_dia_id_normalisation_follows_the_readme() -> None:
    assert normalise_dia_id("D:11:26") == "D11:26"
    assert normalise_dia_id("D30:05") == "D30:5"
    assert normalise_dia_id(" D1:3 ") == "D1:3"
    assert normalise_dia_id("D") is None
    assert normalise_dia_id("") is None


def test_evidence_is_split_normalised_and_checked_against_the_turns() -> None:
    turns = {"D8:6", "D9:17", "D11:26", "D30:5"}
    assert normalise_evidence(["D8:6; D9:17"], turns) == ("D8:6", "D9:17")
    assert normalise_evidence(["D:11:26", "D30:05,D8:6", "D8:6"], turns) == ("D11:26", "D30:5", "D8:6")
    assert normalise_evidence(["D", "D99:1"], turns) == ()


def _locomo_sample() -> dict[str, Any]:
    return {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bob!"},
                {"speaker": "Bob", "dia_id": "D1:2", "text": "Look.", "blip_caption": "a photo of a dog"},
            ],
            "session_2_date_time": "10:04 am on 19 June, 2023",
            "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "Nice dog."}],
            "session_3_date_time": "9:00 am on 1 July, 2023",  # a date with no session
        },
        "qa": [
            {"question": "q1", "answer": "a", "evidence": ["D1:02"], "category": 4},
            {"question": "q2", "answer": 2023, "evidence": ["D:2:1; D1:1"], "category": 2},
            {"question": "q3", "adversarial_answer": "x", "evidence": ["D1:1"], "category": 5},
            {"question": "q4", "answer": "a", "evidence": ["D"], "category": 1},
        ],
    }


def test_locomo_parsing_on_a_small_sample() -> None:
    conv = parse_locomo_conversation(_locomo_sample())
    assert [u.unit_id for u in conv.units] == ["D1:1", "D1:2", "D2:1"]
    assert conv.units[1].text == "Bob: Look. [shares a photo of a dog]"
    assert conv.units[0].timestamp == datetime(2023, 5, 8, 13, 56)
    assert conv.units[2].timestamp == datetime(2023, 6, 19, 10, 4)
    assert [(q.question, q.evidence, q.category) for q in conv.questions] == [
        ("q1", ("D1:2",), 4),
        ("q2", ("D2:1", "D1:1"), 2),
    ]
    haystack = conv.haystack()
    assert haystack.queries[0].time == datetime(2023, 6, 19, 10, 4)
    assert haystack.queries[1].category == "2"


def _lme_item(question_id: str, user_answer: bool) -> dict[str, Any]:
    return {
        "question_id": question_id,
        "question_type": "single-session-user",
        "question": "What?",
        "answer": "That.",
        "question_date": "2023/06/01 (Thu) 08:00",
        "haystack_session_ids": ["s1", "s2"],
        "haystack_dates": ["2023/05/21 (Sun) 19:50", "2023/05/22 (Mon) 07:05"],
        "haystack_sessions": [
            [
                {"role": "user", "content": "u0"},
                {"role": "assistant", "content": "a1", "has_answer": not user_answer},
                {"role": "user", "content": "u2", "has_answer": user_answer},
            ],
            [{"role": "user", "content": "v0"}, {"role": "assistant", "content": "b1"}],
        ],
        "answer_session_ids": ["s1"],
    }


def test_longmemeval_units_at_both_granularities(tmp_path: Path) -> None:
    q = parse_lme_question(_lme_item("q1", user_answer=True))
    assert q.question_date == datetime(2023, 6, 1, 8, 0)
    assert [(u.unit_id, u.text) for u in q.turn_units()] == [("s1:0", "u0"), ("s1:2", "u2"), ("s2:0", "v0")]
    assert q.turn_evidence() == ("s1:2",)
    assert [(u.unit_id, u.text) for u in q.session_units()] == [("s1", "u0\nu2"), ("s2", "v0")]
    assert q.session_units()[0].timestamp == datetime(2023, 5, 21, 19, 50)
    assert q.session_evidence() == ("s1",)
    assert q.haystack("turn").queries[0].evidence == ("s1:2",)

    path = tmp_path / "lme.json.gz"
    items = [_lme_item("q1", True), _lme_item("q2_abs", True), _lme_item("q3", False)]
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump(items, handle)
    assert [q.question_id for q in load_longmemeval(path)] == ["q1"]
    assert len(load_longmemeval(path, scored_only=False)) == 3


REAL = data_dir()
needs_data = pytest.mark.skipif(
    not (REAL / LOCOMO_FILE).exists() or not (REAL / LONGMEMEVAL_FILE).exists(),
    reason="benchmark data not present",
)


@needs_data
def test_real_locomo() -> None:
    conversations = load_locomo()
    assert [c.sample_id for c in conversations] == ["conv-26", "conv-30", "conv-41", "conv-42"]
    assert [len(c.units) for c in conversations] == [419, 369, 663, 629]
    categories = Counter(q.category for c in conversations for q in c.questions)
    assert categories == {1: 111, 2: 130, 3: 30, 4: 311}
    for conv in conversations:
        ids = {u.unit_id for u in conv.units}
        assert all(set(q.evidence) <= ids and q.evidence for q in conv.questions)
    conv26 = conversations[0]
    assert conv26.units[0].unit_id == "D1:1"
    assert conv26.units[0].text.startswith("Caroline: ")
    assert any("[shares " in u.text for u in conv26.units)
    # "D8:6; D9:17" in one evidence entry is two turns
    assert any(q.evidence == ("D8:6", "D9:17") for q in conv26.questions)


@needs_data
def test_real_longmemeval() -> None:
    every = load_longmemeval(scored_only=False)
    assert len(every) == 128
    questions = [q for q in every if lme_is_scored(q)]
    assert len(questions) == 104
    assert not any(q.question_id.endswith("_abs") for q in questions)
    for q in questions:
        session_ids = {u.unit_id for u in q.session_units()}
        assert q.turn_evidence()
        assert set(q.session_evidence()) <= session_ids
        assert {e.rsplit(":", 1)[0] for e in q.turn_evidence()} <= session_ids
        assert len({u.unit_id for u in q.turn_units()}) == len(q.turn_units())
    assert sum(len(q.turn_units()) for q in questions) == 25553
