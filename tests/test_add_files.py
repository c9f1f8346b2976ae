"""Files as document memories: `Memory.add_file` and `engram add`, on real small Markdown, text, HTML and PDF
files."""

from __future__ import annotations

import builtins
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from engram import FakeEmbedder, Memory, Settings, Status
from engram.errors import InvalidInput, MissingExtra
from engram.interfaces.cli.app import app
from engram.interop.documents import read_document

runner = CliRunner()
GUIDE = """---
title: Deploy guide
---
# Deploying the billing service

Run `make release` from a clean checkout; the pipeline tags the commit.

## Rolling back

Use `make rollback VERSION=x`; the database migrations stay.
"""
PAGE = """<!doctype html><html><head><title>Team handbook</title><style>p { color: red }</style>
<script>track("visit")</script></head><body><nav>Home</nav><h1>Who does what</h1>
<p>Ana leads the search team.</p><p>Ben runs the <b>billing</b> service.</p></body></html>"""


def pdf_file(path: Path, lines: list[str], title: str | None = None) -> Path:
    """A real one-page PDF whose text is `lines`, made with pypdf (Helvetica, one text object)."""
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    writer = PdfWriter()
    page = writer.add_blank_page(width=612, height=792)
    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    fonts = DictionaryObject({NameObject("/F1"): writer._add_object(font)})
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): fonts})
    shown = " ".join(f"({line}) Tj 0 -16 Td" for line in lines)
    stream = DecodedStreamObject()
    stream.set_data(f"BT /F1 12 Tf 72 720 Td {shown} ET".encode())
    page[NameObject("/Contents")] = writer._add_object(stream)
    if title:
        writer.add_metadata({"/Title": title})
    with path.open("wb") as f:
        writer.write(f)
    return path


@pytest.fixture
def files(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "guide.md").write_text(GUIDE)
    (folder / "team.html").write_text(PAGE)
    (folder / "boiler.txt").write_text(
        "The boiler was serviced in October.\nNext service: October next year.\n"
    )
    pdf_file(
        folder / "policy.pdf", ["Travel policy", "Book trains for trips under four hours."], "Travel policy"
    )
    return folder


@pytest.fixture
def mem(tmp_path: Path, settings: Settings) -> Iterator[Memory]:
    with Memory(tmp_path / "docs.db", embedder=FakeEmbedder(), settings=settings) as memory:
        yield memory


def test_each_type_is_read_with_its_title(files: Path) -> None:
    guide = read_document(files / "guide.md")
    assert guide.title == "Deploy guide" and guide.type == "markdown" and "make rollback" in guide.text
    page = read_document(files / "team.html")
    assert page.title == "Team handbook" and page.type == "html"
    assert "Ana leads the search team." in page.text and "Ben runs the billing service." in page.text
    assert "track" not in page.text and "color" not in page.text and "Team handbook" not in page.text
    text = read_document(files / "boiler.txt")
    assert text.title == "boiler" and text.text.startswith("The boiler was serviced")
    pdf = read_document(files / "policy.pdf")
    assert (
        pdf.title == "Travel policy"
        and pdf.type == "pdf"
        and "Book trains for trips under four hours." in pdf.text
    )
    (files / "untitled.md").write_text("# Release notes\n\nVersion 2 ships the search page.")
    assert read_document(files / "untitled.md").title == "Release notes"


def test_a_file_is_one_document_memory_with_its_passages(
    mem: Memory, files: Path, settings: Settings
) -> None:
    long = "\n\n".join(
        f"Section {i}. The quarterly report covers region {i} and its {i * 3} stores." for i in range(80)
    )
    (files / "report.md").write_text("# Quarterly report\n\n" + long)
    added = mem.add_file(files / "report.md", tags=["reports"])
    assert added["outcome"] == "created" and added["title"] == "Quarterly report" and added["passages"] > 1
    record = mem.get(added["id"])
    assert record.content.startswith("# Quarterly report") and "reports" in record.tags
    assert record.metadata["title"] == "Quarterly report" and record.metadata["source_type"] == "markdown"
    assert record.metadata["source_path"] == str((files / "report.md").resolve())
    assert len(mem.chunks(record.id)) == added["passages"]
    hits = mem.recall("region 41 stores", limit=3)
    assert hits and any(h.record.id == record.id or h.record.parent_id == record.id for h in hits)


def test_adding_is_idempotent_and_a_changed_file_supersedes(mem: Memory, files: Path) -> None:
    first = mem.add_file(files / "boiler.txt")
    again = mem.add_file(files / "boiler.txt")
    assert again["outcome"] == "unchanged" and again["id"] == first["id"]
    assert mem.count() == 1
    (files / "boiler.txt").write_text("The boiler was serviced in March.\nNext service: March next year.\n")
    changed = mem.add_file(files / "boiler.txt")
    assert (
        changed["outcome"] == "updated"
        and changed["supersedes"] == first["id"]
        and changed["id"] != first["id"]
    )
    old = mem.get(first["id"])
    assert old.status is Status.SUPERSEDED and "October" in old.content  # kept, never deleted
    assert mem.get(changed["id"]).metadata["supersedes_id"] == first["id"]
    assert mem.add_file(files / "boiler.txt")["outcome"] == "unchanged"
    copy = files / "copy.txt"
    copy.write_text((files / "boiler.txt").read_text())
    assert mem.add_file(copy)["outcome"] == "unchanged"  # the same text from elsewhere: stored once


def test_bad_files_are_refused_by_name(mem: Memory, files: Path, settings: Settings) -> None:
    settings = settings.model_copy(update={"max_content_chars": 200})
    (files / "slides.pptx").write_bytes(b"PK")
    with pytest.raises(InvalidInput, match=r"slides\.pptx: not a Markdown, text, HTML or PDF file"):
        mem.add_file(files / "slides.pptx")
    with pytest.raises(InvalidInput, match="does not exist"):
        mem.add_file(files / "missing.md")
    (files / "empty.md").write_text("  \n\n")
    with pytest.raises(InvalidInput, match=r"empty\.md holds no text"):
        mem.add_file(files / "empty.md")
    (files / "long.md").write_text("# Long\n\n" + "word " * 60)
    too_long = r"long\.md: its text is \d+ characters; the maximum is 200 \("
    with (
        Memory(":memory:", embedder=FakeEmbedder(), settings=settings) as small,
        pytest.raises(InvalidInput, match=too_long),
    ):
        small.add_file(files / "long.md")
    (files / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    with pytest.raises(InvalidInput, match=r"broken\.pdf"):
        mem.add_file(files / "broken.pdf")
    assert mem.count() == 0


def test_pdf_without_the_extra_names_it_and_html_needs_none(
    mem: Memory, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_import = builtins.__import__

    def no_parsers(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] in ("pypdf", "bs4"):
            raise ModuleNotFoundError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_parsers)
    with pytest.raises(MissingExtra, match=r"documents extra: pip install 'engram-memory\[documents\]'"):
        mem.add_file(files / "policy.pdf")
    for name in ("guide.md", "team.html"):  # read with the standard library alone
        assert mem.add_file(files / name)["outcome"] == "created"


def test_engram_add_through_the_cli(tmp_path: Path, files: Path) -> None:
    db = str(tmp_path / "cli.db")
    paths = [str(files / n) for n in ("guide.md", "team.html", "boiler.txt", "policy.pdf")]
    result = runner.invoke(app, ["--db", db, "add", *paths, "--scope", "project", "--scope-id", "docs"])
    assert result.exit_code == 0, result.output
    for title in ("Deploy guide", "Team handbook", "boiler", "Travel policy"):
        assert title in result.output
    result = runner.invoke(app, ["--db", db, "add", *paths, "--json"])
    assert [a["outcome"] for a in json.loads(result.output)] == ["unchanged"] * 4
    listed = runner.invoke(app, ["--db", db, "list"]).output
    assert (
        "Deploy guide" in listed and "---" not in listed and "title:" not in listed
    )  # titles, not raw markdown
    result = runner.invoke(app, ["--db", db, "add", paths[0], str(files / "nope.md")])
    assert result.exit_code == 2 and "nope.md: does not exist" in result.output


def test_engram_add_as_a_real_command(tmp_path: Path, files: Path) -> None:
    db = tmp_path / "sub.db"
    env = os.environ | {"ENGRAM_HOME": str(tmp_path / "home")}
    command = [sys.executable, "-m", "engram", "--db", str(db), "add", str(files / "guide.md"), "--json"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    (added,) = json.loads(done.stdout)
    assert added["title"] == "Deploy guide" and added["outcome"] == "created"
    assert "adding files" not in done.stderr  # no bar when stderr is not a terminal
