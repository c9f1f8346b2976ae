"""Tags measured: what store_memory tags a memory with, and what optimize_tags folds.

    python -m bench.tags [--parts merges npm judged cost]

1. merges: the hand-made set bench/data/tags_merges_labelled.json (groups of tags naming one thing, pairs that
   look alike but do not) stored as a store's tags; optimize_tags' plan against it: ideal merges found (each
   group's size less one, groups joined through shared tags), wrong merges (a merge joining two groups or a pair
   kept apart), the groups left apart.
2. npm: the keywords real npm packages carry (bench/data/tags_npm.json), stored as tags; every merge of the plan is
   listed, and those judged by hand (the file's "same" and "different" pairs) counted.
3. judged: the memories of bench/data/tags_judged_200.json ('memories'; apart, 'held_out', judged once the rules
   were final) and of bench/data/tags_judged_everyday.json (one user's everyday memories) stored one after
   another into a fresh store; each
   automatic tag looked up in the file's hand judgements (on topic or not): share on topic, tags per memory, and
   tags whose last word the part-of-speech tagger reads as a verb in the text.
4. cost: the CPU time the tagger's part-of-speech reading takes per memory.
Results: bench/results/tags.json and tags.md.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import time
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any
from unittest import mock

from rich.console import Console

from engram import Memory, Settings
from engram.embed.minilm import default_embedder
from engram.lang.analysis import normalize_tag
from engram.store.values import TagRow
from engram.tags import german, phrases, variants
from engram.tags.context import CONTEXT_TAGS

ROOT = Path(__file__).resolve().parent
LABELLED = ROOT / "data" / "tags_merges_labelled.json"
REGISTRY = ROOT / "data" / "tags_npm.json"
JUDGED = ROOT / "data" / "tags_judged_200.json"
# Everyday memories of one user (bench/data/everyday_user.jsonl) with their tags judged, and the judgements of
# tags later rules gave on the sets above that their judges had not seen (kept apart: those files stay as judged).
EVERYDAY = ROOT / "data" / "tags_judged_everyday.json"
RESULTS = ROOT / "results"
console = Console()


def _register(mem: Memory, usage: dict[str, int]) -> None:
    """Tags in use (with how many memories carry each), as if written over time."""
    names = list(usage)
    vectors = mem.embedder.embed_batch([n.replace("-", " ") for n in names])
    now = datetime.now(UTC)
    for name, vector in zip(names, vectors, strict=True):
        mem.store.put_tag(TagRow(name, usage[name], now, now, vector=vector))
    mem._tags.reload()


def _plan(usage: dict[str, int]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "t.db", embedder=default_embedder()) as mem:
        _register(mem, usage)
        return dict(mem.optimize_tags(dry_run=True))


def merges() -> dict[str, Any]:
    """The plan against the hand-made set, with the word groups of variants.txt and by the rules alone (the list
    and the set were written by the same hand, so the rules alone say how much the list carries)."""
    result = _merges()
    variants.group.cache_clear()  # a tag's group is kept once read: without the list it must be read again
    with mock.patch.object(variants, "_groups", lambda: {}):
        alone = _merges()
    variants.group.cache_clear()
    result["rules_alone"] = {k: alone[k] for k in ("found", "found_share", "wrong_merges", "wrong", "missed")}
    return result


def _merges() -> dict[str, Any]:
    spec = json.loads(LABELLED.read_text(encoding="utf-8"))
    usage = {t["tag"]: int(t["usage"]) for t in spec["tags"]}
    parent = {t: t for t in usage}

    def root(t: str) -> str:
        while parent[t] != t:
            t = parent[t]
        return t

    for group in spec["groups"]:  # groups sharing a tag (python / py, python-language / python) are one
        for t in group[1:]:
            parent[root(t)] = root(group[0])
    gold = {t: root(t) for t in usage}
    clusters: dict[str, set[str]] = {}
    for t, r in gold.items():
        clusters.setdefault(r, set()).add(t)
    ideal = sum(len(c) - 1 for c in clusters.values())
    apart = {frozenset(p) for p in spec["apart"]}
    plan = _plan(usage)
    into = {m["tag"]: m["into"] for m in plan["merges"]}

    def final(t: str) -> str:
        while t in into:
            t = into[t]
        return t

    wrong = [
        m
        for m in plan["merges"]
        if gold[m["tag"]] != gold[m["into"]] or frozenset((m["tag"], m["into"])) in apart
    ]
    apart_joined = [sorted(p) for p in apart if len({final(t) for t in p}) == 1]
    found = sum(len(c) - len({final(t) for t in c}) for c in clusters.values())
    missed = [sorted(c) for c in clusters.values() if len({final(t) for t in c}) > 1]
    return {
        "tags": len(usage),
        "groups": len(clusters) - sum(len(c) == 1 for c in clusters.values()),
        "ideal_merges": ideal,
        "apart_pairs": len(apart),
        "merges": len(plan["merges"]),
        "found": found,
        "found_share": round(found / ideal, 3),
        "wrong_merges": len(wrong),
        "wrong": [f"{m['tag']} -> {m['into']} ({m['reason']}, {m['similarity']})" for m in wrong],
        "apart_joined": apart_joined,
        "missed": missed,
        "reduction": plan["reduction"],
        "ideal_reduction": round(ideal / len(usage), 3),
        "plan": [f"{m['tag']} -> {m['into']} ({m['reason']}, {m['similarity']})" for m in plan["merges"]],
    }


def npm() -> dict[str, Any]:
    spec = json.loads(REGISTRY.read_text(encoding="utf-8"))
    usage: dict[str, int] = {}
    for keywords in spec["packages"].values():
        for tag in {normalize_tag(k) for k in keywords} - {""}:
            usage[tag] = usage.get(tag, 0) + 1
    plan = _plan(dict(sorted(usage.items())))
    same, different = ({frozenset(p) for p in spec[k]} for k in ("same", "different"))
    pairs = [(m["tag"], m["into"]) for m in plan["merges"]]
    return {
        "packages": len(spec["packages"]),
        "tags": plan["tags_before"],
        "after": plan["tags_after"],
        "merges": len(pairs),
        "judged_same": sum(frozenset(p) in same for p in pairs),
        "wrong": [list(p) for p in pairs if frozenset(p) in different],
        "unjudged": [
            f"{m['tag']} -> {m['into']} ({m['reason']}, {m['similarity']})"
            for m in plan["merges"]
            if frozenset((m["tag"], m["into"])) not in same | different
        ],
    }


def judged(path: Path = JUDGED, part: str = "memories") -> dict[str, Any]:
    """The judged memories stored in order into a fresh store; their automatic tags against the judgements."""
    items = json.loads(path.read_text(encoding="utf-8"))[part]
    if EVERYDAY.exists():
        added = json.loads(EVERYDAY.read_text(encoding="utf-8"))["additions"]
        items = [i | {"tags": i["tags"] | added.get(i["text"], {})} for i in items]
    with (
        tempfile.TemporaryDirectory() as tmp,
        Memory(Path(tmp) / "j.db", embedder=default_embedder(), settings=Settings(home=Path(tmp))) as mem,
    ):
        given = [list(mem.store_memory(i["text"])["analysis"]["generated_tags"]) for i in items]
    counts = [len(t) for t in given]
    # Context tags are judged like any other (is the memory urgent, a how-to, ...), so all tags count.
    topical = [[t for t in tags if t not in CONTEXT_TAGS] for tags in given]
    verdicts = [[i["tags"].get(t) for t in tags] for i, tags in zip(items, given, strict=True)]
    flat = [v for vs in verdicts for v in vs]
    unjudged = sorted({t for i, tags in zip(items, given, strict=True) for t in tags if t not in i["tags"]})
    verbs = [
        (t, i["text"])
        for i, tags in zip(items, topical, strict=True)
        for t in tags
        if _ends_in_verb(t, i["text"])
    ]
    context = sum(len(a) - len(b) for a, b in zip(given, topical, strict=True))
    before = [i["tags"][t] for i in items for t in i["before"]]
    return {
        "before": {
            "tags": len(before),
            "on_topic": sum(before),
            "share_on_topic": round(sum(before) / len(before), 3),
            "median_per_memory": statistics.median(len(i["before"]) for i in items),
        },
        "memories": len(items),
        "tags": sum(counts),
        "topic_tags": len(flat),
        "context_tags": context,
        "on_topic": sum(v is True for v in flat),
        "judged": sum(v is not None for v in flat),
        "share_on_topic": round(sum(v is True for v in flat) / max(1, sum(v is not None for v in flat)), 3),
        "unjudged": unjudged,
        "median_per_memory": statistics.median(counts),
        "mean_per_memory": round(statistics.mean(counts), 2),
        "per_memory_range": [min(counts), max(counts)],
        "share_2_to_6": round(sum(2 <= c <= 6 for c in counts) / len(counts), 3),
        "ending_in_verb": [f"{t} <- {text}" for t, text in verbs],
        "off_topic_examples": [
            f"{t} <- {i['text'][:80]}"
            for i, tags in zip(items, given, strict=True)
            for t in tags
            if i["tags"].get(t) is False
        ][:40],
    }


def _ends_in_verb(tag: str, text: str) -> bool:
    """Whether the tag's last word is a verb in the text, read by spaCy's tagger and parser (the project's model,
    whole): a word tagged as a verb (not an -ing form) that the parse does not use as a noun (a subject, an object,
    a modifier of a noun, "Interview with the candidate ... went well"). The text is read twice, as written and
    with each sentence's first word in lower case, since a capital there makes the tagger read an instruction's
    verb as a name and its object as the verb ("Tag memories ..."): a verb in both readings counts. Hyphens are
    skipped when the tag's words are found ("YYYY-MM-DD"); a tag the text does not spell out, such as one mapped
    onto an existing tag, is read alone."""
    if any("\u4e00" <= c <= "\u9fff" for c in tag):  # Chinese: as jieba, which chose it, reads it
        import jieba.posseg

        flags = [w.flag for w in jieba.posseg.cut(text) if w.word == tag]
        return bool(flags) and all(f.startswith("v") and f != "vn" for f in flags)
    # German: its tags are its capitalised nouns, which the English parser reads as anything ("Papa": a verb).
    if german.is_german(text):
        return False
    words = [w for w in tag.split("-") if w]
    lowered = _SENTENCE_START.sub(lambda m: m.group(0).lower(), text)
    verdicts = [_verb_readings(doc, words) for doc in (_parser()(text), _parser()(lowered))]
    if not any(verdicts):
        verdicts = [_verb_readings(_parser()(" ".join(words)), words)]
    return all(v and all(v) for v in verdicts)


_SENTENCE_START = re.compile(r"(?:^|(?<=[.!?]\s))\s*[A-Z](?=[a-z])")
# Dependencies of a word used as a noun, whatever its part-of-speech tag says.
_NOMINAL = frozenset(
    "nsubj nsubjpass dobj pobj iobj attr appos compound npadvmod nmod poss dative oprd".split()  # noqa: SIM905
)


def _verb_readings(doc: Any, words: list[str]) -> list[bool]:
    """For each place the doc holds `words` in a row (hyphens skipped), whether the last is used as a verb."""
    tokens = [t for t in doc if t.tag_ != "HYPH"]
    found = []
    for at in range(len(tokens) - len(words) + 1):
        if [t.text.lower() for t in tokens[at : at + len(words)]] == words:
            last = tokens[at + len(words) - 1]
            found.append(last.tag_.startswith("VB") and last.tag_ != "VBG" and last.dep_ not in _NOMINAL)
    return found


@lru_cache(maxsize=1)
def _parser() -> Any:
    """The project's spaCy model with its parser, which the tagger leaves out: the check reads more than the
    tagger does."""
    import spacy

    return spacy.load(phrases.MODEL, exclude=["ner", "lemmatizer"])


def cost(path: Path = JUDGED) -> dict[str, Any]:
    """Reading a memory's phrases (the part-of-speech tagger and the chunking), in CPU time per memory so that a
    busy machine does not count: the tagger's share of store_memory."""
    texts = [i["text"] for i in json.loads(path.read_text(encoding="utf-8"))["memories"]]
    phrases.topics(texts[0])  # the model loads once, on first use
    reading = []
    for _ in range(3):
        for text in texts:
            start = time.process_time()
            phrases.topics(text)
            reading.append(time.process_time() - start)
    return {
        "memories": len(texts),
        "pos_reading_cpu_p50_ms": round(statistics.median(reading) * 1000, 2),
        "pos_reading_cpu_p95_ms": round(sorted(reading)[int(len(reading) * 0.95)] * 1000, 2),
    }


def render(result: dict[str, Any]) -> list[str]:
    lines = [
        "# Tags",
        "",
        f"Generated by `python -m bench.tags` on {result['date']} ({result['machine']}).",
        "",
    ]
    if "merges" in result:
        m = result["merges"]
        lines += [
            f"## Consolidation on the hand-made set ({m['tags']} tags, {m['groups']} groups, "
            f"{m['apart_pairs']} pairs kept apart)",
            "",
            "| ideal merges | found | share found | wrong merges | merges proposed | reduction | ideal reduction |",
            "|---|---|---|---|---|---|---|",
            f"| {m['ideal_merges']} | {m['found']} | {m['found_share']:.1%} | {m['wrong_merges']} | {m['merges']} | "
            f"{m['reduction']:.1%} | {m['ideal_reduction']:.1%} |",
            "",
            "Wrong: " + (", ".join(m["wrong"]) or "none") + ".",
            "",
            f"By the rules alone (variants.txt left out): {m['rules_alone']['found']} of {m['ideal_merges']} found "
            f"({m['rules_alone']['found_share']:.1%}), {m['rules_alone']['wrong_merges']} wrong; left apart: "
            + (", ".join(" / ".join(c) for c in m["rules_alone"]["missed"]) or "none")
            + ".",
            "",
            "Left apart: " + (", ".join(" / ".join(c) for c in m["missed"]) or "none") + ".",
            "",
        ]
    if "npm" in result:
        r = result["npm"]
        lines += [
            f"## Keywords of {r['packages']} npm packages as tags ({r['tags']} tags)",
            "",
            f"{r['merges']} merges proposed ({r['tags']} -> {r['after']} tags); {r['judged_same']} judged the same "
            f"tag, {len(r['wrong'])} judged different things"
            + (": " + ", ".join(" -> ".join(p) for p in r["wrong"]) if r["wrong"] else "")
            + f", {len(r['unjudged'])} not in the file's judgements:",
            "",
            *[f"- {u}" for u in r["unjudged"]],
            "",
        ]
    for name, title, source in (
        ("judged", "judged memories", "tags_judged_200.json"),
        ("held_out", "held-out judged memories", "tags_judged_200.json"),
        ("everyday", "everyday memories of one user", "tags_judged_everyday.json"),
    ):
        if name not in result:
            continue
        j, b = result[name], result[name]["before"]
        lines += [
            f"## Tags of {j['memories']} {title} (bench/data/{source}, '{name}')",
            "",
            "| run | tags | judged on topic | share on topic | median per memory | mean | range | share with 2-6 "
            "| ending in a verb |",
            "|---|---|---|---|---|---|---|---|---|",
            f"| before (recorded) | {b['tags']} | {b['on_topic']} | {b['share_on_topic']:.1%} | "
            f"{b['median_per_memory']} | | | | |",
            f"| this version | {j['tags']} | {j['on_topic']} of {j['judged']} | {j['share_on_topic']:.1%} | "
            f"{j['median_per_memory']} | {j['mean_per_memory']} | {j['per_memory_range']} | "
            f"{j['share_2_to_6']:.1%} | {len(j['ending_in_verb'])} |",
            "",
            f"Context tags among them: {j['context_tags']}. Not yet judged: {', '.join(j['unjudged']) or 'none'}.",
            "",
            "Ending in a verb: " + ("; ".join(j["ending_in_verb"]) or "none") + ".",
            "",
            "Off topic (first 40): " + "; ".join(j["off_topic_examples"]) + ".",
            "",
        ]
    if "cost" in result:
        c = result["cost"]
        lines += [
            "## Cost",
            "",
            f"Part-of-speech reading per memory over {c['memories']} memories, CPU time: p50 "
            f"{c['pos_reading_cpu_p50_ms']} ms, p95 {c['pos_reading_cpu_p95_ms']} ms.",
            "",
        ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--parts", nargs="*", default=["merges", "npm", "judged", "cost"])
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    path = RESULTS / "tags.json"
    result: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    result["date"] = datetime.now(UTC).isoformat(timespec="seconds")
    result["machine"] = (
        f"{__import__('platform').machine()}, {len(__import__('os').sched_getaffinity(0))} cpus"
    )
    for part, run in (("merges", merges), ("npm", npm), ("judged", judged), ("cost", cost)):
        if part in args.parts:
            result[part] = run()
    if "judged" in args.parts:
        result["held_out"] = judged(part="held_out")
        result["everyday"] = judged(EVERYDAY, part="memories")
    lines = render(result)
    console.print("\n".join(lines))
    if not args.no_write:
        RESULTS.mkdir(exist_ok=True)
        path.write_text(json.dumps(result, indent=2) + "\n")
        (RESULTS / "tags.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
