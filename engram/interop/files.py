"""The files the migration tools read and write: confined to a tenant's directory on a server, checked before any
work starts, and read as UTF-8 text."""

from __future__ import annotations

from pathlib import Path

from engram.errors import InvalidInput


def file_at(path: str | Path, root: Path | None, *, new: bool) -> Path:
    """The file a tool writes (`new`) or reads. With a `root` (the memory of a tenant an API key reaches) a
    relative path is taken inside it and no path may leave it: the server's other files, other tenants' databases
    among them, are not the caller's to read or overwrite."""
    target = Path(path)
    if not str(path).strip():
        raise InvalidInput("path", "must not be empty")
    if root is not None:
        root.mkdir(parents=True, exist_ok=True)
        target = (root / target).resolve()
        if not target.is_relative_to(root.resolve()):
            raise InvalidInput("path", "must be a file name inside this tenant's files directory")
    try:
        if new:
            if target.exists():
                raise InvalidInput("path", f"{target} exists; choose a new file")
            if not target.parent.is_dir():
                raise InvalidInput("path", f"{target.parent} is not a directory")
            target.touch(exist_ok=False)  # can it be written (/proc, a read-only disk)? Found before any work
            target.unlink()
        elif not target.is_file():
            raise InvalidInput("path", f"{target} {'is not a file' if target.exists() else 'does not exist'}")
    except OSError as exc:  # a name too long, no permission
        raise InvalidInput(
            "path", f"{target} cannot be {'written' if new else 'read'} ({exc.strerror})"
        ) from None
    return target


def utf8_text(raw: bytes) -> str:
    """A file's bytes as text; a file that is not UTF-8 text is named as such, at the first bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput("file", f"is not UTF-8 text (byte {exc.start})") from None
