"""A tenant's restore and imports check their path inside the tenant's folder, then read it. The file (or a folder
on its way) swapped for a link between the check and the read, or a hard link made in the tenant's folder to
another tenant's database, had the server read the other tenant's database into this one: its memories then
listed here. The file is now opened through its folders one by one, itself without following a link, and must be
a plain file of the server's own with no other name; anything else is refused naming `path`, and the tenant's
store keeps what it had."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import engram.interop.backups as backups
import engram.interop.importers as importers
import engram.interop.transfer as transfer
from engram import FakeEmbedder, InvalidInput, Memory, Settings
from engram.interop.files import file_at

OURS = "the spare key is under the blue pot"
THEIRS = "the other tenant's safe code is 4417"


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[Memory, Path, Path]]:
    """This tenant (its store and files folder), and the other tenant's folder holding its backup and export."""
    settings = Settings(home=tmp_path / "home", tag_on_topic=-1)
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir()
    with Memory(tmp_path / "theirs.db", embedder=FakeEmbedder(), settings=settings, files=theirs) as other:
        other.remember(THEIRS)
        other.backup_restore("backup", "their.db")
        other.export_memories("their.jsonl")
        (theirs / "their.json").write_text(json.dumps([{"id": "m1", "memory": THEIRS}]))
    with Memory(tmp_path / "ours.db", embedder=FakeEmbedder(), settings=settings, files=ours) as mem:
        mem.remember(OURS)
        yield mem, ours, theirs


READS: dict[str, tuple[Any, str, Callable[[Memory, str], Any]]] = {
    "restore": (backups, "their.db", lambda mem, name: mem.backup_restore("restore", name)),
    "import": (transfer, "their.jsonl", lambda mem, name: mem.import_memories(name)),
    "import_from": (importers, "their.json", lambda mem, name: mem.import_from("mem0", name)),
}


def _refused(mem: Memory, read: Callable[[Memory, str], Any], name: str) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        read(mem, name)
    assert caught.value.field == "path"
    assert [r.content for r in mem.list()] == [OURS]  # nothing of the other tenant's read in, nothing lost
    return caught.value


@pytest.mark.parametrize("tool", READS)
def test_a_file_swapped_for_a_link_after_the_check_is_not_read_through(
    two: tuple[Memory, Path, Path], monkeypatch: pytest.MonkeyPatch, tool: str
) -> None:
    mem, ours, theirs = two
    module, theirs_name, read = READS[tool]
    (ours / "mine").write_bytes((theirs / theirs_name).read_bytes())  # passes the check, as a plain file

    def checked_then_swapped(path: str | Path, root: Path | None, *, new: bool) -> Path:
        target = file_at(path, root, new=new)
        (ours / "mine").unlink()
        (ours / "mine").symlink_to(theirs / theirs_name)
        return target

    monkeypatch.setattr(module, "file_at", checked_then_swapped)
    assert "link" in _refused(mem, read, "mine").problem


@pytest.mark.parametrize("tool", READS)
def test_a_folder_swapped_for_a_link_after_the_check_is_not_read_through(
    two: tuple[Memory, Path, Path], monkeypatch: pytest.MonkeyPatch, tool: str
) -> None:
    mem, ours, theirs = two
    module, theirs_name, read = READS[tool]
    (ours / "sub").mkdir()
    (ours / "sub" / theirs_name).write_bytes((theirs / theirs_name).read_bytes())

    def checked_then_swapped(path: str | Path, root: Path | None, *, new: bool) -> Path:
        target = file_at(path, root, new=new)
        (ours / "sub" / theirs_name).unlink()
        (ours / "sub").rmdir()
        (ours / "sub").symlink_to(theirs, target_is_directory=True)
        return target

    monkeypatch.setattr(module, "file_at", checked_then_swapped)
    _refused(mem, read, f"sub/{theirs_name}")


@pytest.mark.parametrize("tool", READS)
def test_a_hard_link_to_another_tenants_file_is_not_read(two: tuple[Memory, Path, Path], tool: str) -> None:
    mem, ours, theirs = two
    _, theirs_name, read = READS[tool]
    os.link(theirs / theirs_name, ours / "linked")
    assert "hard link" in _refused(mem, read, "linked").problem


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs to give a file away")
@pytest.mark.parametrize("tool", READS)
def test_a_file_of_another_account_is_not_read(two: tuple[Memory, Path, Path], tool: str) -> None:
    mem, ours, theirs = two
    _, theirs_name, read = READS[tool]
    (ours / "given").write_bytes((theirs / theirs_name).read_bytes())
    os.chown(ours / "given", 4242, 4242)
    assert "another account" in _refused(mem, read, "given").problem


def test_a_fifo_is_refused_not_waited_on(
    two: tuple[Memory, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    mem, ours, _ = two
    (ours / "pipe").write_text("")

    def checked_then_swapped(path: str | Path, root: Path | None, *, new: bool) -> Path:
        target = file_at(path, root, new=new)
        (ours / "pipe").unlink()
        os.mkfifo(ours / "pipe")
        return target

    monkeypatch.setattr(transfer, "file_at", checked_then_swapped)
    assert "not a file" in _refused(mem, READS["import"][2], "pipe").problem


def test_the_tenants_own_files_still_restore_and_import_and_leave_no_copy(
    two: tuple[Memory, Path, Path],
) -> None:
    mem, ours, theirs = two
    for name in ("their.db", "their.jsonl", "their.json"):
        (ours / name).write_bytes((theirs / name).read_bytes())
    mem.import_memories("their.jsonl")
    assert sorted(r.content for r in mem.list()) == sorted([OURS, THEIRS])
    mem.backup_restore("restore", "their.db")
    assert [r.content for r in mem.list()] == [THEIRS]
    assert mem.import_from("mem0", "their.json")["skipped"] == 1  # the same text, already stored
    assert sorted(os.listdir(ours)) == ["their.db", "their.json", "their.jsonl"]
