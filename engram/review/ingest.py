"""Conversation ingestion: keep the messages as sources, extract memory candidates from what the user says, and
store each through the core write path with its review status.

Status: approved when the candidate's confidence is at least 0.60 and its PII risk below 2, else pending (for
`engram review`). With `redact_pii` set, raw PII is replaced by markers before anything is stored (risk 1): in
the memories and in the sources (a message's content and its metadata's strings).
A candidate's content, hash, scope and kind dedup it as the core write path does (a text whose value redaction hid
is kept as its own: the value may be another); a message already ingested is skipped. A message's source row and its memories commit together, so a failed
ingest leaves the message that failed (and those after it) to the next run.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from engram.classify.service import Classifiers
from engram.config import Settings
from engram.embed.embedder import Embedder
from engram.errors import InvalidInput
from engram.interop.typemap import PAPERBOT
from engram.lang import analysis, due, events, pii
from engram.lang.due import due_day
from engram.model.record import Category, NewMemory, Scope, Status, utcnow
from engram.model.results import RememberResult
from engram.model.vectors import content_hash
from engram.review.extract import APPROVE_AT, CLASSIFIER_FLOOR, Candidate, Message, by_rule
from engram.review.llm import LlmError, LlmExtractor
from engram.review.messages import MessageFile, enumerate_batches, parse_message
from engram.store.roles import AuditLog, Sources, Transactions
from engram.tags import phrases
from engram.write.rules import review_reason
from engram.write.writer import Writer


class IngestStore(Transactions, Sources, AuditLog, Protocol):
    """What ingest keeps beside the memories: the messages, and its report in the audit log."""


_log = logging.getLogger("engram.ingest")
USER_ROLES = frozenset({"user", "human"})
# The extraction kinds on the record's kinds and SHODH's types (engram.interop.typemap); the candidate kind stays
# in metadata.
KIND_OF = {name: kind for name, (kind, _) in PAPERBOT.items()}
TYPE_OF = {name: type_ for name, (_, type_) in PAPERBOT.items()}


def _with_evidence(found: list[Candidate], message: Message) -> list[Candidate]:
    evidence = {"conversation_id": message.conversation_id, "message_id": message.message_id}
    return [
        Candidate(
            c.kind, c.content, c.confidence, c.how, c.span, evidence | {"span": list(c.span), "how": c.how}
        )
        for c in sorted(found, key=lambda c: c.span)
    ]


def _source_key(message: Message, position: int) -> str:
    """A message's own id, else its place and its text: ingesting the same messages again adds nothing, and
    another file's first message (the same place, no ids) is not taken for one already kept. The text is the
    message as kept (`_kept`): a digest of the raw text beside its redacted copy would let anyone who reads the
    sources try every SSN or card number against it."""
    if message.message_id:
        return message.message_id
    text = content_hash(f"{message.role}\n{message.content}")[:16]
    return f"{message.conversation_id or ''}#{position}#{text}"


def _kept(message: Message, redact: bool) -> Message:
    """The message as the sources table keeps it: with redaction on, its content and its metadata's strings
    carry [REDACTED_*] markers and the metadata names the kinds found (ids are keys and stay as they are)."""
    update = pii.redaction(message.content, message.metadata) if redact else None
    if update is None:
        return message
    return message.model_copy(update={"content": update["content"], "metadata": update["metadata"]})


# Messages prepared at once (their kept copies, and which are stored already); the insert itself still decides.
_BATCH = 256


def expiry(content: str, said_at: datetime | None) -> datetime | None:
    """A to-do is time-bound: it expires at the end of the day it is due ("by Friday", "tomorrow", "15 April");
    without a date it does not expire."""
    day = due_day(content, said_at or utcnow())
    return None if day is None else day + timedelta(days=1)


def dated(content: str, said_at: datetime | None) -> Category | None:
    """What was said with the day it comes on, a deadline, an instruction, an event, an occasion or a journey
    ("Rosa turns 70 on 12 February"), is a reminder due that day, as store_memory makes it (engram.agent.store):
    the list of things to do shows it. Anything else is left to the classifier (None)."""
    if not (due.to_do(content) or events.on_calendar(content)):
        return None
    return None if due.deadline_day(content, said_at or utcnow()) is None else Category.REMINDERS


class Ingestor:
    def __init__(
        self,
        settings: Settings,
        store: IngestStore,
        embedder: Embedder,
        classifiers: Classifiers,
        writer: Writer,
    ) -> None:
        self._settings = settings
        self._store = store
        self._embedder = embedder
        self._classifiers = classifiers
        self._writer = writer

    def candidates(self, message: Message) -> list[Candidate]:
        """The LLM's candidates when an endpoint is configured and answers; else rule candidates at their starting
        confidence and the other statements by the PaperBot classifier."""
        found = self._from_llm(message)
        if found is not None:
            return _with_evidence(found, message)
        found, rest = by_rule(message)
        if rest:
            classifier = self._classifiers.extraction()
            vectors = self._embedder.embed_batch([s for s, _, _ in rest])
            for (sentence, start, end), vector in zip(rest, vectors, strict=True):
                decision = classifier.decide(vector, [])
                if decision.confidence < CLASSIFIER_FLOOR:
                    continue  # the statement fits no kind: conversation, not memory
                found.append(
                    Candidate(
                        decision.label, sentence, round(decision.confidence, 4), "classifier", (start, end)
                    )
                )
        return _with_evidence(found, message)

    def _from_llm(self, message: Message) -> list[Candidate] | None:
        settings = self._settings
        if not settings.llm_url:
            return None
        extractor = LlmExtractor(
            settings.llm_url, settings.llm_model, api_key=settings.llm_api_key, timeout=settings.llm_timeout_s
        )
        try:
            return extractor.extract(message)
        except LlmError as exc:  # any failure: the built-in extractor takes this message
            _log.warning("LLM extraction failed (%s); using the built-in extractor", exc)
            self._store.audit("llm_fallback", None, {"reason": str(exc), "message_id": message.message_id})
            return None

    def _prepared(
        self, messages: Iterable[Message], redact: bool
    ) -> Iterator[tuple[int, Message, Message, dict[str, Any], bool]]:
        """Each message with its position, the copy the sources keep, its source row and whether that row is
        already stored, read _BATCH messages at a time: a file of a million messages is never held whole."""
        for first, batch in enumerate_batches(messages, _BATCH):
            kept = [_kept(m, redact) for m in batch]
            rows = [m.model_dump() | {"message_id": _source_key(m, first + i)} for i, m in enumerate(kept)]
            known = self._store.kept_sources(
                [(r["platform"], r["conversation_id"], r["message_id"]) for r in rows]
            )
            for i, (message, source, row) in enumerate(zip(batch, kept, rows, strict=True)):
                key = (row["platform"], row["conversation_id"], row["message_id"])
                yield first + i, message, source, row, key in known

    def ingest(
        self,
        messages: Iterable[Message | dict[str, Any]],
        *,
        scope: Scope | str = Scope.PROJECT,
        scope_id: str | None = None,
        redact: bool | None = None,
        user_id: str | None = None,
        workspace_id: str | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> dict[str, Any]:
        """Store the messages as sources and their user statements as memories; the scope id defaults to each
        message's conversation id. Each message commits on its own with its memories: an error stops the ingest
        with the messages before it kept and that one and those after it not marked as ingested. `progress` is
        called with (messages done, messages) as each one starts."""
        # Every message is checked before anything is stored: a file's were checked when it was opened.
        checked: list[Message] | MessageFile = (
            messages
            if isinstance(messages, MessageFile)
            else [m if isinstance(m, Message) else parse_message(m, i) for i, m in enumerate(messages)]
        )
        redact = self._settings.redact_pii if redact is None else redact
        counts: Counter[str] = Counter()
        kinds: Counter[str] = Counter()
        for position, message, source, row, known in self._prepared(checked, redact):
            if progress is not None:
                progress(position, len(checked))
            counts["messages"] += 1
            if known:
                counts["messages_already_ingested"] += 1
                continue
            # Extraction (the model, maybe an LLM) runs before the write transaction: other writers do not wait.
            user = message.role.lower() in USER_ROLES
            found = self.candidates(message) if user else []
            items, states = [], []
            for candidate in found:
                report = pii.scan(candidate.content)
                content, risk = (
                    (report.redacted, 1 if report.risk else 0) if redact else (candidate.content, report.risk)
                )
                approved = candidate.confidence >= APPROVE_AT and risk < 2
                # The topics store_memory tags with (names, noun phrases), not word runs: "send-the-on-call" and
                # "anna-by-thursday" were the tags of "Remind me to send the on-call rota to Anna by Thursday."
                # The extractor's label (todo, profile) names no topic: it stays in metadata, which review reads.
                topics = (analysis.normalize_tag(c) for c in phrases.topics(content))
                concepts = list(dict.fromkeys(t for t in topics if t))[:4]
                waits: dict[str, str] = {}
                if not approved:
                    waits["review_reason"] = review_reason(
                        confidence=candidate.confidence,
                        approve_at=APPROVE_AT,
                        pii_kinds=report.names if risk >= 2 else (),
                    )
                states.append((candidate, approved))
                items.append(
                    NewMemory(
                        content=content,
                        kind=KIND_OF[candidate.kind],
                        type=TYPE_OF[candidate.kind],
                        scope=scope,
                        scope_id=scope_id or message.conversation_id or None,
                        user_id=user_id,
                        workspace_id=workspace_id,
                        status=Status.APPROVED if approved else Status.PENDING,
                        tags=concepts,
                        category=dated(content, message.ts),
                        expires_at=expiry(content, message.ts) if candidate.kind == "todo" else None,
                        episode_id=message.conversation_id or None,
                        sequence_number=position,
                        created_at=message.ts,
                        metadata={
                            "candidate": {
                                "kind": candidate.kind,
                                "confidence": candidate.confidence,
                                "evidence": candidate.evidence,
                            },
                            "pii": {
                                "risk": risk,
                                "kinds": report.names,
                                "redacted": bool(redact and report.risk),
                            },
                            "speaker": source.metadata.get("speaker"),
                        }
                        | waits,
                    )
                )
            results = self._commit(row, items, position)
            if results is None:  # another ingest kept it since `known` was read
                counts["messages_already_ingested"] += 1
                continue
            # One write batch per message: its candidates are embedded together.
            for (candidate, approved), result in zip(states, results, strict=True):
                counts["candidates"] += 1
                counts[result.outcome] += 1
                if result.created:
                    counts["approved" if approved else "pending"] += 1
                    kinds[candidate.kind] += 1
        report_out = dict(counts) | {"by_kind": dict(kinds)}
        self._store.audit("ingest", None, {k: v for k, v in report_out.items() if k != "by_kind"})
        return report_out

    def _commit(
        self, row: dict[str, Any], items: Sequence[NewMemory], position: int
    ) -> list[RememberResult] | None:
        """The message's source row and its memories in one transaction: a source is marked as ingested only
        with what was drawn from it. None when the message was already kept."""
        try:
            with self._store.atomic():
                if not self._store.add_sources([row])[0]:
                    return None
                return self._writer.remember_many(items) if items else []
        except InvalidInput as exc:
            # The write names a statement of the message (`content`, `items[1].content`): name the message.
            field = re.sub(r"^items\[\d+\]\.", "", exc.field)
            raise InvalidInput(f"messages[{position}].{field}", exc.problem) from None
        except BaseException:
            self._classifiers.forget_cache()  # prototypes learned inside the rolled-back transaction are gone
            raise
