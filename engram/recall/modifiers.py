"""Which one a question asks about. "What's the home wifi password?" names the wifi by a word before it, as "the
vet's number" names whose number: a memory giving the "club wifi password" or the "school office number" names
another one of the same thing, and answers a question nobody asked, however many of its words it shares. Such a
memory is at most a low-confidence guess. "Who is the club chairman?" over "Club treasurer is Mike" is the other
way round: the same club, another role. A memory that says the question's word too ("the home and club wifi"),
or another word for it, or only "our wifi" (whose, not which) contradicts nothing. Only memories standing alone
are judged, as for the names a question asks about (engram.recall.named)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from engram.embed.embedder import Embedder
from engram.lang.lemmas import getAllLemmas
from engram.lang.text import STOPWORDS, stem
from engram.model.results import Scored
from engram.recall.query import FRAMING
from engram.recall.synonyms import other_words
from engram.store.values import Facts

# A word of letters, with an apostrophe inside ("vet's") or a hyphen ("wi-fi").
_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")
_POSSESSIVE = re.compile(r"['\u2019]s?$")
# Words that say which one by how it stands, not what it is: "the new address" is answered by a memory that says
# "Address changed to ...", and "the main number" by "Office number ...". Everyday English adjectives of time,
# order, size and judgement.
_EVALUATIVE = frozenset(
    """new old current latest last next first second third main usual normal regular best worst favourite favorite
    big bigger small smaller little large long short full right wrong whole exact actual real proper same different
    other another own good bad nice great usual general local""".split()  # noqa: SIM905
)


# Two words the model, each embedded alone, places at least this near are one thing said two ways ("attic" and
# "loft" 0.58, "phone" and "mobile" 0.70, "bankruptcy" and "insolvency" 0.50); another one of a thing is placed
# further ("home" and "club" 0.39, "vet" and "office" 0.26).
SAME = 0.45
# A question asking who someone is by a role: "who is the club chairman?", not "who gets the signed agreement?"
# (there the phrase is what is given, not whom).
_WHO_IS = re.compile(r"\s*who(?:['\u2019]s|\s+(?:is|was|are|were)\b)", re.IGNORECASE)
# The words that open a noun phrase naming one of several: the article and the demonstratives. "Did we decide on a
# rewards app?" asks about any, and a loyalty app is one; "my estate agent" or "my phone number" is the asker's one,
# most often named as one trade or one thing ("Letting agent = ...", "My mobile number is ...").
_DETERMINERS = frozenset("the this that these those".split())  # noqa: SIM905


@dataclass(frozen=True, slots=True)
class _Word:
    text: str  # lower case, without a possessive
    stem: str
    start: int
    end: int
    capital: bool  # written with a capital
    owner: bool  # written with a possessive ("Gareth's")


def _read(text: str) -> list[_Word]:
    out: list[_Word] = []
    for m in _WORD.finditer(text):
        raw = m.group(0).strip("-")
        owner = bool(_POSSESSIVE.search(raw)) and len(raw) > 2
        plain = _POSSESSIVE.sub("", raw).lower() if owner else raw.lower()
        out.append(_Word(plain, stem(plain), m.start(), m.end(), raw[:1].isupper(), owner))
    return out


def _content(word: _Word) -> bool:
    return (
        len(word.text) > 2
        and word.text not in STOPWORDS
        and "'" not in word.text
        and "\u2019" not in word.text
    )


def _together(text: str, first: _Word, second: _Word) -> bool:
    """Whether two words stand side by side, nothing but spaces between them."""
    return not text[first.end : second.start].strip()


def noun_phrases(question: str) -> list[list[_Word]]:
    """The noun phrases of the question that name a thing by two or more words: a determiner ("the", "my"...) and
    then content words side by side, none a name (capitalised after the first word), a framing word or an
    evaluative adjective: "the home wifi password", "the vet's number". The determiner is what tells a noun
    phrase from a verb and its object ("can we play matches")."""
    said = _read(question)
    runs: list[list[_Word]] = []
    for i, opener in enumerate(said[:-1]):
        if opener.text not in _DETERMINERS:
            continue
        run: list[_Word] = []
        for w in said[i + 1 :]:
            if not run and w.text in _EVALUATIVE and _together(question, opener, w):
                opener = w  # "the new bin day" names the bin day
                continue
            usable = _content(w) and not w.capital and w.text not in FRAMING and w.text not in _EVALUATIVE
            if not usable or not _together(question, run[-1] if run else opener, w):
                break
            run.append(w)
            if w.owner and len(run) > 1:
                break  # "the club's chairman's car": the thing owned is read from its first owner only
        if len(run) > 1:
            runs.append(run)
    return runs


def _says(
    said: Sequence[_Word], wanted: _Word, run: Sequence[_Word], kin: Mapping[str, Sequence[str]]
) -> bool:
    """Whether a memory's words say `wanted`, another word for it, or, for a kin word, a name the memories give
    that kin ("Gareth" for "husband"). The other words of the run do not count: "wifi" is among the things of a
    home (engram.recall.related.txt), and says no home."""
    if any(w.stem == wanted.stem for w in said):
        return True
    alternatives = [o for alts in other_words(wanted.text).values() for o in alts] + list(
        kin.get(wanted.text, ())
    )
    others = {stem(part) for o in alternatives for part in o.lower().split()} - {w.stem for w in run}
    return bool(others & {w.stem for w in said})


def contradicted(
    shown: Sequence[Scored[Facts]], question: str, kin: Mapping[str, Sequence[str]], embedder: Embedder
) -> set[str]:
    """The memories of `shown` standing alone that name, for a thing the question names by two or more words,
    another one of it: another word before the same last words ("club wifi password" for "home wifi password",
    "office number" for "vet's number") where the memory never says the question's first word, or, in a question
    asking who someone is, another role of the same thing ("club treasurer" for "club chairman") where the memory never says
    the role asked. The other word is another one only when the model, each word embedded alone, does not place
    it near the question's (`SAME`): "loft ladder" is the attic ladder, "mobile number" the phone number. `kin`
    holds each kin word of the question with its words and the names the memories give it."""
    runs = noun_phrases(question)
    if not runs:
        return set()
    who = _WHO_IS.match(question) is not None
    pairs: dict[str, list[tuple[str, str]]] = {}
    roles: set[str] = set()
    for s in shown:
        if s.record.episode is not None:
            continue
        text = s.record.content
        said = _read(text)
        if who and any(_other_role(run, said, text, kin) for run in runs):
            roles.add(s.record.id)
            continue
        found = [pair for run in runs if (pair := _against(run, said, text, kin)) is not None]
        if found:
            pairs[s.record.id] = found
    if not pairs:
        return roles
    # Only the words of a contradiction found are embedded: most questions name no thing by two words.
    wanted = list(dict.fromkeys(w for found in pairs.values() for pair in found for w in pair))
    vectors = dict(zip(wanted, np.asarray(embedder.embed_batch(wanted)), strict=True))
    return roles | {
        memory_id
        for memory_id, found in pairs.items()
        if any(float(vectors[a] @ vectors[b]) < SAME for a, b in found)
    }


def _against(
    run: Sequence[_Word], said: Sequence[_Word], text: str, kin: Mapping[str, Sequence[str]]
) -> tuple[str, str] | None:
    """The question's first word and the memory's other word in its place, if the memory names another one of
    the thing `run` names: the other word stands right before all the question's words after its first, side by
    side, and the memory never says the first."""
    if _says(said, run[0], run, kin) or _phrase_said(run, said) or not _names_a_thing(run[0]):
        return None
    asked = {w.stem for w in run}
    tail = [w.stem for w in run[1:]]
    for i in range(len(said) - len(tail)):
        following = said[i + 1 : i + 1 + len(tail)]
        if [w.stem for w in following] != tail:
            continue
        joined = all(_together(text, a, b) for a, b in itertools.pairwise(following))
        if joined and _other(said[i], asked, text, following[0], said):
            return run[0].text, said[i].text
    return None


def _names_a_thing(word: _Word) -> bool:
    """Whether the question's first word can name a thing: an owner ("the vet's"), or a word the dictionary
    (lemminflect's) knows as more than an adjective: a misspelled word is not read. "The structural inspection" says what kind, as "Building
    control inspection" does in other words."""
    classes = set(getAllLemmas(word.text))  # none for a misspelling ("the councl tax"), which names nothing
    return word.owner or (bool(classes) and not classes <= {"ADJ", "ADV"})


def _phrase_said(run: Sequence[_Word], said: Sequence[_Word]) -> bool:
    """Whether the memory says another phrase for the question's ("rental car" for "hire car",
    engram/recall/related.txt)."""
    stems = {w.stem for w in said}
    alternatives = [o for alts in other_words(" ".join(w.text for w in run)).values() for o in alts]
    return any(all(stem(p) in stems for p in o.lower().split()) for o in alternatives if " " in o)


def _other_role(
    run: Sequence[_Word], said: Sequence[_Word], text: str, kin: Mapping[str, Sequence[str]]
) -> bool:
    """For a question asking who ("who is the club chairman"), whether the memory names another role of the same
    thing right after its word ("Club treasurer is ...") and never says the role asked nor another word for it
    (engram.recall.synonyms). The model places roles near each other whether they are one ("boss", "manager") or
    two ("treasurer", "secretary"), so it is not asked."""
    if (
        len(run) != 2
        or _says(said, run[1], run, kin)
        or _phrase_said(run, said)
        or not _names_a_thing(run[0])
    ):
        return False
    asked = {w.stem for w in run}
    return any(
        word.stem == run[0].stem and _other(after, asked, text, word, said, before=False)
        for word, after in itertools.pairwise(said)
    )


def _other(
    word: _Word, asked: set[str], text: str, beside: _Word, said: Sequence[_Word], *, before: bool = True
) -> bool:
    """Whether `word`, side by side with `beside`, names another one than the question: a content word the
    question does not say and the dictionary knows as a noun, no name (a capitalised word inside a sentence, one
    owning the thing, or a word the dictionary does not know) and no evaluative adjective."""
    if not _content(word) or word.stem in asked or word.text in _EVALUATIVE or word.text in FRAMING:
        return False
    if word.owner and word.capital:
        return False
    if "NOUN" not in getAllLemmas(word.text):
        return False  # a name ("Octavia insurance", "Kuba parents evening") or no thing
    at_start = word is said[0] or text[: word.start].rstrip().endswith((".", "!", "?", ":", ";", "\n"))
    if word.capital and not at_start:
        return False
    if word.text.isupper() or (word.capital and len(word.text) > 1 and text[word.start : word.end].isupper()):
        return False
    pair = (word, beside) if before else (beside, word)
    return _together(text, *pair)


# The asker, in the first person; and a thing a memory gives as someone named's: "Biscuit's flea and worm tablets"
# (up to three words between the owner and the thing, nothing but spaces).
_ASKER = re.compile(r"\b(?:i|me|my|mine|myself|i'm|i've|i'd|i'll)\b", re.IGNORECASE)
# The asker as the one who is, does or has ("am I on", "do I take"), not as the owner of someone ("my kid", whose
# shoe size is Mila's).
_ASKER_ALONE = re.compile(r"\b(?:I|I'm|I've|I'd)(?![\w'])")
_OWNER = re.compile(r"\b(?:my|our)\b", re.IGNORECASE)
_OWNED = re.compile(r"\b([A-Z][\w-]*)['\u2019]s((?:\s+[^\W\d_][\w-]*){1,4})")


def owned_by_someone(
    shown: Sequence[Scored[Facts]], question: str, names: Sequence[str], kin: Mapping[str, Sequence[str]]
) -> set[str]:
    """The memories of `shown` standing alone that give what a question asks about the asker as the thing of
    someone named, and say nothing in the first person: "what medication am I on?" over "Biscuit's flea and worm
    tablets every 3 months" is about the dog's tablets. Only a question with the asker as its subject ("I") that
    owns nothing ("my", "our": "my kid's shoes" are someone's) and names no one (`names`) and no kin is judged;
    the thing is one of the question's words or another word for it."""
    if names or kin or not _ASKER_ALONE.search(question) or _OWNER.search(question):
        return set()
    asked = {w.stem for w in _read(question) if _content(w) and w.text not in FRAMING}
    for w in _read(question):
        if _content(w) and w.text not in FRAMING:
            asked |= {stem(o) for alts in other_words(w.text).values() for o in alts if " " not in o}
    if not asked:
        return set()
    out: set[str] = set()
    for s in shown:
        text = s.record.content
        if s.record.episode is not None or _ASKER.search(text):
            continue
        for m in _OWNED.finditer(text):
            if m.group(1).lower() in STOPWORDS:
                continue
            if any(stem(w) in asked for w in m.group(2).lower().split()):
                out.add(s.record.id)
                break
    return out
