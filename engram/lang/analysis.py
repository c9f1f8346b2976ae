"""Offline content and query analysis for store_memory and search_memory: concepts, entities, urgency,
importance 1-5, query intent.

Concepts are yake keyphrases (up to 3 words; capitalised ones grow to the whole name around them, which then takes
the place of its parts); a phrase inside a better-ranked one is dropped; `topics` cuts them
to what can be a tag. Mostly Chinese text has no spaces for yake to split at: its concepts are jieba's TF-IDF
keywords among the words that name a topic (nouns, names, set phrases). Entities come from regular expressions
(dates, times, money, percentages, numbers, emails, urls, code identifiers, capitalised names).

Importance, 1-5: 2 for plain content, 3 when it states a personal fact ("I am", "my", "I prefer", "allergic");
+1 for a deadline, appointment or concrete date or time; +1 for urgency words; +1 for a decision; +1 for
explicit importance ("important", "don't forget"); capped at 5; 1 for a trivial note (under 4 words, no entity).
What a question asks is read in engram.recall.query.
"""

from __future__ import annotations

import logging
import re
import warnings
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engram.lang.cograph import networkx_for_yake
from engram.lang.denied import affirmed
from engram.lang.lemmas import getAllLemmas
from engram.lang.pii import MARKER
from engram.lang.text import HAN, STOPWORDS
from engram.lang.text import words as words_of
from engram.lang.timewords import DATE, DAYS, MONTHS
from engram.lang.unseen import seen_only
from engram.model.names import mixed_script_problem


@dataclass(frozen=True, slots=True)
class Entity:
    text: str
    kind: str  # date | time | number | money | percent | email | url | name | code


@dataclass(frozen=True, slots=True)
class ContentAnalysis:
    concepts: tuple[str, ...]
    entities: tuple[Entity, ...]
    urgency: tuple[str, ...]
    indicators: tuple[str, ...]
    importance: int
    context_tags: tuple[str, ...]


# Words that name no topic, so no tag: a word that only says when ("tomorrow", "Tuesday", "next": a date is an
# entity, and as a tag it goes stale), and one that asks for the memory to be kept ("Remember to ...", "Remind
# me ...": it says what to do with the memory, which its category and kind already say, not what it is about),
# and the interjections of chat ("yeah", "wow").
NO_TOPIC = re.compile(
    rf"{MONTHS}|(?:{DAYS})s?|today|tonight|tomorrow|yesterday|next|last|ago"
    r"|remember|reminds?|memori[sz]e|forget|note"
    r"|yeah|yes|yep|yup|nah|wow|oh|ok|okay|hey|hi|hello|lol|haha|hmm|thanks?",
    re.I,
)
_TIME = re.compile(r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b", re.IGNORECASE)
# An amount in words starts where its digits do, not after each comma inside them (a long run of "1," was
# read from every comma again).
MONEY = re.compile(
    r"[$€£]\s?\d[\d,]*(?:\.\d+)?|\b(?<!\d,)\d[\d,]*(?:\.\d+)?\s?(?:usd|eur|gbp|dollars|euros|pounds)\b", re.I
)
_PERCENT = re.compile(r"\b\d+(?:\.\d+)?\s?%|\b\d+(?:\.\d+)?\s?percent\b", re.IGNORECASE)
# An address's local part holds at most 64 characters (unbounded, a long run of "1-1-..." was read again from
# each of its words looking for an "@").
_EMAIL = re.compile(r"\b[\w.+-]{1,64}@[\w-]+\.[\w.-]+\b")
_URL = re.compile(r"\bhttps?://\S+|\bwww\.\S+")
# An address one writes to or opens: an e-mail address or a link.
ADDRESS = re.compile(f"{_EMAIL.pattern}|{_URL.pattern}", re.IGNORECASE)
_CODE = re.compile(r"`[^`]+`|\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b\w+(?:\.\w+){2,}\b")
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)?\b")
# Capitalised words that open no sentence, line, list item or "Speaker:" turn ("Joanna: Absolutely", "**Check the
# car:**", "* Alternatively"): names, which take no verb or topic test.
_NAME = re.compile(r"(?<![.!?:;]\s)(?<![-*+#>]\s)(?<![\n*#>\"])(?<!^)\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\b")
# Each indicator in English and in Chinese, so a Chinese memory scores as its English wording would (no \b
# between Chinese characters, which are all word characters).
_URGENT = re.compile(
    r"\b(urgent(?:ly)?|asap|critical|immediately|right away|must|deadline|overdue|emergency)\b"
    r"|紧急|尽快|马上|立刻|立即|赶紧|务必",
    re.I,
)
_DEADLINE = re.compile(
    r"\b(due|deadline|by (?:the )?end of|appointment|expires?|before \w+day|by (?:"
    rf"{DAYS}|{MONTHS}|tomorrow|tonight|friday))\b|截止|到期|之前|预约",
    re.IGNORECASE,
)
_DECISION = re.compile(
    r"\b(decided|decision|we(?:'ll| will)? go with|going with|chose|agreed to|settled on)\b|决定|选择了|定下",
    re.I,
)
_EXPLICIT = re.compile(
    r"\b(important|remember this|never forget|don'?t forget|must remember|crucial|key point)\b"
    r"|重要|别忘|不要忘|记住|千万",
    re.I,
)
_PERSONAL = re.compile(
    r"\b(i am|i'm|my|i prefer|i like|i love|i hate|i don'?t like|allergic|i live|i work)\b"
    r"|我是|我的|我喜欢|我不喜欢|我爱|我讨厌|过敏|我住|我在.{1,12}工作",
    re.I,
)
# Days and times in Chinese: a date for the importance score (the date entities and due days read English).
_CHINESE_DATE = re.compile(
    r"今天|明天|后天|今晚|明早|下周|下星期|下个月|[周星期礼拜][一二三四五六日天]|\d{1,2}月\d{1,2}[日号]"
    r"|[一二三四五六七八九十]{1,3}月[一二三四五六七八九十]{1,3}[日号]|(?:\d{1,2}|[两三四五六七八九十]|十[一二])[点时]"
)
_NEGATION = re.compile(r"\b(never|do not|don'?t|avoid)\b", re.IGNORECASE)
_HOWTO = re.compile(
    r"\b(how to|steps?|run |install|configure|recipe)\b|^[^\S\n]*\d+\.", re.IGNORECASE | re.MULTILINE
)


@lru_cache(maxsize=1)
def _extractor() -> Any:
    with networkx_for_yake():  # its co-occurrence graph without networkx's whole library
        import yake  # type: ignore[import-untyped]  # loaded when a text is first read for keyphrases

    return yake.KeywordExtractor(lan="en", n=3, top=12, dedupLim=0.7)


# A run of 100 or more characters without a space is no keyphrase (a hash, a blob, "a'a'a'..."), and yake's
# tokenizer reads one in time that grows with its length squared (its e-mail pattern restarts after each quote).
_UNSPACED = re.compile(r"(?<!\S)\S{100,}")


def normalize_tag(text: str) -> str:
    """Lowercase-hyphenated: "React Hooks" -> "react-hooks"; keeps + and # (c++, c#)."""
    cleaned = re.sub(r"[^\w+#]+", " ", text.lower()).replace("_", " ")
    tag = "-".join(cleaned.split())[:64].strip("-")
    # A word in two look-alike alphabets ("payment" with Cyrillic letters) is no tag: it mimics one.
    return "" if mixed_script_problem(tag) else tag


# Nouns, names, places, organisations, verbal nouns, Latin words and set phrases (jieba's part-of-speech tags):
# words that name a topic, as `topics` keeps for English.
_CHINESE_TOPICS = ("n", "nr", "nrfg", "nrt", "ns", "nt", "nz", "nw", "vn", "eng", "l", "i", "j")
_HAN = re.compile(f"[{HAN}]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")


@lru_cache(maxsize=1)
def _chinese() -> Any:
    """jieba's TF-IDF keyword extractor, loaded on the first Chinese text (its dictionary takes a second); None
    without the chinese extra: such a text then gets no keyphrases (it is stored and found all the same)."""
    with warnings.catch_warnings():
        # Loading, it reaches for setuptools' deprecated pkg_resources and leaves its word-weight file open.
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", ResourceWarning)
        try:
            import jieba  # type: ignore[import-untyped]
            import jieba.analyse  # type: ignore[import-untyped]
        except ModuleNotFoundError:
            logging.getLogger("engram").warning(
                "Chinese keyphrases need the chinese extra: pip install 'engram-memory[chinese]'"
            )
            return None
        jieba.setLogLevel(logging.WARNING)  # not the dictionary's loading messages
        jieba.initialize()
    return jieba.analyse


def concepts(text: str, top: int = 8) -> tuple[str, ...]:
    if not text.isascii() and len(_HAN.findall(text)) > len(_LATIN_WORD.findall(text)):
        # Mostly Chinese: yake splits words at spaces, so a sentence would be one "keyphrase"; jieba segments it.
        extractor = _chinese()
        return (
            ()
            if extractor is None
            else tuple(extractor.extract_tags(seen_only(text), topK=top, allowPOS=_CHINESE_TOPICS))
        )
    found: list[str] = []
    for phrase, _score in _extractor().extract_keywords(_UNSPACED.sub(" ", text)):
        words = [w.lower() for w in phrase.split()]
        if words[0] in STOPWORDS or words[-1] in STOPWORDS or len(phrase) < 2:
            continue  # "report by Friday" is kept as a concept; "submit the" is not
        grown = whole_name(phrase, text)
        low = grown.lower()
        if any(low in f.lower() for f in found):
            continue  # already inside a better-ranked phrase
        if grown != phrase:  # a name grown whole takes the place of the parts of it found before
            found = [f for f in found if f.lower() not in low]
        found.append(grown)
        if len(found) >= top:
            break
    return tuple(found)


# Words that open a sentence the stopword list leaves out: capitalised there, but no part of a name that follows.
_OPENERS = frozenset(
    {
        "since",
        "although",
        "unless",
        "though",
        "whereas",
        "whether",
        "however",
        "thus",
        "using",
        "like",
        "example",
    }
)


def whole_name(phrase: str, text: str) -> str:
    """A keyphrase of two or more capitalised words, grown to the whole run of capitalised words the text has it in:
    yake's phrases stop at three words, and "Joshua Tree National" or "Bahama Island Hopper" is no name."""
    words = phrase.split()
    if len(words) < 2 or not all(w[:1].isupper() for w in words):
        return phrase
    cap = r"[A-Z][\w&-]*"  # no possessive: "Citi Double Cash Card's" is the card
    around = re.search(
        rf"(?<![\w'-])((?:{cap} ){{0,3}}){re.escape(phrase)}((?: {cap}){{0,3}})(?![\w-])", text
    )
    if around is None:
        return phrase
    before = around[1].split()
    while before and (before[0].lower() in STOPWORDS or before[0].lower() in _OPENERS):
        before.pop(0)  # "The Nickel Boys", "Since African Violets": no "The", no "Since"
    after = around[2].split()
    while after and after[-1].lower() in STOPWORDS:
        after.pop()
    return " ".join([*before, *words, *after])


def named(content: str) -> set[str]:
    """What the text writes capitalised mid-sentence, in lower case: names ("caroline", "react", "kiwi crate")."""
    return {m.group(0).lower() for m in _NAME.finditer(content)}


def topics(concepts: Sequence[str], content: str) -> list[str]:
    """The parts of `concepts` that can be tags: their runs of words that name a topic, cut at function, time
    and request words ("renew the passport", "dentist next Tuesday", "remember milk"). A run of one word must
    be able to name a topic on its own: a noun, a word the dictionary does not know (a product, a coined term),
    an activity (hiking, caching) or a name in the text ("React"); a verb or adjective alone (started, decided,
    awesome, glad) says what happened or how it felt, not what about, and a word of time alone ("month") when.
    A word that is only a verb or an adverb is left out and ends a run ("started hiking", "turtles always cheer").
    Word classes are lemminflect's dictionary."""
    names = named(content)
    out: list[str] = []
    for concept in concepts:
        run: list[str] = []
        words = concept.split()
        for at, word in enumerate([*words, ""]):
            lower = word.lower()
            if (
                lower
                and lower not in STOPWORDS
                and not NO_TOPIC.fullmatch(lower)
                and lower not in _EXAMPLE
                and (
                    lower in names or _reading(lower) != "verb"  # "renew passport": the passport
                )
                and not (run and at + 1 < len(words) and _says_what_it_does(run[-1].lower(), lower))
            ):
                run.append(word)
            elif run:  # and "turtles always cheer", "expenses arise": the turtles, the expenses
                out.append(" ".join(run))
                run = []
    return [
        t
        for t in out
        if (len(t) > 2 or _HAN.search(t) is not None)  # 北京: two characters, one word
        and (
            " " in t or t.lower() in names or (_reading(t.lower()) == "topic" and t.lower() not in WHEN_ALONE)
        )
    ]


# Words that put an example beside a thing ("fabric like silk", "engines like Google"): two topics, not one.
_EXAMPLE = frozenset({"like", "unlike", "including", "versus", "vs"})


def _says_what_it_does(subject: str, word: str) -> bool:
    """Whether `word`, between a singular noun and another word, is the verb of a clause ("wife loves hiking",
    "husband plays chess", "rebase rewrites history"): a plural noun does not follow a singular one inside a
    name for one thing, but a verb agreeing with it does."""
    plural = word.endswith("s") and not word.endswith("ss")
    return plural and not subject.endswith("s") and "VERB" in getAllLemmas(word) and subject not in STOPWORDS


# Words that name a topic inside a phrase ("night shift", "year review") but alone only say when.
WHEN_ALONE = frozenset(
    f"{w}{s}"
    for w in ("day", "week", "weekend", "month", "year", "morning", "evening", "night", "time")
    for s in ("", "s")
)


@lru_cache(maxsize=65536)
def _reading(word: str) -> str:
    """topic: can be a noun, is unknown to the dictionary, or an activity (hiking, caching: an -ing form that is
    no adjective, unlike amazing or upcoming); verb: only a verb or an adverb (started, renew, totally); else
    other (an adjective: awesome, glad)."""
    readings = set(getAllLemmas(word))
    if not readings or readings & {"NOUN", "PROPN"} or (word.endswith("ing") and "ADJ" not in readings):
        return "topic"
    return "verb" if readings <= {"VERB", "AUX", "ADV"} else "other"


def names_link(text: str) -> bool:
    """Whether `text` holds a URL or an e-mail address: `entities` reads them first, so one of them is among its
    entities exactly when either is found."""
    return bool(_URL.search(text) or _EMAIL.search(text))


def entities(text: str) -> tuple[Entity, ...]:
    out: dict[tuple[str, str], None] = {}
    # The spans taken so far, disjoint and in order (their ends too): an overlap is looked up, not searched for
    # among every span (a text of thousands of numbers took seconds).
    starts: list[int] = []
    ends: list[int] = []

    def add(pattern: re.Pattern[str], kind: str) -> None:
        for m in pattern.finditer(text):
            at = bisect_right(ends, m.start())
            if at < len(starts) and starts[at] < m.end():
                continue
            starts.insert(at, m.start())
            ends.insert(at, m.end())
            out.setdefault((m.group(0).strip("`"), kind), None)

    for pattern, kind in (
        (_URL, "url"),
        (_EMAIL, "email"),
        (MONEY, "money"),
        (_PERCENT, "percent"),
        (DATE, "date"),
        (_TIME, "time"),
        (_CODE, "code"),
        (_NUMBER, "number"),
        (_NAME, "name"),
    ):
        add(pattern, kind)
    return tuple(Entity(t, k) for t, k in out)


# Tags for what kind of memory it is, not what it is about; in this order, each when `analyse` finds it.
CONTEXT_TAGS = ("urgent", "deadline", "decision", "how-to", "complex")


def says_decision(content: str) -> bool:
    """Whether the text states a decision ("we decided", "going with"): analyse's "decision" indicator alone."""
    return bool(_DECISION.search(content))


def analyse(content: str) -> ContentAnalysis:
    found = entities(content)
    urgency = tuple(dict.fromkeys(w.lower() for w in affirmed(_URGENT, content)))
    indicators: list[str] = []
    score = 2
    if _PERSONAL.search(content):
        score = 3
        indicators.append("personal-fact")
    if (
        _DEADLINE.search(content)
        or any(e.kind in ("date", "time") for e in found)
        or _CHINESE_DATE.search(content)
    ):
        score += 1
        indicators.append("deadline" if _DEADLINE.search(content) else "date")
    if urgency:
        score += 1
        indicators.append("urgent")
    if _DECISION.search(content):
        score += 1
        indicators.append("decision")
    if _EXPLICIT.search(content):
        score += 1
        indicators.append("explicit-important")
    if _NEGATION.search(content) and "explicit-important" in indicators:
        indicators.append("negation-warning")
    if len(words_of(content)) < 4 and not found:  # words_of reads Chinese too (as character pairs)
        score, indicators = 1, ["trivial"]
    on = (
        bool(urgency),
        "deadline" in indicators,
        "decision" in indicators,
        bool(_HOWTO.search(content)),
        len(content.split()) > 80,
    )
    context = [t for t, holds in zip(CONTEXT_TAGS, on, strict=True) if holds]
    # A redaction marker ([REDACTED_EMAIL]) says what was taken out, not what the memory is about.
    topical = MARKER.sub(" ", content)
    return ContentAnalysis(
        concepts(topical), found, urgency, tuple(indicators), min(5, score), tuple(context)
    )
