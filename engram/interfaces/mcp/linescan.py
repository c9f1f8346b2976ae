"""How a raw MCP line is built, read from its bytes before any parser sees it: how deep its objects and arrays
nest, about how many values it holds, and whether its brackets pair up.

A parser follows nesting by recursing, so a line 100,000 levels deep (closed or left open) cost it a deep
recursion before it failed, and a message of a million values cost every later walk over it; both took seconds on
a busy machine. Here each pass is one C-level operation over the bytes (`bytes.replace`, `bytes.translate`,
`bytes.split`, `bytes.count`), never a Python loop over characters or a regular expression, and the nesting is
counted in at most `deepest + 1` passes, so a line the server refuses costs a few linear passes whatever it holds.
"""

from __future__ import annotations

from typing import NamedTuple

_MARKS = b'"[]{},'  # all of a line the shape is read from
_NOT_MARK = bytes(sorted(set(range(256)) - set(_MARKS)))
_AS_PARENS = bytes.maketrans(b"[{]}", b"(())")  # only how deep they nest counts here, not their kind


class Shape(NamedTuple):
    """`depth`: how deep objects and arrays nest, counted up to `deepest + 1`; `values`: commas and opening
    brackets outside strings, plus one (each value but the first follows a comma or an opening bracket, and each
    key of an object counts with its value); `paired`: whether every bracket outside strings is closed once,
    after it was opened (a line whose brackets do not pair up is no JSON)."""

    depth: int
    values: int
    paired: bool


def shape(raw: bytes, deepest: int) -> Shape:
    """The shape of `raw`, one JSON text's bytes. For a line that is no JSON (an unclosed string) the figures
    may be off; the parser refuses such a line all the same."""
    # Escaped backslashes, then escaped quotes, go first: every quote left opens or closes a string. ("\\" and
    # '"' are ASCII, and UTF-8 uses no byte below 0x80 inside a longer character: the bytes read as the text.)
    plain = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_MARK)
    # Two quotes side by side join two strings, or end an empty one: nothing moves in or out of a string.
    outside = b"".join(plain.replace(b'""', b"").split(b'"')[::2])
    brackets = outside.translate(_AS_PARENS, b",")
    opens = brackets.count(b"(")
    values = len(outside) - len(brackets) + opens + 1
    if 2 * opens != len(brackets):
        return Shape(0, values, paired=False)
    depth = 0
    while brackets:
        # After `depth` rounds every pair left holds pairs `depth` deep, so a run of k opening brackets left
        # means nesting at least depth + k deep: a deep line stops here in its first round or two.
        if b"(" * (deepest + 1 - depth) in brackets:
            return Shape(deepest + 1, values, paired=True)
        inner = brackets.replace(b"()", b"")  # the innermost pairs: one level a round
        if len(inner) == len(brackets):
            return Shape(depth, values, paired=False)  # a bracket closed before it was opened
        brackets, depth = inner, depth + 1
    return Shape(depth, values, paired=True)


__all__ = ["Shape", "shape"]
