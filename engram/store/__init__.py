"""Storage backends behind one narrow protocol."""

from engram.store.protocol import Filter, Prototype, Store, StoreStats

__all__ = ["Filter", "Prototype", "Store", "StoreStats"]
