"""What a process loads: the library path imports no server framework, spaCy only to tag a text, and never
scikit-learn for the built-in taxonomies, whose read-outs are fitted ahead and shipped with the package."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.classify import fitted
from engram.classify.readout import LinearReadout
from engram.embed.minilm import MINILM_NAME

SERVERS = ("fastapi", "uvicorn", "starlette", "mcp")


def _loaded(script: str, *args: str) -> dict[str, Any]:
    """Run `script` in a fresh interpreter; it prints {step: top-level modules loaded} as its last line."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, check=True, timeout=600
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


_STEPS = """
import json, sys
from pathlib import Path

def loaded():
    return sorted({name.split(".")[0] for name in sys.modules})

steps = {}
import engram
steps["import"] = loaded()
from engram import Memory, Settings
home = Path(sys.argv[1])
with Memory(home / "lib.db", settings=Settings(home=home)) as mem:
    steps["open"] = loaded()
    if sys.argv[2] == "write":
        mem.store_memory("Remind me to water the tomato plants on Friday")
        steps["write"] = loaded()
    mem.search_memory("what about the tomatoes?")
    mem.recall("garden plants")
    steps["search"] = loaded()
print(json.dumps(steps))
"""


def test_importing_engram_loads_no_spacy_scikit_learn_or_server() -> None:
    script = (
        "import json, sys\nimport engram\nfrom engram.lang.lemmas import getAllLemmas\n"
        "print(json.dumps({'import': sorted({m.split('.')[0] for m in sys.modules}),"
        " 'lemmas': getAllLemmas('running', 'VERB')}))"
    )
    steps = _loaded(script)
    assert sorted({"spacy", "sklearn", "yake", "pandas", *SERVERS} & set(steps["import"])) == []
    assert steps["lemmas"] == {"VERB": ["run"]}  # lemminflect works with spaCy out of its sight


@pytest.mark.model
def test_the_library_loads_no_server_spacy_only_to_tag_and_never_scikit_learn(tmp_path: Path) -> None:
    # A new store's first write sets its classifiers up: with the shipped read-outs, no fitting.
    steps = _loaded(_STEPS, str(tmp_path), "write")
    for step in ("import", "open"):
        assert sorted({"spacy", "sklearn", "yake", "pandas", *SERVERS} & set(steps[step])) == [], step
    assert "spacy" in steps["write"]  # the tagger reads the text's noun phrases
    for step in ("write", "search"):
        assert sorted({"sklearn", "pandas", *SERVERS} & set(steps[step])) == [], step
    # A process that only reads an existing store never loads spaCy.
    steps = _loaded(_STEPS, str(tmp_path), "read")
    assert sorted({"spacy", "sklearn", *SERVERS} & set(steps["search"])) == []


@pytest.mark.parametrize("name", fitted.TAXONOMIES)
def test_the_shipped_read_outs_are_fitted_on_the_current_seeds(tmp_path: Path, name: str) -> None:
    """Fails when a taxonomy's seeds (or the fitting) changed since the read-outs were shipped: fit them again
    with `python -m engram.classify.fitted`."""
    model = FakeEmbedder(dim=384, name=MINILM_NAME)  # the digest reads the model's name only
    with Memory(tmp_path / "d.db", embedder=model, settings=Settings(home=tmp_path)) as mem:
        classifier = getattr(mem._classifiers, name)
        assert fitted.shipped_digest(name) == classifier.readout_digest(), (
            f"the shipped read-out of {name!r} is stale: run `python -m engram.classify.fitted`"
        )


def test_a_shipped_read_out_is_taken_only_for_its_seeds_model_and_temperature() -> None:
    raw = json.loads(
        (Path(fitted.__file__).parent / fitted.FOLDER / "categories.json").read_text(encoding="utf-8")
    )
    digest, temperature = raw["readout"]["digest"], raw["temperature"]
    found = fitted.shipped("categories", digest, temperature)
    assert isinstance(found, LinearReadout) and found.digest == digest
    assert found.coef.shape == (len(found.labels), 2 * 384)  # the whole text's dimensions, then the opening's
    assert (
        fitted.shipped("categories", digest.replace("/", "x/"), temperature) is None
    )  # other seeds or model
    assert fitted.shipped("categories", digest, temperature + 0.005) is None  # another calibration
    assert fitted.shipped("kinds", digest, temperature) is None  # another taxonomy's
    assert fitted.shipped("paperbot", digest, temperature) is None  # none shipped


def test_another_model_fits_its_own_read_out(tmp_path: Path) -> None:
    with Memory(tmp_path / "f.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as mem:
        mem.store_memory("Remind me to water the plants on Friday")
        readout = mem._classifiers.categories.readout
        assert readout is not None and readout.digest == mem._classifiers.categories.readout_digest()
        assert readout.digest != fitted.shipped_digest("categories")
        assert readout.coef.shape[1] == 2 * mem.embedder.dim


def test_the_wheel_carries_the_shipped_read_outs() -> None:
    import fnmatch
    import tomllib

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = project["tool"]["setuptools"]["package-data"]["engram.classify"]
    for name in fitted.TAXONOMIES:
        path = f"{fitted.FOLDER}/{name}.json"
        assert (Path(fitted.__file__).parent / path).is_file()
        assert any(fnmatch.fnmatch(path, p) for p in patterns), (path, patterns)


def test_the_wheel_carries_the_embedders_graph() -> None:
    import fnmatch
    import tomllib

    from engram.embed import minilm

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = project["tool"]["setuptools"]["package-data"]["engram.embed"]
    assert minilm._GRAPH.is_file()
    assert any(fnmatch.fnmatch(minilm._GRAPH.name, p) for p in patterns), patterns


@pytest.mark.model
def test_the_tagger_loads_without_the_models_strings_and_tags_the_same() -> None:
    import warnings

    import spacy

    from engram.tags import phrases

    nlp = phrases._nlp()
    assert len(nlp.vocab.strings) < 20_000  # the model's vocabulary holds 85k
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        full = spacy.load(phrases.MODEL, exclude=["parser", "ner", "lemmatizer", "senter"])
    for text in (
        "My sister Clara lives in Zürich and runs the billing service's on-call rota since 2021.",
        "Don't deploy on Fridays; the staging cluster's Postgres database batches writes at 3am.",
        "Remind me to water the tomato plants, email Dr. O'Neil re: the Q3 invoice #4471 & call mum!!",
    ):
        assert [(t.text, t.tag_, t.pos_) for t in nlp(text)] == [(t.text, t.tag_, t.pos_) for t in full(text)]
