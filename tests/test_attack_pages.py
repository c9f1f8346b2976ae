"""HTML pages given to `engram add` built to cost the reader more than their bytes, or written as browsers allow
(tags left open, `</head>` left out): each is read in one pass, its text what a browser shows."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from engram import FakeEmbedder, InvalidInput, Memory, Settings
from engram.interop.documents import read_document


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "a.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path / "h")) as memory:
        yield memory


def page(tmp_path: Path, markup: str, name: str = "page.html") -> Path:
    (tmp_path / name).write_text(markup, encoding="utf-8")
    return tmp_path / name


def test_a_page_leaving_out_its_head_end_tag_keeps_its_body(mem: Memory, tmp_path: Path) -> None:
    """HTML lets `</head>` (and `<body>`) be left out; the body was read as part of the head and dropped, so the
    page was refused as holding no text."""
    markup = "<html><head><title>Rota</title><meta charset=utf-8><p>Ana covers Mondays.</p><p>Ben, Fridays."
    added = mem.add_file(page(tmp_path, markup))
    assert added["title"] == "Rota"
    assert mem.get(added["id"]).content == "Ana covers Mondays.\n\nBen, Fridays."


def test_a_page_of_nested_tags_is_read_without_a_node_per_tag(tmp_path: Path) -> None:
    """A tree of the page cost a node per tag: hundreds of MB and tens of seconds for 2 MB of nested tags. Now
    the memory the reading takes is a small multiple of the page's bytes (tracemalloc counts it exactly)."""
    depth = 100_000
    path = page(tmp_path, "<div><span>" * depth + "deep text" + "</span></div>" * depth)
    tracemalloc.start()
    try:
        document = read_document(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert document.text == "deep text"
    assert peak < 8 * path.stat().st_size  # a node per tag took over 100 times the bytes


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("<p>a < b and c > d</p>", "a < b and c > d"),  # a `<` opening no tag is text
        ("<p>one</p><!-- <p>hidden</p> --><p>two</p>", "one\n\ntwo"),
        ("<p>one</p><!-- never closed <p>two</p>", "one"),
        ("<p>x &amp; y &lt;b&gt; &#169; &copy</p>", "x & y <b> © ©"),
        ('<script>if (a<b) { s = "</p>" }</script><p>shown</p>', "shown"),
        ("<p>kept</p><script>never closed <p>gone</p>", "kept"),
        ('<p title="a > b">quoted</p>', "quoted"),
        ("<p>kept</p><a href='x", "kept"),  # a tag never closed holds the rest, as in a browser
        ("<p>Ben runs the <b>billing</b> service.</p>", "Ben runs the billing service."),
        ("<p>one<br><br>two</p><![CDATA[three]]>", "one\n\ntwo\n\nthree"),
        ("<noscript><p>hidden</p></noscript><template><p>hidden</p></template><p>shown</p>", "shown"),
        ("<P>Upper</P><DIV>case</DIV>", "Upper\n\ncase"),
    ],
)
def test_a_page_is_read_as_a_browser_shows_it(tmp_path: Path, markup: str, text: str) -> None:
    assert read_document(page(tmp_path, markup)).text == text


@pytest.mark.parametrize(
    "markup",
    [
        "<a" * 50_000,
        "</" * 50_000,
        "<!" * 50_000,
        "<?" * 50_000,
        '<a x="' * 50_000,
        "<script>" + "</" * 50_000,
    ],
)
def test_a_page_of_constructs_never_closed_is_refused_as_holding_no_text(
    mem: Memory, tmp_path: Path, markup: str
) -> None:
    """The standard library's parser read each stray `<` as text after scanning on for its end, so 160 kB of
    '<a' took 36 s; a construct never closed now runs to the end of the page, as HTML reads it."""
    with pytest.raises(InvalidInput, match=r"page\.html holds no text"):
        mem.add_file(page(tmp_path, markup))
    assert mem.count() == 0


def test_a_page_whose_text_is_too_long_is_refused_while_it_is_read(tmp_path: Path) -> None:
    small = Memory(
        tmp_path / "b.db",
        embedder=FakeEmbedder(),
        settings=Settings(home=tmp_path / "h2", max_content_chars=1_000),
    )
    with small:
        with pytest.raises(InvalidInput, match=r"page\.html: its text passes the maximum of 1000 characters"):
            small.add_file(page(tmp_path, "<p>word </p>" * 1_000))
        assert small.count() == 0
    # Runs of spaces do not count: a page with much indentation and little text fits.
    with Memory(
        tmp_path / "c.db",
        embedder=FakeEmbedder(),
        settings=Settings(home=tmp_path / "h3", max_content_chars=1_000),
    ) as fits:
        added = fits.add_file(page(tmp_path, "<p>" + " " * 5_000 + "short</p>", "spaced.html"))
        assert fits.get(added["id"]).content == "short"
