"""Read-outs fitted ahead of time: the built-in taxonomies' linear read-outs (engram.classify.readout) for the
default model and settings, shipped as package data (engram/classify/data/fitted/<taxonomy>.json), so that a new
database scores with numpy alone and never loads scikit-learn (most of a second and tens of MB of a process).

A shipped read-out is used only where fitting would give the same: its digest (the seeds, the rules they were
embedded with, the model and the fitting's version) matches and the temperature it was fitted at is the one the
database calibrated. Anything else (a custom taxonomy, another model, other settings) is fitted as before.

After changing a taxonomy's seed sentences, the fitting or the default model, fit them again:

    python -m engram.classify.fitted
"""

from __future__ import annotations

import argparse
import json
import tempfile
from functools import lru_cache
from importlib import resources
from pathlib import Path

from engram.classify.readout import LinearReadout

FOLDER = "data/fitted"
TAXONOMIES = ("kinds", "categories")  # the built-in ones that read a read-out


@lru_cache(maxsize=8)
def _shipped(taxonomy: str) -> tuple[float, LinearReadout] | None:
    path = resources.files("engram.classify").joinpath(f"{FOLDER}/{taxonomy}.json")
    if not path.is_file():
        return None
    raw = json.loads(path.read_text(encoding="utf-8"))
    return float(raw["temperature"]), LinearReadout.from_json(json.dumps(raw["readout"]))


def shipped(taxonomy: str, digest: str, temperature: float) -> LinearReadout | None:
    """The read-out shipped for `taxonomy` if it was fitted on exactly these seeds and model (`digest`) at this
    prototype temperature; else None (fit it)."""
    kept = _shipped(taxonomy)
    if kept is None or kept[1].digest != digest or kept[0] != temperature:
        return None
    return kept[1]


def shipped_digest(taxonomy: str) -> str | None:
    """The digest the shipped read-out of `taxonomy` was fitted on (None: none shipped)."""
    kept = _shipped(taxonomy)
    return None if kept is None else kept[1].digest


def regenerate(folder: Path | None = None) -> list[Path]:
    """Fit the built-in taxonomies' read-outs with the default model and settings and write them to `folder`
    (the package's own data folder by default)."""
    from engram.classify.service import Classifiers
    from engram.config import Settings
    from engram.embed.minilm import default_embedder
    from engram.store.opening import open_store

    target = folder or Path(str(resources.files("engram.classify").joinpath(FOLDER)))
    target.mkdir(parents=True, exist_ok=True)
    _shipped.cache_clear()
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(home=Path(tmp))
        embedder = default_embedder()
        store = open_store(Path(tmp) / "fit.db", settings)
        try:
            store.set_model(embedder.name, embedder.dim)
            classifiers = Classifiers(settings, store, embedder)
            for name in TAXONOMIES:
                classifier = getattr(classifiers, name)
                classifier.use_shipped = False  # fitted afresh, whatever is shipped now
                classifier.prototypes()
                if classifier.readout is None:
                    raise RuntimeError(f"taxonomy {name!r} has too few seeds per label for a read-out")
                raw = {
                    "temperature": classifier.rules.temperature,
                    "readout": json.loads(classifier.readout.to_json()),
                }
                path = target / f"{name}.json"
                path.write_text(json.dumps(raw, indent=1) + "\n", encoding="utf-8")
                written.append(path)
        finally:
            store.close()
    _shipped.cache_clear()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--folder", type=Path, help="write here instead of the package's data folder")
    args = parser.parse_args()
    for path in regenerate(args.folder):
        print(path)


if __name__ == "__main__":
    main()
