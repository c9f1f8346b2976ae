"""Text built to make a pattern backtrack, as long as a memory may be, through the public tools: each answers in
time that grows with its length, not its square. Each is run in a process of its own under a generous bound, so
that a slow machine does not fail it and a pattern that backtracks (minutes on such text) does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Longer than any run of the tool on this text under load; a quadratic pattern took minutes.
BOUND = 60

_RUN = """
import sys
from pathlib import Path
from engram import FakeEmbedder, Memory, Settings
home = Path(sys.argv[1])
text = sys.argv[2] * (100_000 // len(sys.argv[2]))
with Memory(home / "m.db", embedder=FakeEmbedder(), settings=Settings(home=home)) as mem:
    print(len(mem.search_memory(text)["results"]) >= 0)
"""


@pytest.mark.parametrize(
    "unit",
    [
        "A'",  # yake's tokenizer restarts its e-mail pattern after each quote, to the end of the run
        "a{",
        "a" * 999 + "'s mum ",  # a long word before each kin word: read back from each kin word
        "b" * 999 + " number",  # a long word before the number asked for
    ],
)
def test_a_query_of_quotes_between_letters_is_answered(tmp_path: Path, unit: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _RUN, str(tmp_path), unit],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=BOUND,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "True"
