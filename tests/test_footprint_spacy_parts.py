"""A serving process loads spaCy for tagging only (`engram.model.standins.spacy_for_tagging_only`): the components
the tagger never builds are stand-ins, its phrases are the same as with them loaded, and a process that did not
ask for it (a library caller) keeps every component."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.test_footprint_spacy import TEXTS

_RUN = f"""
    import json, sys
    from engram.model import standins
    asked = standins.spacy_for_tagging_only() if {{lean}} else None
    from engram.tags import phrases
    found = [[(p.text, p.count, p.first, p.name) for p in phrases.phrases(t)] for t in {TEXTS!r}]
    import spacy.pipeline
    try:
        spacy.pipeline.EntityRecognizer
        built = type(sys.modules["spacy.pipeline.ner"]).__name__
    except Exception as exc:
        built = repr(exc)
    again = standins.spacy_for_tagging_only()
    print(json.dumps({{"found": found, "asked": asked, "ner": built, "again": again,
                      "parts": sum(m.startswith("spacy") for m in sys.modules)}}))
"""


def _run(lean: bool) -> dict[str, object]:
    code = textwrap.dedent(_RUN.replace("{lean}", str(lean)))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_tagging_only_spacy_finds_the_same_phrases_with_fewer_modules() -> None:
    lean, whole = _run(True), _run(False)
    assert lean["asked"] is True and lean["again"] is False and whole["again"] is False
    assert lean["found"] == whole["found"] and all(lean["found"])  # type: ignore[arg-type]
    assert lean["ner"] == "_LeftOut" and whole["ner"] == "module"
    assert int(lean["parts"]) < int(whole["parts"])  # type: ignore[call-overload]


def test_a_left_out_component_says_so_when_built() -> None:
    from engram.model.standins import UnusedSpacyPart

    with pytest.raises(RuntimeError, match="not loaded in a serving process"):
        UnusedSpacyPart()


def test_the_stdio_server_loads_spacy_for_tagging_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from engram.interfaces.cli.app import app
    from engram.interfaces.http import heap
    from engram.interfaces.mcp import server
    from engram.model import standins

    calls: list[str] = []
    monkeypatch.setenv("ENGRAM_HOME", str(tmp_path))
    monkeypatch.setattr(heap, "limit_arenas", lambda: calls.append("arenas") or True)
    monkeypatch.setattr(standins, "spacy_for_tagging_only", lambda: calls.append("spacy") or True)
    monkeypatch.setattr(standins, "tag_without_spacy", lambda: calls.append("numpy"))
    monkeypatch.setattr(server, "stdio", lambda memory, client: calls.append(f"served for {client}"))
    done = CliRunner().invoke(app, ["--db", str(tmp_path / "notes.db"), "mcp"])
    assert done.exit_code == 0, done.output
    # spaCy is narrowed, and the tagger set to run on numpy, before anything an agent asks loads it
    # the client watched is this process's parent, read as the command starts
    assert calls == ["arenas", "spacy", "numpy", f"served for {os.getppid()}"]
