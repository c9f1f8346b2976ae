"""Tag intelligence (seed 002): map a memory's concepts onto the tags already in use, and consolidate tags.

Generation: each concept (a keyphrase of the memory) gives the runs of its words that name a topic
(`analysis.topics`: cut at function words, at words that only say when, such as "tomorrow" or "Tuesday", and at
words that ask for it to be kept, "remember", "remind", and at words that are only verbs or adverbs, which are left
out: "started hiking", "turtles always cheer"; a word alone must be able to name a topic: "hiking", "passport", not
"started" or "awesome"; a name in the text always can). A concept must also be about the text
(`on_topic`): its embedding within cosine 0.2 of the text's (Settings.tag_on_topic), which leaves out the words a
chat line uses in passing ("good", "lot", "making", "sounds great"); names in the text stay. Each becomes a tag; if
an active tag is the same word or its embedding is within cosine 0.7 of the concept's, the existing tag is used
instead, so the vocabulary is reused rather than grown; but not a narrower tag, one with all the concept's words
and more (`narrower`: "talent" is not filed under talent-show, nor "dough" under dough-gently), nor another word on
the same stem (`derived`: glutes / gluten, neck / neckline), both of which consolidation keeps apart too.
Context tags (urgent, deadline, decision, ...) and the caller's tags join; at most 10 in all. A short memory has
fewer concepts and so fewer tags ("Buy milk" one), rather than tags padded with weak words: of 3,000 real
conversation texts (LoCoMo turns and LongMemEval_S sentences, bench.redesign), 45% got 5 or more, 4.4 on
average (71% and 5.8 with every concept a tag; 83% and 7.0 while chat words such as "wow", "yeah", "awesome" and
"feel" were tags). On 220 texts judged by hand, 65% of the tags name what the text is about, against 53% with
every concept a tag (588 on-topic tags against 627).

Consolidation: two tags are the same tag when they are spelling variants (hyphens; inflections a dictionary
knows, meetings / meeting, while the embeddings agree, cosine >= 0.6; regular endings of words it does not know,
args / arg, above 0.8; one letter apart, not the first, in words of five or more letters: colour / color), when
one is the numeronym of the other (k8s / kubernetes), when one is the initials, consonant skeleton or a short clip
of the other (ml / machine-learning, js / javascript, py / python) and their embeddings still agree (cosine >=
0.6), or when two phrases that share a word have embeddings above cosine 0.8. A clip must not be a word of the
model's vocabulary itself (add / additional, max / maximize), nor may the rest of the longer tag be one (json /
jsonschema, npm / npmignore: a compound names something narrower); a longer word's first letters are a clip,
never a consonant skeleton (http / https); and a skeleton stands for one word only (end is not ending-points).
Words sharing a stem but not inflections of one word (function / functional, serial / serializer) are two tags.
On the keywords of real npm packages the rules before these merged 18 pairs of different things in 145; these
merge 1 in 118 (bench/results/redesign.md). Embeddings place related and opposite things close together, so
similarity alone never merges: phrases with no word in common (google-sheets / microsoft-excel) or with one word
swapped for another in the same place (cold-ocean-currents / warm-ocean-currents) stay apart, as do tags with
different numbers (python2 / python3) and a tag and a narrower one that contains it (ts / ts-node, java /
prefers-java). The kept name is the descriptive one (not an abbreviation), then the most used, then the longer.
Merged tags are marked, never deleted.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numkong as nk
import numpy as np
import simplemma
from jellyfish import levenshtein_distance
from snowballstemmer import stemmer

from engram.embed.quantized import Encoded, bounds, encode, rescaled, shortlist
from engram.lang.text import unspaced
from engram.model.vectors import Matrix, Vector
from engram.store.values import TagRow

MAP_THRESHOLD = 0.7
PACK_AT = 2048  # tags from which the vocabulary keeps a packed 8-bit copy
MERGE_THRESHOLD = 0.8
ABBREVIATION_FLOOR = 0.6
_STEM = stemmer("english")
_VOWEL = re.compile(r"[aeiouy]")


class Vocabulary:
    """The active tags and their embeddings, stacked for one matrix product per lookup. Rows live in a buffer
    that doubles when full, and each tag's spelling key is kept, so adding a tag or mapping a concept costs
    the same with 20 tags as with 20,000."""

    def __init__(self, names: Sequence[str] = (), matrix: Matrix | None = None, dim: int = 1) -> None:
        self.names: list[str] = list(names)
        self._dim = dim if matrix is None else int(matrix.shape[1])
        self._rows: Matrix = (
            np.zeros((0, self._dim), dtype=np.float32) if matrix is None else matrix.astype(np.float32)
        )
        self._index = {t: i for i, t in enumerate(self.names)}
        self.by_key: dict[str, str] = {}
        for t in self.names:
            self.by_key.setdefault(key(t), t)
        # An 8-bit copy of the first rows, packed, for `_approximate`; one tuple, so readers see a matching set.
        self._packed: tuple[Any, int, Encoded | None] = (None, 0, None)

    @classmethod
    def of(cls, rows: Sequence[TagRow], dim: int) -> Vocabulary:
        kept = [(r.tag, r.vector) for r in rows if r.vector is not None]
        if not kept:
            return cls(dim=dim)
        return cls([t for t, _ in kept], np.stack([v for _, v in kept]))

    @property
    def matrix(self) -> Matrix:
        return self._rows[: len(self.names)]

    def add(self, tag: str, vector: Vector) -> None:
        if tag in self._index:
            return
        n = len(self.names)
        if n == self._rows.shape[0]:
            grown = np.zeros((max(64, 2 * n), vector.shape[0]), dtype=np.float32)
            grown[:n] = self._rows[:n]
            self._rows = grown
        self._rows[n] = vector
        self.names.append(tag)
        self._index[tag] = n
        self.by_key.setdefault(key(tag), tag)

    def spelled(self, tag: str) -> str | None:
        """The active tag that is `tag` spelled another way (hyphens, plural or another inflection), if any."""
        found = self.by_key.get(key(tag))
        return found if found is not None and inflected(found, tag) else None

    def vector(self, tag: str) -> Vector | None:
        row = self._index.get(tag)
        return None if row is None else self._rows[row]

    def closest(self, vector: Vector) -> tuple[str, float] | None:
        return self.closest_many(vector[None, :])[0]

    def closest_many(self, vectors: Matrix) -> list[tuple[str, float] | None]:
        """Each vector's nearest tag and its cosine."""
        return [near[0] if near else None for near in self.nearest(vectors, 1)]

    def nearest(self, vectors: Matrix, k: int) -> list[list[tuple[str, float]]]:
        """Each vector's `k` nearest tags with their cosines, best first: those of the full product. The
        vocabulary is scanned at 8-bit precision, and the tags that can be among the best k are scored again
        at full precision (`engram.quantized`)."""
        n = len(self.names)
        if n == 0 or len(vectors) == 0:
            return [[] for _ in range(len(vectors))]
        k = min(k, n)
        approx, bound = self._approximate(vectors)
        out = []
        for r in range(len(vectors)):
            rows = shortlist(approx[r], bound[r], k)
            exact = self._rows[rows] @ vectors[r]
            best = np.argsort(-exact, kind="stable")[:k]
            out.append([(self.names[int(rows[j])], float(exact[j])) for j in best])
        return out

    def _approximate(self, vectors: Matrix) -> tuple[Matrix, Matrix]:
        """Each vector's product with every tag, and how far off it can be. The product only streams the
        vocabulary through memory, so the bulk of it is read from a packed 8-bit copy (numkong), a quarter of
        the bytes: for seven tag phrases against 12,000 tags, 1.2 ms against 3.5-4.8 for numpy.
        Tags added since the copy was packed are read at full precision."""
        n = len(self.names)
        packed, upto, head = self._packed
        if head is None or n - upto > max(PACK_AT, upto // 4):  # repacking 12,000 tags takes about 35 ms
            if n < PACK_AT:
                exact: Matrix = vectors @ self.matrix.T
                return exact, np.zeros_like(exact)
            head = encode(self._rows[:n])
            packed, upto = nk.dots_pack(head.codes, dtype="int8"), n
            self._packed = (packed, upto, head)
        mine = encode(vectors)
        approx = rescaled(np.asarray(nk.dots_packed(mine.codes, packed)), mine, head.scales)
        bound = bounds(mine, head.scales, head.l1, self._dim)
        if n > upto:
            tail = vectors @ self._rows[upto:n].T
            approx, bound = np.hstack([approx, tail]), np.hstack([bound, np.zeros_like(tail)])
        return approx, bound


@dataclass(frozen=True, slots=True)
class TagPlan:
    tags: tuple[str, ...]
    mapped: dict[str, str]  # concept tag -> the existing tag used for it
    new: tuple[str, ...]  # tags this memory adds to the vocabulary


@lru_cache(maxsize=65536)
def key(tag: str) -> str:
    """Spelling-insensitive form: no hyphens, each word stemmed (meetings ~ meeting, e-mail ~ email)."""
    return "".join(_stems(tag))


@lru_cache(maxsize=65536)
def _lemma(word: str) -> str:
    return str(simplemma.lemmatize(word, lang="en")).lower()  # it capitalises some (urls: URL)


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


def _never(word: str) -> bool:
    return False


def _word_of_its_own(text: str, is_word: Callable[[str], bool]) -> bool:
    """A word of the model's vocabulary, or a dictionary word of five letters or more (shorter dictionary
    entries include fragments such as "thon")."""
    return is_word(text) or (len(text) >= 5 and simplemma.is_known(text, lang="en"))


def is_abbreviation(short: str, long: str, is_word: Callable[[str], bool] = _never) -> bool:
    """Initials (ml: machine-learning), a numeronym (k8s: kubernetes), a leading clip that is not a word of its
    own (py: python; `is_word` knows the vocabulary) or the consonant skeleton of one word (js: javascript)."""
    s, words, flat = short.replace("-", ""), [w for w in long.split("-") if w], long.replace("-", "")
    if not s or len(s) >= len(flat) or s in words:
        return False  # ts / ts-node: a word of the long tag names something narrower, not an abbreviation
    if len(words) > 1 and s == "".join(w[0] for w in words):
        return True
    numeronym = re.fullmatch(r"([a-z])(\d+)([a-z])", s)
    if numeronym:
        a, n, b = numeronym.groups()
        return flat[0] == a and flat[-1] == b and len(flat) - 2 == int(n)
    clip = s.removesuffix("s") if len(s) > 2 and not s.endswith("ss") else s  # docs: doc; access is no plural
    if len(words) > 1:
        return False
    if 2 * len(clip) < len(flat) and flat.startswith(clip):
        # A clip keeps under half the word (py / python, config / configuration) and is no word of its own;
        # nor is what it leaves off: json / jsonschema, fs / fsevents, npm / npmignore name a narrower thing.
        return not is_word(clip) and not _word_of_its_own(flat[len(clip) :], is_word)
    if len(s) > 5 or flat.startswith(s) or s[0] != flat[0] or _VOWEL.search(s[1:]):
        # A longer word's first letters are a clip or nothing (http / https, ws / wsl), not its skeleton.
        return False
    lemma = _lemma(s)
    if lemma != s and len(lemma) >= 3:
        # An inflected word (arts: art) is no coined skeleton of another (artist). A shorter "lemma" is the
        # dictionary reading a final s as a plural (js: j).
        return False
    rest = iter(flat[1:])
    return all(ch in rest for ch in s[1:])  # a subsequence of the long form


def descriptive(tag: str) -> bool:
    return len(tag.replace("-", "")) > 3 and bool(_VOWEL.search(tag))


def plan_tags(
    concepts: Sequence[str],
    vectors: Matrix,
    vocabulary: Vocabulary,
    extra: Sequence[str],
    *,
    maximum: int = 10,
) -> TagPlan:
    """Tags for a memory: `concepts` (normalised, best first, with their embeddings), mapped onto the
    vocabulary where possible, then `extra` (context and caller tags), at most `maximum`."""
    out: dict[str, None] = {}
    mapped: dict[str, str] = {}
    new: list[str] = []
    same_of = [vocabulary.spelled(c) for c in concepts]
    # A concept already spelled as a tag takes it: only the others are looked up by meaning, and not those in
    # scripts without spaces: the model knows too little Chinese to tell its words apart (无线网络, wireless
    # network, came within 0.7 of 准时到达, arrive on time).
    unknown = [i for i, same in enumerate(same_of) if same is None and not unspaced(concepts[i])]
    closest: list[tuple[str, float] | None] = [None] * len(concepts)
    for i, close in zip(unknown, vocabulary.closest_many(vectors[unknown]), strict=True):
        closest[i] = close
    for concept, same, close in zip(concepts, same_of, closest, strict=True):
        if same is not None:
            target = same
        elif close is not None and close[1] >= MAP_THRESHOLD and not kept_apart(close[0], concept):
            target = close[0]
        else:
            target = concept
            new.append(concept)
        if target != concept:
            mapped[concept] = target
        out.setdefault(target, None)
    extras = list(dict.fromkeys(vocabulary.spelled(t) or t for t in extra))
    new += [t for t in extras if vocabulary.spelled(t) is None and t not in new]
    room = max(0, maximum - len(extras))  # caller and context tags are never cut
    tags = tuple(dict.fromkeys([*[t for t in out if t not in extras][:room], *extras]))
    return TagPlan(tags, mapped, tuple(t for t in new if t in tags))


def on_topic(
    tags: Sequence[str], vectors: Matrix, content: Vector | None, names: set[str], floor: float
) -> list[bool]:
    """Whether each concept tag is about the text: its embedding within cosine `floor` of the text's. Words a
    short chat line uses in passing ("good", "lot", "making", "sounds great") sit far from what it is about. Names
    in the text stay, and so do words the model cannot read apart (Chinese, see `plan_tags`)."""
    if content is None:
        return [True] * len(tags)
    close = vectors @ content >= floor
    return [bool(near) or tag in names or unspaced(tag) for tag, near in zip(tags, close, strict=True)]


@dataclass(frozen=True, slots=True)
class Merge:
    tag: str
    into: str
    reason: str  # spelling | abbreviation | similarity
    similarity: float


def consolidate(rows: Sequence[TagRow], is_word: Callable[[str], bool] = _never) -> list[Merge]:
    """Which tags fold into which. Groups are built around a canonical tag, so similarity does not chain
    (a ~ b ~ c does not merge a with c unless each is close to the kept tag). `is_word` tells whether a
    string is a whole word of the embedding model's vocabulary (such a word is not a clip of a longer one)."""
    live = [r for r in rows if r.status == "active" and r.vector is not None]
    if len(live) < 2:
        return []
    is_word = lru_cache(maxsize=None)(is_word)  # asked again for the same clip against many tags
    matrix = np.stack([r.vector for r in live if r.vector is not None]).astype(np.float32)
    order = sorted(range(len(live)), key=lambda i: rank(live[i]), reverse=True)
    position = {i: at for at, i in enumerate(order)}
    near = _candidates([r.tag for r in live], matrix)
    canonical_of: dict[int, int] = {}
    merges: list[Merge] = []
    for i in order:  # the most canonical-looking tags claim their variants first
        if i in canonical_of:
            continue
        canonical_of[i] = i
        for j in sorted(near[i], key=position.__getitem__):
            if j in canonical_of:
                continue
            similarity = float(matrix[i] @ matrix[j])
            reason = same_tag(live[i].tag, live[j].tag, similarity, is_word)
            if reason is not None:
                canonical_of[j] = i
                merges.append(Merge(live[j].tag, live[i].tag, reason, round(similarity, 4)))
    return _spelled_out(merges, {r.tag: (r, v) for r, v in zip(live, matrix, strict=True)})


def _spelled_out(merges: list[Merge], rows: dict[str, tuple[TagRow, Vector]]) -> list[Merge]:
    """Seed 002 keeps the longer, descriptive form over an abbreviation however much more the short one is used
    (auth / authentication): a group gathered around a clip or skeleton is kept under the most used of the tags
    it took in as that abbreviation's long form. The others keep their reason, said of the tag they joined."""
    groups: dict[str, list[Merge]] = {}
    for merge in merges:
        groups.setdefault(merge.into, []).append(merge)
    out: list[Merge] = []
    for kept, group in groups.items():
        longer = [m.tag for m in group if m.reason == "abbreviation" and len(m.tag) > len(kept)]
        if not longer:
            out += group
            continue
        name = max(longer, key=lambda t: (rows[t][0].usage_count, len(t)))
        vector = rows[name][1]
        out.append(Merge(kept, name, "abbreviation", round(float(rows[kept][1] @ vector), 4)))
        out += [
            replace(m, into=name, similarity=round(float(rows[m.tag][1] @ vector), 4))
            for m in group
            if m.tag != name
        ]
    return out


def _candidates(tags: Sequence[str], matrix: Matrix, block: int = 1024) -> list[set[int]]:
    """For each tag, the others `same_tag` could join it with: embeddings at the abbreviation floor or closer
    (every rule asks that, or more, but two), the same letters without hyphens, or a numeronym's letters and
    count. Asking `same_tag` of every pair took minutes at ten thousand tags."""
    near: list[set[int]] = [set() for _ in tags]

    def link(a: int, b: int) -> None:
        if a != b:
            near[a].add(b)
            near[b].add(a)

    for start in range(0, len(tags), block):
        # A hair under the floor: `same_tag` reads each pair's own product, which may round the other way.
        close = matrix[start : start + block] @ matrix.T >= ABBREVIATION_FLOOR - 1e-4
        rows, cols = np.nonzero(close)
        for offset, found in enumerate(np.split(cols, np.searchsorted(rows, np.arange(1, len(close))))):
            near[start + offset].update(found.tolist())
            near[start + offset].discard(start + offset)
    flat = [t.replace("-", "") for t in tags]
    spelled: dict[str, list[int]] = {}
    ends: dict[tuple[str, str, int], list[int]] = {}
    for i, f in enumerate(flat):
        spelled.setdefault(f, []).append(i)
        if len(f) >= 5:
            ends.setdefault((f[0], f[-1], len(f) - 2), []).append(i)
    for group in spelled.values():
        for a, b in itertools.combinations(group, 2):
            link(a, b)
    for i, tag in enumerate(tags):
        short = re.fullmatch(r"([a-z])(\d+)([a-z])", tag)
        if short is not None:
            for j in ends.get((short[1], short[3], int(short[2])), ()):
                link(i, j)
    return near


def rank(row: TagRow) -> tuple[bool, int, int]:
    return descriptive(row.tag), row.usage_count, len(row.tag)


def same_tag(keep: str, other: str, similarity: float, is_word: Callable[[str], bool] = _never) -> str | None:
    if keep.replace("-", "") == other.replace("-", ""):
        return "spelling"  # machine-learning / machinelearning, e-mail / email
    if key(keep) == key(other):
        # meetings / meeting, while the embeddings agree. An ending the dictionary does not confirm must find
        # them as close as any merged pair (http / https, 0.71, stay apart). Same stem, other words (function /
        # functional) go on to the rules below, as any two tags do.
        if inflected(keep, other):
            return "spelling" if similarity >= ABBREVIATION_FLOOR else None
        if regular_ending(keep, other) and similarity > MERGE_THRESHOLD:
            return "spelling"
    if numeronym(other, keep) or numeronym(keep, other):
        return "abbreviation"  # letter count, first and last letter: specific enough on its own
    if re.findall(r"\d+", keep) != re.findall(r"\d+", other):
        return None  # python2 / python3, es5 / es6: versions are different things
    abbreviation = is_abbreviation(other, keep, is_word) or is_abbreviation(keep, other, is_word)
    if abbreviation and similarity >= ABBREVIATION_FLOOR:
        return "abbreviation"
    if similarity <= MERGE_THRESHOLD:
        return None
    words_a, words_b = keep.split("-"), other.split("-")
    if len(words_a) == len(words_b) == 1:
        # colour / color, organisation / organization; in short words one letter is a new word (cat / car),
        # and so is a changed first letter in any (setprototypeof / getprototypeof).
        close = (
            min(len(keep), len(other)) >= 5 and keep[0] == other[0] and levenshtein_distance(keep, other) == 1
        )
        return "spelling" if close else None
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
    close in the model as synonyms (wife / husband 0.87, kids / children 0.89), so closeness cannot tell them
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
        short, long = sorted((x, y), key=len)
        british = long.endswith("re") and short == long[:-2] + "er"  # centre / center, litre / liter
        if len(short) >= 5 and x[0] == y[0] and (levenshtein_distance(x, y) == 1 or british):
            return True
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
