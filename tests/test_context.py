"""Memory.session_context: what an agent is given at a session's start. Who the user is, their preferences, open
tasks due soon and recent decisions, within the token budget, without what waits for review or was set aside,
and without counting a use of anything it shows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from engram import Category, InvalidInput, Memory
from engram.model.record import MemoryType, utcnow


def _seed(mem: Memory) -> dict[str, str]:
    """One memory of each sort the context shows or leaves out, by name."""
    said: dict[str, tuple[str, dict[str, Any]]] = {
        "name": ("My name is Priya and I lead the payments team", {"kind": "identity"}),
        "tea": ("I prefer short answers with code first", {"kind": "identity"}),
        "style": ("Always write commit messages in English", {"category": Category.SYSTEM}),
        "cert": ("Renew the TLS certificate by tomorrow", {"kind": "task"}),
        # a rule given the task kind: it holds every time, so it is no open task
        "rule": ("Never deploy to production on Fridays after 2pm", {"kind": "task"}),
        "decided": (
            "We decided to go with PostgreSQL for the billing service",
            {"scope": "project", "scope_id": "billing", "type": MemoryType.DECISION},
        ),
        "elsewhere": (
            "We decided to go with Redis for the web cache",
            {"scope": "project", "scope_id": "web", "type": MemoryType.DECISION},
        ),
        "waiting": ("I think my manager is called Tom", {"kind": "identity", "status": "pending"}),
        "rejected": ("I love durian", {"kind": "identity", "status": "rejected"}),
        "archived": ("I prefer tabs to spaces", {"kind": "identity", "status": "archived"}),
        "other_session": (
            "I like the scratch branch name wip-7",
            {"kind": "identity", "scope": "session", "scope_id": "s-other"},
        ),
        "mine": (
            "I like the scratch branch name wip-9",
            {"kind": "identity", "scope": "session", "scope_id": "s-1"},
        ),
    }
    return {name: mem.remember(content, **fields).id for name, (content, fields) in said.items()}


def test_the_context_shows_what_matters_and_nothing_set_aside(mem: Memory) -> None:
    ids = _seed(mem)
    context = mem.session_context(scope_id="billing", session="s-1")
    sections = context["sections"]
    assert ids["name"] in sections["About the user"]
    assert {ids["tea"], ids["style"], ids["mine"]} <= set(sections["Preferences"])
    assert sections["Open tasks"] == [ids["cert"]]
    assert sections["Recent decisions"] == [ids["decided"]]  # of this project, not of another
    for left_out in ("waiting", "rejected", "archived", "other_session", "elsewhere"):
        assert ids[left_out] not in context["ids"], left_out
    assert "PostgreSQL" in context["text"] and "Redis" not in context["text"]
    due = (utcnow() + timedelta(days=1)).date().isoformat()
    assert f"(due {due})" in context["text"]  # "tomorrow", read from the day it was said
    assert context["tokens"] <= context["max_tokens"] == 1500
    # Without a project, every project's decisions, each naming its project.
    everywhere = mem.session_context()
    assert {ids["decided"], ids["elsewhere"]} <= set(everywhere["sections"]["Recent decisions"])
    assert "project web" in everywhere["text"]
    assert ids["mine"] not in everywhere["ids"]  # no session asking: no session's memories


def test_the_budget_holds_and_every_section_gets_a_turn(mem: Memory) -> None:
    ids = _seed(mem)
    for i in range(40):
        mem.remember(f"I like hiking trail number {i} near the lake on weekends", kind="identity")
    for budget in (60, 120, 400):
        context = mem.session_context(max_tokens=budget, scope_id="billing")
        assert 0 < context["tokens"] <= budget
        assert len(mem.embedder.token_offsets(context["text"])) == context["tokens"]
    small = mem.session_context(max_tokens=120, scope_id="billing")
    # Forty preferences do not crowd out the task and the decision.
    assert ids["cert"] in small["ids"] and ids["decided"] in small["ids"]
    assert set(small["ids"]) == {i for shown in small["sections"].values() for i in shown}


def test_reading_the_context_counts_no_use_unless_asked(mem: Memory) -> None:
    ids = _seed(mem)
    before = mem.get(ids["name"]).access_count
    shown = mem.session_context(query="payments team")["ids"]
    assert ids["name"] in shown
    assert mem.get(ids["name"]).access_count == before
    mem.session_context(query="payments team", touch=True)
    assert mem.get(ids["name"]).access_count == before + 1


def test_a_query_adds_the_memories_related_to_it(mem: Memory) -> None:
    _seed(mem)
    noted = mem.remember("The invoice exporter writes CSV files to the shared drive", kind="knowledge").id
    plain = mem.session_context()
    assert noted not in plain["ids"]
    asked = mem.session_context(query="invoice exporter CSV")
    assert noted in asked["sections"]["Relevant to this session"]


@pytest.mark.parametrize(("given", "says"), [(10, "between 50 and 20000, got 10"), ("900", "whole number")])
def test_a_bad_budget_is_named(mem: Memory, given: object, says: str) -> None:
    with pytest.raises(InvalidInput) as err:
        mem.session_context(max_tokens=given)  # type: ignore[arg-type]
    assert err.value.field == "max_tokens" and says in err.value.problem


def test_an_empty_store_gives_an_empty_context(mem: Memory) -> None:
    assert mem.session_context() == {"text": "", "ids": [], "sections": {}, "tokens": 0, "max_tokens": 1500}


def test_personal_data_shows_as_its_marker_in_the_context(mem: Memory) -> None:
    """A context goes into every session: the user's phone number or e-mail address is not repeated there."""
    phone = mem.remember("My phone number is +49 151 23456789", kind="identity").id
    mail = mem.remember("My work email is priya.n@example.com", kind="identity").id
    context = mem.session_context()
    assert {phone, mail} <= set(context["ids"])
    assert "23456789" not in context["text"] and "priya.n@example.com" not in context["text"]
    assert "[REDACTED_PHONE]" in context["text"] and "[REDACTED_EMAIL]" in context["text"]


def test_a_yearly_occasion_is_an_open_task_on_its_next_day(mem: Memory) -> None:
    """Read from when it was said, a birthday stored two years ago showed that year's day, long past."""
    said = datetime(2025, 1, 10, 9, 0, tzinfo=UTC)
    kept = mem.remember("Lena's birthday is on 3 March, get her a present", kind="task", created_at=said)
    asked = datetime(2027, 2, 20, 9, 0, tzinfo=UTC)
    with time_machine.travel(asked, tick=False):
        context = mem.session_context()
    assert context["sections"]["Open tasks"] == [kept.id]
    assert "(due 2027-03-03)" in context["text"]
