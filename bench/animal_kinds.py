"""Writes engram/recall/kinds.txt: every name WordNet gives a kind of dog and of domestic cat (the hyponyms of
dog.n.01 and domestic_cat.n.01), the words a memory may name a pet by ("Bramble (springer, 6)"). Reads the noun
database of Debian's wordnet-base package: `python -m bench.animal_kinds [/usr/share/wordnet]`."""

from __future__ import annotations

import sys
from pathlib import Path

KINDS = {"dog": "dog", "cat": "domestic_cat"}  # the word a question says: the WordNet lemma of its kind
OUT = Path(__file__).resolve().parent.parent / "engram" / "recall" / "kinds.txt"


def _synsets(data: Path) -> dict[str, tuple[list[str], list[str]]]:
    """Each noun synset's lemmas and the synsets directly under it (hyponyms and instances)."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for line in data.read_text(encoding="latin-1").splitlines():
        if line.startswith("  "):  # the licence
            continue
        fields = line.split(" | ")[0].split()
        count = int(fields[3], 16)
        lemmas = [fields[4 + 2 * i] for i in range(count)]
        at = 4 + 2 * count
        pointers = int(fields[at])
        under = []
        for i in range(pointers):
            symbol, offset, pos = fields[at + 1 + 4 * i : at + 4 + 4 * i]
            if pos == "n" and symbol in ("~", "~i"):
                under.append(offset)
        out[fields[0]] = (lemmas, under)
    return out


def kinds(root: Path) -> dict[str, list[str]]:
    synsets = _synsets(root / "data.noun")
    out: dict[str, list[str]] = {}
    for word, lemma in KINDS.items():
        top = next(o for o, (lemmas, _) in synsets.items() if lemma in (x.lower() for x in lemmas))
        seen: set[str] = set()
        stack = [top]
        while stack:
            offset = stack.pop()
            if offset not in seen:
                seen.add(offset)
                stack += synsets[offset][1]
        names = {x.lower().replace("_", " ") for o in seen for x in synsets[o][0]}
        out[word] = sorted(n for n in names if n != word and not n.startswith(("canis ", "felis ")))
    return out


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/wordnet")
    head = [
        '# The names of kinds of an animal people keep, by the word a question says ("the dog"): each kind\'s',
        "# names in WordNet 3.0 (every hyponym of dog.n.01 and domestic_cat.n.01), written by bench/animal_kinds.py.",
        '# A memory naming a pet by one of these ("Bramble (springer, 6)", "our beagle Pickle") says which pet',
        "# the word means.",
    ]
    body = [f"{word}: {', '.join(names)}" for word, names in kinds(root).items()]
    OUT.write_text("\n".join([*head, *body]) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
