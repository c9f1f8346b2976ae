"""A forget of the memory others were folded into: merge_memories marks the memories it folds superseded, naming
the one kept (`merged_into`), and supersede marks the older version so (`superseded_by`). Forgetting the memory
kept left them superseded by a memory that no longer exists, for good: search passed them by, an edit back to
approved and a review were refused ("superseded by <the forgotten id>; roll back or supersede that one", neither of
which can be done) and a merge refused them too. Their text was lost to every read as surely as by a forget, yet
stayed stored, and their metadata still named the forgotten memory.

They are now set aside as archived (kept, not recalled, as the lifecycle sets aside what is not used), without a
link to the forgotten memory and with an audit entry saying why: nothing they hold comes back into answers unasked,
and a person can list them and make one live again, or forget it too."""

from __future__ import annotations

from engram import InvalidInput, Memory, NotFound, Status


def _stranded_by_forget(mem: Memory) -> tuple[str, str, str, str]:
    """A merge and a supersede, then the memory each kept forgotten; the ids (folded, kept, older, newer)."""
    folded = mem.remember("The boiler service engineer is called Mirela Vantongeren").id
    kept = mem.remember("Plumbing contact for the flat: call Hostetler Heating").id
    mem.run_tool("merge_memories", ids=[kept, folded], into=kept)
    older = mem.remember("Our padel court booking is on Wednesdays at Quinta Verde").id
    newer = mem.supersede(older, "Our padel court booking moved to Fridays at Quinta Verde").id
    assert mem.get(folded).status is Status.SUPERSEDED and mem.get(older).status is Status.SUPERSEDED
    mem.forget(kept)
    mem.forget(newer)
    return folded, kept, older, newer


def test_a_forgotten_successor_leaves_what_it_replaced_set_aside_not_stranded(mem: Memory) -> None:
    folded, kept, older, newer = _stranded_by_forget(mem)
    for memory_id, gone in ((folded, kept), (older, newer)):
        with_it = mem.get(memory_id)
        assert with_it.status is Status.ARCHIVED, memory_id
        assert gone not in str(with_it.metadata), with_it.metadata  # no mark names the forgotten memory
        assert not {"merged_into", "superseded_by"} & with_it.metadata.keys()
        assert any(e["action"] == "archive" for e in mem.audit_log(memory_id)), mem.audit_log(memory_id)
    # Nothing they hold comes back into answers unasked.
    assert not [h for h in mem.recall("boiler service engineer Mirela") if h.record.id == folded]
    assert not [h for h in mem.recall("padel court booking Wednesdays") if h.record.id == older]
    listed = {r.id for r in mem.list(status="archived", limit=10)}
    assert {folded, older} <= listed


def test_what_a_forgotten_successor_replaced_can_be_made_live_again_or_forgotten(mem: Memory) -> None:
    folded, _, older, _ = _stranded_by_forget(mem)
    assert mem.update(folded, status="approved").status is Status.APPROVED
    assert [h.record.id for h in mem.recall("boiler service engineer Mirela Vantongeren")][:1] == [folded]
    mem.forget(older)
    try:
        mem.get(older)
        raise AssertionError("forgotten")
    except NotFound:
        pass


def test_a_live_successor_still_holds_what_it_replaced(mem: Memory) -> None:
    """Only a forget releases them: while the memory kept exists, an edit back to approved is still refused."""
    older = mem.remember("The shed key hangs by the back door").id
    newer = mem.supersede(older, "The shed key now hangs in the hallway cupboard").id
    other = mem.remember("The car key is in the blue bowl").id
    mem.forget(other)
    assert mem.get(older).status is Status.SUPERSEDED
    assert mem.get(older).metadata["superseded_by"] == newer
    try:
        mem.update(older, status="approved")
        raise AssertionError("an edit put a superseded memory beside its successor")
    except InvalidInput as refused:
        assert refused.field == "status"
