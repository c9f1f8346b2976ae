"""Writes what `engram.tags.postag` runs, read from spaCy's English tagger (tok2vec, tagger, attribute ruler): the
weights as arrays, the tokenizer's rules and the tables its features read. Run once in a process of its own
(`python -m engram.tags.tagger_export DIR`), so that a serving process never imports spaCy to tag."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np

# The attribute ruler's conditions and results the tagged tokens carry: the rest (lemmas, morphology, the
# parser's labels) no caller of the exported tagger reads.
_READ = frozenset({"TAG", "LOWER", "IS_SPACE", "DEP"})
_SET = frozenset({"TAG", "POS"})


def export(model: str, to: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import spacy
        from spacy.lang.norm_exceptions import BASE_NORMS
        from spacy.symbols import IDS  # type: ignore[import-not-found]

        nlp: Any = spacy.load(model, exclude=["parser", "ner", "lemmatizer", "senter", "strings"])
    arrays: dict[str, Any] = {}
    seeds, columns = [], []
    layers = [
        n for n in nlp.get_pipe("tok2vec").model.walk() if n.name in {"hashembed", "maxout", "layernorm"}
    ]
    maxouts = 0
    for layer in layers:
        if layer.name == "hashembed":
            arrays[f"embed{layer.attrs['column']}"] = layer.get_param("E")
            seeds.append(int(layer.attrs["seed"]))
            columns.append(int(layer.attrs["column"]))
        elif layer.name == "maxout":
            arrays[f"maxout{maxouts}_W"] = layer.get_param("W")
            arrays[f"maxout{maxouts}_b"] = layer.get_param("b")
        else:
            arrays[f"norm{maxouts}_G"] = layer.get_param("G")
            arrays[f"norm{maxouts}_b"] = layer.get_param("b")
            maxouts += 1
    if columns != list(range(len(columns))) or maxouts != 5:
        raise ValueError(
            f"{model}: not the tok2vec this export reads ({len(columns)} tables, {maxouts} layers)"
        )
    (extract,) = [n for n in nlp.get_pipe("tok2vec").model.walk() if n.name == "extract_features"]
    (encoder,) = [n for n in nlp.get_pipe("tok2vec").model.walk() if n.name.startswith("with_array(residual")]
    (output,) = [n for n in nlp.get_pipe("tagger").model.walk() if n.name == "softmax"]
    arrays["output_W"] = output.get_param("W")
    arrays["output_b"] = output.get_param("b")
    tokenizer: Any = nlp.tokenizer
    ruler = [
        {
            "patterns": p["patterns"],
            "attrs": {k: v for k, v in p["attrs"].items() if k in _SET},
            "index": p["index"],
        }
        for p in nlp.get_pipe("attribute_ruler").patterns
        if _SET & p["attrs"].keys()
    ]
    for rule in ruler:
        for pattern in rule["patterns"]:
            for token in pattern:
                if token.keys() - _READ or any(
                    isinstance(v, dict) and v.keys() - {"IN", "NOT_IN"} for v in token.values()
                ):
                    raise ValueError(
                        f"{model}: an attribute ruler pattern this export does not read: {token}"
                    )
    tables = {
        "model": model,
        "features": list(extract.attrs["columns"]),
        "seeds": seeds,
        "pad": int(encoder.attrs["pad"]),
        "labels": list(nlp.get_pipe("tagger").labels),
        "ruler": ruler,
        "prefix": tokenizer.prefix_search.__self__.pattern,
        "suffix": tokenizer.suffix_search.__self__.pattern,
        "infix": tokenizer.infix_finditer.__self__.pattern,
        "token_match": tokenizer.token_match.__self__.pattern if tokenizer.token_match else None,
        "url_match": tokenizer.url_match.__self__.pattern if tokenizer.url_match else None,
        "faster_heuristics": bool(tokenizer.faster_heuristics),
        "rules": {
            text: [[t[65], t.get(67)] for t in tokens] for text, tokens in _int_rules(tokenizer).items()
        },
        "lexeme_norm": dict(nlp.vocab.lookups.get_table("lexeme_norm").items()),
        "base_norms": dict(BASE_NORMS),
        "symbols": {name: int(value) for name, value in IDS.items() if name},
    }
    to.mkdir(parents=True, exist_ok=True)
    save: Any = np.savez
    save(to / "weights.npz", **{k: np.ascontiguousarray(v, dtype=np.float32) for k, v in arrays.items()})
    (to / "tables.json").write_text(json.dumps(tables, ensure_ascii=False), encoding="utf-8")


def _int_rules(tokenizer: Any) -> dict[str, list[dict[int, str]]]:
    """The tokenizer's special cases, each token's attributes keyed ORTH (65) and NORM (67) as spaCy's ids."""
    from spacy.attrs import NORM, ORTH, intify_attrs  # type: ignore[import-not-found]

    assert (ORTH, NORM) == (65, 67)
    return {
        text: [intify_attrs(dict(t), _do_deprecated=True) for t in tokens]
        for text, tokens in tokenizer.rules.items()
    }


if __name__ == "__main__":
    export(sys.argv[1], Path(sys.argv[2]))
