"""When two tags name the same thing: spelling and inflection variants, abbreviations (initials, numeronyms,
clips, consonant skeletons) and close phrases; and when they do not: siblings ("spanish" / "english"), a
narrower tag, another word on the same stem, other numbers. The rules and their measurements:
docs/design/tags.md."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from jellyfish import levenshtein_distance
from snowballstemmer import stemmer

from engram.lang.lemmas import dictionary_form, getAllLemmas, is_dictionary_word
from engram.tags.variants import class_repeat, initials, listed_together, suffixed, vowel_spelling

MAP_THRESHOLD = 0.7
MERGE_THRESHOLD = 0.8
ABBREVIATION_FLOOR = 0.6
REPEAT_FLOOR = 0.7
# How close the embeddings must be for each kind of abbreviation: initials of two words or more are specific on
# their own (ml: machine-learning 0.37); a clip (func: functional) or a skeleton (css: classes) fits many words and
# needs the model's agreement, and a clip that is a word of its own (vet, lab, log) yet more.
_ABBREVIATION_FLOORS = {
    "initials": 0.3,
    "numeronym": 0.0,
    "clip": MAP_THRESHOLD,
    "skeleton": ABBREVIATION_FLOOR,
    "short skeleton": ABBREVIATION_FLOOR,
    "word clip": MERGE_THRESHOLD,
}
_STEM = stemmer("english")
_VOWEL = re.compile(r"[aeiouy]")


@lru_cache(maxsize=65536)
def key(tag: str) -> str:
    """Spelling-insensitive form: no hyphens, each word stemmed (meetings ~ meeting, e-mail ~ email)."""
    return "".join(_stems(tag))


@lru_cache(maxsize=65536)
def _lemma(word: str) -> str:
    return dictionary_form(word).lower()  # it capitalises some (urls: URL)


@lru_cache(maxsize=65536)
def _forms(tag: str) -> frozenset[str]:
    """The tag without hyphens, and with each word's dictionary form (meetings -> meeting, caching -> cache)."""
    words = [w for w in tag.split("-") if w]
    return frozenset({"".join(words), "".join(_lemma(w) for w in words)})


def inflected(a: str, b: str) -> bool:
    """Whether two tags are one word in two inflections or spellings (meetings / meeting, file-system /
    filesystem). The stemmer behind `key` also strips endings that make another word of it (function /
    functional, serial / serializer, human / humanize); a dictionary's forms tell the two apart."""
    return bool(_forms(a) & _forms(b))


def regular_ending(a: str, b: str) -> bool:
    """Whether one tag is the other with a regular English ending (-s, -es, -d, -ed, -ing; y -> ies; a final e
    dropped before it): the plural or past of a word the dictionary does not know (args / arg, utils / util)."""
    short, long = sorted((a.replace("-", ""), b.replace("-", "")), key=len)
    stems = [short, short[:-1]] if short.endswith("e") else [short]
    if short.endswith("y") and long == short[:-1] + "ies":
        return True
    return any(long == stem + ending for stem in stems for ending in ("s", "es", "d", "ed", "ing"))


def never_a_word(word: str) -> bool:
    return False


def _word_of_its_own(text: str, is_word: Callable[[str], bool]) -> bool:
    """A word of the model's vocabulary, or a dictionary word of five letters or more (shorter dictionary
    entries include fragments such as "thon")."""
    return is_word(text) or (len(text) >= 5 and is_dictionary_word(text))


def is_abbreviation(short: str, long: str, is_word: Callable[[str], bool] = never_a_word) -> bool:
    """Initials (ml: machine-learning, ux: user-experience), a numeronym (k8s: kubernetes), a leading clip that is
    not a word of its own (py: python; `is_word` knows the vocabulary) or the consonant skeleton of one word (js:
    javascript)."""
    return abbreviation(short, long, is_word) not in (None, "word clip")


def abbreviation(short: str, long: str, is_word: Callable[[str], bool] = never_a_word) -> str | None:
    """How `short` abbreviates `long`: initials, numeronym, clip, skeleton, a clip that is a word of its own
    ("word clip": vet, pic, lab, which only a close embedding confirms), or None."""
    s, words, flat = short.replace("-", ""), [w for w in long.split("-") if w], long.replace("-", "")
    if not s or len(s) >= len(flat) or s in words:
        return None  # ts / ts-node: a word of the long tag names something narrower, not an abbreviation
    if len(words) > 1 and (s in initials(long) or s.removesuffix("s") in initials(long)):
        return "initials"
    numeronym = re.fullmatch(r"([a-z])(\d+)([a-z])", s)
    if numeronym:
        a, n, b = numeronym.groups()
        return "numeronym" if flat[0] == a and flat[-1] == b and len(flat) - 2 == int(n) else None
    clip = s.removesuffix("s") if len(s) > 2 and not s.endswith("ss") else s  # docs: doc; access is no plural
    if len(words) > 1:
        return None
    if 2 * len(clip) < len(flat) and flat.startswith(clip):
        # A clip keeps under half the word (py / python, config / configuration); what it leaves off is no word
        # of its own: json / jsonschema, fs / fsevents, npm / npmignore name a narrower thing.
        if _word_of_its_own(flat[len(clip) :], is_word):
            return None
        return "word clip" if is_word(clip) else "clip"
    if len(s) > 5 or flat.startswith(s) or s[0] != flat[0] or _VOWEL.search(s[1:]):
        # A longer word's first letters are a clip or nothing (http / https, ws / wsl), not its skeleton.
        return None
    lemma = _lemma(s)
    if lemma != s and len(lemma) >= 3:
        # An inflected word (arts: art) is no coined skeleton of another (artist). A shorter "lemma" is the
        # dictionary reading a final s as a plural (js: j).
        return None
    rest = iter(flat[1:])
    if not all(ch in rest for ch in s[1:]):  # a subsequence of the long form
        return None
    return "skeleton" if len(s) > 2 else "short skeleton"  # two letters fit many words (mm: maximum)


def _spelt_two_ways(a: str, b: str) -> bool:
    """One word in two spellings: one letter apart in a word of five or more, the first letter kept (colour /
    color), or British and American endings (theatre / theater, catalogue / catalog)."""
    if min(len(a), len(b)) >= 5 and a[0] == b[0] and levenshtein_distance(a, b) == 1:
        # A letter dropped or added (colour / color), or s for z or c (organise / organize, licence / license);
        # another letter in its place is another word (grandma / grandpa, bottle / battle).
        swapped = [(x, y) for x, y in zip(a, b, strict=False) if x != y] if len(a) == len(b) else []
        return not swapped or set(swapped[0]) in ({"s", "z"}, {"s", "c"})
    return any(
        (x.endswith("re") and y == x[:-2] + "er") or (x.endswith("ogue") and y == x[:-2])
        for x, y in ((a, b), (b, a))
    )


def _activity(word: str) -> bool:
    """An -ing form (biking, meetings): the activity, not the thing (bike)."""
    return word.removesuffix("s").endswith("ing")


def descriptive(tag: str) -> bool:
    return len(tag.replace("-", "")) > 3 and bool(_VOWEL.search(tag))


def same_tag(
    keep: str, other: str, similarity: float, is_word: Callable[[str], bool] = never_a_word
) -> str | None:
    """Why `other` is `keep` under another name (spelling, abbreviation, variant, repeat, similarity), or None."""
    if keep.replace("-", "") == other.replace("-", ""):
        return "spelling"  # machine-learning / machinelearning, e-mail / email
    if _activity(keep) != _activity(other) and "-" not in keep + other:
        base = other if _activity(keep) else keep
        if set(getAllLemmas(base)) != {"VERB"}:
            return None  # bike / biking, match / matching: a thing and the activity (parse / parsing is one)
    if key(keep) == key(other):
        # meetings / meeting, while the embeddings agree. An ending the dictionary does not confirm must find
        # them as close as any merged pair (http / https stay apart). Same stem, other words (function /
        # functional) go on to the rules below, as any two tags do.
        if inflected(keep, other):
            return "spelling" if similarity >= ABBREVIATION_FLOOR else None
        if regular_ending(keep, other) and similarity > MERGE_THRESHOLD:
            return "spelling"
    if numeronym(other, keep) or numeronym(keep, other):
        return "abbreviation"  # letter count, first and last letter: specific enough on its own
    if re.findall(r"\d+", keep) != re.findall(r"\d+", other):
        return None  # python2 / python3, es5 / es6: versions are different things
    for whole, part in ((keep, other), (other, keep)):
        name = class_repeat(part)
        if name is None or class_repeat(whole) is not None:
            continue  # js-framework / javascript-framework: the words decide, below
        # A name unknown to the dictionary (postgres, figma) with its class is that name; a common word with a
        # class must be closer still: staging-database is no more staging than production-database is.
        floor = REPEAT_FLOOR if not is_dictionary_word(name) else MERGE_THRESHOLD
        if similarity >= floor and (name == whole or same_tag(whole, name, similarity, is_word)):
            return "repeat"  # postgres-database / postgres: the name and the class it is of
    if suffixed(keep, other) and similarity >= ABBREVIATION_FLOOR:
        return "spelling"  # mongo / mongodb, postgres / postgresql
    kind = abbreviation(other, keep, is_word) or abbreviation(keep, other, is_word)
    if kind is not None and similarity >= _ABBREVIATION_FLOORS[kind]:
        return "abbreviation"
    if vowel_spelling(keep, other) and similarity >= MAP_THRESHOLD:
        return "spelling"  # grey / gray, mom / mum
    if listed_together(keep, other):
        return "variant"  # app / application, kids / children: variants.txt
    if named_more_fully(keep, other, similarity):
        return "narrower"  # tom / tom-ellery, tax-return / assessment-tax-return
    if similarity <= MERGE_THRESHOLD:
        return None
    words_a, words_b = keep.split("-"), other.split("-")
    if len(words_a) == len(words_b) == 1:
        # colour / color, organisation / organization, theatre / theater; in short words one letter is a new
        # word (cat / car), and so is a changed first letter in any (setprototypeof / getprototypeof).
        return "spelling" if _spelt_two_ways(keep, other) else None
    stems_a, stems_b = _stems(keep), _stems(other)
    if set(stems_a) < set(stems_b) or set(stems_b) < set(stems_a):
        return None  # java / prefers-java, backend / backend-services: a topic and a narrower one
    if not set(stems_a) & set(stems_b):
        return None  # google-sheets / microsoft-excel: related things, not the same tag
    only_a, only_b = set(stems_a) - set(stems_b), set(stems_b) - set(stems_a)
    if len(stems_a) == len(stems_b) and len(only_a) == len(only_b) == 1:
        at_a, at_b = stems_a.index(next(iter(only_a))), stems_b.index(next(iter(only_b)))
        wa, wb = words_a[at_a], words_b[at_b]
        if is_abbreviation(wa, wb, is_word) or is_abbreviation(wb, wa, is_word):
            return "abbreviation"  # js-framework / javascript-framework
        if at_a == at_b:
            return None  # cold-ocean-currents / warm-ocean-currents: one word swapped in place
    if sibling(keep, other):
        return None  # non-smart-bulbs / smart-light-bulbs, cotton-fabric / fabric-like-silk
    return "similarity"


def surnamed(tag: str) -> str | None:
    """The one-word tag a two-word tag is with a word the dictionary does not know after it (tom-ellery: tom, a
    name with its surname), or None (react-native, car-insurance: a thing of its own)."""
    words = tag.split("-")
    if len(words) != 2 or not words[1].isalpha() or len(words[1]) < 4 or is_dictionary_word(words[1]):
        return None  # path-ext: a clipped word, no surname
    return words[0]


def named_more_fully(a: str, b: str, similarity: float) -> bool:
    """Whether one tag is the other named more fully, as a user writes the same thing twice: a name and the name
    with its surname (tom / tom-ellery), or a name of two words or more and that name with a word before it
    (tax-return / assessment-tax-return). A word put after a name of two words or more makes a thing of its own
    (tax-return-form), and so does a dictionary word after one word (database / database-migration)."""
    short, long = sorted((a, b), key=lambda t: t.count("-"))
    words, more = short.split("-"), long.split("-")
    if len(more) != len(words) + 1:
        return False
    if len(words) == 1:
        return surnamed(long) == short and similarity >= ABBREVIATION_FLOOR
    return more[1:] == words and more[0].isalpha() and similarity >= REPEAT_FLOOR


def _stems(tag: str) -> list[str]:
    return [_STEM.stemWord(w) for w in tag.split("-")]


def kept_apart(tag: str, concept: str) -> bool:
    """Whether a concept close to `tag` still must not be filed under it: the tag is narrower, another word on
    its stem, or a sibling."""
    return narrower(tag, concept) or derived(tag, concept) or sibling(tag, concept)


def sibling(a: str, b: str) -> bool:
    """Whether two tags name different things of one kind: one word for another (wife / husband, spanish /
    english, black / white, melbourne / sydney), or shared words each tag tells apart on the same side
    (cold-ocean-currents / warm-ocean-currents, small-spaces / medium-sized-spaces, fabric-like-silk /
    fabric-like-cotton) or by a word put between them (non-smart-bulbs / smart-light-bulbs). Such pairs are as
    close in the model as synonyms (wife / husband as kids / children), so closeness cannot tell them
    apart: only spelling, inflection or an abbreviation makes two different words one tag. Shared words with
    the rest on either side are overlapping windows on one phrase (marine-conservation-efforts /
    supporting-marine-conservation), and tags with no word in common another wording (bookcase / book-shelf):
    both left to the model."""
    stems_a, stems_b = _stems(a), _stems(b)
    shared = set(stems_a) & set(stems_b)
    only_a, only_b = set(stems_a) - shared, set(stems_b) - shared
    if not only_a or not only_b:
        return False  # the same words, or one tag narrower than the other
    if "-" not in a and "-" not in b:
        return not one_word(a, b)
    if not shared:
        return False
    if len(only_a) == len(only_b) == 1:
        wa = a.split("-")[stems_a.index(next(iter(only_a)))]
        wb = b.split("-")[stems_b.index(next(iter(only_b)))]
        if one_word(wa, wb):
            return False  # js-framework / javascript-framework, colour-scheme / color-scheme
    sides_a, sides_b = _sides(stems_a, shared), _sides(stems_b, shared)
    return sides_a is None or sides_b is None or bool(sides_a & sides_b)


def _sides(stems: list[str], shared: set[str]) -> set[str] | None:
    """Where a tag's own words stand around the words it shares with another: before, after, or None when one
    stands between them."""
    at = [i for i, s in enumerate(stems) if s in shared]
    if at[-1] - at[0] + 1 != len(at):
        return None
    return {side for side, own in (("before", at[0] > 0), ("after", at[-1] < len(stems) - 1)) if own}


def one_word(a: str, b: str) -> bool:
    """Whether two words are one word spelled, inflected or abbreviated two ways (colour / color, centre / center,
    children / child, pic / picture, k8s / kubernetes)."""
    if inflected(a, b) or regular_ending(a, b) or numeronym(a, b) or numeronym(b, a):
        return True
    if is_abbreviation(a, b) or is_abbreviation(b, a):
        return True
    for x, y in ((a, b), (_lemma(a), _lemma(b))):  # colours / color: colour / color
        if min(len(x), len(y)) >= 5 and _spelt_two_ways(x, y):
            return True  # colour / color, centre / center, litre / liter
    return False


def narrower(tag: str, than: str) -> bool:
    """Whether `tag` names a narrower topic than `than`: all its words and more (talent-show / talent, small-group
    / group). A concept is not filed under such a tag, as consolidation never merges the two."""
    return set(_stems(than)) < set(_stems(tag))


def derived(a: str, b: str) -> bool:
    """Whether two one-word tags are different words on one stem (installations / install, glutes / gluten, neck /
    neckline): the model reads them from shared word pieces, so their closeness says little, and consolidation keeps
    such words apart. Inflections of one word (meetings / meeting) are not."""
    if "-" in a or "-" in b or inflected(a, b) or regular_ending(a, b):
        return False
    short, long = sorted((key(a), key(b)), key=len)
    return len(short) >= 3 and long.startswith(short)


def numeronym(short: str, long: str) -> bool:
    match = re.fullmatch(r"([a-z])(\d+)([a-z])", short)
    flat = long.replace("-", "")
    if match is None or len(flat) < 5:
        return False
    a, n, b = match.groups()
    return flat[0] == a and flat[-1] == b and len(flat) - 2 == int(n)
