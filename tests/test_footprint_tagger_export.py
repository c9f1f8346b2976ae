"""A serving process tags with spaCy's tagger exported and run on numpy (`engram.tags.postag`): the same tokens,
spaces, fine and coarse tags and phrases as spaCy's own pipeline, and no spaCy framework in the process."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engram.model import standins
from engram.tags import phrases, postag
from tests.test_footprint_spacy import TEXTS

# Texts whose tokens take the tokenizer's rarer paths: runs of spaces and line breaks, leading and trailing
# spaces, contractions and other special cases, emoticons, abbreviations with stops, URLs, e-mail addresses,
# quotes, brackets, dashes, hyphenated words, numbers with units and times.
_TRICKY = [
    "Hello  world\n\nnew paragraph",
    " leading space and trailing ",
    "can't won't I'm  e-mail me at a.b@c.com :) ",
    "U.S.A. and a.m. 10:30am, 5km/h, 3-4 p.m.",
    "http://example.com/x?y=1 and www.foo.org. (see https://a.b/c).",
    "\t\ttabs\tand\r\nbreaks",
    "\"quoted,\" he said... 'single' — and “curly” ones!",
    "Mr. Smith's 5km run—fast! Dr. Okafor's low-sodium, parent-teacher Wi-Fi.",
    "y'all gonna ya'll ain't shan't o'clock 'cause",
    ":-) ;) <3 :P 1st 2nd 3rd £5 $10.50 100% #tag @user C++ node.js",
    "colour tyre licence watercolour organise",
    "",
    "   ",
]


def _spacy() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import spacy

        return spacy.load(phrases.MODEL, exclude=["parser", "ner", "lemmatizer", "senter", "strings"])


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> postag.Tagger:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ENGRAM_TAGGER_DIR", str(tmp_path_factory.mktemp("tagger")))
        tagger = postag.load(phrases.MODEL)  # exported here, in a process of its own
        assert postag.folder(phrases.MODEL).is_dir()
        return tagger


def _bench_texts(limit: int) -> list[str]:
    found: list[str] = []
    for path in sorted(Path("bench/data").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            found.extend(v for v in json.loads(line).values() if isinstance(v, str) and " " in v)
    random.Random(7).shuffle(found)
    return found[:limit]


def test_the_exported_tagger_gives_spacys_tokens_and_tags(exported: postag.Tagger) -> None:
    nlp = _spacy()
    for text in [*_TRICKY, *TEXTS, *_bench_texts(400)]:
        theirs, ours = nlp(text), exported(text)
        assert [(t.text, t.whitespace_, t.tag_, t.pos_) for t in theirs] == [
            (t.text, t.whitespace_, t.tag_, t.pos_) for t in ours
        ], text


def test_the_exported_tagger_hashes_as_spacy_and_thinc() -> None:
    from spacy.strings import hash_string  # type: ignore[import-not-found]
    from thinc.api import NumpyOps

    words = ["a", "colour", "Tyre", "naïve", "日本語", "x" * 9, "don't", "12345678", "ab" * 40]
    assert [postag._murmur64a(w) for w in words] == [hash_string(w) for w in words]
    ids = np.random.default_rng(3).integers(0, 2**63, size=200, dtype=np.uint64)
    for seed in (8, 13):
        assert np.array_equal(postag._keys(ids, seed), NumpyOps().hash(ids, seed))


def test_phrases_are_the_same_with_the_exported_tagger(
    exported: postag.Tagger, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [*_TRICKY, *TEXTS, *_bench_texts(200)]
    with_spacy = [phrases.phrases(t) for t in texts]
    monkeypatch.setattr(standins, "_WITHOUT_SPACY", [True])
    monkeypatch.setattr(postag, "_shared", {phrases.MODEL: exported})
    assert [phrases.phrases(t) for t in texts] == with_spacy
    assert any(with_spacy)


def test_spacy_tags_where_the_tagger_cannot_be_exported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("ENGRAM_TAGGER_DIR", str(blocked))
    monkeypatch.setattr(standins, "_WITHOUT_SPACY", [True])
    monkeypatch.setattr(postag, "_shared", {})
    assert postag.shared(phrases.MODEL) is None
    assert phrases._nlp().pipe_names == ["tok2vec", "tagger", "attribute_ruler"]
    assert "lentil soup" in [p.text for p in phrases.phrases("My sister Clara loves lentil soup.")]


_SERVER = f"""
    import json, sys
    from engram.model import standins
    standins.spacy_for_tagging_only()
    standins.tag_without_spacy()
    from engram.tags import phrases
    found = [phrases.topics(t) for t in {TEXTS!r}]
    german = phrases.topics("Die Steuererklärung muss bis zum 31. Dezember beim Finanzamt sein, bitte nicht vergessen.")
    print(json.dumps({{"found": found, "german": german, "loaded": sorted(
        m for m in sys.modules if m.split(".")[0] in {{"spacy", "thinc", "srsly", "confection", "catalogue"}})}}))
"""


def test_a_serving_process_tags_without_importing_spacy(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_SERVER)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["loaded"] == []
    assert result["found"] == [list(phrases.topics(t)) for t in TEXTS] and all(result["found"])
    assert "Finanzamt" in result["german"]
