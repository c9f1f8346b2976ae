"""A tenant's export and backup check their path inside the tenant's folder, then write it. A folder of that path
swapped for a link to somewhere else between the check and the write (another account on the machine racing the
server) had the export or the backup written through the link, outside the folder: into another tenant's files or
the server's. The file is now created through its folders opened one by one, none of them a link, so the swap
is refused naming `path`, nothing is written outside, and the store is unchanged."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engram.interop.backups as backups
import engram.interop.transfer as transfer
from engram import FakeEmbedder, InvalidInput, Memory, Settings
from engram.interop.files import file_at


def _swapping(module: Any, monkeypatch: pytest.MonkeyPatch, folder: Path, elsewhere: Path) -> None:
    """file_at as it is, then `folder` replaced by a link to `elsewhere`: the race, won every time."""

    def checked_then_swapped(path: str | Path, root: Path | None, *, new: bool) -> Path:
        target = file_at(path, root, new=new)
        folder.rmdir()
        folder.symlink_to(elsewhere, target_is_directory=True)
        return target

    monkeypatch.setattr(module, "file_at", checked_then_swapped)


@pytest.mark.parametrize(
    ("module", "write"),
    [
        (transfer, lambda mem, path: mem.export_memories(path)),
        (backups, lambda mem, path: mem.backup_restore("backup", path)),
    ],
    ids=["export", "backup"],
)
def test_a_folder_swapped_for_a_link_after_the_check_is_not_written_through(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    module: Any,
    write: Callable[[Memory, str], Any],
) -> None:
    files = tmp_path / "tenant-files"
    (files / "sub").mkdir(parents=True)
    elsewhere = tmp_path / "other-tenant"
    elsewhere.mkdir()
    settings = Settings(home=tmp_path / "home", tag_on_topic=-1)
    with Memory(tmp_path / "t.db", embedder=FakeEmbedder(), settings=settings, files=files) as mem:
        mem.remember("the spare key is under the blue pot")
        _swapping(module, monkeypatch, files / "sub", elsewhere)
        with pytest.raises(InvalidInput) as caught:
            write(mem, "sub/out.file")
        assert caught.value.field == "path"
        assert os.listdir(elsewhere) == []
        assert [r.content for r in mem.list()] == ["the spare key is under the blue pot"]


def test_without_a_swap_the_file_is_written_in_its_folder(tmp_path: Path) -> None:
    files = tmp_path / "tenant-files"
    (files / "sub").mkdir(parents=True)
    settings = Settings(home=tmp_path / "home", tag_on_topic=-1)
    with Memory(tmp_path / "t.db", embedder=FakeEmbedder(), settings=settings, files=files) as mem:
        mem.remember("the spare key is under the blue pot")
        mem.export_memories("sub/out.jsonl")
        mem.backup_restore("backup", "sub/out.db")
    assert sorted(os.listdir(files / "sub")) == ["out.db", "out.jsonl"]
    assert not [name for name in os.listdir(files) if name.startswith(".engram-backup-")]
