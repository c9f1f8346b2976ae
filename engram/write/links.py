"""What a forget does to the memories linked to the one forgotten: none of them may name it afterwards.

The personal data the forgotten text held (`personal`) is erased from the conversations it was drawn from too.

A memory updated by a newer one (`updated_by`) or updating older ones (`updates`) only loses the mark. A memory
superseded by the forgotten one, or merged into it, would stay superseded by a memory that no longer exists: no
search finds it, no edit or review makes it live again (each would stand it beside the memory that replaced it),
and no merge takes it. It is set aside as archived instead, its link to the forgotten memory dropped: kept, as
nothing automatic deletes, and not recalled, as what its successor said was asked to be forgotten; a person may
list it and make it live again or forget it too.
"""

from __future__ import annotations

from typing import Any, Protocol

from engram.lang import pii
from engram.model.record import MemoryRecord, Status, utcnow
from engram.store.roles import AuditLog, Rows, Upkeep

# The metadata keys by which a superseded memory names the memory that replaced it.
_SUCCESSOR = ("superseded_by", "merged_into")


class LinkStore(Rows, AuditLog, Upkeep, Protocol):
    """What unlinking reads and writes."""


def unlink_forgotten(store: LinkStore, forgotten: MemoryRecord) -> list[str]:
    """Every memory linked to `forgotten` (already deleted, in the caller's transaction) no longer names it;
    the ids of those it had replaced, archived now, are returned."""
    archived: list[str] = []
    linked = [*map(str, forgotten.metadata.get("updates", ())), str(forgotten.metadata.get("updated_by"))]
    for other in store.get_many(linked):
        if (kept := without_link(other.metadata, forgotten.id)) != other.metadata:
            store.update(other.model_copy(update={"metadata": kept}))
    for other in store.get_many(store.replaced_by(forgotten.id)):
        named = [k for k in _SUCCESSOR if other.metadata.get(k) == forgotten.id]
        if other.status is not Status.SUPERSEDED or other.parent_id is not None or not named:
            continue
        metadata = {k: v for k, v in other.metadata.items() if k not in named}
        store.update(
            other.model_copy(update={"status": Status.ARCHIVED, "metadata": metadata, "updated_at": utcnow()})
        )
        store.audit(
            "archive", other.id, {"from": "superseded", "reason": "the memory that replaced it was forgotten"}
        )
        archived.append(other.id)
    return archived


# The shortest piece of personal data erased wherever a conversation holds it: a shorter one (a code of three
# digits) is too likely to be some other number.
_SHORTEST_SAID = 4


def personal(text: str) -> list[str]:
    """The personal data in a forgotten text (a password, an e-mail address): the conversation it was drawn from
    may hold it in other words too ("your wifi password is ..."), which erasing the sentence alone left there."""
    return sorted({text[f.start : f.end] for f in pii.detect(text) if f.end - f.start >= _SHORTEST_SAID})


__all__ = ["personal", "unlink_forgotten"]


def without_link(metadata: dict[str, Any], gone: str) -> dict[str, Any]:
    """A memory's `metadata` without the update marks that name the forgotten memory `gone`: its `updated_by`,
    and `gone` among the memories it `updates`."""
    out = {k: v for k, v in metadata.items() if not (k == "updated_by" and v == gone)}
    said = metadata.get("updates")
    if isinstance(said, list) and gone in said:
        rest = [i for i in said if i != gone]
        out = {k: v for k, v in out.items() if k != "updates"} | ({"updates": rest} if rest else {})
    return out
