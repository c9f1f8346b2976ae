"""What an explicit forget erases beside the memory's own rows: its text wherever the engine copied it (audit
entries, operation before-images, conversation sources, learned prototypes) and the tags only it carried.

The queries are the same SQL on both backends (written with `?` placeholders, as in `side_tables`); a backend adds
what its own storage keeps of a deleted text (`_erased`: SQLite's full-text segments, PostgreSQL's lexicon) and
what it does once the transaction committed (`settle`: SQLite's write-ahead log).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from engram.store import entries

# What stands where a forgotten text or tag was: the entry stays, so that the history still shows something
# happened there.
FORGOTTEN = "[forgotten]"
# The audit fields that hold a memory's text (a merge's old or new wording, a merged memory's content).
_TEXT_KEYS = frozenset({"content", "old_content", "new_content"})


class Erasure:
    def atomic(self) -> AbstractContextManager[object]:
        raise NotImplementedError

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        raise NotImplementedError

    def erase(
        self, ids: Sequence[str], texts: Sequence[str], tags: Sequence[str], said: Sequence[str] = ()
    ) -> None:
        """Remove every copy of the texts of the memories `ids` (deleted by the caller in the same transaction)
        and of the tags no memory carries any more. Earlier wordings of those memories, which their audit
        entries and before-images hold, are erased too; so are the pieces `said` (the personal data the texts
        held) wherever a conversation source holds them, and the name of the file a document was added from."""
        if not ids:
            return
        with self.atomic():
            marks = ", ".join("?" for _ in ids)
            own = self._read(
                f"SELECT id, action, detail FROM audit_log WHERE memory_id IN ({marks})", list(ids)
            )
            befores = self._read(
                f"SELECT before FROM operation_changes WHERE entity = 'memory' AND key IN ({marks}) "
                "AND before IS NOT NULL",
                list(ids),
            )
            every = set(texts)
            for _, action, detail in own:
                every |= _texts_in(entries.decode(action, detail))
            for (before,) in befores:
                content = json.loads(before).get("content")
                if isinstance(content, str):
                    every.add(content)
            every = {t for t in every if t and t != FORGOTTEN}
            self._scrub_audit(own, every, set(tags))
            # A before-image of a forgotten memory stays as a mark (its rollback is refused: the memory is gone).
            self._run(
                f"UPDATE operation_changes SET before = ?, before_embedding = NULL WHERE entity = 'memory' "
                f"AND key IN ({marks}) AND before IS NOT NULL",
                [json.dumps({"forgotten": True}), *ids],
            )
            self._run(f"DELETE FROM prototypes WHERE memory_id IN ({marks})", list(ids))
            for tag in tags:
                self._run("DELETE FROM tags WHERE tag = ?", (tag,))
                self._run("DELETE FROM operation_changes WHERE entity = 'tag' AND key = ?", (tag,))
                # An old name folded or renamed into it no longer points at it (no memory carries either).
                self._run(
                    "UPDATE tags SET merged_into = NULL, status = 'archived' WHERE merged_into = ?", (tag,)
                )
            self._scrub_operations(every, set(tags))
            # A document's path names its file, which may say what the memory was ("diary-2024.md").
            self._run(f"DELETE FROM meta WHERE key LIKE ? AND value IN ({marks})", ["document:%", *ids])
            for text in sorted(every | {p for p in said if p}, key=len, reverse=True):
                rows = self._read(
                    "SELECT seq, content FROM sources WHERE content LIKE ? ESCAPE '\\'", (_like(text),)
                )
                for seq, content in rows:
                    if text in content:
                        self._run(
                            "UPDATE sources SET content = ? WHERE seq = ?",
                            (content.replace(text, FORGOTTEN), seq),
                        )
            self._erased()

    def replaced_by(self, memory_id: str) -> list[str]:
        """The memories superseded by `memory_id` or merged into it: those whose metadata may name it so (the
        caller reads each to be sure; the metadata is JSON text on SQLite, JSONB on PostgreSQL)."""
        rows = self._read(
            "SELECT id FROM memories WHERE status = 'superseded' AND parent_id IS NULL "
            "AND CAST(metadata AS TEXT) LIKE ? ESCAPE '\\'",
            (_like(json.dumps(memory_id)),),
        )
        return [str(i) for (i,) in rows]

    def renamed_into(self, tags: Sequence[str]) -> list[str]:
        """The old names renamed or folded into `tags`, and those renamed into them in turn."""
        found: list[str] = []
        todo = list(tags)
        while todo:
            marks = ", ".join("?" for _ in todo)
            rows = self._read(f"SELECT tag FROM tags WHERE merged_into IN ({marks})", todo)
            todo = [str(tag) for (tag,) in rows if tag not in found and tag not in tags]
            found += todo
        return found

    def _scrub_audit(self, own: list[tuple[Any, ...]], texts: set[str], tags: set[str]) -> None:
        found = {int(i): (a, d) for i, a, d in own}
        for needle in [*texts, *tags]:
            escaped = json.dumps(needle)[1:-1]  # as the JSON of an entry spells it
            for i, action, detail in self._read(
                "SELECT id, action, detail FROM audit_log WHERE detail LIKE ? ESCAPE '\\'", (_like(escaped),)
            ):
                found[int(i)] = (action, detail)
        owned = {int(i) for i, _, _ in own}
        for i, (action, detail) in found.items():
            entry = entries.decode(action, detail)
            scrubbed = _scrub(entry, texts, tags, whole=i in owned)
            if scrubbed != entry:
                self._run(
                    "UPDATE audit_log SET detail = ? WHERE id = ?", (entries.encode(action, scrubbed), i)
                )

    def _scrub_operations(self, texts: set[str], tags: set[str]) -> None:
        """An operation's summary names the tags it renamed or folded (and may quote a text): those are gone."""
        for needle in [*texts, *tags]:
            escaped = json.dumps(needle)[1:-1]
            for i, summary in self._read(
                "SELECT id, summary FROM operations WHERE summary LIKE ? ESCAPE '\\'", (_like(escaped),)
            ):
                value = json.loads(summary)
                scrubbed = _scrub(value, texts, tags, whole=False)
                if scrubbed != value:
                    self._run("UPDATE operations SET summary = ? WHERE id = ?", (json.dumps(scrubbed), i))

    def _erased(self) -> None:
        """What the backend's own storage keeps of deleted text, cleared inside the transaction."""

    def settle(self) -> None:
        """After the erasing transaction committed: what the backend keeps of it outside its tables."""


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _texts_in(value: Any) -> set[str]:
    """The texts an audit entry of the memory holds under its text fields."""
    if isinstance(value, dict):
        found: set[str] = set()
        for key, item in value.items():
            if key in _TEXT_KEYS and isinstance(item, str):
                found.add(item)
            else:
                found |= _texts_in(item)
        return found
    if isinstance(value, list):
        return set().union(*(_texts_in(v) for v in value)) if value else set()
    return set()


def _scrub(value: Any, texts: set[str], tags: set[str], *, whole: bool) -> Any:
    """The entry with each string holding a forgotten text, or naming a forgotten tag, replaced; in the forgotten
    memory's own entries (`whole`) every text field goes."""
    if isinstance(value, dict):
        return {
            k: FORGOTTEN
            if whole and k in _TEXT_KEYS and isinstance(v, str)
            else _scrub(v, texts, tags, whole=whole)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_scrub(v, texts, tags, whole=whole) for v in value]
    if isinstance(value, str) and (value in tags or any(t in value for t in texts)):
        return FORGOTTEN
    return value
