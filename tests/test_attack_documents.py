"""`engram add` names each file it could not add and why, once: a file whose text the write path refused (a NUL
in it, too long) was reported as "big.md: not added: : its text is ...", the name taken off and its colon left."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engram.interfaces.cli.app import app


def test_each_refused_file_is_named_with_its_problem_once(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "nul.txt").write_bytes(b"hello \x00 world")
    text = "word " * 30_000
    (docs / "big.md").write_text(text)
    (docs / "fine.md").write_text("# Kept\n\nthe one file that is added")
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "d.db"), "add", str(docs)])
    assert result.exit_code == 1
    said = " ".join(result.output.split())
    assert f"{docs / 'nul.txt'}: not added: its text holds a NUL character" in said, said
    assert f"{docs / 'big.md'}: not added: its text is {len(text.strip())} characters" in said, said
    assert ": : " not in said and "Kept" in said
