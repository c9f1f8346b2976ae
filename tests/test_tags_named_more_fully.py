"""optimize_tags folds a tag into the same named more fully, as users write them: a name and the name with its
surname (tom / tom-ellery), a name of two words and it with a word before it (tax-return /
assessment-tax-return); not a thing of its own (react-native, database-migration), a name with two surnames, nor
a word after two names (eslint-plugin, babel-plugin). The real model: how close the tags are decides."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.embed.minilm import default_embedder
from engram.store.values import TagRow
from engram.tags.consolidate import consolidate


def _merges(usage: dict[str, int]) -> set[tuple[str, str, str]]:
    now = datetime.now(UTC)
    vectors = default_embedder().embed_batch([t.replace("-", " ") for t in usage])
    rows = [TagRow(t, n, now, now, vector=v) for (t, n), v in zip(usage.items(), vectors, strict=True)]
    return {(m.tag, m.into, m.reason) for m in consolidate(rows)}


@pytest.mark.model
def test_a_tag_named_more_fully_folds_into_the_most_used() -> None:
    merges = _merges({"tom": 3, "tom-ellery": 5, "tax-return": 4, "assessment-tax-return": 1, "invoice": 2})
    assert ("tom", "tom-ellery", "narrower") in merges
    assert ("assessment-tax-return", "tax-return", "narrower") in merges


@pytest.mark.model
def test_things_of_their_own_and_two_people_stay_apart() -> None:
    usage = {"react": 4, "react-native": 2, "database": 3, "database-migration": 1, "tom": 3, "tom-ellery": 2}
    usage |= {"tom-baker": 2, "eslint": 3, "eslint-plugin": 1, "babel": 2, "babel-plugin": 1}
    assert not {m for m in _merges(usage) if m[2] == "narrower"}
