"""An HTML page's readable text and title, read in one pass of the standard library's tokenizer with no tree.

A tree of the page (BeautifulSoup) cost a node per tag: a 2 MB page of nested tags took about 30 s and hundreds of
MB, and a page's cost grew with its tags, not its text. Here each tag is seen once and forgotten, so the work is
linear in the bytes and the memory is the text kept; the text stops being read as soon as it passes `longest`.
"""

from __future__ import annotations

import re
from html import unescape

from engram.errors import InvalidInput

BLOCKS = frozenset(
    {
        *("p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "blockquote", "pre"),
        *("h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "dl", "dt", "dd", "table", "tr", "td", "th"),
        *("figure", "figcaption", "hr", "form", "details", "summary", "address", "body"),
    }
)
# Elements whose text is no part of what a reader sees.
HIDDEN = frozenset({"script", "style", "noscript", "template", "head"})
# What a <head> holds; any other start tag ends it, as HTML lets a page leave out `</head>` (and `<body>`): a
# page doing so was refused as holding no text, its body read as part of its head.
HEAD_CONTENT = frozenset({"title", "meta", "link", "style", "script", "base", "noscript", "template"})


_SPACES = re.compile(r"\s+")
_PARAGRAPHS = re.compile(r"\n\s*\n")


class TooLong(Exception):
    """The page's text passed the longest a memory may hold."""


# A tag runs to its `>`, a quoted value may hold one; possessive, so a tag never closed is one failed scan.
_TAG = re.compile(r"""<(/?)([A-Za-z][^\s/>]*+)((?:[^>"']++|"[^"]*+"|'[^']*+')*+)>""")
# Elements whose text runs to their end tag with no tags inside, as HTML reads them.
_RAW = {
    name: re.compile(rf"</{name}[\s/>]", re.IGNORECASE) for name in ("script", "style", "title", "textarea")
}


def _tokens(markup: str, reader: _Reader) -> None:
    """Walk the page once, as HTML's tokenizer does, handing `reader` its tags and text. Every construct left
    open (a tag, a comment, a script) runs to the end of the page: reading a stray `<` as text and scanning on
    for its end from every one is what made the standard library's parser quadratic ('<a' repeated: 160 kB took
    36 s)."""
    at, size = 0, len(markup)
    while at < size:
        lt = markup.find("<", at)
        if lt < 0:
            reader.handle_data(unescape(markup[at:]))
            return
        if lt > at:
            reader.handle_data(unescape(markup[at:lt]))
        if (tag := _TAG.match(markup, lt)) is not None:
            name = tag.group(2).lower()
            if tag.group(1):
                reader.handle_endtag(name)
                at = tag.end()
                continue
            reader.handle_starttag(name, [])
            at = tag.end()
            if (raw := _RAW.get(name)) is not None:
                closing = raw.search(markup, at)
                stop = closing.start() if closing is not None else size
                text = markup[at:stop]
                reader.handle_data(unescape(text) if name in ("title", "textarea") else text)
                at = stop
            continue
        following = markup[lt + 1 : lt + 2]
        if markup.startswith("<!--", lt):
            end = markup.find("-->", lt + 2)
            at = size if end < 0 else end + 3
        elif markup.startswith("<![CDATA[", lt):
            end = markup.find("]]>", lt + 9)
            reader.handle_data(markup[lt + 9 : size if end < 0 else end])
            at = size if end < 0 else end + 3
        elif following in ("!", "?", "/"):  # a declaration, an instruction, a stray `</`: skipped to `>`
            if following == "/" and (letter := markup[lt + 2 : lt + 3]).isascii() and letter.isalpha():
                return  # an end tag never closed
            end = markup.find(">", lt + 1)
            at = size if end < 0 else end + 1
        elif following.isascii() and following.isalpha():
            return  # a start tag never closed holds the rest of the page
        else:
            reader.handle_data("<")
            at = lt + 1


class _Reader:
    def __init__(self, longest: int | None) -> None:
        self.out: list[str] = []
        self.visible, self.longest = 0, longest  # characters other than spaces kept so far
        self.hidden: list[str] = []  # the hidden elements open, innermost last
        self.title: list[str] | None = None  # the <title>'s text while inside it
        self.heading: list[str] | None = None  # the first <h1>'s text while inside it
        self.titles: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.title is not None:  # a title holds no tags: one left open ends at the next
            self.handle_endtag("title")
        if self.hidden == ["head"] and tag not in HEAD_CONTENT:
            self.hidden.clear()
        if tag == "title" and "title" not in self.titles:
            self.title = []
        elif tag in HIDDEN:
            self.hidden.append(tag)
        elif not self.hidden:
            if tag == "h1" and "h1" not in self.titles and self.heading is None:
                self.heading = []
            self._put("\n\n" if tag in BLOCKS else "\n" if tag == "br" else "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self.title is not None:
            self.titles["title"], self.title = " ".join("".join(self.title).split()), None
        elif tag in HIDDEN:
            if tag in self.hidden:  # an end tag closes the innermost one of its name and what it holds
                del self.hidden[len(self.hidden) - 1 - self.hidden[::-1].index(tag) :]
        elif not self.hidden:
            if tag == "h1" and self.heading is not None:
                self.titles["h1"], self.heading = " ".join("".join(self.heading).split()), None
            self._put("\n\n" if tag in BLOCKS else "")

    def handle_data(self, data: str) -> None:
        if self.title is not None:
            self.title.append(data)
        elif not self.hidden:
            if self.heading is not None:
                self.heading.append(data)
            self._put(data)

    def _put(self, text: str) -> None:
        if text:
            self.out.append(text)
            self.visible += len(text) - sum(map(len, _SPACES.findall(text)))
            if self.longest is not None and self.visible > self.longest:
                raise TooLong  # the text kept is at least its characters other than spaces


def page_text(markup: str, name: str, longest: int | None = None) -> tuple[str, str | None]:
    """The page's readable text, one block a paragraph with inline elements (<b>, <a>) inside their sentence,
    and its <title> (else its first <h1>). Scripts, styles, templates and the head are dropped. A page whose
    text passes `longest` characters is refused naming `name` as soon as it does."""
    reader = _Reader(longest)
    try:
        _tokens(markup, reader)
    except TooLong:
        raise InvalidInput(
            "path",
            f"{name}: its text passes the maximum of {longest} characters (ENGRAM_MAX_CONTENT_CHARS); "
            "split the file",
        ) from None
    paragraphs = (" ".join(p.split()) for p in _PARAGRAPHS.split("".join(reader.out)))
    title = reader.titles.get("title") or reader.titles.get("h1")
    if title is None and reader.heading is not None:  # an <h1> the page never closes
        title = " ".join("".join(reader.heading).split())
    return "\n\n".join(p for p in paragraphs if p), title or None


__all__ = ["page_text"]
