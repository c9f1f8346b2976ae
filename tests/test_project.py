"""The public surface and the docs stay complete."""

from __future__ import annotations

import re
from pathlib import Path

import typer

import engram
from engram.interfaces.cli.app import app

ROOT = Path(__file__).resolve().parents[1]


def test_all_is_sorted_and_complete() -> None:
    # Sorted as ruff sorts it (RUF022): constants, then classes, then functions, each alphabetically.
    assert engram.__all__ == sorted(engram.__all__, key=lambda n: (not n.isupper(), not n[0].isupper(), n))
    public = {name for name in vars(engram) if not name.startswith("_") and name[0].isupper()}
    assert public <= set(engram.__all__)
    for name in engram.__all__:
        assert hasattr(engram, name), name


def test_every_command_has_help_with_an_example_and_is_in_the_readme() -> None:
    """The README names every command and command group; the CLI reference has each command and sub-command."""
    readme = (ROOT / "README.md").read_text()
    reference = (ROOT / "docs" / "reference" / "cli.md").read_text()
    root = typer.main.get_command(app)
    commands = set(root.commands)
    assert {"remember", "recall", "show", "list", "invalidate", "forget", "stats", "reembed"} <= commands
    for name, command in root.commands.items():
        assert re.search(rf"`engram {name}`", readme), name
        paths = {f"engram {name}": command}
        paths |= {f"engram {name} {sub}": each for sub, each in getattr(command, "commands", {}).items()}
        for path, each in paths.items():
            if not hasattr(each, "commands"):  # a group's help lists its commands instead
                assert "Example: engram" in (each.help or ""), path
            assert re.search(rf"^#+ {re.escape(path)}$", reference, re.MULTILINE), f"{path}: not in cli.md"


def test_readme_opens_with_the_two_setup_commands() -> None:
    head = (ROOT / "README.md").read_text().split("## ", 1)[0]
    assert "make run" in head and "make test" in head
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_modules_stay_small_and_the_top_level_is_the_public_face() -> None:
    engine = ROOT / "engram"
    long = {
        str(p.relative_to(ROOT)): n
        for p in engine.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > 400
    }
    assert not long, f"modules over 400 lines: split them by concept: {long}"
    top = sorted(p.name for p in engine.glob("*.py"))
    assert len(top) <= 6, f"the top level holds only the public face, not {top}"
