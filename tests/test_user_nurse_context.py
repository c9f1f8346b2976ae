"""The session context's open tasks as a nurse planning a wedding sees them: a statement the classifier called a
task with nothing to complete ("Kwame's mother Abena will make jollof rice for the buffet") and a decision headed
as one ("Decided: ...") are no open tasks; an undated thing to do still is."""

from __future__ import annotations

from engram import Memory


def test_only_what_is_worded_as_a_thing_to_do_is_an_open_task(mem: Memory) -> None:
    buffet = mem.remember(
        "Kwame's mother Abena will make jollof rice for the evening buffet.", kind="task"
    ).id
    gifts = mem.remember(
        "Gift list: we'd rather have money towards the honeymoon than things.", kind="task"
    ).id
    decided = mem.remember(
        "Decided: we won't move Dad into a care home before the wedding; we'll review it in the spring.",
        kind="task",
    ).id
    chase = mem.remember("Chase the OT referral for the grab rails and a shower seat.", kind="task").id
    sections = mem.session_context()["sections"]
    open_tasks = sections.get("Open tasks", [])
    assert chase in open_tasks
    assert buffet not in open_tasks and gifts not in open_tasks and decided not in open_tasks
    assert decided in sections.get("Recent decisions", [])
