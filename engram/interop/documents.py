"""Files people keep notes in (Markdown, text, HTML, PDF) added as document memories: one memory a file, its
passages the chunks the write path cuts any long memory into, its title and where it came from in metadata.

Adding is idempotent by content: the same text again is the memory already stored; a file whose text changed
supersedes the version added from the same path before (kept as superseded, never deleted). The path each
version came from is remembered in the store's meta table, so a changed file finds its older version even when
nothing else in it is the same. PDF needs the `documents` extra (pypdf).
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from engram.errors import InvalidInput, MissingExtra
from engram.interop.files import file_at, utf8_text
from engram.interop.webpage import page_text
from engram.lang.chunk import headings
from engram.model.answers import AddedFile
from engram.model.record import Kind, MemoryType, SourceType, Status
from engram.model.vectors import content_hash
from engram.store.roles import Meta, Rows
from engram.write.edit import Editor
from engram.write.writer import Writer

TYPES = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
}
# The largest file read as a document, as large as a web upload may be: a 3 GB file took 6.5 GB of memory and
# was refused only then, for the length of its text.
MAX_DOCUMENT_BYTES = 256 * 2**20
# A PDF's pages are read one after another: a 6 MB file naming one page a million times, or a 0.2 MB file whose
# pages share one stream that decompresses to 70 MB each, kept the reader busy for minutes. Long books fit.
MAX_PDF_PAGES = 10_000
MAX_PDF_CONTENT_BYTES = MAX_DOCUMENT_BYTES
# What pypdf raises from inside a damaged file besides its own errors.
_PARSE_ERRORS = (
    *(ValueError, KeyError, TypeError, AttributeError, IndexError, AssertionError, OverflowError),
    *(zlib.error, struct.error),
)
_FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Document:
    """A file's text as it is stored, its title and its type (markdown, text, html, pdf)."""

    text: str
    title: str
    type: str


def read_document(path: Path, longest: int | None = None) -> Document:
    """The text and title of a Markdown, text, HTML or PDF file; a PDF or a page whose text passes `longest`
    characters is refused as soon as it does (the rest unread)."""
    kind = TYPES.get(path.suffix.lower())
    if kind is None:
        raise InvalidInput(
            "path", f"{path.name}: not a Markdown, text, HTML or PDF file ({', '.join(TYPES)})"
        )
    size = path.stat().st_size
    if size > MAX_DOCUMENT_BYTES:  # read whole (and a PDF parsed whole) before its text's length is known
        limit = f"{MAX_DOCUMENT_BYTES / 2**20:,.0f} MiB"
        raise InvalidInput(
            "path", f"{path.name} is {size / 2**20:,.1f} MiB, over the {limit} a document may be"
        )
    if kind == "pdf":
        text, title = _pdf(path, longest)
    elif kind == "html":
        text, title = page_text(utf8_text(path.read_bytes()), path.name, longest)
    else:
        text = utf8_text(path.read_bytes())
        title = _markdown_title(text) if kind == "markdown" else None
    text = re.sub(r"\n{3,}", "\n\n", text.replace("\r\n", "\n")).strip()
    if not text:
        hint = " (a scanned PDF holds images, not text)" if kind == "pdf" else ""
        raise InvalidInput("path", f"{path.name} holds no text{hint}")
    return Document(text, (title or path.stem).strip(), kind)


def _markdown_title(text: str) -> str | None:
    """YAML front matter's title, else the first level-one heading."""
    if front := _FRONT_MATTER.match(text):
        # Read a line at a time, as the headings: a pattern trimming both ends of one took minutes on a long line.
        said = (line[6:].strip() for line in front.group(1).split("\n") if line.startswith("title:"))
        if title := next((t for t in said if t), None):
            return title.strip("\"'")
    return next((title for _, _, title in headings(text, level=1)), None)


def _pdf(path: Path, longest: int | None = None) -> tuple[str, str | None]:
    """Each page's text, pages apart as paragraphs, and the title in the PDF's metadata. A file of more than
    `MAX_PDF_PAGES` pages, of more than `MAX_PDF_CONTENT_BYTES` of page content once decompressed, or whose text
    passes `longest` characters is refused naming `path` as soon as that is known, and so is a file the parser
    gives up on (a limit of its own, nesting past Python's stack, a damaged structure)."""
    try:
        from pypdf import PdfReader
        from pypdf.errors import PyPdfError
    except ModuleNotFoundError as exc:
        raise MissingExtra("adding a PDF file", "documents") from exc
    pages: list[str] = []
    try:
        reader = PdfReader(path)
        if (count := len(reader.pages)) > MAX_PDF_PAGES:
            raise InvalidInput(
                "path", f"{path.name} has {count:,} pages, over the {MAX_PDF_PAGES:,} a PDF may have"
            )
        content, length = 0, 0
        for number, page in enumerate(reader.pages, 1):
            streams = page.get_contents()
            content += len(streams.get_data()) if streams is not None else 0
            if content > MAX_PDF_CONTENT_BYTES:
                limit = f"{MAX_PDF_CONTENT_BYTES / 2**20:,.0f} MiB"
                raise InvalidInput(
                    "path", f"{path.name}: its pages hold over {limit} of content once decompressed"
                )
            text = (page.extract_text() or "").strip() if streams is not None else ""
            length += len(text) + 2
            if longest is not None and length > longest + 2:
                raise InvalidInput(
                    "path",
                    f"{path.name}: its text passes the maximum of {longest} characters by page {number} "
                    "(ENGRAM_MAX_CONTENT_CHARS); split the file",
                )
            pages.append(text)
        title = reader.metadata.title if reader.metadata is not None else None
    except InvalidInput:
        raise
    except (PyPdfError, RecursionError, *_PARSE_ERRORS) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)[:200]
        raise InvalidInput("path", f"{path.name} is not a readable PDF ({reason})") from None
    return "\n\n".join(p for p in pages if p), title if isinstance(title, str) else None


class DocumentStore(Meta, Rows, Protocol):
    """Where a file's last version is found: its memory id under the file's path."""


class Documents:
    def __init__(
        self,
        store: DocumentStore,
        writer: Writer,
        editor: Editor,
        tagged: Callable[[dict[str, Any]], dict[str, Any]],
        longest: int | None = None,
    ) -> None:
        """`tagged` gives an item the tags of its text when its caller gave none (Memory.remember's); `longest`
        is the longest content a memory may hold, where reading a PDF stops."""
        self._store, self._writer, self._editor = store, writer, editor
        self._tagged, self._longest = tagged, longest

    def add_file(self, path: str | Path, fields: dict[str, Any]) -> AddedFile:
        """Add one file as a document memory; `fields` (scope, scope_id, tags, ...) go to the memory."""
        target = file_at(path, None, new=False).resolve()
        document = read_document(target, self._longest)
        metadata = {
            "title": document.title,
            "source_path": str(target),
            "source_type": document.type,
            "document": True,
        }
        item = {
            "kind": Kind.REFERENCE,
            "type": MemoryType.CONTEXT,
            "source_type": SourceType.FILE,
            **fields,
            "content": document.text,
            "metadata": dict(fields.get("metadata") or {}) | metadata,
        }
        key = f"document:{target}"
        previous = self._current(key)
        try:
            if previous is not None and previous.content_hash == content_hash(document.text):
                outcome, memory_id, older = "unchanged", previous.id, None
            elif previous is not None:
                given = {k: v for k, v in self._tagged(item).items() if k != "content"}
                result = self._editor.supersede(previous.id, document.text, given)
                outcome, memory_id, older = "updated", result.id, previous.id
            else:
                result = self._writer.remember_many([self._tagged(item)])[0]
                outcome = {"duplicate": "unchanged"}.get(result.outcome, result.outcome)
                memory_id, older = result.id, None
        except InvalidInput as exc:
            if exc.field != "content":
                raise
            # Name the file; a text too long also names the setting that bounds it (not a NUL in it).
            hint = " (ENGRAM_MAX_CONTENT_CHARS); split the file" if "maximum" in exc.problem else ""
            raise InvalidInput("path", f"{target.name}: its text {exc.problem}{hint}") from None
        self._store.set_meta(key, memory_id)
        return {
            "path": str(target),
            "id": memory_id,
            "title": document.title,
            "type": document.type,
            "outcome": outcome,
            "passages": len(self._store.children(memory_id)) or 1,
            "supersedes": older,
        }

    def _current(self, key: str) -> Any:
        """The memory last added from this path, if it is still the current version."""
        memory_id = self._store.get_meta(key)
        record = self._store.get(memory_id) if memory_id else None
        if record is None or record.status in (Status.SUPERSEDED, Status.REJECTED):
            return None
        return record


__all__ = ["TYPES", "Document", "Documents", "read_document"]
