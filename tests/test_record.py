from __future__ import annotations

from pathlib import Path

import pytest

from engram import InvalidInput, Memory, Settings
from engram.model.record import NewMemory, parse


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"content": ""}, "content", "empty"),
        ({"content": " \n\t "}, "content", "whitespace"),
        ({"content": "a\x00b"}, "content", "NUL"),
        ({"content": "x", "importance": 1.5}, "importance", "must be at most 1"),
        ({"content": "x", "importance": -0.1}, "importance", "must be at least 0"),
        ({"content": "x", "validity_score": 2}, "validity_score", "must be at most 1"),
        ({"content": "x", "emotional_valence": -1.5}, "emotional_valence", "must be at least -1"),
        ({"content": "x", "credibility": 7}, "credibility", "must be at most 1"),
        (
            {"content": "x", "kind": "feelings"},
            "kind",
            "'identity', 'task', 'knowledge', 'reference', 'note'",
        ),
        ({"content": "x", "scope": "world"}, "scope", "'session', 'project' or 'global'"),
        ({"content": "x", "type": "Memo"}, "type", "'Observation'"),
        (
            {"content": "x", "status": "maybe"},
            "status",
            "'approved', 'pending', 'rejected', 'superseded' or 'archived'",
        ),
        ({"content": "x", "colour": "red"}, "colour", "not a memory field"),
        ({"content": "x", "tags": "single"}, "tags", "list of strings"),
    ],
)
def test_bad_input_names_the_field_and_problem(fields: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(NewMemory, fields)
    assert caught.value.field == field
    assert words in caught.value.problem


def test_defaults_follow_the_seeds() -> None:
    item = parse(NewMemory, {"content": "hello"})
    assert item.scope.value == "global"
    assert item.type.value == "Observation"
    assert item.source_type.value == "user"
    assert item.credibility == 1.0 and item.validity_score == 1.0
    assert item.is_negative is False and item.status.value == "approved"


def test_tags_are_lowercase_hyphenated_and_unique() -> None:
    assert parse(NewMemory, {"content": "x", "tags": ["User Auth", "user auth", "Bug"]}).tags == (
        "user-auth",
        "bug",
    )


def test_too_long_content_is_refused_and_nothing_is_lost(mem: Memory, db_location: str | Path) -> None:
    kept = mem.remember("a memory that must survive")
    small = Memory(db_location, embedder=mem.embedder, settings=Settings(max_content_chars=50))
    try:
        with pytest.raises(InvalidInput) as caught:
            small.remember("x" * 51)
        assert caught.value.field == "content" and "maximum is 50" in caught.value.problem
        with pytest.raises(InvalidInput) as caught:
            small.remember_many([{"content": "fine"}, {"content": "y" * 60}])
        assert caught.value.field == "items[1].content"
        assert [r.id for r in small.list()] == [kept.id]  # the valid item of the batch was not half-written
    finally:
        small.close()
