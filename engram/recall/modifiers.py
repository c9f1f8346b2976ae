"""Which one a question asks about. "What's the home wifi password?" names the wifi by a word before it, as "the
vet's number" names whose number: a memory giving the "club wifi password" or the "school office number" names
another one of the same thing, and answers a question nobody asked, however many of its words it shares. Such a
memory is at most a low-confidence guess. "Who is the club chairman?" over "Club treasurer is Mike" is the other
way round: the same club, another role. A memory that says the question's word too ("the home and club wifi"),
or another word for it, or only "our wifi" (whose, not which) contradicts nothing. Only memories standing alone
are judged, as for the names a question asks about (engram.recall.named)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

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


# The words that open a noun phrase.
_DETERMINERS = frozenset("the a an my our your his her their this that these those which whose".split())  # noqa: SIM905


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
    return len(word.text) > 2 and word.text not in STOPWORDS and "'" not in word.text and "\u2019" not in word.text


def _together(text: str, first: _Word, second: _Word) -> bool:
    """Whether two words stand side by side, nothing but spaces between them."""
    return not text[first.end : second.start].strip()


def _compounds(question: str) -> list[list[_Word]]:
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


def _says(said: Sequence[_Word], wanted: _Word, run: Sequence[_Word], kin: Mapping[str, Sequence[str]]) -> bool:
    """Whether a memory's words say `wanted`, another word for it, or, for a kin word, a name the memories give
    that kin ("Gareth" for "husband"). The other words of the run do not count: "wifi" is among the things of a
    home (engram.recall.related.txt), and says no home."""
    if any(w.stem == wanted.stem for w in said):
        return True
    alternatives = [o for alts in other_words(wanted.text).values() for o in alts] + list(kin.get(wanted.text, ()))
    others = {stem(part) for o in alternatives for part in o.lower().split()} - {w.stem for w in run}
    return bool(others & {w.stem for w in said})


def contradicted(
    shown: Sequence[Scored[Facts]], question: str, kin: Mapping[str, Sequence[str]]
) -> set[str]:
    """The memories of `shown` standing alone that name, for a thing the question names by two or more words,
    another one of it: another word before its last words ("club wifi" for "home wifi", "office number" for "vet's
    number") where the memory never says the question's first word, or, in a question asking who, another role of
    the same thing ("club treasurer" for "club chairman") where the memory never says the role asked. `kin` holds
    each kin word of the question with its words and the names the memories give it."""
    runs = _compounds(question)
    if not runs:
        return set()
    who = question.lstrip().lower().startswith("who")
    out: set[str] = set()
    for s in shown:
        if s.record.episode is not None:
            continue
        text = s.record.content
        said = _read(text)
        if any(_against(run, said, text, who, kin) for run in runs):
            out.add(s.record.id)
    return out


def _against(
    run: Sequence[_Word], said: Sequence[_Word], text: str, who: bool, kin: Mapping[str, Sequence[str]]
) -> bool:
    asked = {w.stem for w in run}
    first, last = run[0], run[-1]
    if not _says(said, first, run, kin):
        rest = {w.stem for w in run[1:]}
        for before, word in zip(said, said[1:], strict=False):
            if word.stem in rest and _other(before, asked, text, word, said):
                return True
        return False
    if not who or _says(said, last, run, kin):
        return False
    for word, after in zip(said, said[1:], strict=False):
        if word.stem == first.stem and _other(after, asked, text, word, said, before=False):
            return True
    return False


def _other(
    word: _Word, asked: set[str], text: str, beside: _Word, said: Sequence[_Word], *, before: bool = True
) -> bool:
    """Whether `word`, side by side with `beside`, names another one than the question: a content word the
    question does not say, no name (a capitalised word inside a sentence, or one owning the thing) and no
    evaluative adjective."""
    if not _content(word) or word.stem in asked or word.text in _EVALUATIVE or word.text in FRAMING:
        return False
    if word.owner and word.capital:
        return False
    at_start = word is said[0] or text[: word.start].rstrip().endswith((".", "!", "?", ":", ";", "\n"))
    if word.capital and not at_start:
        return False
    if word.text.isupper() or (word.capital and len(word.text) > 1 and text[word.start : word.end].isupper()):
        return False
    pair = (word, beside) if before else (beside, word)
    return _together(text, *pair)
