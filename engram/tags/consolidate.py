"""Tag consolidation: which tags fold into which (engram.tags.naming decides each pair), grouped around a kept
tag so that similarity does not chain; the kept name is the descriptive one, then the most used."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from engram.model.vectors import Matrix, Vector
from engram.store.values import TagRow
from engram.tags.naming import ABBREVIATION_FLOOR, descriptive, never_a_word, same_tag, surnamed
from engram.tags.variants import NAME_SUFFIXES, class_repeat, initials
from engram.tags.variants import group as listed_group

_VOWEL = re.compile(r"[aeiouy]")


@dataclass(frozen=True, slots=True)
class Merge:
    tag: str
    into: str
    reason: str  # spelling | abbreviation | variant | repeat | narrower | similarity
    similarity: float

    @property
    def why(self) -> str:
        """The reason in a sentence a user can check before applying the plan."""
        a, b = f"“{self.tag}”", f"“{self.into}”"
        return {
            "spelling": f"{a} is {b} spelt or inflected another way",
            "abbreviation": f"{a} and {b} are one name, one of them abbreviated",
            "variant": f"{a} and {b} are listed as one thing (another word for it)",
            "repeat": f"{a} repeats {b} with the kind of thing it is",
            "narrower": f"{a} and {b} name one thing, one of them more fully",
        }.get(self.reason, f"{a} and {b} share words and mean the same (similarity {self.similarity:.2f})")


def consolidate(rows: Sequence[TagRow], is_word: Callable[[str], bool] = never_a_word) -> list[Merge]:
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
    near, ambiguous = _candidates([r.tag for r in live], matrix)
    doubled = named_twice([r.tag for r in live])
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
            if reason == "abbreviation" and (i in ambiguous or j in ambiguous):
                continue  # pr: press-release or pull-request? Initials standing for two tags fold into neither
            if reason == "narrower" and doubled(live[i].tag, live[j].tag):
                continue
            if reason is not None:
                canonical_of[j] = i
                merges.append(Merge(live[j].tag, live[i].tag, reason, round(similarity, 4)))
    return _spelled_out(merges, {r.tag: (r, v) for r, v in zip(live, matrix, strict=True)})


def named_twice(tags: Sequence[str]) -> Callable[[str, str], bool]:
    """Whether a name and the name with a surname (tom / tom-ellery) may not be folded among these tags: the name
    opens another tag of two words (tom-baker: two people perhaps), or the surname follows another name
    (eslint-plugin, babel-plugin: a kind of thing)."""
    firsts = Counter(t.split("-")[0] for t in tags if t.count("-") == 1)
    lasts = Counter(t.split("-")[1] for t in tags if surnamed(t) is not None)

    def doubled(a: str, b: str) -> bool:
        fuller = max(a, b, key=len).split("-")
        return len(fuller) == 2 and max(firsts[fuller[0]], lasts[fuller[1]]) > 1

    return doubled


def _spelled_out(merges: list[Merge], rows: dict[str, tuple[TagRow, Vector]]) -> list[Merge]:
    """The longer, descriptive form is kept over an abbreviation however much more the short one is used
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


def _candidates(tags: Sequence[str], matrix: Matrix, block: int = 1024) -> tuple[list[set[int]], set[int]]:
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
    return near, _abbreviations(tags, flat, link)


def _abbreviations(tags: Sequence[str], flat: Sequence[str], link: Callable[[int, int], None]) -> set[int]:
    """Link the pairs whose rules ask for less closeness than the scan above: initials, clips and skeletons of
    short tags, a name with its suffix or its class, and the groups of variants.txt. The short tags that are the
    initials of two tags or more come back: they are ambiguous."""
    ambiguous: set[int] = set()
    index = {f: i for i, f in enumerate(flat)}
    by_initials: dict[str, list[int]] = {}
    by_prefix: dict[str, list[int]] = {}
    by_first: dict[str, list[int]] = {}
    by_group: dict[int, list[int]] = {}
    for i, (tag, f) in enumerate(zip(tags, flat, strict=True)):
        for letters in initials(tag):
            by_initials.setdefault(letters, []).append(i)
        if "-" not in tag:
            for n in range(2, min(6, (len(f) + 1) // 2) + 1):
                by_prefix.setdefault(f[:n], []).append(i)
            if len(f) > 2:
                by_first.setdefault(f[0], []).append(i)
        number = listed_group(tag)
        if number is not None:
            by_group.setdefault(number, []).append(i)
    for members in by_group.values():
        for a, b in itertools.combinations(members, 2):
            link(a, b)
    for i, (tag, f) in enumerate(zip(tags, flat, strict=True)):
        if "-" not in tag and len(f) <= 5:
            stem = f.removesuffix("s") if len(f) > 2 else f
            expansions = {*by_initials.get(f, ()), *by_initials.get(stem, ())}
            if len(expansions) > 1:
                ambiguous.add(i)
            for j in {*expansions, *by_prefix.get(stem, ())}:
                link(i, j)
            if not _VOWEL.search(
                f[1:]
            ):  # a consonant skeleton (js, mgmt): any longer tag of its first letter
                for j in by_first.get(f[0], ()):
                    link(i, j)
        for suffix in NAME_SUFFIXES:
            if f.endswith(suffix) and (j := index.get(f.removesuffix(suffix))) is not None:
                link(i, j)
        name = class_repeat(tag)
        if name is not None and (j := index.get(name.replace("-", ""))) is not None:
            link(i, j)
    return ambiguous


def rank(row: TagRow) -> tuple[bool, int, int]:
    """Which tag of a group is kept: the descriptive one (no abbreviation), then the most used, then the longer."""
    return descriptive(row.tag), row.usage_count, len(row.tag)
