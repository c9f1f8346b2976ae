"""Compounds the tagger splits that a tag keeps whole: an -ing word opening a noun compound ("the washing machine",
"rent by standing order") and a capitalised name of several words in mid-sentence ("running the Bath Half"). The
rules and their measurements: docs/design/tags.md."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engram.lang import analysis
from engram.lang.lemmas import getAllLemmas

# What opens or fills a noun phrase before its head, and is never followed by a verb: a determiner, an owner, a
# number, an adjective ("the washing machine", "Halina's hearing aid", "one working day", "new running shoes").
_BEFORE_A_MODIFIER = frozenset({"DT", "PDT", "PRP$", "POS", "CD", "JJ", "JJR", "JJS"})
# An -ing word after these is a verb's progressive or perfect form ("is taking evening classes").
_AUXILIARY = frozenset(
    """am 'm is 's are 're was were be been being have 've has had 'd""".split()  # noqa: SIM905
)
# Verbs that take an -ing word as their complement ("start swimming", "avoid booking", "keep spitting"), as English
# grammars list them: after any other verb an -ing word before a noun is no complement but the noun's modifier
# ("renew driving licence", "works rotating shifts").
_TAKES_ING = frozenset(
    """admit advise anticipate appreciate avoid bear begin celebrate come complete consider continue delay deny
    deserve detest discuss dislike dread endure enjoy escape excuse fancy finish forget get go hate imagine
    involve justify keep like love mean mention mind miss need postpone practice practise prefer prevent propose
    quit recall recommend regret remember report require resent resist resume risk see spend stand start stop
    suggest tolerate try understand waste""".split()  # noqa: SIM905
)
# -ing words that are prepositions ("£14,200 including worktops", "following the survey"): never a modifier.
_PREPOSITIONS = frozenset(
    "including excluding regarding concerning following considering barring excepting according pending".split()  # noqa: SIM905
)
_COMMON = frozenset({"NN", "NNS"})
_PROPER = frozenset({"NNP", "NNPS"})
_CLAUSE_MARKS = frozenset(".!?:;,")


def compounds(doc: Any, read: Callable[[str], Any]) -> Any:
    """The doc with the -ing word of each noun compound tagged as the compound's modifier, and each capitalised
    word the tagger read as a common noun after a name, in mid-sentence, tagged as part of the name. `read` is
    the tagger: it reads a pair alone when only a lexicalised compound can tell."""
    for token in doc[1:]:
        if _continues_a_name(token):
            token.tag_ = "NNP"
    for token in doc[:-1]:
        noun = doc[token.i + 1]
        if (
            token.tag_ != "VBG"
            or noun.tag_ not in _COMMON
            or noun.text.lower() in analysis.WHEN_ALONE
            or token.text.lower() in _PREPOSITIONS
        ):
            continue  # "within one working day", "this coming week": a time, no topic, with or without it
        if _modifier_slot(token):
            token.tag_ = "JJ"  # an adjective's place: the phrase's rules (the closest modifier stays) apply
        elif _verb_slot(token) and _lexicalised(token, read):
            token.tag_ = "NN"
    return doc


def _modifier_slot(token: Any) -> bool:
    """Whether the -ing word stands where no verb can: after a determiner, an owner, a number or an adjective
    ("the standing order", "my running shoes"), after a verb that takes no -ing complement ("renew driving
    licence"), or hyphenated with the word it governs ("noise-cancelling headphones"). A participle there ("the
    leaking tap") narrows the noun as an adjective does."""
    if "-" in token.text.strip("-"):
        return True
    if token.i == 0:
        return False
    previous = token.doc[token.i - 1]
    if previous.tag_.startswith("VB") and previous.text.lower() not in _AUXILIARY:
        lemmas = getAllLemmas(previous.text.lower()).get("VERB", ())
        return bool(lemmas) and not _TAKES_ING & set(lemmas)
    return previous.tag_ in _BEFORE_A_MODIFIER


def _verb_slot(token: Any) -> bool:
    """Whether the -ing word could be a verb with the noun as its object: after a preposition, a verb that takes
    an -ing complement, a conjunction, or opening a clause ("by standing order", "start swimming lessons",
    "booking ref 88412"). After a noun it is the noun's activity ("protein folding"), a rule of its own."""
    if token.i == 0:
        return True
    previous = token.doc[token.i - 1]
    if previous.text.lower() in _AUXILIARY or previous.tag_ == "MD":
        return False
    return (
        previous.text in _CLAUSE_MARKS
        or previous.tag_ in {"IN", "CC", "TO", "RB", "WRB"}
        or (previous.tag_.startswith("VB"))
    )


def _lexicalised(token: Any, read: Callable[[str], Any]) -> bool:
    """Whether the -ing word and the noun after it are a compound the language has made a thing's name: the
    dictionary lists the -ing word as a noun or an adjective of its own (standing, swimming, washing; not paying,
    checking), and the tagger, reading the two words alone, takes it for a noun, as it does for the compounds
    its training text named ("standing order", "swimming lessons"), and for a verb before its object ("switching
    careers", "setting boundaries", "checking email")."""
    word = token.text.lower()
    if not getAllLemmas(word).keys() & {"NOUN", "ADJ"}:
        return False
    noun = token.doc[token.i + 1]
    pair = read(f"{word} {noun.text.lower()}")
    return len(pair) == 2 and pair[0].tag_ == "NN" and pair[1].tag_ in _COMMON


def _continues_a_name(token: Any) -> bool:
    """Whether `token`, a capitalised word the tagger read as a common noun, continues the name before it in
    mid-sentence ("running the Bath Half", "the Royal Mail Depot"): in mid-sentence a capital marks a name, and the
    tagger, knowing the word as a noun, cut the name in two."""
    doc = token.doc
    previous = doc[token.i - 1]
    if token.tag_ not in _COMMON or not token.is_title or not token.is_alpha:
        return False
    if previous.tag_ not in _PROPER or not previous.text[:1].isupper():
        return False
    # The name's first word must itself stand in mid-sentence: a sentence's first word is capitalised anyway.
    at = previous.i
    while at > 0 and doc[at - 1].tag_ in _PROPER and doc[at - 1].text[:1].isupper():
        at -= 1
    return at > 0 and doc[at - 1].text not in _CLAUSE_MARKS and doc[at - 1].text not in {"\n", "\u2014"}
