"""What a write does of its own while the model embeds its first unit of texts (engram.write.embedding): the
work that needs no vector. The model computes on two threads that seldom end together (each takes about half
the tokens, and longer texts cost more a token), so the core that finishes first would idle until the other is
done: this work runs in that gap instead of after the model.

- The classifiers' prototypes: read from the store on a process's first write to a database (and fitted, the
  first time for a database).
- The vector index: loaded from its file on a process's first search of a store (a fifth of a second at 100k
  memories), and caught up with what was committed since, which the first search would otherwise do; the index
  answers alike either way, as it holds the same vectors.
- The marks of form the kinds read (`Classifiers.kind_marks`), for every text whose kind is to be decided, all
  read as if said at one moment (a write alone reads its due day forward from its own moment: the two differ
  only for a call that spans midnight).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from engram.classify.service import Classifiers
from engram.write.pending import Pending


@runtime_checkable
class IndexReady(Protocol):
    def index_ready(self) -> None:
        """Load the vector index if it is not, and catch it up with what was committed since."""
        ...


def meanwhile(prepared: Sequence[Pending], classifiers: Classifiers, store: object) -> Callable[[], None]:
    """What a write of `prepared` does while the model embeds its texts. One memory (`remember`) has nothing
    to overlap: its search makes the index ready, and it reads its marks when it decides (a duplicate or a merge
    never does)."""

    def run() -> None:
        # A database's first write fits the classifiers' read-out (seconds, a minute on a busy machine): done
        # before the write lock, which another process's writer waits for only so long.
        classifiers.kinds.prototypes()
        classifiers.categories.prototypes()
        if len(prepared) < 2:
            return
        if isinstance(store, IndexReady):
            store.index_ready()
        todo = [p for p in prepared if p.kind is None]
        if todo and (found := classifiers.kind_marks([p.content for p in todo])) is not None:
            for p, marks in zip(todo, found, strict=True):
                p.marks = marks

    return run
