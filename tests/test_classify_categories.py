"""Categories of what a team decides and the rules it keeps, as the real model reads them: the category taxonomy
gives them a home (projects), where before a standing rule split between projects, system and learnings and was
left without a category (needs_category)."""

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
