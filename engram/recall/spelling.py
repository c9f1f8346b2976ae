"""Misspelled words of a question, read as the store spells them: a content word of five letters or more that no
memory holds and no English dictionary has ("asthama", "dentsit") is also searched as the stored word one edit
away from it (a letter dropped, added, replaced or two letters swapped; the first letter kept). A word some memory
holds is never corrected, and a store that cannot say which words it holds corrects none."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from weakref import WeakKeyDictionary

from engram.lang.lemmas import is_dictionary_word
from engram.lang.text import STOPWORDS, stems_uncached
from engram.recall.query import Query
from engram.store.roles import CountedVocabulary, SearchIndex, Vocabulary

# Shorter words have too many stored words one edit away ("cat": car, cut, coat) to tell a typo from a word.
SHORTEST = 5
# A word's variants grow with its length and each is as long as it: a 50,000-letter "word" asked for gigabytes.
# Few English words pass 24 letters, and a question has few typos, so only its first few unknown words are read.
LONGEST = 24
MOST_READ = 8
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Each store's corrections of the words it lacks, with how many memories it held then (`""`: none one edit away):
# a name the store lacks is asked again and again, and looking up its variants costs more than the rest of this.
_READ: WeakKeyDictionary[SearchIndex, dict[str, tuple[int, str]]] = WeakKeyDictionary()
_KEPT = 4096


def variants(word: str) -> dict[str, int]:
    """The words one edit from `word` (Damerau-Levenshtein 1) that keep its first letter, each with how unlike
    a typo its edit is: 0 for two letters swapped, a double letter written once or a letter written twice (the
    commonest slips), 1 for any other. People rarely mistype a word's first letter, and keeping it leaves a
    fiftieth of the variants to look up."""
    first, rest = word[:1], word[1:]
    splits = [(first + rest[:i], rest[i:]) for i in range(len(rest) + 1)]
    found: dict[str, int] = {}
    for a, b in splits:
        for c in _LETTERS:
            found.setdefault(a + c + b, 0 if c == a[-1] or b[:1] == c else 1)
            if b:
                found.setdefault(a + c + b[1:], 1)
        if b:
            found[a + b[1:]] = 0 if b[0] == a[-1] or b[1:2] == b[0] else min(found.get(a + b[1:], 1), 1)
        if len(b) > 1:
            found[a + b[1] + b[0] + b[2:]] = 0
    found.pop(word, None)
    return found


def corrections(words: Sequence[str], store: SearchIndex) -> dict[str, str]:
    """For each of `words` that could be misspelled and no memory holds, the stored word one edit away: the
    likeliest typo (`variants`), then the word whose stem the most memories hold, then a dictionary word."""
    if not isinstance(store, Vocabulary):
        return {}
    # The dictionary first: a word it has is no typo, and most words are in it; the store, a round trip to a
    # server on PostgreSQL, is asked only of the others.
    asked = [w for w in dict.fromkeys(words) if _plain(w) and not is_dictionary_word(w)]
    total: int | None = None
    if isinstance(store, CountedVocabulary) and asked:
        held, total = store.words_counted(asked)  # one read for both, where each is a round trip
    else:
        held = store.words_held(asked) if asked else set()
    unknown = [w for w in asked if w not in held]
    if not unknown:
        return {}
    if total is None:
        total, _ = store.document_frequencies(())
    known = _READ.setdefault(store, {})
    out = {w: c for w in unknown if (c := known.get(w, (-1, ""))[1]) and known[w][0] == total}
    fresh = [w for w in unknown if known.get(w, (-1, ""))[0] != total][:MOST_READ]
    found = _looked_up(fresh, store) if fresh else {}
    if len(known) > _KEPT:
        known.clear()
    known.update({w: (total, found.get(w, "")) for w in fresh})
    return out | found


def _looked_up(unknown: Sequence[str], store: SearchIndex) -> dict[str, str]:
    """`corrections` of words no memory holds, read from the store."""
    options = {w: variants(w) for w in unknown}
    every = sorted({v for found in options.values() for v in found})
    stemmed = dict(zip(every, stems_uncached(every), strict=True))
    wanted = {s for v, s in stemmed.items() if v not in STOPWORDS and s not in STOPWORDS}
    _, frequency = store.document_frequencies(sorted(wanted))
    out = {}
    for word, found in options.items():
        held = [(v, cost, n) for v, cost in found.items() if (n := frequency.get(stemmed[v], 0)) > 0]
        if held:
            best = min(held, key=lambda h: (h[1], -h[2], not is_dictionary_word(h[0]), h[0]))
            out[word] = best[0]
    return out


def _plain(word: str) -> bool:
    """Letters only, long enough for one edit to be a typo rather than another word, not a stopword. A word the
    store lacks but the dictionary holds ("house" in a store that says "hour") is no typo either."""
    return SHORTEST <= len(word) <= LONGEST and word.isascii() and word.isalpha() and word not in STOPWORDS


def corrected(query: Query, store: SearchIndex) -> Query:
    """`query` with its misspelled words' corrections as other words for them (a memory that says the stored
    word says the question's), and in their place in the text the model embeds: a misspelled word's embedding
    drifts from the word's. Read once: a query already read is returned as it is."""
    if query.corrections is not None:
        return query
    found = corrections(query.terms, store)
    if not found:
        return replace(query, corrections=())
    return replace(
        query,
        corrections=tuple(found.items()),
        others=(*((w, (c,)) for w, c in found.items()), *query.others),
        search=respelled(query.search, found),
        topic=respelled(query.topic, found),
    )


def respelled(text: str, found: Mapping[str, str]) -> str:
    """`text` with each misspelled word (any case) written as corrected, capitalised where it was."""
    if not found:
        return text
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, found)) + r")\b", re.IGNORECASE)

    def fixed(match: re.Match[str]) -> str:
        said = match.group(0)
        word = found[said.lower()]
        return word.capitalize() if said[:1].isupper() else word

    return pattern.sub(fixed, text)
