"""What a statement asks to be done: an instruction ("Book the venue ...", "Remind me to call ..."), a deadline
("by", "before", "due", "until" ...) or the speaker bound to do something ("I have to call the bank"). With a day it
names, each makes a reminder of it (engram.lang.due)."""

from __future__ import annotations

import re

from engram.lang.events import OBJECT as _OBJECT
from engram.lang.events import SENTENCE as _SENTENCE
from engram.lang.foreign_dates import romance_date
from engram.lang.tense import inflected as _inflected
from engram.lang.tense import readings as _readings

# Words that state a deadline: with a date they make a reminder of any statement. "By" that says how ("rent on
# the 28th by standing order", "by the way") is none.
DEADLINE = re.compile(
    r"\b(?:by(?!\s+(?:standing\s+order|direct\s+debit|(?:bank\s+)?transfer|card|cheque|check|cash|paypal|e-?mail"
    r"|post|phone|text|hand|the\s+way|far|myself|himself|herself|ourselves|themselves)\b)|before|due|until|till|deadline|no later than|bis|vor (?:dem|der)|spätestens|fällig|nicht vergessen|najpóźniej"
    # Italian "entro" (by): "entro venerdì".
    r"|entro"
    # Polish "do" before a day ("do piątku", "do 3 stycznia"): by then.
    r"|do\s+(?=(?:poniedziałku|wtorku|środy|czwartku|piątku|soboty|niedzieli|jutra|końca|\d{1,2}\s+[a-ząćęłńóśźż]+)))\b"
    r"|之前|以前|(?<=[日号])前|截止|到期|别忘|记得",  # "12月20日前": before the 20th
    re.IGNORECASE,
)

# What opens an instruction before its verb ("Remind me to ...", "Need to ...", "Please ...").
LEAD_IN = re.compile(
    r"^(?:please|remember to|remind me to|(?:don['\u2019]?t|do not) forget to|need to|have to|must|todo:?"
    r"|to-?do:?)\s+",
    re.IGNORECASE,
)


def to_whom(text: str) -> bool:
    """Whether `text` opens with a verb and a name the dictionary does not hold ("Email Fiona ...", "Ring Declan
    ..."): told to do something to someone."""
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", LEAD_IN.sub("", text.strip(), count=1))
    if len(words) < 2 or not words[1][0].isupper() or _readings(words[1].lower()):
        return False
    return "VERB" in _readings(words[0].lower())


# English words that link what follows a name in an instruction ("Invoice Caldwell Physio for ...").
_LINKS = frozenset("for about to on at by with and or re before after from of so as if when".split())  # noqa: SIM905
_FINITE = frozenset(("is", "are", "was", "were", "has", "had", "will", "would", "can", "does", "did"))


def _told_to_whom(text: str) -> bool:
    """Whether `text` opens with a verb in its base form and a name, and its sentence has no verb of the name's
    own ("Invoice Caldwell Physio ...", "Order Dan's present ..."); "Pat Smith called", "Met Carla" and "Invoice
    INV-041 to Acme is overdue" are none."""
    if not to_whom(text):
        return False
    opening = re.split(r"[.!?](?:\s|$)", LEAD_IN.sub("", text.strip(), count=1), maxsplit=1)[0]
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", opening)
    name = opening.split()[1].rstrip(",;:")
    if words[0].lower() not in _readings(words[0].lower()).get("VERB", ()) or not _NAME.fullmatch(name):
        return False
    after = [w.lower() for w in words[2:] if not w[0].isupper()]
    if after and not (_readings(after[0]) or after[0] in _OBJECT or after[0] in _LINKS):  # "Die Abfrage ist"
        return False
    if _FINITE.intersection(after):
        return False
    return not after or not (_inflected(after[0], "VBD") or _inflected(after[0], "VBZ"))


_NAME = re.compile(r"[A-Z][a-z]+(?:['\u2019]s)?")


# A Polish sentence opening with an infinitive, as a note of something to do is written ("Zadzwonić do cioci Ewy w
# niedzielę", "Kupić bilety"): a word of five letters or more ending in a vowel and "ć" (not "-ość", a noun's).
_POLISH_TO_DO = re.compile(r"^\s*[A-ZĄĆĘŁŃÓŚŹŻ][a-ząćęłńóśźż]{2,}[aeiyąęu]ć(?!\w)")
# ... or one opening a clause after a dash, a comma or a semicolon ("Imieniny babci 4 grudnia - zadzwonić rano"): the
# day named first, what to do after it. No English word ends in "ć", so the clause needs no capital.
_POLISH_CLAUSE_TO_DO = re.compile(
    r"(?:[,;\u2013\u2014]|\s-)\s*[a-ząćęłńóśźż]{3,}[aeiyąęu]ć(?!\w)", re.IGNORECASE
)
# An Italian, Spanish or French one ("Chiamare nonna Pina il 9 dicembre", "Llamar a Carmen el 3 de enero"), read so
# only beside a date in one of those languages: "Prepare", "Enter" and "Answer" open English instructions too.
_ROMANCE_TO_DO = re.compile(r"^\s*[A-Z][a-zàèéìòóù]{2,}(?:are|ere|ire|ar|er|ir|re)(?!\w)")


def instruction(text: str) -> bool:
    """Whether a sentence of `text` opens with a verb in its base form, as an instruction does ("Prepare the
    slides ...", "Book the venue ...", "Remind me to call ..."): a verb it can only be, or one that could be a
    noun followed by its object or a name. "Met Carla" (past) and "Design review on Friday" (a noun) are none."""
    for sentence in _SENTENCE.finditer(text[:2000]):
        opening = sentence.group(1).strip()
        if _POLISH_TO_DO.match(opening) or (_ROMANCE_TO_DO.match(opening) and romance_date(opening)):
            return True
        rest = LEAD_IN.sub("", opening, count=1)
        words = re.findall(r"[A-Za-z][A-Za-z'-]*", rest)
        if not words:
            continue
        first = words[0].lower()
        readings = _readings(first)
        if readings.get("VERB") != (first,) or first in {"be", "have", "do"}:
            continue
        if len(words) > 2 and words[1][0].isupper() and words[2].lower() in _FINITE:
            continue  # a name with a verb of its own: "Rob Evans is my boss", "Book Club is on Thursday"
        if rest != opening or ("NOUN" not in readings and "ADJ" not in readings):
            return True  # after "remind me to", "need to": a verb whatever else it can be
        if len(words) > 1 and words[1].lower() in _OBJECT:
            return True
    if _told_to_whom(text) or _POLISH_CLAUSE_TO_DO.search(text[:2000]):
        return True
    return any(_told_after_a_comma(clause) for clause in _CLAUSE.split(text[:2000])[1:])


# A clause after a comma or a semicolon ("The refreshers expire this month, book them today").
_CLAUSE = re.compile(r"[,;]\s+")


def _told_after_a_comma(clause: str) -> bool:
    """Whether a clause opens with a verb in its base form and its object: an instruction inside a sentence."""
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", clause)
    if len(words) < 2 or words[1].lower() not in _OBJECT - {"in", "up", "out", "back", "off", "down", "over"}:
        return False
    first = words[0].lower()
    return _readings(first).get("VERB") == (first,) and first not in {"be", "have", "do"}


def states_deadline(text: str) -> bool:
    """Whether `text` says by when ("by", "before", "due", "until", "deadline"): with a date, a reminder. "Until"
    alone says so only of something to do ("Keep the flag on until Friday"): else it is how long a state lasts
    ("The office is closed until 4 January", "We decided to pause Phoenix until the end of January")."""
    words = {found.group(0).lower() for found in DEADLINE.finditer(text)}
    if words and words <= {"until", "till"}:
        return instruction(text) or OBLIGED.search(text) is not None
    return bool(words)


# The speaker bound to do something ("I have to call the bank", "Ich muss ... verschieben", "我得给银行打电话"), or
# bound and late ("was meant to pay the fee last Monday and still haven't", "forgot to ring the garage").
OBLIGED = re.compile(
    r"\b(?:I|we)\s+(?:really\s+|still\s+)?(?:need to|have to|must|should|ought to|have got to|['\u2019]ve got to)\s"
    r"|\b(?:was|were)\s+(?:meant|supposed)\s+to\s|\bstill\s+(?:haven['\u2019]t|hasn['\u2019]t)\b|\bforgot\s+to\s"
    r"|\b(?:ich|wir)\s+(?:muss|müssen|sollte|sollten|soll|sollen)\b|我们?(?:要|得|需要|必须)"
    r"|\b(?:muszę|musimy|trzeba|powinienem|powinnam|powinniśmy)(?!\w)",  # Polish: I, we must; one has to
    re.IGNORECASE,
)


def owed(text: str) -> bool:
    """Whether `text` is a thing to do (a deadline, an instruction, an obligation), not only an event: once its day
    has passed an event happened, and only a thing to do is overdue."""
    return states_deadline(text) or instruction(text) or OBLIGED.search(text) is not None


# A thing to do told together with its doing ("Need to register the birth... done, certificate in the blue folder",
# "Renew the passport - sorted", "Book the plumber ✓"): no longer to do. The word follows a break in the line, as a
# note ticks it off; "get it done by Friday" or "have the MOT done" still asks it.
_TICKED = re.compile(
    r"(?:\.\.\.|\u2026|\s[-\u2013\u2014]|[,:;(\[]|^)\s*(?:all\s+|now\s+)?(?:done|sorted|completed|finished|ticked\s+off)\b"
    # ... and ends there, or says when ("done 3 Nov", "sorted yesterday"): "finished reading" goes on, "done by
    # Friday" asks, "done deal" names.
    r"(?=\s*(?:$|[,.;:!?)\]]|\d)|\s+[-\u2013\u2014]\s|\s+(?:yesterday|already|earlier|last|now|today|this\s+morning)\b)"
    r"|[✓✔☑✅]",
    re.IGNORECASE,
)


def ticked_off(text: str) -> bool:
    """Whether `text` says the thing it asks was done (see `_TICKED`)."""
    return _TICKED.search(text[:2000]) is not None
