"""A label set as data (engram/classify/data/<name>.json): the kinds, the categories and the extraction
kinds, each label with a description and prototype sentences; and the "kind: text" prefix that names a label."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True, slots=True)
class Taxonomy:
    """A label set as data: name, labels with descriptions and prototype sentences, and a fallback label."""

    name: str
    descriptions: dict[str, str]
    prototypes: dict[str, tuple[str, ...]]
    fallback: str

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.descriptions)

    @property
    def learnable(self) -> tuple[str, ...]:
        return tuple(label for label, texts in self.prototypes.items() if texts)


def load_taxonomy(name: str, fallback: str) -> Taxonomy:
    """Read engram/classify/data/<name>.json: {"labels": {label: {"description": ..., "prototypes": [...]}}}."""
    raw = json.loads(
        resources.files("engram.classify").joinpath(f"data/{name}.json").read_text(encoding="utf-8")
    )
    labels = raw["labels"]
    return Taxonomy(
        name=name,
        descriptions={k: v["description"] for k, v in labels.items()},
        prototypes={k: tuple(v["prototypes"]) for k, v in labels.items()},
        fallback=fallback,
    )


_PREFIX = re.compile(r"^\s*([A-Za-z_]+)\s*:\s*(\S.*)$", re.DOTALL)


def split_prefix(content: str, labels: Iterable[str]) -> tuple[str | None, str]:
    """`task: buy milk` -> ("task", "buy milk") when the prefix names a label; else (None, content)."""
    match = _PREFIX.match(content)
    if match and match.group(1).lower() in set(labels):
        return match.group(1).lower(), match.group(2)
    return None, content
