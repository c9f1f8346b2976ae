"""Seed 002 measured: category accuracy, tag consolidation, store_memory / search_memory latency.

    python -m bench.redesign [--parts categories tags registry generated speed] [--size 10000] [--calls 200]

1. Categories, on bench/data/categories_labelled.jsonl (written apart from the prototypes, seen while they were
   revised), bench/data/categories_heldout.jsonl (written after, never used to change them, seen while the linear
   read-out was built) and bench/data/categories_fresh.jsonl (written after the read-out, measured once): the classifier
   alone, i.e. the prototype score fused with the linear read-out (argmax accuracy, accuracy of the decided share
   at the 0.5 fallback; and the prototype score without the read-out), then the write path (every
   statement through `store_memory`, in a fixed shuffled order, into a fresh store: neighbour votes and learning
   take part). Beside it, leave-one-out over the prototype sentences: how separable the seven prototype sets are.
2. Tags, on bench/data/tags_realistic.json: the tags (with their usage) are registered in a fresh store,
   `optimize_tags` consolidates them; reported are the reduction and, against the file's hand-made groups, the
   wrong merges (a merge joining tags of a "distinct" pair, or tags that belong to different groups) and the
   missed ones (tags of one group left apart).
3. Registry tags: the keywords the 300 most downloaded npm packages' authors gave them (bench/data/tags_npm.json),
   registered as the tags of a store (each package one memory), consolidated by `optimize_tags` (dry run); each
   proposed merge is looked up among the file's pairs judged by hand. Tags people wrote freely, for things
   close to a developer's memories.
4. Generated tags: the tags `store_memory` generates for real conversation (1,500 LoCoMo turns and 1,500
   LongMemEval_S sentences), consolidated by `optimize_tags` (dry run); each proposed merge is looked up in
   bench/data/tags_generated_checked.json, merges judged by hand as the same tag or different things. Then 100
   texts from outside that slice are stored, and their tags looked up in bench/data/tags_topical_judged.json,
   tags judged by hand as naming what the text is about or not. All of it twice, each in its own store: as
   store_memory tags, and with every concept a tag (no on-topic floor).
5. Speed: a store of `--size` memories built through `store_memory` (LongMemEval_S sentences, vectors from the
   on-disk cache so building measures the engine), then `--calls` store_memory and search_memory calls with the
   real model embedding inside each call: p50/p95.
Results: bench/results/redesign.json and redesign.md.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console

from bench.datasets import load_locomo
from bench.embedcache import DiskCachedEmbedder
from bench.speed import corpus, pct, queries
from engram import Memory, MiniLM, Settings
from engram.classify.classifier import Classifier
from engram.classify.prototypes import PrototypeSet, classify
from engram.classify.readout import LinearReadout
from engram.embed.embedder import CachedEmbedder
from engram.embed.minilm import default_embedder
from engram.lang.analysis import CONTEXT_TAGS, normalize_tag
from engram.model.record import Category
from engram.store.values import TagRow

ROOT = Path(__file__).resolve().parent
CATEGORIES = ROOT / "data" / "categories_labelled.jsonl"
HELD_OUT = ROOT / "data" / "categories_heldout.jsonl"
FRESH = ROOT / "data" / "categories_fresh.jsonl"
TAGS = ROOT / "data" / "tags_realistic.json"
GENERATED = ROOT / "data" / "tags_generated_checked.json"
REGISTRY = ROOT / "data" / "tags_npm.json"
TOPICAL = ROOT / "data" / "tags_topical_judged.json"
RESULTS = ROOT / "results"
NEAR_COPY = 0.8
console = Console()


def labelled(path: Path = CATEGORIES) -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(r["text"], r["category"]) for r in rows]


def categories() -> dict[str, Any]:
    embedder = default_embedder()
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "p.db", embedder=embedder) as mem:
        classifier = mem._classifiers.categories
        protos = classifier.prototypes()
    taxonomy, rules = classifier.taxonomy, classifier.rules
    seeds = protos.items

    # Leave-one-out over the prototypes: each sentence classified by the others.
    loo = []
    for i, p in enumerate(seeds):
        others = PrototypeSet([q for j, q in enumerate(seeds) if j != i], embedder.dim)
        d = classify(p.vector, others, [], taxonomy, rules, p.opening)
        loo.append(max(d.probabilities, key=lambda k: d.probabilities[k]) == p.label)
    return {
        "prototypes": len(seeds),
        "temperature": round(rules.temperature, 4),
        "prototype_loo_accuracy": round(float(np.mean(loo)), 3),
        "readout": _readout(classifier.readout),
        **_accuracy(labelled(CATEGORIES), embedder, classifier, protos),
        "held_out": _accuracy(labelled(HELD_OUT), embedder, classifier, protos),
        "fresh": _accuracy(labelled(FRESH), embedder, classifier, protos),
    }


def _readout(fitted: LinearReadout | None) -> dict[str, Any]:
    if fitted is None:
        raise SystemExit("the categories classifier has no linear read-out")
    return {
        "regularisation": fitted.regularisation,
        "temperature": fitted.temperature,
        "weight": fitted.weight,
        "held_out_accuracy": fitted.held_out_accuracy,
    }


def _accuracy(
    everything: list[tuple[str, str]], embedder: CachedEmbedder, classifier: Classifier, protos: PrototypeSet
) -> dict[str, Any]:
    """One labelled set: the prototype score alone, then every statement through `store_memory`."""
    fallback_below = Settings().category_fallback_below
    # Decontamination: a statement within cosine 0.8 of a prototype sentence is a near-copy, not a test.
    near = (embedder.embed_batch([t for t, _ in everything]) @ protos.matrix.T).max(axis=1)
    data = [item for item, cos in zip(everything, near, strict=True) if cos <= NEAR_COPY]
    vectors = embedder.embed_batch([t for t, _ in data])
    openings = embedder.embed_batch([classifier.opening(t) or "" for t, _ in data])
    taxonomy, rules = classifier.taxonomy, classifier.rules
    pairs = list(zip(vectors, openings, strict=True))
    decisions = [classify(v, protos, [], taxonomy, rules, o, classifier.readout) for v, o in pairs]
    winners = [max(d.probabilities, key=lambda k: d.probabilities[k]) for d in decisions]
    correct = np.array([w == c for w, (_, c) in zip(winners, data, strict=True)])
    # The prototype score without the linear read-out, to show what the read-out adds.
    plain = [classify(v, protos, [], taxonomy, rules, o).probabilities for v, o in pairs]
    plain_correct = np.array([max(p, key=lambda k: p[k]) == c for p, (_, c) in zip(plain, data, strict=True)])
    decided = np.array([d.confidence >= fallback_below for d in decisions])
    per_category = {
        c.value: round(
            float(np.mean([ok for ok, (_, g) in zip(correct, data, strict=True) if g == c.value])), 3
        )
        for c in Category
    }

    path = _stored([t for t, _ in data], embedder, readout=True)
    path_decided = np.array([c is not None for c in path])
    path_correct = np.array([c == g for c, (_, g) in zip(path, data, strict=True)])
    plain_path = _stored([t for t, _ in data], embedder, readout=False)
    plain_path_correct = np.array([c == g for c, (_, g) in zip(plain_path, data, strict=True)])
    return {
        "statements": len(data),
        "near_copies_left_out": len(everything) - len(data),
        "prototype_score_argmax_correct": int(plain_correct.sum()),
        "prototype_score_argmax_accuracy": round(float(plain_correct.mean()), 3),
        "classifier_alone": {
            "argmax_correct": int(correct.sum()),
            "argmax_accuracy": round(float(correct.mean()), 3),
            "decided_share": round(float(decided.mean()), 3),
            "decided_accuracy": round(float(correct[decided].mean()), 3) if decided.any() else None,
            "per_category": per_category,
        },
        "write_path": {
            "correct": int(path_correct.sum()),
            "accuracy": round(float(path_correct.mean()), 3),
            "decided_share": round(float(path_decided.mean()), 3),
            "decided_accuracy": round(float(path_correct[path_decided].mean()), 3)
            if path_decided.any()
            else None,
            "correct_without_readout": int(plain_path_correct.sum()),
            "accuracy_without_readout": round(float(plain_path_correct.mean()), 3),
        },
    }


def _stored(texts: list[str], embedder: CachedEmbedder, *, readout: bool) -> list[str | None]:
    """Each text's category through `store_memory`, stored in a fixed shuffled order into one fresh store."""
    order = list(range(len(texts)))
    random.Random(7).shuffle(order)
    stored: dict[int, str | None] = {}
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "c.db", embedder=embedder) as mem:
        mem._classifiers.categories.rules = replace(mem._classifiers.categories.rules, readout=readout)
        for i in order:
            stored[i] = mem.store_memory(texts[i])["analysis"]["detected_category"]
    return [stored[i] for i in range(len(texts))]


def tags() -> dict[str, Any]:
    spec = json.loads(TAGS.read_text(encoding="utf-8"))
    group_of = {t: i for i, group in enumerate(spec["same"]) for t in group}
    distinct = {frozenset(p) for p in spec["distinct"]}
    names = [t["tag"] for t in spec["tags"]]
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "t.db", embedder=default_embedder()) as mem:
        _register(mem, {t["tag"]: int(t["usage"]) for t in spec["tags"]})
        report = mem.optimize_tags()
        rows = {r.tag: r for r in mem.store.tags(("active", "archived", "merged"))}
    into = {t: (r.merged_into if r.status == "merged" and r.merged_into else t) for t, r in rows.items()}

    def final(t: str) -> str:
        seen = set()
        while into.get(t, t) != t and t not in seen:
            seen.add(t)
            t = into[t]
        return t

    clusters: dict[str, list[str]] = {}
    for t in names:
        clusters.setdefault(final(t), []).append(t)
    wrong = []
    for members in clusters.values():
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                ga, gb = group_of.get(a), group_of.get(b)
                if frozenset((a, b)) in distinct or ga is None or gb is None or ga != gb:
                    wrong.append(sorted((a, b)))
    missed = [
        sorted({final(t) for t in group}) for group in spec["same"] if len({final(t) for t in group}) > 1
    ]
    ideal = len(names) - sum(len(g) - 1 for g in spec["same"])
    after = len(clusters)
    return {
        "tags": len(names),
        "after": after,
        "reduction": round(1 - after / len(names), 3),
        "ideal_reduction": round(1 - ideal / len(names), 3),
        "merges": len(names) - after,
        "wrong_merges": len(wrong),
        "wrong_examples": wrong[:20],
        "groups": len(spec["same"]),
        "groups_not_joined": len(missed),
        "missed_examples": missed[:20],
        "checked_pairs": len(distinct),
        "report": {k: report[k] for k in ("tags_before", "tags_after", "reduction") if k in report},
    }


def _register(mem: Memory, usage: dict[str, int]) -> None:
    """Tags in use (with how many memories carry each), as if written over time."""
    names = list(usage)
    vectors = mem.embedder.embed_batch([n.replace("-", " ") for n in names])
    now = datetime.now(UTC)
    for name, vector in zip(names, vectors, strict=True):
        mem.store.put_tag(TagRow(name, usage[name], now, now, vector=vector))
    mem._tags.reload()


def _judged(report: dict[str, Any], checked: dict[str, Any]) -> dict[str, Any]:
    """optimize_tags' proposed merges against pairs judged by hand."""
    same, different = ({frozenset(p) for p in checked[k]} for k in ("same", "different"))
    pairs = [(m["tag"], m["into"]) for m in report["merges"]]
    return {
        "tags": report["tags_before"],
        "after": report["tags_after"],
        "reduction": report["reduction"],
        "merges": len(pairs),
        "judged_same": sum(frozenset(p) in same for p in pairs),
        "wrong": [list(p) for p in pairs if frozenset(p) in different],
        "unjudged": [list(p) for p in pairs if frozenset(p) not in same | different],
    }


def registry() -> dict[str, Any]:
    """Keywords real npm packages carry, as the tags of a store: each package one memory."""
    spec = json.loads(REGISTRY.read_text(encoding="utf-8"))
    usage: dict[str, int] = {}
    for keywords in spec["packages"].values():
        for tag in {normalize_tag(k) for k in keywords} - {""}:
            usage[tag] = usage.get(tag, 0) + 1
    raw = {k for keywords in spec["packages"].values() for k in keywords}
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "r.db", embedder=default_embedder()) as mem:
        _register(mem, dict(sorted(usage.items())))
        report = mem.optimize_tags(dry_run=True)
    return {"packages": len(spec["packages"]), "keywords": len(raw), **_judged(report, spec)}


def generated(count: int = 1500) -> dict[str, Any]:
    """Tags store_memory gives real conversation, as it is and with every concept a tag (`tag_on_topic` -1),
    each run in its own store: consolidation, tags per memory, and the tags of the judged texts stored after."""
    texts = [u.text for conv in load_locomo() for u in conv.units][:count] + corpus(count)
    checked = json.loads(GENERATED.read_text(encoding="utf-8"))
    judged = json.loads(TOPICAL.read_text(encoding="utf-8"))["texts"]
    cache = DiskCachedEmbedder(MiniLM())
    runs: dict[str, Any] = {}
    for run, floor in (("on_topic", Settings().tag_on_topic), ("any_concept", -1.0)):
        with (
            tempfile.TemporaryDirectory() as tmp,
            Memory(
                Path(tmp) / "g.db", embedder=cache, settings=Settings(home=Path(tmp), tag_on_topic=floor)
            ) as mem,
        ):
            counts = [len(mem.store_memory(text)["analysis"]["generated_tags"]) for text in texts]
            report = mem.optimize_tags(dry_run=True)
            common = sorted(mem.store.tags(), key=lambda r: (-r.usage_count, r.tag))[:25]
            sample = [mem.store_memory(j["text"])["analysis"]["generated_tags"] for j in judged]
        runs[run] = {
            "floor": floor,
            "per_memory": {
                "mean": round(statistics.mean(counts), 2),
                "five_or_more": round(sum(c >= 5 for c in counts) / len(counts), 3),
                # Seed 002's "tag reuse rate": the share of tag uses that took a tag already in the store
                # rather than creating one (a tag is created once, at its first use).
                "reuse": round(1 - report["tags_before"] / sum(counts), 3),
                "most_used": [f"{r.tag} ({r.usage_count})" for r in common],
            },
            "judged": _topical(judged, sample),
            **_judged(report, checked),
        }
    cache.close()
    return {"texts": len(texts), **runs["on_topic"], "any_concept": runs["any_concept"]}


def _topical(judged: list[dict[str, Any]], sample: list[list[str]]) -> dict[str, Any]:
    """The judged texts' concept tags (context tags left out) against the hand judgements."""
    verdicts = [
        [j["tags"].get(t) for t in tags if t not in CONTEXT_TAGS]
        for j, tags in zip(judged, sample, strict=True)
    ]
    given = [v for vs in verdicts for v in vs]
    topical = sum(v is True for v in given)
    return {
        "texts": len(judged),
        "tags": len(given),
        "topical": topical,
        "precision": round(topical / len(given), 3),
        "topical_kept": round(topical / sum(sum(j["tags"].values()) for j in judged), 3),
        "per_memory": round(len(given) / len(judged), 2),
        "not_yet_judged": sum(v is None for v in given),
    }


def speed(size: int, calls: int) -> dict[str, Any]:
    texts = corpus(size + calls)
    base, fresh = texts[:size], texts[size : size + calls]
    cache = DiskCachedEmbedder(MiniLM())
    cache.embed_batch(base)
    qs = queries(calls)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "speed.db"
        with Memory(path, embedder=cache) as mem:
            start = time.perf_counter()
            for t in base:
                mem.store_memory(t)
            build_s = time.perf_counter() - start
            stored = mem.stats()["memories"]
        cache.close()
        # The embedder users get: MiniLM behind the per-process LRU cache.
        with Memory(path, embedder=CachedEmbedder(MiniLM())) as mem:
            mem.search_memory("warm up the model and the index")
            model = MiniLM()  # a model of its own, so no query is a cache hit
            model.embed_batch(["warm up"])
            store_ms, search_ms, embed_ms = [], [], []
            # The three calls alternate, so that each sees the same moments of a shared, noisy machine.
            for t, q in zip(fresh, qs, strict=True):
                t0 = time.perf_counter()
                model.embed_batch([q])
                t1 = time.perf_counter()
                mem.store_memory(t)
                t2 = time.perf_counter()
                mem.search_memory(q)
                t3 = time.perf_counter()
                embed_ms.append((t1 - t0) * 1000)
                store_ms.append((t2 - t1) * 1000)
                search_ms.append((t3 - t2) * 1000)
            tag_count = len(mem.store.tags())
            # The advanced tools' entry point scores the store's health, tag consolidation included.
            t0 = time.perf_counter()
            mem.discover_memory_tools()
            discover_s = time.perf_counter() - t0
    return {
        "memories": stored,
        "active_tags": tag_count,
        "build_s": round(build_s, 1),
        "calls": calls,
        "embed_p50_ms": round(statistics.median(embed_ms), 2),
        "store_p50_ms": round(statistics.median(store_ms), 2),
        "store_p95_ms": round(pct(store_ms, 0.95), 2),
        "search_p50_ms": round(statistics.median(search_ms), 2),
        "search_p95_ms": round(pct(search_ms, 0.95), 2),
        "discover_s": round(discover_s, 2),
    }


def _table(header: Sequence[str], *rows: Sequence[Any]) -> list[str]:
    """A markdown table, and the blank line after it."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return [*lines, *("| " + " | ".join(str(v) for v in row) + " |" for row in rows), ""]


def _judged_lines(title: str, g: dict[str, Any]) -> list[str]:
    lines = [
        title,
        "",
        *_table(
            ["tags", "after", "reduction", "merges", "judged the same tag", "wrong", "not yet judged"],
            [
                g["tags"],
                g["after"],
                f"{g['reduction']:.1%}",
                g["merges"],
                g["judged_same"],
                len(g["wrong"]),
                len(g["unjudged"]),
            ],
        ),
    ]
    if g["wrong"]:
        lines += ["Wrong merges: " + ", ".join(" -> ".join(p) for p in g["wrong"]), ""]
    if g["unjudged"]:
        lines += ["Not yet judged: " + ", ".join(" -> ".join(p) for p in g["unjudged"]), ""]
    return lines


def render(result: dict[str, Any]) -> list[str]:
    lines = [
        "# Seed 002: categories, tags, two-tool latency",
        "",
        f"Generated by `python -m bench.redesign` on {result['date']} ({result['machine']}). One run on a shared,",
        "noisy machine.",
        "",
    ]
    if "categories" in result:
        c = result["categories"]
        sets = {"labelled set": c, "held-out set": c["held_out"], "fresh set": c["fresh"]}
        everything = sum(x["statements"] for x in sets.values())

        def row(name: str, part: str | None, key: str, pooled_from: str | None = None) -> list[Any]:
            parts = [x if part is None else x[part] for x in sets.values()]
            total = f"{sum(p[pooled_from] for p in parts) / everything:.3f}" if pooled_from else ""
            return [name, *(p[key] for p in parts), total]

        r = c["readout"]

        lines += [
            f"## Categories ({c['prototypes']} prototypes, T={c['temperature']}; prototype leave-one-out accuracy "
            f"{c['prototype_loo_accuracy']})",
            "",
            "Three labelled sets. The first was written beside the prototypes and seen while they were revised; the",
            "held-out set was written after their last revision and has never changed them, but was looked at while",
            "the linear read-out was built; the fresh set was written after that and measured once. Statements",
            f"within cosine {NEAR_COPY} of a prototype sentence are left out as near-copies.",
            "",
            "The classifier alone is the prototype score (mean cosine to each category's 5 closest prototype",
            "sentences, whole text and opening words) fused with a linear read-out of the same sentences: a logistic",
            f"regression with C={r['regularisation']}, T={r['temperature']}, weight {r['weight']}, all chosen by",
            f"held-out log-loss on the prototype sentences themselves (fused accuracy there {r['held_out_accuracy']}).",
            "store_memory adds neighbour votes and learned prototypes; below confidence 0.5 it sets no category.",
            "",
            *_table(
                ["measure", *sets, "all"],
                [
                    "statements (near-copies left out)",
                    *(f"{x['statements']} ({x['near_copies_left_out']})" for x in sets.values()),
                    everything,
                ],
                row(
                    "prototype score alone, argmax accuracy",
                    None,
                    "prototype_score_argmax_accuracy",
                    "prototype_score_argmax_correct",
                ),
                row(
                    "classifier alone, argmax accuracy",
                    "classifier_alone",
                    "argmax_accuracy",
                    "argmax_correct",
                ),
                row(
                    "classifier alone, decided share (confidence >= 0.5)", "classifier_alone", "decided_share"
                ),
                row("classifier alone, decided accuracy", "classifier_alone", "decided_accuracy"),
                row("store_memory accuracy (undecided counts wrong)", "write_path", "accuracy", "correct"),
                row(
                    "store_memory accuracy without the read-out",
                    "write_path",
                    "accuracy_without_readout",
                    "correct_without_readout",
                ),
                row("store_memory decided share", "write_path", "decided_share"),
                row("store_memory decided accuracy", "write_path", "decided_accuracy"),
            ),
            "Classifier-alone argmax accuracy by category:",
            "",
            *_table(
                ["set", *c["classifier_alone"]["per_category"]],
                *([name, *x["classifier_alone"]["per_category"].values()] for name, x in sets.items()),
            ),
        ]
    if "tags" in result:
        t = result["tags"]
        lines += [
            f"## Tag consolidation ({t['tags']} tags, {t['groups']} same-meaning groups, {t['checked_pairs']} "
            "look-alike pairs)",
            "",
            *_table(
                ["tags before", "after", "reduction", "ideal reduction", "wrong merges", "groups left apart"],
                [
                    t["tags"],
                    t["after"],
                    f"{t['reduction']:.0%}",
                    f"{t['ideal_reduction']:.0%}",
                    t["wrong_merges"],
                    t["groups_not_joined"],
                ],
            ),
        ]
        if t["wrong_examples"]:
            lines += ["Wrong merges: " + ", ".join("/".join(p) for p in t["wrong_examples"]), ""]
        if t["missed_examples"]:
            lines += ["Left apart: " + ", ".join("/".join(p) for p in t["missed_examples"]), ""]
    if "registry" in result:
        r = result["registry"]
        title = (
            f"## Keywords of {r['packages']} real npm packages as tags ({r['keywords']} distinct as written, "
            f"{r['tags']} lowercase-hyphenated)"
        )
        lines += _judged_lines(title, r)
    if "generated" in result:
        g = result["generated"]
        lines += _judged_lines(
            f"## Tags generated by store_memory from {g['texts']} real conversation texts", g
        )
        if "per_memory" in g:
            p = g["per_memory"]
            lines += [
                f"Tags per memory: {p['mean']} on average, 5 or more on {p['five_or_more']:.0%}. Tag reuse "
                f"(seed target > 60%): {p['reuse']:.0%} of tag uses took a tag already in the store. "
                f"Most used: {', '.join(p['most_used'])}.",
                "",
            ]
        if "any_concept" in g:
            a, j = g["any_concept"], g["judged"]
            lines += [
                f"### Off-topic concepts left out (cosine to the text under {g['floor']})",
                "",
                f"The same run with every concept a tag, in its own store; then {j['texts']} texts from outside "
                "that slice, stored after it, whose tags were judged by hand as naming what the text is about or "
                "not (bench/data/tags_topical_judged.json, which says how; context tags left out). The last "
                "column is the share of every tag judged on topic, whichever run gave it.",
                "",
                *_table(
                    [
                        "run",
                        "tags per memory",
                        "5 or more",
                        "reduction",
                        "judged texts: tags per memory",
                        "on topic",
                        "share on topic",
                        "share of all on-topic tags",
                        "not yet judged",
                    ],
                    *(
                        [
                            name,
                            r["per_memory"]["mean"],
                            f"{r['per_memory']['five_or_more']:.0%}",
                            f"{r['reduction']:.1%}",
                            r["judged"]["per_memory"],
                            r["judged"]["topical"],
                            r["judged"]["precision"],
                            r["judged"]["topical_kept"],
                            r["judged"]["not_yet_judged"],
                        ]
                        for name, r in (("as stored", g), ("every concept a tag", a))
                    ),
                ),
                f"Every concept a tag, most used: {', '.join(a['per_memory']['most_used'])}.",
                "",
            ]
    if "speed" in result:
        s = result["speed"]
        lines += [
            f"## Latency at {s['memories']} memories ({s['active_tags']} active tags), {s['calls']} calls each",
            "",
            "Each round embeds a query with the bare model, stores a new text and searches with the query, so the "
            "three series see the same moments of the machine.",
            "",
            *_table(
                [
                    "query embed p50 ms",
                    "store_memory p50 ms",
                    "p95 ms",
                    "search_memory p50 ms",
                    "p95 ms",
                    "build s",
                ],
                [
                    s["embed_p50_ms"],
                    s["store_p50_ms"],
                    s["store_p95_ms"],
                    s["search_p50_ms"],
                    s["search_p95_ms"],
                    s["build_s"],
                ],
            ),
            "Targets: store_memory p50 < 30 ms, search_memory p50 < 25 ms (seed: < 200 ms). "
            f"discover_memory_tools (health score with tag consolidation) once: {s.get('discover_s', '-')} s.",
            "",
        ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--parts", nargs="*", default=["categories", "tags", "registry", "generated", "speed"]
    )
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    path = RESULTS / "redesign.json"
    result: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    result["date"] = datetime.now(UTC).isoformat(timespec="seconds")
    result["machine"] = (
        f"{__import__('platform').machine()}, {len(__import__('os').sched_getaffinity(0))} cpus"
    )
    if "categories" in args.parts:
        result["categories"] = categories()
    if "tags" in args.parts:
        result["tags"] = tags()
    if "registry" in args.parts:
        result["registry"] = registry()
    if "generated" in args.parts:
        result["generated"] = generated()
    if "speed" in args.parts:
        result["speed"] = speed(args.size, args.calls)
    lines = render(result)
    console.print("\n".join(lines))
    if not args.no_write:
        RESULTS.mkdir(exist_ok=True)
        path.write_text(json.dumps(result, indent=2) + "\n")
        (RESULTS / "redesign.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
