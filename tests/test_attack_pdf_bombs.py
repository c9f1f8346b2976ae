"""PDFs built to exhaust the reader are refused naming `path`, quickly, and nothing stored changes.

A page tree past pypdf's depth limit and a stream that decompresses past its limit escaped as pypdf's own
LimitReachedError (a traceback from the CLI, a 500 from a server); a small file naming one page 20,000 times, or
9,000 pages of text far past the longest memory, was read to the end before the write refused its length; pages
sharing one stream of 20 MB of drawing operators were each decompressed and read again (minutes for a 71 kB
file)."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from engram import FakeEmbedder, InvalidInput, Memory, Settings
from engram.interop import documents

pytest.importorskip("pypdf")

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
PAGE = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"


def _pdf(objects: list[bytes]) -> bytes:
    out, offsets = bytearray(b"%PDF-1.7\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _stream(data: bytes, flate: bool = False) -> bytes:
    body = zlib.compress(data, 9) if flate else data
    return b"<< /Length %d%s >>\nstream\n" % (len(body), b" /Filter /FlateDecode" if flate else b"") + (
        body + b"\nendstream"
    )


def _one_page_many_times(count: int, content: bytes) -> bytes:
    kids = b" ".join(b"3 0 R" for _ in range(count))
    pages = b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % count
    return _pdf([b"<< /Type /Catalog /Pages 2 0 R >>", pages, PAGE, content, FONT])


def _deep_tree(depth: int) -> bytes:
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    objects += [b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % (n + 3) for n in range(depth)]
    objects.append(
        b"<< /Type /Page /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>"
        % (depth + 3, depth + 4)
    )
    return _pdf([*objects, _stream(b"BT /F1 12 Tf 72 712 Td (hello) Tj ET"), FONT])


TEXT = _stream(b"BT /F1 12 Tf 72 712 Td (the spare key is under the blue pot) Tj ET")
BOMBS = {
    "deep page tree": (_deep_tree(150), "depth"),
    "stream past the decompression limit": (
        _one_page_many_times(1, _stream(b" " * (1024 * 2**20), flate=True)),
        "readable",
    ),
    "one page named 20,000 times": (_one_page_many_times(20_000, TEXT), "pages"),
    "9,000 pages of text": (_one_page_many_times(9_000, TEXT), "by page"),
    "a shared stream of drawing operators": (
        _one_page_many_times(200, _stream(b"0 0 m 1 1 l S\n" * (2 * 2**20 // 14), flate=True)),
        "decompressed",
    ),
}


@pytest.mark.parametrize("name", list(BOMBS))
def test_a_pdf_bomb_is_refused_naming_the_path_and_nothing_stored_changes(
    name: str, tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(documents, "MAX_PDF_CONTENT_BYTES", 64 * 2**20)  # the shared stream's 200 x 2 MB
    data, said = BOMBS[name]
    path = tmp_path / "bomb.pdf"
    path.write_bytes(data)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=settings) as mem:
        kept = mem.remember("the boiler is serviced every October").id
        with pytest.raises(InvalidInput) as refused:
            mem.add_file(path)
        assert refused.value.field == "path" and said in str(refused.value), str(refused.value)
        assert [r.id for r in mem.list(limit=10)] == [kept]


def test_a_pdf_within_the_bounds_is_still_read(tmp_path: Path, settings: Settings) -> None:
    path = tmp_path / "notes.pdf"
    path.write_bytes(_one_page_many_times(3, TEXT))
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=settings) as mem:
        added = mem.add_file(path)
        assert added["outcome"] == "created", added
        assert mem.get(added["id"]).content.count("the spare key is under the blue pot") == 3
