"""spaCy loads without its command line (`engram.lang.lemmas`), whoever imports it first (the tagger or the German
stop words): its tagger finds the same phrases as with a spaCy imported the usual way, `spacy.info` still
answers, and `import spacy.cli` still gives the real one."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

TEXTS = [
    "My sister Clara lives in Lisbon and teaches piano to kids on Saturdays.",
    "The sync service batches writes before the nightly backup to the Hetzner box.",
    "Book the venue, then hand in the consent form for the parent-teacher meeting.",
    "Our staging cluster runs on k3s with Postgres 16 and a Redis cache for sessions.",
    "Aisle seats on long flights, and a vegetarian meal on the Tokyo leg please.",
]
GERMAN = "Die Steuererklärung muss bis zum 31. Dezember beim Finanzamt sein"


def _run(code: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True, timeout=300
    )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


_PHRASES = f"""
    from engram.tags import phrases
    found = [[(p.text, p.count, p.first, p.name) for p in phrases.phrases(t)] for t in {TEXTS!r}]
"""


def test_the_tagger_loads_without_spacys_command_line() -> None:
    result = _run(
        f"""
    from engram.tags import phrases
    german = phrases.topics({GERMAN!r})  # the German stop words import spaCy first
    """
        + _PHRASES
        + """
    import json, sys
    import spacy
    loaded = sorted(m for m in ("spacy.cli", "spacy.cli.info", "weasel", "typer", "requests") if m in sys.modules)
    info = spacy.info  # the real command, loaded when it is called
    import spacy.cli
    print(json.dumps({"found": found, "loaded": loaded, "cli": hasattr(spacy.cli, "download"),
                      "info": callable(info), "german": german}))
    """
    )
    assert result["loaded"] == []
    assert result["cli"] is True and result["info"] is True
    assert result["german"] == ["Steuererklärung", "Finanzamt"]
    assert result["found"] and all(result["found"])  # type: ignore[arg-type]


def test_the_tagger_finds_the_same_phrases_as_with_spacy_imported_whole() -> None:
    lean = _run(_PHRASES + "\n    import json\n    print(json.dumps({'found': found}))\n")
    whole = _run(
        "\n    import spacy, sys\n    assert 'spacy.cli' in sys.modules\n"
        + _PHRASES
        + "\n    import json\n    print(json.dumps({'found': found}))\n"
    )
    assert lean["found"] == whole["found"]
