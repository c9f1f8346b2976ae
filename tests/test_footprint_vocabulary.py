"""spaCy's vocabulary keeps every word the tagger has read; engram.tags.phrases loads a fresh tagger once it has
learned FRESH_AFTER_WORDS words, so a long-running process stays bounded, and tags exactly as before."""

from __future__ import annotations

import random
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from engram.tags import phrases

TEXTS = [
    "My sister Clara lives in Lisbon and teaches piano to kids on Saturdays.",
    "The sync service batches writes before the nightly backup to the Hetzner box.",
    "I go swimming every Wednesday at the community pool near the old library.",
    "Mum's lentil soup needs more cumin; buy red lentils and low-sodium stock.",
    "We replaced the cron jobs with systemd timers in October after the outage.",
    "Ticket INC-20931 says the Wi-Fi router in the parent-teacher room keeps dropping.",
    "Aisle seats on long flights, and a vegetarian meal on the Tokyo leg please.",
    "Our staging cluster runs on k3s with Postgres 16 and a Redis cache for sessions.",
]


def _noise(rng: random.Random, words: int) -> str:
    return " ".join(f"ref{rng.randrange(10**9)} Order-{rng.randrange(10**6)}" for _ in range(words // 2))


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A tagger loaded anew for the test, and the process's own put back after it."""
    monkeypatch.setattr(phrases, "_loaded", [])
    return monkeypatch


def test_the_tagger_is_replaced_once_it_has_learned_enough_words(fresh: pytest.MonkeyPatch) -> None:
    fresh.setattr(phrases, "FRESH_AFTER_WORDS", 400)
    first = phrases._nlp()
    size = len(first.vocab)
    rng = random.Random(7)
    seen = {id(first)}
    for _ in range(60):
        phrases.phrases(_noise(rng, 40))
        nlp = phrases._nlp()
        seen.add(id(nlp))
        # never more than the limit and one text's words beyond a fresh tagger's vocabulary
        assert len(nlp.vocab) <= size + 400 + 200
    assert len(seen) > 1 and phrases._nlp() is not first


def test_a_replaced_tagger_finds_the_same_phrases(fresh: pytest.MonkeyPatch) -> None:
    before = [phrases.phrases(t) for t in TEXTS]
    fresh.setattr(phrases, "FRESH_AFTER_WORDS", 300)
    rng = random.Random(11)
    loaded = set()
    for round_ in range(6):
        for _ in range(12):
            phrases.phrases(_noise(rng, 30))
        loaded.add(id(phrases._nlp()))
        assert [phrases.phrases(t) for t in TEXTS] == before, round_
    assert len(loaded) > 1
    # and the same as one tagger that has read every word without being replaced
    fresh.setattr(phrases, "FRESH_AFTER_WORDS", 10**9)
    for _ in range(40):
        phrases.phrases(_noise(rng, 30))
    assert [phrases.phrases(t) for t in TEXTS] == before
    assert any(p.name for ps in before for p in ps) and all(before)


def test_the_old_tagger_is_freed_before_a_fresh_one_loads(fresh: pytest.MonkeyPatch) -> None:
    import spacy

    fresh.setattr(phrases, "FRESH_AFTER_WORDS", 300)
    old = weakref.ref(phrases._nlp())
    load, alive = spacy.load, []

    def loading(*args: Any, **kwargs: Any) -> Any:
        alive.append(old() is not None)
        return load(*args, **kwargs)

    fresh.setattr(spacy, "load", loading)
    rng = random.Random(5)
    while not alive:
        phrases.phrases(_noise(rng, 40))
    assert alive == [False]
    assert phrases._nlp() is not None and old() is None


def test_taggers_in_threads_across_reloads_find_the_same_phrases(fresh: pytest.MonkeyPatch) -> None:
    before = [phrases.phrases(t) for t in TEXTS]
    fresh.setattr(phrases, "FRESH_AFTER_WORDS", 200)
    loaded: set[int] = set()

    def work(seed: int) -> list[list[phrases.Phrase]]:
        rng, out = random.Random(seed), []
        for _ in range(8):
            phrases.phrases(_noise(rng, 40))
            loaded.add(id(phrases._nlp()))
            out += [phrases.phrases(t) for t in TEXTS]
        return out

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(work, range(4)))
    assert len(loaded) > 2
    for out in results:
        assert out == before * 8
