"""A Markdown heading's text was read with "(.+?)\\s*#*\\s*$": on a line of spaces and #s a few thousand characters
long the pattern tried every split of them, which took minutes, then hours, as the line grew. It ran on the title
of a file being added (`engram add`, before its length was checked) and on the passages of a long memory a recall
placed under their headings, so one stored memory held up every recall that found it. Headings are now found by a
pattern that cannot backtrack and trimmed after. Each run is a process of its own under a generous bound, as in
test_attack_backtracking."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engram.lang.chunk import headings

ROOT = Path(__file__).resolve().parents[1]
BOUND = 60  # longer than either run takes under load; the pattern took hours on these lines

_RUN = """
import sys
from datetime import UTC, datetime
from pathlib import Path
from engram.interop.documents import read_document
from engram.model.record import Kind, MemoryRecord
from engram.recall.passages import where_in
home, how = Path(sys.argv[1]), sys.argv[2]
line = "# a" + " " * 20_000 + "#" * 120 + " x"
if how == "title":
    (home / "notes.md").write_text(f"{line}\\n\\nthe quince tree by the wall needs pruning")
    title = read_document(home / "notes.md").title
else:
    now = datetime.now(UTC)
    def passage(i: int, text: str) -> MemoryRecord:
        return MemoryRecord(
            id=f"p{i}", content=text, content_hash=str(i), kind=Kind.NOTE, created_at=now, updated_at=now,
            parent_id="doc", chunk_index=i,
        )
    passages = [passage(0, line + "\\n\\nword " * 50), passage(1, f"{line}\\n\\nthe quince tree needs pruning")]
    title = where_in(passages[1], passages, {"quinc"}).heading or ""
print(title.startswith("a ") and title.endswith("#" * 120 + " x"))  # a heading: the #s are not at its end
"""


@pytest.mark.parametrize("how", ["title", "passage"])
def test_a_line_of_spaces_and_hashes_is_read_in_time(tmp_path: Path, how: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _RUN, str(tmp_path), how],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=BOUND,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "True", done.stdout


def test_headings_are_read_as_commonmark_reads_them() -> None:
    text = "# Title ##\n## C#\n   ### Indented  \n    # code, not a heading\n#no space\n# ###\n#\tTabbed #\n"
    assert [title for _, _, title in headings(text)] == ["Title", "C#", "Indented", "Tabbed"]
    assert [title for _, _, title in headings(text, level=1)] == ["Title", "Tabbed"]
    start, end, _ = next(headings("intro\n## Costs ##\nbody"))
    assert "intro\n## Costs ##\nbody"[start:end] == "## Costs ##"
