"""Whether a word the tagger read as a plural noun is the verb of its clause ("the sync service batches writes",
"family plan renews in March"), so that a tag ends before it (docs/design/tags.md)."""

from __future__ import annotations

from typing import Any

from engram.lang.lemmas import getAllLemmas, getInflection
from engram.lang.timewords import DAYS, MONTHS

# What follows a verb and never a noun phrase's last word: an object, a particle, an adverb (not a preposition:
# "aisle seats on long flights" as often as "checklist lives in the wiki").
_AFTER_A_VERB = frozenset({"NN", "NNS", "DT", "PRP$", "PRP", "JJ", "VBG", "RP", "RB"})
_CLAUSE_ENDS = frozenset(
    {".", ":", ","}
)  # the tagger's marks for sentence ends, colons, semicolons and commas
_WHEN_WORDS = frozenset(
    [*MONTHS.split("|"), *DAYS.split("|"), "every", "each", "next", "this", "noon", "midnight"]
)


def clause_verb(before: Any, token: Any) -> bool:
    """Whether `token`, tagged a plural noun after a singular one, is the verb of a clause: it can be a verb and
    its object follows ("service batches writes", "wife loves hiking"). A plural does not follow a singular
    noun inside a name for one thing unless the phrase ends there ("pull requests")."""
    if token.tag_ != "NNS" or token.i + 1 >= len(token.doc):
        return False
    after = token.doc[token.i + 1]  # "checklist lives in", "gateway times out", "service batches writes"
    lemmas = getAllLemmas(token.text.lower().rsplit("-", 1)[-1])  # "auto-renews" as "renews"
    if "VERB" not in lemmas:
        return False
    # Never a noun, and a time, an object or a time's preposition follows ("Admiral renews 14 February", "Zen
    # expires in May"); the dictionary misses some plurals ("cast iron pans should"), so the next word must agree.
    if "NOUN" not in lemmas and (
        after.tag_ in {"CD", "DT", "PRP", "PRP$"}
        or after.text.lower() in _WHEN_WORDS
        or (after.tag_ == "IN" and _when_follows(after))
    ):
        return True
    if after.tag_ == "RP":  # a particle follows only a verb: "the ETL for shipments kicks off at 01:30"
        return True
    if _dwells(token, after):  # "HMAC key lives in Vault", the tagger's "key" an adjective
        return True
    if before.tag_ != "NN":
        return _subject_verb(before, token, after)
    # Before a preposition it is the verb only when its clause has no other verb and opens with a subject's
    # determiner or owner ("Our staging cluster runs on k3s", "Sam's flight lands at 6:40"), or the preposition
    # says when ("family plan renews in March"): not "aisle seats on long flights".
    # Before "every" or "each" it says how often: the verb only when its clause has no other ("Our staging cluster
    # runs every night"), not "Rotate the staging API keys every 90 days".
    if after.text.lower() in {"every", "each"}:
        return not any(
            t.pos_ in {"VERB", "AUX"} or t.tag_.startswith("VB") for t in _clause(token) if t != token
        )
    if after.tag_ in _AFTER_A_VERB:
        return True
    if after.tag_ != "IN":
        return False
    clause = _clause(token)
    if any(t.pos_ in {"VERB", "AUX"} for t in clause):
        return False
    owner = len(clause) > 1 and clause[1].tag_ == "POS"
    return clause[0].tag_ in {"DT", "PRP$"} or owner or _when_follows(after)


# Verbs of where a thing is kept or stays ("lives in", "sits on", "stays with"): before a place's preposition, and
# with no other verb in the clause, the verb, whatever the tagger made of the word before.
_DWELL = frozenset({"live", "sit", "stay", "reside", "sleep"})
_PLACE = frozenset({"in", "at", "on", "with", "under", "behind", "inside"})


def _dwells(token: Any, after: Any) -> bool:
    if after.text.lower() not in _PLACE or not _DWELL & set(getAllLemmas(token.text.lower()).get("VERB", ())):
        return False
    return not any(t.pos_ in {"VERB", "AUX"} or t.tag_.startswith("VB") for t in _clause(token) if t != token)


def _subject_verb(before: Any, token: Any, after: Any) -> bool:
    """Whether `token` is the verb after a subject that is no common noun: a name before a pronoun or a
    determiner ("Claire prefers we", "Tomasz texts me"), or a gerund opening its clause before a noun ("recycling
    alternates weeks"). A plural inside a name ("Google Docs", "Harbour Row flats") has none of those after it."""
    if before.tag_ == "NNP":
        return after.tag_ in {"PRP", "PRP$", "DT"} and after.text.lower() not in _WHEN_WORDS
    if before.tag_ == "VBG":
        return _clause(before)[0] == before and after.tag_ in {"NN", "NNS"}
    return False


def _clause(token: Any) -> Any:
    """`token`'s clause: between stops, colons, semicolons and commas."""
    doc, start, end = token.doc, token.i, token.i
    while start > 0 and doc[start - 1].tag_ not in _CLAUSE_ENDS:
        start -= 1
    while end + 1 < len(doc) and doc[end + 1].tag_ not in _CLAUSE_ENDS:
        end += 1
    return doc[start : end + 1]


def _when_follows(preposition: Any) -> bool:
    """Whether the preposition's object says when: a number or a clock time, a month, a weekday, "every"."""
    doc = preposition.doc
    if preposition.i + 1 >= len(doc):
        return False
    word = doc[preposition.i + 1]
    return word.tag_ == "CD" or word.text.lower() in _WHEN_WORDS


def head_noun(token: Any) -> bool:
    """Whether `token`, tagged a verb's base form right after a singular noun, is the head of that noun's phrase
    ("Sprint review every second Friday"): a singular subject takes no base form, the word can be a noun, no
    object follows and its clause has no other verb ("Let Sam review the draft" keeps its verb)."""
    doc = token.doc
    if token.tag_ not in {"VB", "VBP"} or token.i == 0 or doc[token.i - 1].tag_ not in {"NN", "NNP"}:
        return False
    if "NOUN" not in getAllLemmas(token.text.lower()):
        return False
    after = doc[token.i + 1] if token.i + 1 < len(doc) else None
    if (
        after is not None
        and after.tag_ in {"DT", "PRP$", "PRP"}
        and after.text.lower() not in {"every", "each"}
    ):
        return False
    return not any(t.tag_.startswith("VB") or t.tag_ == "MD" for t in _clause(token) if t != token)


def misread_noun(before: Any, token: Any) -> bool:
    """Whether `token`, after a common noun, is a noun the tagger misread: a past tense the word is no verb's
    past of ("the weekly team huddle every Monday": "huddle" as VBD) or a comparative that is also a noun
    ("the window cleaner £18"). The compound is one topic, not its first word."""
    if before.tag_ not in {"NN", "NNS"} or not token.is_alpha:
        return False
    word = token.text.lower()
    readings = getAllLemmas(word)
    if word not in readings.get("NOUN", ()):  # a singular noun as it stands: "drips" stays the verb
        return False
    if token.tag_ == "JJR":
        return True
    if token.tag_ != "VBD":
        return False
    return not any(word in getInflection(lemma, "VBD") for lemma in readings.get("VERB", ()))
