"""backup_restore: a copy of the whole database (SQLite's online backup, or every table of a PostgreSQL schema)
to a new file, and a verified backup put in its place."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from engram.classify.service import Classifiers
from engram.errors import InvalidInput
from engram.interop.files import file_at
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
            result = self._store.backup(target)
        else:
            result = self._store.restore(target)
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
