"""Loaders for the retrieval benchmarks: LoCoMo and LongMemEval_S, as plain frozen values.

The data lives outside the repository, in `../shared/data` beside the project's root (override with the
environment variable ENGRAM_BENCH_DATA). Its README states the formats and the protocol; the rules implemented
here are:

- LoCoMo: one unit per turn, id = the normalised dia_id ("D3:7"), text "Speaker: text", plus
  " [shares <caption>]" when the turn carries an image caption, time = the session's date. Questions of
  categories 1-4 with at least one evidence id that names a turn (ids normalised: split on ";", "," and
  spaces, "D:11:26" -> "D11:26", "D30:05" -> "D30:5").
- LongMemEval_S: each question has its own haystack of dated sessions. Turn level: one unit per user turn,
  id "<session_id>:<index of the turn in its session>", evidence = user turns flagged has_answer. Session
  level: one unit per session whose text is its user turns only, one per line (the official LongMemEval
  retrieval setting indexes user-side content), evidence = answer_session_ids. Abstention questions ("_abs")
  and questions with no user-side evidence turn are left out.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

LOCOMO_FILE = "locomo_dev.json.gz"
LONGMEMEVAL_FILE = "longmemeval_s_dev.json.gz"
LOCOMO_CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}

_LOCOMO_DATE = "%I:%M %p on %d %B, %Y"  # "1:56 pm on 8 May, 2023"
_LME_DATE = "%Y/%m/%d (%a) %H:%M"  # "2023/05/21 (Sun) 19:50"
_SESSION_KEY = re.compile(r"session_(\d+)")
_EVIDENCE_SEPARATORS = re.compile(r"[;,\s]+")
_DIA_ID = re.compile(r"D:?(\d+):(\d+)")


def data_dir() -> Path:
    """Where the benchmark data is: $ENGRAM_BENCH_DATA, else `shared/data` beside the project's root."""
    override = os.environ.get("ENGRAM_BENCH_DATA")
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[1].parent / "shared" / "data"


@dataclass(frozen=True, slots=True)
class Unit:
    """One retrievable item: a turn or a session. A turn knows its episode (the session it was said in) and
    its place among the session's stored turns."""

    unit_id: str
    text: str
    timestamp: datetime
    episode: str | None = None
    position: int | None = None


@dataclass(frozen=True, slots=True)
class Query:
    """One question against one haystack, with the ids of the units that hold its evidence."""

    query_id: str
    text: str
    evidence: tuple[str, ...]
    time: datetime | None
    category: str


@dataclass(frozen=True, slots=True)
class Haystack:
    """The units one or more questions search, and those questions: the runner's unit of work."""

    haystack_id: str
    units: tuple[Unit, ...]
    queries: tuple[Query, ...]


# --- LoCoMo -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LocomoQuestion:
    question: str
    answer: str
    evidence: tuple[str, ...]  # normalised unit ids, each naming a turn of the conversation
    category: int


@dataclass(frozen=True, slots=True)
class LocomoConversation:
    sample_id: str
    units: tuple[Unit, ...]  # every turn, in conversation order
    questions: tuple[LocomoQuestion, ...]

    @property
    def end(self) -> datetime:
        """The last session's date: the time the questions are asked."""
        return max(unit.timestamp for unit in self.units)

    def haystack(self) -> Haystack:
        queries = tuple(
            Query(f"{self.sample_id}/q{i}", q.question, q.evidence, self.end, str(q.category))
            for i, q in enumerate(self.questions)
        )
        return Haystack(self.sample_id, self.units, queries)


def normalise_dia_id(raw: str) -> str | None:
    """'D:11:26' -> 'D11:26', 'D30:05' -> 'D30:5'; None when `raw` is no turn id at all."""
    match = _DIA_ID.fullmatch(raw.strip())
    if match is None:
        return None
    return f"D{int(match.group(1))}:{int(match.group(2))}"


def normalise_evidence(raw: Iterable[str], turn_ids: set[str] | frozenset[str]) -> tuple[str, ...]:
    """Split and normalise; keep the ids that name a turn in `turn_ids`, in order, without repeats."""
    out: list[str] = []
    for entry in raw:
        for part in _EVIDENCE_SEPARATORS.split(entry):
            unit_id = normalise_dia_id(part) if part else None
            if unit_id is not None and unit_id in turn_ids and unit_id not in out:
                out.append(unit_id)
    return tuple(out)


def locomo_turn_text(turn: dict[str, Any]) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    caption = turn.get("blip_caption")
    if caption:
        text += f" [shares {caption}]"
    return text


def parse_locomo_conversation(sample: dict[str, Any]) -> LocomoConversation:
    conversation = sample["conversation"]
    sessions = sorted(
        (int(m.group(1)), key)
        for key in conversation
        if (m := _SESSION_KEY.fullmatch(key)) and isinstance(conversation[key], list) and conversation[key]
    )
    units: list[Unit] = []
    for number, key in sessions:
        date = datetime.strptime(conversation[f"session_{number}_date_time"].strip(), _LOCOMO_DATE)
        for position, turn in enumerate(conversation[key]):
            unit_id = normalise_dia_id(turn["dia_id"])
            if unit_id is None:
                raise ValueError(f"{sample['sample_id']}: malformed dia_id {turn['dia_id']!r}")
            units.append(
                Unit(unit_id, locomo_turn_text(turn), date, f"{sample['sample_id']}/{key}", position)
            )
    turn_ids = {unit.unit_id for unit in units}
    if len(turn_ids) != len(units):
        raise ValueError(f"{sample['sample_id']}: repeated dia_id")
    questions: list[LocomoQuestion] = []
    for qa in sample["qa"]:
        category = int(qa["category"])
        if category not in LOCOMO_CATEGORIES:
            continue
        evidence = normalise_evidence(qa.get("evidence", []), turn_ids)
        if evidence:
            answer = qa.get("answer", qa.get("adversarial_answer", ""))
            questions.append(LocomoQuestion(qa["question"], str(answer), evidence, category))
    return LocomoConversation(sample["sample_id"], tuple(units), tuple(questions))


def load_locomo(path: Path | None = None) -> list[LocomoConversation]:
    return [parse_locomo_conversation(sample) for sample in _read_json(path or data_dir() / LOCOMO_FILE)]


# --- LongMemEval_S ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LmeTurn:
    role: str
    content: str
    has_answer: bool


@dataclass(frozen=True, slots=True)
class LmeSession:
    session_id: str
    date: datetime
    turns: tuple[LmeTurn, ...]

    def user_turns(self) -> list[tuple[int, LmeTurn]]:
        """(index in the session, turn) for each user turn."""
        return [(i, turn) for i, turn in enumerate(self.turns) if turn.role == "user"]


@dataclass(frozen=True, slots=True)
class LmeQuestion:
    question_id: str
    question_type: str
    question: str
    answer: str
    question_date: datetime
    sessions: tuple[LmeSession, ...]
    answer_session_ids: tuple[str, ...]

    def turn_units(self) -> tuple[Unit, ...]:
        # Only user turns are units, so a turn's position counts user turns.
        return tuple(
            Unit(f"{s.session_id}:{i}", turn.content, s.date, s.session_id, position)
            for s in self.sessions
            for position, (i, turn) in enumerate(s.user_turns())
        )

    def turn_evidence(self) -> tuple[str, ...]:
        return tuple(
            f"{s.session_id}:{i}" for s in self.sessions for i, turn in s.user_turns() if turn.has_answer
        )

    def session_units(self) -> tuple[Unit, ...]:
        # User turns only, one per line: the official session-level retrieval value.
        return tuple(
            Unit(s.session_id, "\n".join(turn.content for _, turn in s.user_turns()), s.date)
            for s in self.sessions
        )

    def session_evidence(self) -> tuple[str, ...]:
        return self.answer_session_ids

    def haystack(self, granularity: str) -> Haystack:
        if granularity == "turn":
            units, evidence = self.turn_units(), self.turn_evidence()
        elif granularity == "session":
            units, evidence = self.session_units(), self.session_evidence()
        else:
            raise ValueError(f"granularity must be 'turn' or 'session', not {granularity!r}")
        query = Query(self.question_id, self.question, evidence, self.question_date, self.question_type)
        return Haystack(self.question_id, units, (query,))


def parse_lme_question(item: dict[str, Any]) -> LmeQuestion:
    # A few haystacks hold the same session twice under one id (same turns, another date); the first is kept,
    # so that unit ids stay unique. None of the repeated sessions is evidence.
    sessions: dict[str, LmeSession] = {}
    for session_id, date, turns in zip(
        item["haystack_session_ids"], item["haystack_dates"], item["haystack_sessions"], strict=True
    ):
        if session_id not in sessions:
            sessions[session_id] = LmeSession(
                session_id,
                datetime.strptime(date.strip(), _LME_DATE),
                tuple(LmeTurn(t["role"], t["content"], bool(t.get("has_answer", False))) for t in turns),
            )
    return LmeQuestion(
        question_id=item["question_id"],
        question_type=item["question_type"],
        question=item["question"],
        answer=str(item["answer"]),
        question_date=datetime.strptime(item["question_date"].strip(), _LME_DATE),
        sessions=tuple(sessions.values()),
        answer_session_ids=tuple(item["answer_session_ids"]),
    )


def lme_is_scored(question: LmeQuestion) -> bool:
    """The official protocol leaves out abstention questions and those with no user-side evidence turn."""
    if question.question_id.endswith("_abs"):
        return False
    return any(turn.has_answer and turn.role == "user" for s in question.sessions for turn in s.turns)


def load_longmemeval(path: Path | None = None, *, scored_only: bool = True) -> list[LmeQuestion]:
    questions = [parse_lme_question(item) for item in _read_json(path or data_dir() / LONGMEMEVAL_FILE)]
    return [q for q in questions if lme_is_scored(q)] if scored_only else questions


def _read_json(path: Path) -> Sequence[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        data: Sequence[dict[str, Any]] = json.load(handle)
    return data
