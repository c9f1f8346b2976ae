"""Categories of what a team decides and the rules it keeps, as the real model reads them: the category taxonomy
gives them a home (projects), where before a standing rule split between projects, system and learnings and was
left without a category (needs_category). The same for the tools a team works with and for a relative's dates and
tastes, which no category's seeds held."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.classify.taxonomy import load_taxonomy


@pytest.mark.parametrize(
    "text",
    [
        "Team rule: every pull request needs two approvals.",
        "We never deploy on Fridays.",
        "We chose Stripe over PayPal for the shop.",
        "The team decided to drop Internet Explorer support.",
    ],
)
def test_a_teams_rules_and_decisions_get_a_category(real: Memory, text: str) -> None:
    analysis = real.store_memory(text)["analysis"]
    assert (analysis["detected_category"], analysis["needs_category"]) == ("projects", False)


def test_the_projects_category_holds_a_teams_rules() -> None:
    """The rules are written as seeds of their own, none of them a statement the tests or benchmarks read."""
    taxonomy = load_taxonomy("categories", fallback="")
    assert "rules and conventions" in taxonomy.descriptions["projects"]
    seeds = taxonomy.prototypes["projects"]
    assert "Team rule: every pull request needs two approvals." not in seeds
    assert sum(s.startswith(("Team convention", "Our rule", "We never", "We always")) for s in seeds) >= 3


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("We switched the team's chat from Slack to Mattermost", {"projects"}),
        # a relative's birthday and tastes: family (contexts) or the people in the user's life (interactions)
        ("Grandma's birthday is on 3 March; she loves orchids", {"contexts", "interactions"}),
    ],
)
def test_a_teams_tools_and_a_relatives_dates_get_a_category(
    real: Memory, text: str, wanted: set[str]
) -> None:
    """Before, the projects seeds held initiatives but not the tools a team works with (the chat change went to
    learnings at 0.41), and no category's seeds held a relative's dates (the birthday split between reminders and
    contexts at 0.37): both were left without a category."""
    stored = real.store_memory(text)
    analysis = stored["analysis"]
    assert analysis["needs_category"] is False, analysis
    # The classifier's category, as the write audited it: store_memory then lists a dated occasion ("Grandma's
    # birthday is on 3 March") as a reminder due that day (engram.lang.events.on_calendar).
    (created,) = [e for e in real.audit_log(stored["memory_id"]) if e["action"] == "create"]
    assert created["detail"]["category"] in wanted, created


def test_the_seeds_hold_tools_and_peoples_dates_without_the_tested_statements() -> None:
    taxonomy = load_taxonomy("categories", fallback="")
    assert "tools" in taxonomy.descriptions["projects"]
    seeds = [s for label in taxonomy.learnable for s in taxonomy.prototypes[label]]
    assert not {"Mattermost", "orchids", "Grandma's"} & {w for s in seeds for w in s.split()}
    assert (
        sum("birthday" in s for s in taxonomy.prototypes["contexts"] + taxonomy.prototypes["interactions"])
        >= 2
    )
