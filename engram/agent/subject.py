"""Whose statement a memory is: the user's own, or one about another person the user named ("Lena from design
prefers Figma comments over e-mail"). The classifier calls both identity; the session context and search keep
another person's liking from passing as the user's."""

from __future__ import annotations

import re

from engram.lang.lemmas import getAllLemmas
from engram.lang.text import STOPWORDS

# A statement that opens with another person as its subject ("Lena from design prefers ...", "My wife Julia
# loves ...", "Tom's e-mail is ...").
_SOMEONE = re.compile(r"^\W*(?:(?i:my|our)\s+((?:[a-z-]+\s+){1,2}))?([A-Z][\w-]*)(?:'s\b)?")
# The user speaking in the same sentence ("Lena and I prefer ...", "Figma is my favourite"): then it is theirs.
_USER_SPEAKS = re.compile(r"\b(?:I\b|I'\w+|(?i:we|we'\w+|my|our|mine|me)\b)")
# A liking said right after a name ("Tom likes ...", "Tom always ..."): the name is a person's.
_LIKES = re.compile(r"(?:prefer|like|love|hate|dislike|enjoy|want|always|never)\w*\b", re.I)


def someone_else(content: str) -> bool:
    """Whether the first sentence's subject is a named person other than the user, and the user does not speak
    in it: "Lena from design prefers Figma comments" is Lena's liking, listed as the user's it had the agent
    answer the user in Figma comments. A capitalised opening word that is a function word, an adjective or a
    verb ("The", "Dark mode", "Submit") names nobody."""
    first = re.split(r"(?<=[.!?;])\s|\n", content.strip(), maxsplit=1)[0]
    m = _SOMEONE.match(first)
    if m is None or (m[1] and set(m[1].lower().split()) & (STOPWORDS | {"name"})):
        return False  # "My name is Sam": the user's own name
    word = m[2].lower()
    # A word in capitals is an abbreviation ("MOT for the Skoda ...", "NHS number ..."), not a person's name.
    if word in STOPWORDS or m[2].isupper() or (m[1] is None and _opens_sentence(word, first[m.end(2) :])):
        return False
    return _USER_SPEAKS.search(first[m.end() :]) is None


def _opens_sentence(word: str, rest: str) -> bool:
    """Whether a capitalised opening word is a word of the language, not a name: one the dictionary knows
    ("Dark mode", "Submit", "Python is ..."), unless it reads as a name and is followed as a person is ("Tom
    likes ...", "Tom's ...", "Tom from sales ...")."""
    readings = set(getAllLemmas(word))
    if not readings:
        return False  # Lena, Priya: no word of the dictionary
    as_person = re.match(r"'s\b|\s+(?:from|at|in|of|on)\s", rest) or _LIKES.match(rest.lstrip())
    return not (readings & {"NOUN", "PROPN"} and as_person)


# A question about the user ("what does the user like", "what do I prefer", "my favourite ...")...
_ABOUT_USER = re.compile(r"\b(?:the user|I|I'\w+|me)\b|\bmy\s+(?:favou?rite|preference)", re.I)
# ...and not about someone of theirs ("my husband", "my grandma", "the user's wife"): asked about, that person's
# statements are the answer.
_THEIRS = re.compile(r"\b(?:my|our|user's)\s+(?!favou?rite|preference|own\b)[a-z]", re.I)


# Someone the question names: a capitalised word after its first ("when do I meet Tom"), or a word's possessive
# ("how do I reach ada's school"); then the statements about that person are the answer, not to be put last.
_NAMED = re.compile(r"(?<!^)(?<![.!?]\s)\b(?!I\b|I')[A-Z][a-z]+|\b([a-z]+)'s\b")
_CONTRACTED = {
    "what",
    "it",
    "that",
    "who",
    "where",
    "there",
    "here",
    "how",
    "when",
    "let",
    "he",
    "she",
    "user",
}


def asks_about_user(question: str) -> bool:
    """Whether a question asks about the user themself rather than about someone it names or is theirs."""
    if _ABOUT_USER.search(question) is None or _THEIRS.search(question) is not None:
        return False
    return not any(m[1] is None or m[1].lower() not in _CONTRACTED for m in _NAMED.finditer(question.strip()))
