"""A text's tokens as spaCy's English tokenizer splits them, without spaCy: the same rules (prefixes, suffixes,
infixes, special cases, URLs) applied as its tokenizer applies them, and a `Doc` of tokens that answers what the
phrase chunker reads (text, tags, spaces, word shape tests, merging a span)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

_EMAIL = re.compile(r"([a-zA-Z0-9_.+-]+@[a-zA-Z0-9-]+\.[a-zA-Z0-9-.]+)")  # spaCy's LIKE_EMAIL


class Token:
    __slots__ = ("doc", "i", "norm", "pos_", "tag_", "text", "whitespace_")

    def __init__(self, doc: Doc, text: str, norm: str | None) -> None:
        self.doc = doc
        self.i = 0
        self.text = text
        self.norm = norm  # a special case's own norm, else None: the word's
        self.whitespace_ = ""
        self.tag_ = ""
        self.pos_ = ""

    @property
    def is_alpha(self) -> bool:
        return self.text.isalpha()

    @property
    def is_title(self) -> bool:
        return self.text.istitle()

    @property
    def like_email(self) -> bool:
        return _EMAIL.match(self.text) is not None

    def __repr__(self) -> str:
        return self.text


class _Merger:
    def __init__(self) -> None:
        self.spans: list[tuple[list[Token], dict[str, str]]] = []

    def merge(self, span: Sequence[Token], attrs: dict[str, str]) -> None:
        self.spans.append((list(span), attrs))


class Doc:
    """The tokens of one text, in order; a slice is a list of them."""

    def __init__(self) -> None:
        self.tokens: list[Token] = []

    def __iter__(self) -> Iterator[Token]:
        return iter(self.tokens)

    def __len__(self) -> int:
        return len(self.tokens)

    def __getitem__(self, at: Any) -> Any:
        return self.tokens[at]

    @contextmanager
    def retokenize(self) -> Iterator[_Merger]:
        """Each span given to `merge` becomes one token with its text and the attributes given (TAG, POS)."""
        merger = _Merger()
        yield merger
        starts = {span[0].i: (span, attrs) for span, attrs in merger.spans if span}
        merged: list[Token] = []
        at = 0
        while at < len(self.tokens):
            if at not in starts:
                merged.append(self.tokens[at])
                at += 1
                continue
            span, attrs = starts[at]
            token = Token(self, "".join(t.text + t.whitespace_ for t in span[:-1]) + span[-1].text, None)
            token.whitespace_ = span[-1].whitespace_
            token.tag_ = attrs.get("TAG", span[0].tag_)
            token.pos_ = attrs.get("POS", span[0].pos_)
            merged.append(token)
            at += len(span)
        self.tokens = merged
        for i, token in enumerate(merged):
            token.i = i


Search = Callable[[str], "re.Match[str] | None"]


class Tokenizer:
    """spaCy's `Tokenizer.__call__` over the rules it was exported with."""

    def __init__(self, tables: dict[str, Any]) -> None:
        never = re.compile("a^")
        self.prefix: Search = re.compile(tables["prefix"]).search
        self.suffix: Search = re.compile(tables["suffix"]).search
        self.infixes = re.compile(tables["infix"]).finditer
        self.token_match: Search = re.compile(tables["token_match"] or "a^").match
        self.url_match: Search = re.compile(tables["url_match"] or "a^").match
        self.rules: dict[str, list[tuple[str, str | None]]] = {
            text: [(orth, norm) for orth, norm in tokens] for text, tokens in tables["rules"].items()
        }
        self._never = never
        # Special cases holding a prefix, suffix, infix or space are matched again over the tokens split without
        # them (spaCy's special matcher): the token sequences each is looked for as.
        self.phrases: dict[tuple[str, ...], str] = {}
        for text in sorted(self.rules):
            if (
                not tables["faster_heuristics"]
                or self._prefix_length(text)
                or list(self.infixes(text))
                or self._suffix_length(text)
                or " " in text
            ):
                self.phrases[tuple(t.text for t in self._split(Doc(), text, False))] = text
        self.longest = max((len(p) for p in self.phrases), default=0)

    def _prefix_length(self, text: str) -> int:
        match = self.prefix(text)
        return match.end() - match.start() if match else 0

    def _suffix_length(self, text: str) -> int:
        match = self.suffix(text)
        return match.end() - match.start() if match else 0

    def __call__(self, text: str) -> Doc:
        doc = Doc()
        if not text:
            return doc
        tokens = doc.tokens
        start = 0
        in_space = text[0].isspace()
        for i, char in enumerate(text):
            if char.isspace() != in_space:
                if start < i:
                    self._span(doc, text[start:i])
                if char == " ":
                    tokens[-1].whitespace_ = " "
                    start = i + 1
                else:
                    start = i
                in_space = not in_space
        if start < len(text):
            self._span(doc, text[start:])
            tokens[-1].whitespace_ = " " if text[-1] == " " and not in_space else ""
        self._special_phrases(doc)
        for i, token in enumerate(doc.tokens):
            token.i = i
        return doc

    def _span(self, doc: Doc, span: str) -> None:
        special = self.rules.get(span)
        if special is not None:
            doc.tokens.extend(Token(doc, orth, norm) for orth, norm in special)
        else:
            self._split(doc, span, True)

    def _special(self, doc: Doc, text: str, specials: bool) -> bool:
        found = self.rules.get(text) if specials else None
        if found is None:
            return False
        doc.tokens.extend(Token(doc, orth, norm) for orth, norm in found)
        return True

    def _split(self, doc: Doc, text: str, specials: bool) -> Doc:
        """spaCy's `_split_affixes` then `_attach_tokens`."""
        prefixes: list[str] = []
        suffixes: list[str] = []
        last = 0
        while text and len(text) != last:
            if self.token_match(text) or (specials and text in self.rules):
                break
            last = len(text)
            pre = self._prefix_length(text)
            if pre:
                prefix, minus_pre = text[:pre], text[pre:]
                if minus_pre and specials and minus_pre in self.rules:
                    text = minus_pre
                    prefixes.append(prefix)
                    break
            suf = self._suffix_length(text[pre:])
            if suf:
                suffix, minus_suf = text[-suf:], text[:-suf]
                if minus_suf and specials and minus_suf in self.rules:
                    text = minus_suf
                    suffixes.append(suffix)
                    break
            if pre and suf and pre + suf <= len(text):
                text = text[pre:-suf]
                prefixes.append(prefix)
                suffixes.append(suffix)
            elif pre:
                text = minus_pre
                prefixes.append(prefix)
            elif suf:
                text = minus_suf
                suffixes.append(suffix)
        tokens = doc.tokens
        tokens.extend(Token(doc, p, None) for p in prefixes)
        if text and not self._special(doc, text, specials):
            if self.token_match(text) or self.url_match(text):
                tokens.append(Token(doc, text, None))
            else:
                start = 0
                for match in self.infixes(text):
                    if match.start() == 0:
                        continue
                    if match.start() != start:
                        tokens.append(Token(doc, text[start : match.start()], None))
                    if match.start() != match.end():
                        tokens.append(Token(doc, text[match.start() : match.end()], None))
                    start = match.end()
                if text[start:]:
                    tokens.append(Token(doc, text[start:], None))
        tokens.extend(Token(doc, s, None) for s in reversed(suffixes))
        return doc

    def _special_phrases(self, doc: Doc) -> None:
        """spaCy's special matcher: runs of tokens that spell a special case holding affixes or spaces, longest
        first, replaced by the case's tokens where the text between them is the case's own."""
        if not self.longest:
            return
        tokens = doc.tokens
        found = []
        for start in range(len(tokens)):
            for length in range(1, min(self.longest, len(tokens) - start) + 1):
                key = tuple(t.text for t in tokens[start : start + length])
                if key in self.phrases:
                    found.append((start, start + length, self.phrases[key]))
        if not found:
            return
        found.sort(key=lambda m: (m[1] - m[0], -m[0]))
        seen: set[int] = set()
        kept = []
        for start, end, text in reversed(found):
            if start not in seen and end - 1 not in seen:
                kept.append((start, end, text))
            seen.update(range(start, end))
        replaced: list[Token] = []
        starts = {start: (end, text) for start, end, text in kept}
        at = 0
        while at < len(tokens):
            if at not in starts:
                replaced.append(tokens[at])
                at += 1
                continue
            end, text = starts[at]
            span_text = "".join(t.text + t.whitespace_ for t in tokens[at : end - 1]) + tokens[end - 1].text
            if span_text != text:
                replaced.extend(tokens[at:end])
            else:
                space = tokens[end - 1].whitespace_
                new = [Token(doc, orth, norm) for orth, norm in self.rules[text]]
                new[-1].whitespace_ = space
                replaced.extend(new)
            at = end
        doc.tokens = replaced
