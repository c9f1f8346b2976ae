"""Text a caller gives the facade, checked before any service or store sees it: a NUL character (U+0000) or a
lone surrogate in an id, a tag, a query, a filter, a name or a path is refused naming the argument.

No stored text, id, tag or name holds either (the record refuses them), so such a value can only miss; but
PostgreSQL refuses a NUL in any query with its own error, SQLite cannot encode a lone surrogate, and a file path
with a NUL fails in the operating system: each surfaced as a crash of the backend's own kind, and on PostgreSQL
a write half begun. Refusing at the facade makes every method and both backends answer alike."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import os
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from engram.errors import InvalidInput
from engram.model.limits import NO_TEXT
from engram.model.record import text_problem

F = TypeVar("F", bound=Callable[..., Any])
DEEPEST = 64  # nesting deeper than this is refused by the bounds of metadata and arguments, not read here


def refuse_unfit_text(cls: type) -> None:
    """Check the arguments of every public method of `cls`, its own and those it inherits."""
    for name in dir(cls):
        if not name.startswith("_") and inspect.isfunction(method := inspect.getattr_static(cls, name)):
            setattr(cls, name, checked(method))


def checked(method: F) -> F:
    """`method` refusing unfit text in any argument, named by its parameter (or keyword) and its place in it:
    `tags[1]`, `metadata.note`, `messages[0].content`."""
    params = inspect.signature(method).parameters.values()
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]

    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        given = [*zip(positional[1:], args[1:], strict=False), *kwargs.items()]
        for name, value in given:
            if found := unfit(value, name):
                raise InvalidInput(*found)
        return method(*args, **kwargs)

    return call  # type: ignore[return-value]


def unfit(value: Any, where: str, depth: int = 0) -> tuple[str, str] | None:
    """(where, problem) of the first unfit text in `value`; an iterator is not read (that would consume it)."""
    if isinstance(value, str):
        return (where, problem) if (problem := text_problem(value)) else None
    if value is None or type(value) in NO_TEXT:
        return None  # most fields of a memory: asked of the abstract classes below, each took a microsecond
    if depth > DEEPEST:
        return None
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        return unfit(path, where, depth) if isinstance(path, str) else None
    if isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str) and (problem := text_problem(key)):
                return where, f"a key {problem}"
            if found := unfit(item, f"{where}.{key}", depth + 1):
                return found
        return None
    if isinstance(value, list | tuple | set | frozenset):
        return next((f for i, v in enumerate(value) if (f := unfit(v, f"{where}[{i}]", depth + 1))), None)
    if isinstance(value, BaseModel):
        return unfit({f: getattr(value, f) for f in type(value).model_fields}, where, depth)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return unfit({f.name: getattr(value, f.name) for f in dataclasses.fields(value)}, where, depth)
    return None
