"""The details a changed fact gives, read alike however they are said: the words for one detail ("Sarah has a new
number" of "Sarah's mobile is ..."); what an amount is ("Put my small dog price up to £50" after "I charge £45 for a
small dog")."""

from __future__ import annotations

from engram.lang.analysis import MONEY
from engram.lang.lemmas import getAllLemmas
from engram.lang.pii import PiiKind, detect
from engram.lang.text import stem, stems

# Words for one detail said in several ways ("Sarah has a new number" of "Sarah's mobile is ..."; "an email
# address"; a phone number is read by `renumbered`): one word of each group stands for the others, so the newer
# names what the older one does.
# A field of medicine is also named by what it treats ("heart appt" of "cardiology appointment"), and a ferry's
# departure is a sailing or a crossing.
_KIND_WORDS = (
    ("email", "e-mail", "address"),
    ("dose", "dosage"),
    ("cardiology", "heart", "cardiac"),
    ("dermatology", "skin"),
    ("ophthalmology", "eye"),
    ("audiology", "hearing"),
    ("physiotherapy", "physio"),
    ("therapy", "therapist"),
    ("ferry", "sailing", "crossing"),
)
_KIND_STEM = {stem(w): stem(group[0]) for group in _KIND_WORDS for w in group}


def kinds(found: set[str], other: set[str]) -> set[str]:
    """The stems of `found`, each word for a detail read as the first word of its group when `other` says one of
    the group ("number" is "mobile" where the older memory says "mobile"), and a shortening read as the word of
    `other` it shortens ("appt" is "appointment")."""
    said = {_KIND_STEM.get(s) for s in other} - {None}
    return {
        _KIND_STEM[s] if _KIND_STEM.get(s) in said else next((o for o in other if shortens(s, o)), s)
        for s in found
    }


def shortens(short: str, word: str) -> bool:
    """Whether `short` is a shortening of `word` no dictionary knows: its first letter, then others of it in order,
    fewer of them ("appt" of "appointment", "mtg" of "meeting"). A word of its own ("cat") shortens nothing."""
    if len(short) < 3 or len(short) >= len(word) or short[0] != word[0] or getAllLemmas(short):
        return False
    rest = iter(word[1:])
    return all(letter in rest for letter in short[1:])


# A word for what an amount is ("Put my small dog price up to £50" after "I charge £45 for a small dog"): the
# older memory's amount is one without naming it.
_AMOUNT_WORDS = {stem(w) for w in "price cost fee rate charge rent salary wage".split()}  # noqa: SIM905


def priced(own: set[str], new: str, old: str) -> bool:
    """Whether the one word of its own names what an amount is, and both memories give a sum of money."""
    return own <= _AMOUNT_WORDS and bool(MONEY.search(new)) and bool(MONEY.search(old))


def sum_for(own: set[str], changing: str, old: str) -> bool:
    """Whether the words of its own follow the new sum in the clause that says the change, saying what it buys
    ("came down to £42,000 a year for a 2-year term"), and the older memory gives a sum too."""
    found = MONEY.search(changing)
    return found is not None and bool(MONEY.search(old)) and own <= set(stems(changing[found.end() :]))


_PHONE_WORDS = {stem(w) for w in "number phone mobile mob tel telephone landline cell".split()}  # noqa: SIM905


def renumbered(own: set[str], new: str, old: str) -> bool:
    """Whether the one word of its own names what a phone number is, and both memories give a phone number ("number
    is now 07700 900655" after "Darren mobile 07700 900318"): the older one's is one, named by another word."""
    return own <= _PHONE_WORDS and all(
        any(f.kind is PiiKind.PHONE for f in detect(text)) for text in (new, old)
    )
