"""Word-level text handling shared by lexical search and scoring: terms, stopwords, stems.

Chinese and Japanese are written without spaces between words, so a run of their characters would be one
"word" and a search for 北京 would never match 我们在北京开会. Such a run is read as its overlapping character
pairs (北京开会: 北京 京开 开会), as CJK search engines without a dictionary do (Lucene's CJK analyser): the
pairs of a query's words are among the pairs of any text holding them. The full-text index is given the same
pairs (`unspaced_pairs`), so its terms are these words.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Collection, Sequence
from functools import lru_cache

import snowballstemmer

FULL_STOPS = "\u3002\uff01\uff1f"  # full stops: Chinese and Japanese sentences end here, with no space after
# Han ideographs, hiragana and katakana: scripts whose words run together.
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # character-class ranges of the Chinese characters
UNSPACED_RANGES = "\u3040-\u30ff" + HAN  # and the Japanese syllabaries
UNSPACED_LETTERS = f"[{UNSPACED_RANGES}]"
_UNSPACED = re.compile(UNSPACED_LETTERS + "+")
_SPACED_RUN = re.compile(f"[^{UNSPACED_RANGES}]*")  # a greedy match: cheaper than a search
_LETTER = f"[^\\W_{UNSPACED_RANGES}]"  # letters and digits of the scripts with spaces
# A word, with one apostrophe inside ("it's"); a run of Chinese or Japanese is a word of its own ("用PostgreSQL").
_WORD = re.compile(f"{_LETTER}+(?:['’]{_LETTER}+)?|{UNSPACED_LETTERS}+", re.UNICODE)

# Function words that carry no topic; dropping them keeps FTS OR-queries selective and overlap meaningful.
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "aren't",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "can't",
        "cannot",
        "could",
        "couldn't",
        "did",
        "didn't",
        "do",
        "does",
        "doesn't",
        "doing",
        "don't",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "hadn't",
        "has",
        "hasn't",
        "have",
        "haven't",
        "having",
        "he",
        "he'd",
        "he'll",
        "he's",
        "her",
        "here",
        "here's",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "how's",
        "i",
        "i'd",
        "i'll",
        "i'm",
        "i've",
        "if",
        "in",
        "into",
        "is",
        "isn't",
        "it",
        "it's",
        "its",
        "itself",
        "let's",
        "me",
        "more",
        "most",
        "mustn't",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "ought",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "shan't",
        "she",
        "she'd",
        "she'll",
        "she's",
        "should",
        "shouldn't",
        "so",
        "some",
        "such",
        "than",
        "that",
        "that's",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "there's",
        "these",
        "they",
        "they'd",
        "they'll",
        "they're",
        "they've",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "wasn't",
        "we",
        "we'd",
        "we'll",
        "we're",
        "we've",
        "were",
        "weren't",
        "what",
        "what's",
        "when",
        "when's",
        "where",
        "where's",
        "which",
        "while",
        "who",
        "who's",
        "whom",
        "why",
        "why's",
        "with",
        "won't",
        "would",
        "wouldn't",
        "you",
        "you'd",
        "you'll",
        "you're",
        "you've",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "also",
        "just",
        "really",
        "get",
        "got",
        "s",
        "t",
        "will",
        "would",
        "did",
        "does",
    ]
) | frozenset(
    # The same contractions typed without their apostrophe ("Whats Priya Shahs phone number?"): searched as words,
    # they were topics no memory says. Only those that are no other English word ("wont", "ill", "lets" are).
    """whats wheres whos hows whens whys thats theres im ive dont doesnt didnt isnt arent wasnt werent cant couldnt
    shouldnt wouldnt havent hasnt hadnt youre youve theyre theyve weve hes shes""".split()  # noqa: SIM905
)

# Porter, as FTS5's porter tokenizer, so stems here match the terms of the lexical index.
_stemmer = snowballstemmer.stemmer("porter")


def words(text: str) -> list[str]:
    """Lower-cased words, apostrophes kept inside words but a possessive's "'s" dropped ("dad's" is "dad"); a
    run of Chinese or Japanese as its character pairs."""
    found = [bare(w.replace("’", "'")) for w in _WORD.findall(text.lower())]
    if text.isascii():
        return found
    return [pair for w in found for pair in (_pairs(w) if _UNSPACED.match(w) else [w])]


def bare(word: str) -> str:
    """A lower-cased word without a possessive's "'s": "dad's" is "dad", as the full-text index (which parts
    words at apostrophes) reads it; a contraction that is a stopword ("it's", "what's") stays whole."""
    if word.endswith("'s") and word not in STOPWORDS:
        return word[:-2]
    return word


def _pairs(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(max(1, len(run) - 1))]


def _spaced_pairs(match: re.Match[str]) -> str:
    return " " + " ".join(_pairs(match.group())) + " "


def unspaced(text: str) -> bool:
    """Whether `text` holds Chinese or Japanese."""
    return not text.isascii() and _SPACED_RUN.match(text).end() != len(text)  # type: ignore[union-attr]


def unspaced_pairs(text: str | None) -> str | None:
    """`text` with each run of Chinese or Japanese written as its character pairs, space-separated: what the
    full-text index reads, so that its terms are `words`. Other text comes back as it is."""
    if text is None or not unspaced(text):
        return text
    return _UNSPACED.sub(_spaced_pairs, text)


def first_words(text: str, count: int) -> list[str]:
    """The first `count` of `words(text)`, without reading the rest of a long text: from its head when a word
    follows them there (so none of them is cut short)."""
    head = text[:256]
    found = words(head)
    return found[:count] if len(found) > count or len(head) == len(text) else words(text)[:count]


def terms(text: str) -> list[str]:
    """The content words of `text`, in order, unique; all words if every one is a stopword."""
    all_words = words(text)
    content = [w for w in all_words if w not in STOPWORDS] or all_words
    return list(dict.fromkeys(content))


# A word's stem is asked again and again; 16,384 words held every distinct word of a 12,000-text corpus, and a
# larger bound only let a long-running process keep more rarely read words (about 230 bytes each).
STEMS_KEPT = 16_384


@lru_cache(maxsize=STEMS_KEPT)
def stem(word: str) -> str:
    return str(_stemmer.stemWord(word))


def stems_uncached(words: Sequence[str]) -> list[str]:
    """Each word's stem, in one call and kept out of `stem`'s cache: for many words asked once (a misspelled
    word's every variant), which would push out the words asked again and again."""
    return [str(s) for s in _stemmer.stemWords(list(words))]


def stems(text: str) -> frozenset[str]:
    """The stems of a text's words. Short texts (questions, tags, phrases) are cached as they are asked again and
    again; a memory's whole text is not, so the cache cannot grow with what a server has read (words are)."""
    return _short_stems(text) if len(text) <= SHORT_TEXT else frozenset(stem(w) for w in words(text))


SHORT_TEXT = 200


@lru_cache(maxsize=8192)
def _short_stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in words(text))


@lru_cache(maxsize=1024)
def _could_stem_to(wanted: frozenset[str]) -> re.Pattern[str]:
    """The words that could stem to one of `wanted`. Porter rewrites at most the last two letters of what it
    keeps of a word, so such a word starts with the stem less those two; one search for these prefixes skips
    the other words of a text without a Python loop. Only where a word may start: after no letter or digit,
    looked behind after the prefix (before it, the search could not skip ahead to the letters a prefix starts
    with, and was slower)."""
    # (Chinese and Japanese are read apart, in `stems_among`.) The letters are [^\W_], not `_LETTER`: a
    # pattern is compiled for each query, and the Chinese ranges are slow to compile.
    prefixes = sorted(
        {s[: max(1, len(s) - 2)] for s in wanted if s and not unspaced(s)}, key=len, reverse=True
    )
    # One look-behind per length, not per prefix: the same alternatives in the same order, and a third less to
    # compile (the compile is most of a short call's time).
    starting = (
        "|".join(
            "(?:" + "|".join(map(re.escape, same)) + rf")(?<![^\W_].{{{size}}})"
            for size, same in itertools.groupby(prefixes, key=len)
        )
        or "(?!)"
    )
    return re.compile(rf"(?:{starting})[^\W_]*(?:['’][^\W_]+)?", re.UNICODE)


def stems_among(texts: Sequence[str], wanted: Collection[str]) -> list[set[str]]:
    """For each text, the stems of its words that are in `wanted`: `stems(text) & wanted`. Recall asks this of
    every candidate: only the words that could stem to one of them are stemmed, found by one search over all
    the texts (a search per text cost more)."""
    want = wanted if isinstance(wanted, frozenset) else frozenset(wanted)
    # A text with Chinese or Japanese is read word by word (`_WORD` parts the scripts: "代替mongodb"), and so
    # is one where a wanted word may follow an apostrophe: a word starts there or not ("it's" is one word; in
    # "1'1'a", "a" is one), which only reading the text from its start tells.
    exact = {i for i, t in enumerate(texts) if unspaced(t)}
    lowered = ["" if i in exact else t.lower() for i, t in enumerate(texts)]
    # A newline ends a word, so no match spans two texts.
    starts = list(itertools.accumulate((len(t) + 1 for t in lowered[:-1]), initial=0))
    joined = "\n".join(lowered)
    out: list[set[str]] = [set() for _ in texts]
    seen: dict[str, str | None] = {}  # each word read: its stem if wanted
    for match in _could_stem_to(want).finditer(joined):
        at = match.start()
        if at and joined[at - 1] in "'’":
            exact.add(bisect.bisect_right(starts, at) - 1)
            continue
        word = match.group()
        if word in seen:
            s = seen[word]
        else:
            s = stem(bare(word.replace("’", "'")))
            s = seen[word] = s if s in want else None
        if s is not None:
            out[bisect.bisect_right(starts, at) - 1].add(s)
    for i in exact:
        out[i] = set(stems(texts[i]) & want)
    return out


def idf(documents: int, frequency: int) -> float:
    """BM25's inverse document frequency: rare words weigh more, a word in every memory almost nothing."""
    return math.log((documents - frequency + 0.5) / (frequency + 0.5) + 1)


# Words and what separates them, to find those people also write as one word: e-mail, wi fi, Wi-Fi.
_PIECE = re.compile(rf"({_LETTER}+)([-‐]|\s+)?", re.UNICODE)


def joined_spellings(text: str) -> dict[str, str]:
    """Each hyphenated word of `text`, and each pair of content words, with the one-word spelling people also
    write ("e-mail": "email", "wi fi": "wifi", "epi pen": "epipen"). A pair of longer words is that word only
    where the store never says one of them alone (engram.recall.candidates): "ice cream" stays two words in a
    store that says "ice" and "cream", whatever else it says."""
    pieces = _PIECE.findall(text.lower())
    out: dict[str, str] = {}
    for (first, between), (second, _) in itertools.pairwise(pieces):
        if not between:
            continue
        hyphen = not between.isspace()
        if hyphen or not {first, second} & STOPWORDS:
            out[f"{first}{'-' if hyphen else ' '}{second}"] = first + second
    return out
