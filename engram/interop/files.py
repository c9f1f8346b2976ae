"""The files the migration tools read and write: confined to a tenant's directory on a server, checked before any
work starts, read as UTF-8 text, and written readable by their owner alone (an export or a backup holds every
memory: written with the system's default, 0644, any account on the machine could read it)."""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from engram.errors import InvalidInput
from engram.model.jsonkeys import parse_marking, twice
from engram.model.names import hidden_problem, mixed_script_problem


def file_at(path: str | Path, root: Path | None, *, new: bool) -> Path:
    """The file a tool writes (`new`) or reads. With a `root` (the files directory of a tenant on a server, the
    local one's included) a relative path is taken inside it and no path may leave it, through `..`, an absolute
    path or a link: the server's other files, other tenants' databases among them, are not the caller's to read
    or overwrite. A path outside is refused before anything is looked at, with the same answer whether it exists
    or not, and the answers about a path inside name it as the caller wrote it, not where the server keeps it."""
    text = str(path)
    if not text.strip():
        raise InvalidInput("path", "must not be empty")
    if "\x00" in text:
        raise InvalidInput("path", "must not contain a NUL character")
    if new:
        _plain_name(text, confined=root is not None)
    target, shown = Path(path), text
    if root is not None:
        outside = InvalidInput("path", "must be a file name inside this tenant's files directory")
        try:
            if not root.is_dir():
                root.parent.mkdir(parents=True, exist_ok=True)
                root.mkdir(mode=0o700, exist_ok=True)  # a tenant's files are its own
            base = root.resolve()
            target = (base / target).resolve()
        except (OSError, RuntimeError, ValueError):  # a link loop, a name the system refuses
            raise outside from None
        if not target.is_relative_to(base) or target == base:
            raise outside
        shown = target.relative_to(base).as_posix()
    elif new:
        try:  # the folder as it is now: the file is created through these very folders (private_file)
            target = target.parent.resolve() / target.name
        except (OSError, RuntimeError, ValueError):
            raise InvalidInput("path", f"{_parent(shown)} is not a directory") from None
    try:
        if new:
            if target.exists():
                raise InvalidInput("path", f"{shown} exists; choose a new file")
            if not target.parent.is_dir():
                raise InvalidInput("path", f"{_parent(shown)} is not a directory")
            target.touch(exist_ok=False)  # can it be written (/proc, a read-only disk)? Found before any work
            target.unlink()
        elif not target.is_file():
            raise InvalidInput("path", f"{shown} {'is not a file' if target.exists() else 'does not exist'}")
    except OSError as exc:  # a name too long, no permission
        raise InvalidInput(
            "path", f"{shown} cannot be {'written' if new else 'read'} ({exc.strerror})"
        ) from None
    return target


def _plain_name(text: str, *, confined: bool) -> None:
    """A new file's name shows as what it is (engram.model.names: no control or invisible character, no word in
    two look-alike alphabets, "export.jsonl" with a Cyrillic U+0435 for its e); on a server no
    backslash, which is a folder separator where the server may run on Windows."""
    if problem := hidden_problem(text) or mixed_script_problem(text, "file name"):
        raise InvalidInput("path", problem)
    if confined and "\\" in text:
        raise InvalidInput("path", "must not contain a backslash: write folders with /")


def _parent(shown: str) -> str:
    parent = str(Path(shown).parent)
    return "." if parent in ("", ".") else parent


def utf8_text(raw: bytes | bytearray) -> str:
    """A file's bytes as text; a file that is not UTF-8 text is named as such, at the first bad byte. A byte
    order mark (what Windows editors write first) is no part of the text: JSON's reader refused the file for it.
    The bytes are decoded where they are, not copied first."""
    mark = len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0
    try:
        return str(memoryview(raw)[mark:], "utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput("file", f"is not UTF-8 text (byte {exc.start + mark})") from None


def json_lines(text: str) -> list[str]:
    """A JSON Lines text's lines, cut at line feeds alone (a carriage return before one is dropped). JSON leaves
    U+2028, U+2029 and NEL unescaped inside a string, and `str.splitlines` cut a record's text there: an export
    of a memory holding one did not import again."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def json_record(line: str) -> Any:
    """One JSON value, refused naming the key when an object in it gives one twice: Python keeps the last value
    and other readers the first, so a file a person checked in a viewer would store something else. Parse errors
    (json.JSONDecodeError, RecursionError, ValueError) are the caller's to name."""
    value = parse_marking(line)
    if (where := twice(value)) is not None:
        raise InvalidInput(where, "is given twice in one object: keep one")
    return value


def private_file(path: Path) -> IO[str]:
    """A new file at `path` (as file_at gave it: its folders without links) open for writing UTF-8 text, readable
    and writable by its owner alone (0600). It is created so, never widened afterwards: no moment exists when
    another account could open it. Each folder is opened in turn refusing a link: a folder swapped for a link
    to another tenant's or the server's files after file_at checked the path is refused, not written through."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    if not (path.is_absolute() and os.open in os.supports_dir_fd and hasattr(os, "O_DIRECTORY")):
        return os.fdopen(os.open(path, flags, 0o600), "w", encoding="utf-8")
    folder = folder_of(path.parent)
    try:
        fd = os.open(path.name, flags, 0o600, dir_fd=folder)
    except FileExistsError:
        raise InvalidInput("path", f"{path.name} exists; choose a new file") from None
    finally:
        os.close(folder)
    return os.fdopen(fd, "w", encoding="utf-8")


@contextmanager
def finished(path: Path, out: IO[str]) -> Iterator[IO[str]]:
    """`out` (private_file's new file at `path`), closed after the block, and removed if the block fails: an
    export cut short by an error or an interrupt read as a whole export of fewer memories, and imported as one.
    Only the file made is removed, not one put at its name since."""
    made = os.fstat(out.fileno())
    try:
        with out:
            yield out
    except BaseException:
        with contextlib.suppress(OSError):
            now = os.lstat(path)
            if (now.st_dev, now.st_ino) == (made.st_dev, made.st_ino):
                path.unlink()
        raise


def folder_of(path: Path) -> int:
    """The open descriptor of the folder at `path` (absolute) opened from the root one name at a time, none of them a link."""
    folder = os.open(path.anchor, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for name in path.parts[1:]:
            inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=folder)
            os.close(folder)
            folder = inner
    except OSError:
        os.close(folder)
        raise InvalidInput(
            "path", f"{path.name or path} changed into a link or is no folder since it was checked"
        ) from None
    return folder


@contextmanager
def held_file(target: Path, root: Path | None, shown: str | Path) -> Iterator[Path]:
    """The file a tool reads (`target`, as file_at gave it). Unconfined, the file itself. Confined to `root`, a
    private copy of what was opened at that name through its folders opened one by one, the file itself opened
    without following a link, and checked on the open file: the path checked and then swapped for a link or a
    hard link to another tenant's database or a server file (a race) was read through the swap. The copy is
    made from the opened file, so what is checked is what is read, and the readers (SQLite among them, which
    opens by name) never open the tenant's name again."""
    if root is None:
        yield target
        return
    source = _opened(target, shown)
    with tempfile.TemporaryDirectory(prefix=".engram-read-", dir=root.resolve()) as folder:
        copy = Path(folder) / "held"
        with os.fdopen(source, "rb") as file, copy.open("xb") as out:
            shutil.copyfileobj(file, out, 1 << 20)
        yield copy


def _opened(target: Path, shown: str | Path) -> int:
    """`target` open for reading, none of its folders nor itself a link, and a plain file of the server's own
    with no other name: a hard link made to another tenant's database shares its owner and its inode."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)  # a FIFO does not hang
    folder = folder_of(target.parent) if os.open in os.supports_dir_fd else None
    try:
        fd = os.open(target.name if folder is not None else target, flags, dir_fd=folder)
    except OSError as exc:
        link = exc.errno in (errno.ELOOP, errno.EMLINK)  # what O_NOFOLLOW answers a link (Linux, BSD)
        problem = "changed into a link since it was checked" if link else f"cannot be read ({exc.strerror})"
        raise InvalidInput("path", f"{shown} {problem}") from None
    finally:
        if folder is not None:
            os.close(folder)
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise InvalidInput("path", f"{shown} is not a file")
        if status.st_nlink != 1:
            raise InvalidInput("path", f"{shown} has other names (hard links): copy it to a file of its own")
        if hasattr(os, "geteuid") and status.st_uid != os.geteuid():
            raise InvalidInput("path", f"{shown} belongs to another account, not to the server")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def not_empty(path: Path, shown: str | Path) -> None:
    """Refuse a file that holds nothing but white space (or a byte order mark); `shown` names it as the caller
    wrote it. An import of one answered "imported 0", as if the right file had been given."""
    with path.open("rb") as file:
        chunk = file.read(65536).removeprefix(codecs.BOM_UTF8)
        while chunk:
            if chunk.strip():
                return
            chunk = file.read(65536)
    raise InvalidInput("path", f"{shown} is empty: it holds no records to import")
