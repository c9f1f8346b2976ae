"""Storage backends behind one narrow protocol."""

from engram.store.roles import Store
from engram.store.values import Facts, Filter, Label, Prototype, StoreStats

__all__ = ["Facts", "Filter", "Label", "Prototype", "Store", "StoreStats"]
