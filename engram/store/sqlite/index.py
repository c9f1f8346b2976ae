"""The SQLite store's vector index (`engram.store.vectors`): a file beside the database that caches its
`embedding` column.

It records the last `vector_changes` sequence it reflects, catches up from that log before every search (so
writes of other processes are seen) and is rebuilt when it is missing, unreadable or disagrees with the
database.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from engram.errors import StoreError
from engram.model import heap
from engram.model.vectors import decode_vector
from engram.store.sqlite.filter import in_slices
from engram.store.vectors import VectorIndex

Model = Callable[[], tuple[str, int] | None]
_CATCH_UP_STEP = 8192
# A forget's vector leaves the saved graph this long after it (forgets in a row are saved once): the file keeps
# what the graph held when it was saved, so a server that ran for days kept a forgotten memory's codes on disk.
SAVE_AFTER_FORGET_S = 1.0


class IndexFile:
    def __init__(
        self,
        path: Path | None,
        connection: Callable[[], sqlite3.Connection],
        model: Model,
        frozen: Callable[[], bool],
    ) -> None:
        """`connection` reads committed data; `frozen` says the index must not catch up now (an in-memory
        database inside its write transaction, whose changes may still roll back)."""
        self._files = (
            None
            if path is None
            else (path.with_name(path.name + ".vectors"), path.with_name(path.name + ".vectors.json"))
        )
        self._db = connection
        self._model = model
        self._frozen = frozen
        self._index: VectorIndex | None = None
        self._seq = 0
        self._lock = threading.Lock()
        self._saving: threading.Timer | None = None
        self._closed = False

    @property
    def seq(self) -> int:
        """The last vector change the index reflects: later ones are not committed yet, or not caught up."""
        return self._seq

    def synced(self) -> VectorIndex:
        with self._lock:
            if self._index is None:
                self._open()
            assert self._index is not None
            self._catch_up()
            return self._index

    def refresh(self) -> None:
        """Catch up now if the index is loaded (an in-memory database does so after each commit)."""
        with self._lock:
            if self._index is not None:
                self._catch_up()

    def forget(self) -> None:
        """Drop the loaded index (another vector space, or a restored database): it is rebuilt on next use."""
        with self._lock:
            self._index = None

    def erased(self) -> None:
        """A forget removed vectors: the saved graph, if any, is written again a moment later without them."""
        if self._files is None or not self._files[0].exists():
            return
        with self._lock:
            if self._closed or (self._saving is not None and self._saving.is_alive()):
                return
            self._saving = threading.Timer(SAVE_AFTER_FORGET_S, self._save_erased)
            self._saving.daemon = True
            self._saving.start()

    def _save_erased(self) -> None:
        with self._lock:
            if self._closed or self._files is None or not self._files[0].exists():
                return
            try:
                if self._index is None:
                    self._open()  # loading catches up with the forget, and saves what it removed
                else:
                    self._catch_up()
                    self._save()
            except (sqlite3.Error, StoreError, OSError):
                pass  # the store is closing or the disk refused: the next open saves what it removed

    def close(self) -> None:
        """Save the index and let it go: a closed store that is still referenced (a caller's variable) held its
        graph, so opening the store again in the same process held two."""
        with self._lock:
            self._closed = True
            if self._saving is not None:
                self._saving.cancel()
            if self._index is not None:
                self._save()
                self._index = None
                heap.give_back()

    def embedded_count(self) -> int:
        sql = "SELECT count(*) FROM memories WHERE embedding IS NOT NULL AND searchable = 1"
        return int(self._db().execute(sql).fetchone()[0])

    def check(self) -> dict[str, int]:
        """Compare the index with the database (after catching up)."""
        return {"indexed": len(self.synced()), "embedded": self.embedded_count()}

    def rebuild(self) -> int:
        """Rebuild the index from the database; returns how many vectors it holds."""
        model = self._model()
        index = VectorIndex(model[1] if model else 1)
        db = self._db()
        seq = int(db.execute("SELECT coalesce(max(seq), 0) FROM vector_changes").fetchone()[0])
        last = 0
        while True:
            rows = db.execute(
                "SELECT rid, embedding FROM memories WHERE rid > ? AND embedding IS NOT NULL AND searchable = 1 "
                "ORDER BY rid LIMIT 4096",
                (last,),
            ).fetchall()
            if not rows:
                break
            last = rows[-1][0]
            index.upsert([r for r, _ in rows], np.stack([decode_vector(b) for _, b in rows]))
        self._index, self._seq = index, seq
        self._save()
        return len(index)

    def _open(self) -> None:
        try:
            self._load()
        finally:
            # Loading read every vector of the store (its rows, their copies, the batches): freed, but kept
            # mapped by the C heap, they stayed in the resident set beside the index for the process's life.
            heap.give_back()

    def _load(self) -> None:
        model = self._model()
        dim = model[1] if model else 0
        if self._files is not None and self._files[0].exists() and self._files[1].exists():
            try:
                state = json.loads(self._files[1].read_text())
                if model is not None and state.get("model") == model[0] and state.get("dim") == dim:
                    self._index = VectorIndex.load(self._files[0], dim)
                    self._seq = int(state["seq"])
                    if self._catch_up():
                        # the file held vectors removed since (a forget whose process ended before saving)
                        self._save()
                    if len(self._index) == self.embedded_count():
                        return
            except (StoreError, ValueError, KeyError, OSError):
                pass  # unreadable or stale: rebuild below
        self.rebuild()

    def _catch_up(self) -> int:
        """Apply committed vector changes to the index (uncommitted ones could still roll back); how many vectors
        it removed."""
        assert self._index is not None
        if self._frozen():
            return 0
        db = self._db()
        changes = db.execute(
            "SELECT max(seq), group_concat(DISTINCT rid) FROM vector_changes WHERE seq > ?", (self._seq,)
        ).fetchone()
        if changes[0] is None:
            return 0
        removed = 0
        rids = [int(r) for r in str(changes[1]).split(",")]
        # A step at a time: a bulk load's million vectors read at once would hold them all twice in memory.
        for at in range(0, len(rids), _CATCH_UP_STEP):
            step = rids[at : at + _CATCH_UP_STEP]
            present: dict[int, bytes] = {}
            for part, marks in in_slices(step):
                sql = f"SELECT rid, embedding FROM memories WHERE rid IN ({marks}) AND embedding IS NOT NULL"
                present.update(db.execute(sql + " AND searchable = 1", part).fetchall())
            gone = [r for r in step if r not in present]
            if gone:
                held = len(self._index)
                self._index.remove(gone)
                removed += held - len(self._index)
            if present:
                self._index.upsert(list(present), np.stack([decode_vector(b) for b in present.values()]))
        self._seq = int(changes[0])
        return removed

    def _save(self) -> None:
        model = self._model()
        if self._files is None or self._index is None or model is None:
            return
        if self._index.exact:
            # A small index is its rows, which the database holds already: it is read from there on open
            # (about as fast as reading the file), and the disk keeps one copy of each vector, not two.
            self._files[0].unlink(missing_ok=True)
            self._files[1].unlink(missing_ok=True)
            return
        self._index.save(self._files[0])
        tmp = self._files[1].with_suffix(".tmp")
        tmp.write_text(json.dumps({"seq": self._seq, "model": model[0], "dim": model[1]}))
        tmp.replace(self._files[1])
