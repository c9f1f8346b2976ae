"""One table between the three vocabularies of what a memory is: SHODH's 13 types, Engram's kinds and the
PaperBot kinds that conversation ingest extracts.

| SHODH type   | kind      | PaperBot kinds that map to it                    |
|--------------|-----------|--------------------------------------------------|
| Observation  | note      | fact, keyword_set, note                          |
| Decision     | knowledge | decision, constraint                             |
| Learning     | knowledge |                                                  |
| Error        | knowledge |                                                  |
| Discovery    | knowledge | hypothesis                                       |
| Pattern      | knowledge |                                                  |
| Context      | identity  | profile, preference, project                     |
| Task         | task      | goal, todo                                       |
| CodeEdit     | reference |                                                  |
| FileAccess   | reference |                                                  |
| Search       | reference |                                                  |
| Command      | reference |                                                  |
| Conversation | note      |                                                  |

Lossy directions: kind -> SHODH type picks one type per kind (knowledge -> Learning, reference -> Command,
identity -> Context, task -> Task, note -> Observation), so Decision / Error / Discovery / Pattern, CodeEdit /
FileAccess / Search and Conversation do not survive a trip through the kind alone; PaperBot -> kind folds
eleven kinds into five (profile and preference both become identity). Engram keeps the record's own type and
the PaperBot kind (metadata.candidate.kind) beside the kind, so nothing is lost inside Engram; only a consumer
that reads the kind alone sees the folded value.
"""

from __future__ import annotations

from engram.model.record import Kind, MemoryType

KIND_OF_TYPE: dict[MemoryType, Kind] = {
    MemoryType.OBSERVATION: Kind.NOTE,
    MemoryType.DECISION: Kind.KNOWLEDGE,
    MemoryType.LEARNING: Kind.KNOWLEDGE,
    MemoryType.ERROR: Kind.KNOWLEDGE,
    MemoryType.DISCOVERY: Kind.KNOWLEDGE,
    MemoryType.PATTERN: Kind.KNOWLEDGE,
    MemoryType.CONTEXT: Kind.IDENTITY,
    MemoryType.TASK: Kind.TASK,
    MemoryType.CODE_EDIT: Kind.REFERENCE,
    MemoryType.FILE_ACCESS: Kind.REFERENCE,
    MemoryType.SEARCH: Kind.REFERENCE,
    MemoryType.COMMAND: Kind.REFERENCE,
    MemoryType.CONVERSATION: Kind.NOTE,
}
TYPE_OF_KIND: dict[Kind, MemoryType] = {
    Kind.IDENTITY: MemoryType.CONTEXT,
    Kind.TASK: MemoryType.TASK,
    Kind.KNOWLEDGE: MemoryType.LEARNING,
    Kind.REFERENCE: MemoryType.COMMAND,
    Kind.NOTE: MemoryType.OBSERVATION,
    Kind.UNCLASSIFIED: MemoryType.OBSERVATION,
}
# PaperBot kind -> (kind, SHODH type)
PAPERBOT: dict[str, tuple[Kind, MemoryType]] = {
    "profile": (Kind.IDENTITY, MemoryType.CONTEXT),
    "preference": (Kind.IDENTITY, MemoryType.CONTEXT),
    "project": (Kind.TASK, MemoryType.CONTEXT),
    "goal": (Kind.TASK, MemoryType.TASK),
    "todo": (Kind.TASK, MemoryType.TASK),
    "fact": (Kind.KNOWLEDGE, MemoryType.OBSERVATION),
    "decision": (Kind.KNOWLEDGE, MemoryType.DECISION),
    "constraint": (Kind.KNOWLEDGE, MemoryType.DECISION),
    "hypothesis": (Kind.KNOWLEDGE, MemoryType.DISCOVERY),
    "keyword_set": (Kind.REFERENCE, MemoryType.OBSERVATION),
    "note": (Kind.NOTE, MemoryType.OBSERVATION),
}


def shodh_type(value: str | None) -> MemoryType | None:
    """A type as other stores spell it (PascalCase, lowercase, snake_case) -> SHODH's; None if unknown."""
    if not value:
        return None
    flat = value.replace("_", "").replace("-", "").lower()
    return next((t for t in MemoryType if t.value.lower() == flat), None)


__all__ = ["KIND_OF_TYPE", "PAPERBOT", "TYPE_OF_KIND", "shodh_type"]
