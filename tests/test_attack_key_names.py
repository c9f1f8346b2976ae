"""A key's name is a label an operator types, or a script fills from a request ("laptop of <user>"). One holding
an escape sequence was stored and `engram keys list` sent it to the terminal (setting its title, clearing the
screen), and rich markup in it was read as markup. A name is printable text; one stored before is shown as text."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engram import InvalidInput
from engram.interfaces.cli.app import app
from engram.interfaces.tenants import Keys

HOSTILE = "\x1b]0;pwned\x07lap\x1b[2Jtop [bold red]x[/]"


@pytest.mark.parametrize("name", [HOSTILE, "line\nbreak", "bidi\u202etxt.exe", "x" * 101])
def test_a_key_name_that_is_no_plain_label_is_refused(tmp_path: Path, name: str) -> None:
    keys = Keys(tmp_path / "keys.db")
    try:
        with pytest.raises(InvalidInput) as refused:
            keys.create("alice", name)
        assert refused.value.field == "name"
        assert keys.list() == []
        assert keys.create("alice", "Ana's laptop (work)")[0].name == "Ana's laptop (work)"
    finally:
        keys.close()


def test_a_name_stored_before_is_listed_as_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_HOME", str(tmp_path))
    Keys(tmp_path / "keys.db").close()
    db = sqlite3.connect(tmp_path / "keys.db")
    db.execute(
        "INSERT INTO api_keys(id, hash, tenant, name, created_at) VALUES ('k1', 'h', 'alice', ?, '2026-01-01')",
        (HOSTILE,),
    )
    db.commit()
    db.close()
    listed = CliRunner().invoke(app, ["keys", "list"], terminal_width=200)
    assert listed.exit_code == 0, listed.output
    assert "\x1b" not in listed.output and "\x07" not in listed.output
    assert "[bold red]x[/]" in listed.output
