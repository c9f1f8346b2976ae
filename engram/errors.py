"""Every error Engram raises, in one shallow tree.

EngramError
 +-- InvalidInput          bad input: names the field and the problem
 +-- NotFound              no memory (or operation) with that id
 +-- ModelMismatch         the database was embedded with another model
 +-- ModelUnavailable      the embedding model cannot be loaded
 +-- StoreError            the store cannot do what was asked (locked, corrupt, unknown schema)
 +-- MissingExtra          a feature needs an optional part that is not installed
"""

from __future__ import annotations


class EngramError(Exception):
    """Base class of every Engram error."""


class InvalidInput(EngramError, ValueError):
    """A value was rejected; `field` names it and `problem` says why."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class NotFound(EngramError, KeyError):
    """No memory (or other thing, `what`) has this id."""

    def __init__(self, memory_id: str, what: str = "memory") -> None:
        super().__init__(memory_id)
        self.memory_id = memory_id
        self.what = what

    def __str__(self) -> str:
        return f"no {self.what} with id {self.memory_id}"


class ModelMismatch(EngramError):
    """The database holds embeddings of another model; run `engram reembed`."""

    def __init__(self, stored: str, stored_dim: int, current: str, current_dim: int) -> None:
        super().__init__(
            f"this database was embedded with {stored} ({stored_dim}-d) but the embedder is "
            f"{current} ({current_dim}-d); run `engram reembed` to re-embed every memory with {current}"
        )
        self.stored = stored
        self.current = current


class ModelUnavailable(EngramError):
    """The embedding model could not be loaded; never replaced by a weaker one."""


class StoreError(EngramError):
    """The store cannot do what was asked."""


class StoreUnavailable(StoreError):
    """The database server cannot be reached (or has no free connection): try again later."""


class MissingExtra(EngramError):
    """A feature needs an optional extra that is not installed; the message names the install command."""

    def __init__(self, feature: str, extra: str) -> None:
        super().__init__(f"{feature} needs the {extra} extra: pip install 'engram-memory[{extra}]'")
        self.extra = extra
