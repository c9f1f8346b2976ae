"""Token-window chunking (seed 000): windows of `size` model tokens overlapping by `overlap`, cut on token
boundaries of the embedding model's own tokenizer, so every chunk fits the model."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Chunk:
    index: int
    text: str
    token_count: int


def chunk(text: str, offsets: list[tuple[int, int]], size: int, overlap: int) -> list[Chunk]:
    """Split `text` given its token character spans; one chunk (the whole text) when it fits."""
    if len(offsets) <= size:
        return [Chunk(0, text, len(offsets))]
    step = size - overlap
    out: list[Chunk] = []
    start = 0
    while True:
        window = offsets[start : start + size]
        # Extend to the next token's start so trailing punctuation and spaces stay with the chunk's text.
        begin = window[0][0] if start > 0 else 0
        end = window[-1][1] if start + size < len(offsets) else len(text)
        out.append(Chunk(len(out), text[begin:end].strip(), len(window)))
        if start + size >= len(offsets):
            return out
        start += step
