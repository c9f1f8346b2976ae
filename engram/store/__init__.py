"""Storage backends behind one narrow protocol."""

from engram.store.roles import Facts, Filter, Label, Prototype, Store, StoreStats

__all__ = ["Facts", "Filter", "Label", "Prototype", "Store", "StoreStats"]
