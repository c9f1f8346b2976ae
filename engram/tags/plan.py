"""A new memory's tags: its concept phrases that are about the text, mapped onto the tags in use where one is the
same word or close in meaning (unless kept apart), then the context and caller tags."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engram.lang.text import unspaced
from engram.model.vectors import Matrix, Vector
from engram.tags.naming import MAP_THRESHOLD, kept_apart
from engram.tags.vocabulary import Vocabulary


@dataclass(frozen=True, slots=True)
class TagPlan:
    tags: tuple[str, ...]
    mapped: dict[str, str]  # concept tag -> the existing tag used for it
    new: tuple[str, ...]  # tags this memory adds to the vocabulary


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
    same_of = [vocabulary.spelled(c) or vocabulary.listed(c) for c in concepts]
    # A concept already spelled as a tag, or listed as one with it (variants.txt), takes it: only the others are
    # looked up by meaning, and not those in scripts without spaces: the model knows too little Chinese to tell
    # its words apart (无线网络, wireless network, came within 0.7 of 准时到达, arrive on time).
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
