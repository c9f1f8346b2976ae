"""backup_restore: a copy of the whole database (SQLite's online backup, or every table of a PostgreSQL schema)
to a new file, and a verified backup put in its place.

A backup is written in a folder of its own beside the target (0700) and linked into place whole, readable by its
owner alone (0600): written in place with the system's default it was readable by every account on the machine
(it holds every memory), and a half-written copy showed under the name asked for."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Protocol

from engram.classify.service import Classifiers
from engram.errors import InvalidInput, StoreError
from engram.interop.files import file_at, folder_of, held_file
from engram.model.answers import BackupAnswer
from engram.store.roles import Rows, Upkeep
from engram.tags.service import TagService


class BackupStore(Rows, Upkeep, Protocol):
    """What a backup reads and a restore replaces."""


class Backups:
    """A restore replaces every table: the tag vocabulary and the classifiers' prototypes are read again."""

    def __init__(
        self, store: BackupStore, tags: TagService, classifiers: Classifiers, files: Path | None
    ) -> None:
        self._store = store
        self._tags = tags
        self._classifiers = classifiers
        self.files = files  # the directory the files are confined to; None: anywhere

    def backup_restore(self, action: str, path: str | Path) -> BackupAnswer:
        if action not in ("backup", "restore"):
            raise InvalidInput("action", "choose backup or restore")
        target = file_at(path, self.files, new=action == "backup")
        if action == "backup":
            result = self._backup(target, str(path))
        else:
            with held_file(target, self.files, path) as held:
                try:
                    result = self._store.restore(held)
                except StoreError as exc:  # the file refused (not Engram's, tampered): say which file
                    raise StoreError(f"{path}: {exc}") from None
            self._tags.reload()
            self._classifiers.forget_cache()
        # The check counts rows, chunks among them; say memories and chunks apart, as stats does.
        stats = self._store.stats()
        return {
            "action": action,
            "path": str(target),
            "integrity": str(result["integrity"]),
            "memories": stats.memories,
            "chunks": stats.chunks,
        }

    def _backup(self, target: Path, shown: str) -> dict[str, Any]:
        # On a server the copy is staged in the tenant's own folder and linked through the target's folders
        # opened one by one refusing links: one swapped for a link after the check is not written through.
        stage = target.parent if self.files is None else self.files.resolve()
        with tempfile.TemporaryDirectory(prefix=".engram-backup-", dir=stage) as folder:
            staged = Path(folder) / "backup.db"
            result = self._store.backup(staged)
            staged.chmod(0o600)
            if self.files is None:
                _place(staged, target, shown, None)
            else:
                into = folder_of(target.parent)
                try:
                    _place(staged, Path(target.name), shown, into)
                finally:
                    os.close(into)
        return result


def _place(staged: Path, target: Path, shown: str, folder: int | None) -> None:
    """Link the staged copy in as `target` (inside the open `folder` when given), never replacing a file that
    appeared meanwhile; moved there on a file system without hard links."""
    try:
        os.link(staged, target, dst_dir_fd=folder)
    except FileExistsError:
        raise InvalidInput("path", f"{shown} exists; choose a new file") from None
    except OSError:  # a file system without hard links
        try:
            os.stat(target, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            os.replace(staged, target, dst_dir_fd=folder)
            return
        raise InvalidInput("path", f"{shown} exists; choose a new file") from None
