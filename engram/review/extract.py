"""Memory candidates from conversation: raw messages are input, not memory.

A user message is split into sentences, and a run-on sentence into clauses when they state different kinds
(engram.review.clauses). A sentence that states something explicitly ("my name is", "I prefer",
"I plan to", "I decided", "remind me", 我叫 / 我喜欢 / 我想 / 必须 / 帮我 ...) becomes a candidate of that kind with
that kind's starting confidence. Any other statement is classified by embedding against the PaperBot
taxonomy (engram/classify/data/paperbot.json) and keeps the classifier's confidence. Questions, greetings and fragments
are not candidates, nor is what engram.review.chatter calls conversation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from engram.lang.pii import PiiKind, scan
from engram.lang.text import FULL_STOPS
from engram.model.names import hidden_problem, mixed_script_problem
from engram.model.record import ahead_problem, plain_text
from engram.review.chatter import counterfactual, small_talk
from engram.review.clauses import clauses

# The starting confidence of an explicit statement of each kind.
CONFIDENCE = {
    "profile": 0.85,
    "preference": 0.72,
    "goal": 0.68,
    "project": 0.70,
    "fact": 0.65,
    "decision": 0.70,
    "constraint": 0.62,
    "todo": 0.58,
    "hypothesis": 0.50,
    "keyword_set": 0.75,
    "note": 0.60,
}
KINDS = tuple(CONFIDENCE)
APPROVE_AT = 0.60
# A to-do asked for in so many words ("remind me to", "don't forget to") is an explicit statement, not a
# guess: it starts above the approval line. One inferred from "I need to" keeps the kind's 0.58.
ASKED_TODO = 0.72

_ITEM = r"[\w'-]+(?:\s+[\w'-]+){0,2}\b"  # a short list item: one to three words
_AND = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)"
# The people in someone's life, in everyday English.
_PEOPLE = (
    r"mum|mom|mother|dad|father|parents?|brother|sister|siblings?|son|daughter|kids?|children|child|baby|husband"
    r"|wife|partner|boyfriend|girlfriend|fianc[eé]e?|spouse|grand(?:ma|pa|mother|father|son|daughter|kids?|children)"
    r"|granny|nan|aunt|uncle|cousin|niece|nephew|(?:mother|father|brother|sister)[- ]in[- ]law|in-laws|friend"
    r"|flatmate|roommate|housemate|neighbou?r|boss|manager|colleague|co-?worker|advisor|adviser|tutor|teacher"
    r"|professor|doctor|gp|dentist|accountant|landlord|landlady|childminder|nanny|babysitter|mechanic|vet"
    r"|therapist|dog|cat"
)
_DAYS = r"mon|tues|wednes|thurs|fri|satur|sun"

# Explicit statements, most specific first; English and Chinese (the source project's rules were Chinese).
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.IGNORECASE))
    for kind, pattern in (
        ("keyword_set", r"^\s*(keywords?|tags|topics|interests|关键词|标签)\s*[:\uff1a]"),
        # Any one-word heading over a list of three or more short items ("Hobbies: fishing, crosswords, woodwork").
        ("keyword_set", rf"^\s*[a-z]+\s*:\s*{_ITEM}(?:{_AND}{_ITEM}){{2,}}\s*\.?$"),
        ("note", r"^\s*(?:(note|nb|fyi|备注|注意|记一下)\s*[:\uff1a]|fyi\b)"),
        # Asking for a note in so many words, anywhere in the sentence.
        ("note", r"\bnote to self\b|\b(?:note|write|jot|put) (?:this|that|it) down\b|\bmake a note\b"),
        # A limit on amounts, or one asked for after a reason ("I'm on a fixed income so nothing too expensive"):
        # read before "I have to" makes a to-do of "I have to keep my sodium under 1500 mg".
        (
            "constraint",
            r"\bso (?:nothing|no\s+(?!worries|problem|idea|way|wonder|doubt|offence|offense)\w+)\b"
            r"|\bnon[- ]?negotiable\b|\b(?:keep|stay|stick)\b[^.]{0,40}\b(?:under|below|within|less than)\b"
            r"|\b(?:my|our) budget\b[^.]{0,30}\b(?:is|of)\b|(?-i:\bmax(?:imum)?\b)|\bno more\b",
        ),
        (
            "todo",
            r"\b(remind me|don'?t (?:let me )?forget|remember to|i need to|i have to|i must remember|to-?do)\b"
            r"|^\s*(?:things )?to[- ]do\b[^:]{0,20}:"
            # A deadline on something that needs doing ("the car needs an MOT before the 20th").
            r"|\b(?:needs?|due)\b[^.]{0,40}\b(?:by|before)\b"
            r"|提醒我|帮我|记得",
        ),
        (
            "profile",
            r"\b(my name is|my name'?s|i'?m called|my (?:work |personal |home )?(?:e-?mail(?: address)?|phone(?: number)?"
            r"|mobile(?: number)?|number|address|birthday) is|reach me (?:at|on)|call me|i am a|i'?m an?|i work as"
            r"|(?:my|our) (?:\w+ )?(?:e-?mail|phone|mobile|cell|number|address)(?: for \w+)? (?:is|'s)"
            r"|(?:i|we) live (?:in|at|on)|(?:i'?m|we'?re) based in|i retired|i'?m retired|i graduated|i served in"
            r"|i live in|i was born|i grew up|i work (?:at|for|in)|i'?m (?:a )?(?:vegan|vegetarian|pescatarian)"
            # An age: "I'm 81 and ...", "I'm 34 years old".
            r"|i'?m \d{1,3}(?=\s*(?:$|[,.;!]|and\b|years?\b|yrs\b|y/?o\b))|i (?:lead|manage|head|run) (?:the|a|an|our)"
            # A name introduced ("I'm Sam, ...", "I am Lena"): a capitalised word ending the clause.
            r"|i'?m (?-i:[A-Z][a-z]+)(?=\s*(?:[,.;:!]|$|and\b))|i am (?-i:[A-Z][a-z]+)(?=\s*(?:[,.;:!]|$)))\b"
            r"|我叫|我的名字是|我是一?名?|我住在|我在.{1,12}工作",
        ),
        (
            "preference",
            r"\b(i (?:really |just |absolutely |honestly |truly |actually )?(like|love|enjoy|prefer|hate|dislike|adore"
            r"|can'?t stand|can'?t bear)|i (?:really |just )?(?:don'?t|do not) (like|enjoy|care for)"
            r"|i'?m (?:not |really |not really |not much of |a (?:big |huge )?)*(?:a )?(?:fan of|keen on)"
            r"|my favou?rite)\b|我喜欢|我不喜欢|我爱|我讨厌|我偏好|我更喜欢"
            # A standing instruction to the assistant: how to answer, address or talk to the user.
            r"|^\s*(?:please\s+)?(?:always|never|don'?t|do not|from now on,?)\s+(?:\w+\s+)?"
            r"(?:answer|reply|respond|write|talk|speak|call|address)\b"
            r"|\b(?:answer|reply|respond|write|talk|speak) to me in\b|\bfrom now on\b|以后请|请用",
        ),
        (
            "decision",
            r"\b(i|we)(?: have|'ve)? (decided|chose|picked|agreed|settled on|went with|am going with|are going with)\b"
            r"|我决定|我们决定|我选择了",
        ),
        (
            "goal",
            r"\b((?:i|we) want to|(?:i|we)'?d (?:like|love) to|(?:i|we) plan to|(?:i'?m|we'?re) planning to|i intend to"
            r"|(?:i|we) hope to|my goal is|i aim to|i'?m aiming|gonna try|(?:i'?m|we'?re) (?:trying|hoping|aiming) to"
            r"|(?:i'?m|we'?re) saving (?:up )?(?:for|to)|i wanna)\b|我想|我计划|我打算|我的目标|我希望",
        ),
        (
            "project",
            r"\b(i'?m working on|we'?re working on|i'?m building|we'?re building|my project|our project"
            r"|i'?ve been (building|writing|restoring|renovating))\b"
            # Something under way: the progressive of a verb of making, organising or trying out.
            r"|\b(?:i'?m|we'?re|i am|we are) (?:currently |still |now )?(?:building|redoing|renovating|restoring"
            r"|refurbishing|planning|organi[sz]ing|trial?ling|training|setting up|putting together|knitting|sewing"
            r"|developing|designing|launching|converting|decorating"
            r"|doing an? (?:[\w-]+ )?(?:course|degree|diploma|masters?|phd|apprenticeship|qualification|module"
            r"|renovation|challenge))\b"
            r"|我在做|我们在做|项目",
        ),
        (
            "constraint",
            r"\b(must(?!\s+(?:have|be)\b)|must not|mustn'?t|never|can'?t|cannot|not allowed|ha(?:ve|s) to be|no more than"
            r"|at most)\b"
            # A condition of the speaker's own that limits what suits them.
            r"|\b(?:i'?m|i am) (?:\w+ ){0,2}?(?:allergic|intolerant|diabetic|coeliac|celiac|colou?r-?blind|hard of hearing"
            r"|deaf)\b"
            # What the assistant is told not to do for the user ("Owen's allergic to shellfish, don't suggest
            # prawns"): a standing limit, whoever it protects.
            r"|\b(?:don'?t|do not)\s+(?:ever\s+)?(?:suggest|recommend|book|order|offer|propose|serve|cook|buy|plan"
            r"|schedule|invite|include|add|send)\b"
            r"|必须|不要|不能|不可以|禁止",
        ),
        (
            "hypothesis",
            r"\b(i think|i guess|i suspect|maybe|perhaps|probably|might be|could be)\b|我觉得|可能|也许",
        ),
        # Someone in the speaker's life as the subject ("my son is 12", "our childminder is called Bev"), or a named
        # person's day ("Linda's birthday is June 3rd").
        (
            "fact",
            rf"^\s*(?:my|our) (?:\w+ ){{0,2}}?(?:{_PEOPLE})(?:'s)?\b"
            r"(?!(?:\s+\w+ly)?\s+(?:said|says|told|thinks|reckons))"
            r"|^(?-i:[A-Z][a-z]+)'s \w+ (?:is|are|was)\b",
        ),
        # What someone close can or cannot eat or take ("Leo is allergic to nuts", "Dad's diabetic"): a fact to keep
        # whoever it is about.
        (
            "fact",
            r"\ballergic to\b|\b(?:is|are|['\u2019]s)\s+(?:allergic|vegan|vegetarian|diabetic|coeliac|celiac"
            r"|lactose[- ]intolerant|pregnant)\b|对.{1,8}过敏",
        ),
        # A habit: something the speaker does every week, every Thursday.
        (
            "fact",
            rf"\b(?:i|we) (?:\w+ ){{1,5}}?every (?:day|week|weekend|morning|evening|night|month|(?:{_DAYS})day)s?\b",
        ),
    )
)
_ASKED = re.compile(
    r"\b(remind me|don'?t (?:let me )?forget|do not (?:let me )?forget|remember to|to-?do\s*[:\uff1a])"
    r"|^\s*(?:things )?to[- ]?do\b|提醒我|记得|帮我记",
    re.IGNORECASE,
)
_SENTENCE = re.compile(rf"(?<=[.!?])\s+|(?<=[{FULL_STOPS}])\s*|\n+")  # "a.b@c.pt", "3.5" stay whole
_GREETING = re.compile(
    r"^(hi|hello|hey|thanks|thank you|ok|okay|sure|bye|good (morning|night|evening)|你好|谢谢|好的)\b",
    re.IGNORECASE,
)
_CJK = re.compile(r"[\u4e00-\u9fff]")


class Message(BaseModel):
    """One normalised conversation message, as the sources table keeps it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    role: str = Field(min_length=1, max_length=32)
    content: str
    ts: datetime | None = Field(
        None, validation_alias=AliasChoices("ts", "timestamp")
    )  # chat exports say timestamp
    platform: str = Field("", max_length=64)
    conversation_id: str = Field("", max_length=256)
    message_id: str = Field("", max_length=256)
    metadata: dict[str, Any] = Field(default_factory=dict)

    _plain = field_validator("*", mode="before")(plain_text)

    @field_validator("ts")
    @classmethod
    def _said(cls, value: datetime | None) -> datetime | None:
        # Dated ahead, the memories made of it stayed recent in ranking and were never archived.
        if value is not None and (problem := ahead_problem(value, "a message's time is when it was said")):
            raise ValueError(problem)
        return value

    @field_validator("conversation_id", "message_id")
    @classmethod
    def _shown(cls, value: str) -> str:
        # A conversation is a scope, a message a source's key: one that shows as another is refused (model.names).
        if problem := hidden_problem(value) or mixed_script_problem(value):
            raise ValueError(problem)
        return value


@dataclass(frozen=True, slots=True)
class Candidate:
    kind: str
    content: str
    confidence: float
    how: str  # rule | classifier
    span: tuple[int, int]
    evidence: dict[str, Any] = field(default_factory=dict)

    @property
    def approved(self) -> bool:
        return self.confidence >= APPROVE_AT


def sentences(text: str) -> list[tuple[str, int, int]]:
    """Sentences with their character spans in `text`."""
    out = []
    start = 0
    for match in _SENTENCE.finditer(text + "\n"):
        piece = text[start : match.start()]
        stripped = piece.strip()
        if stripped:
            offset = start + piece.index(stripped)
            out.append((stripped, offset, offset + len(stripped)))
        start = match.end()
    return out


def worth_keeping(sentence: str) -> bool:
    """A statement, not a question, a greeting or a fragment."""
    if sentence.rstrip().endswith(("?", "\uff1f")):
        return False
    if _GREETING.match(sentence) and explicit_kind(_GREETING.sub("", sentence, count=1)) is None:
        return False  # "hey so im a sophomore at ohio state" says something after its greeting
    if _CJK.search(sentence):
        return len(_CJK.findall(sentence)) >= 4
    return len(sentence.split()) >= 4


_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|i'll|me|my|mine|we|we're|our|us)\b|我", re.IGNORECASE)
CLASSIFIER_FLOOR = 0.3
_THEIRS = re.compile(
    r"\b(?:her|his|their|(?-i:[A-Z][a-z]+)['\u2019]s)\s+(?:\w+\s+)?(?:e-?mail|number|phone|mobile|cell|address)\b",
    re.IGNORECASE,
)


def about_the_speaker(sentence: str) -> bool:
    """Without an explicit cue, only what the speaker says about themselves is a candidate; remarks about the
    other person or the world at large are conversation, not memory."""
    return bool(_FIRST_PERSON.search(sentence))


def _straight(text: str) -> str:
    return text.replace("\u2019", "'")  # phones type a curly apostrophe (U+2019) for the straight one


def explicit_kind(sentence: str) -> str | None:
    sentence = _straight(sentence)
    for kind, pattern in _RULES:
        if pattern.search(sentence):
            return kind
    return None


def _kind(sentence: str) -> str | None:
    kind = explicit_kind(sentence)
    if kind in (None, "todo") and contact_details(sentence):
        kind = "profile"  # "my number is ...", "reach me at ...": who the user is, never a task
    return kind


def by_rule(message: Message) -> tuple[list[Candidate], list[tuple[str, int, int]]]:
    """Candidates the rules find in a message, and the statements left for the classifier."""
    found: list[Candidate] = []
    rest: list[tuple[str, int, int]] = []
    for sentence, start, end in sentences(message.content):
        if not worth_keeping(sentence) or counterfactual(sentence):
            continue
        parts = [(text, start + s, start + e, _kind(text)) for text, s, e in clauses(sentence)]
        # One thing said (or none): the sentence stays whole.
        if len({kind for *_, kind in parts if kind is not None}) < 2:
            parts = [(sentence, start, end, _kind(sentence))]
        for text, s, e, kind in parts:
            if kind is None:
                if _GREETING.match(text) or small_talk(_straight(text)):
                    continue
                if about_the_speaker(text):
                    rest.append((text, s, e))
            else:
                confidence = (
                    ASKED_TODO if kind == "todo" and _ASKED.search(_straight(text)) else CONFIDENCE[kind]
                )
                found.append(Candidate(kind, text, confidence, "rule", (s, e)))
    return found, rest


def contact_details(sentence: str) -> bool:
    """Whether the speaker gives their own email address or phone number."""
    if not any(c.isdigit() or c == "@" for c in sentence):  # the scan costs more than the rest of the rules
        return False
    if _THEIRS.search(sentence):
        return False  # "her number is ...": someone else's details
    return about_the_speaker(sentence) and any(
        k in (PiiKind.EMAIL, PiiKind.PHONE) for k in scan(sentence).kinds
    )


__all__ = [
    "APPROVE_AT",
    "CONFIDENCE",
    "KINDS",
    "Candidate",
    "Message",
    "by_rule",
    "explicit_kind",
    "sentences",
]
