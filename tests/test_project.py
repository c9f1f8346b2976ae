"""The public surface and the docs stay complete."""

from __future__ import annotations

import re
from pathlib import Path

import engram
from engram.interfaces.cli.app import app

ROOT = Path(__file__).resolve().parents[1]


def test_all_is_sorted_and_complete() -> None:
    assert engram.__all__ == sorted(engram.__all__)
    public = {name for name in vars(engram) if not name.startswith("_") and name[0].isupper()}
    assert public <= set(engram.__all__)
    for name in engram.__all__:
        assert hasattr(engram, name), name


def test_every_command_has_help_with_an_example_and_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    commands = [c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands]
    assert {"remember", "recall", "show", "list", "invalidate", "forget", "stats", "reembed"} <= set(commands)
    for command in app.registered_commands:
        name = command.name or command.callback.__name__  # type: ignore[union-attr]
        doc = command.callback.__doc__ or ""  # type: ignore[union-attr]
        assert "Example: engram" in doc, name
        assert re.search(rf"`engram {name}`", readme), name


def test_readme_opens_with_the_two_setup_commands() -> None:
    head = (ROOT / "README.md").read_text().split("## ", 1)[0]
    assert "make run" in head and "make test" in head
    assert "make test" in (ROOT / ".ci" / "run").read_text()
