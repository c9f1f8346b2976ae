"""API keys and tenants: who is calling, and which memories they may see.

A tenant's memories live in a database of their own (`<home>/tenants/<tenant>.db`, or a PostgreSQL schema of
its own), so every read, write, search, export and tool is confined to the tenant by the store it runs on, not by
a filter each endpoint must remember; its file tools reach only `<home>/files/<tenant>/`. The local tenant (no
key, loopback only) uses the default database and `<home>/files/local/`. A tenant's name is checked wherever one
is read (a key's creation, a key's use, opening its store): a reserved name such as `local` never names a key's
tenant, so no key acts as the local tenant or reaches a database that is not its own.

Keys are random 32-byte tokens shown once at creation; only their SHA-256 is stored (a key has 256 bits of
entropy, so a fast hash is safe here, unlike passwords).

The folders Engram makes for memories (the home, `tenants/`, `files/<tenant>/`) are its user's alone (0700), and
the key registry is written 0600: with the system's default they were readable by every account on the machine.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engram import Embedder
from engram.config import Settings, is_url, with_schema
from engram.errors import InvalidInput
from engram.memory import Memory

LOCAL = "local"
PREFIX = "engram_"
_TENANT = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
# Names that mean something else to the server, to PostgreSQL (its schemas and roles) or to a file system.
RESERVED = frozenset(
    {
        "local",
        "default",
        "admin",
        "administrator",
        "root",
        "system",
        "public",
        "postgres",
        "engram",
        "tenants",
    }
    | {"information_schema", "template0", "template1", "con", "prn", "aux", "nul"}
    | {f"{port}{n}" for port in ("com", "lpt") for n in range(10)}
)
_AMBIGUOUS = re.compile(r"__|_-|-_")  # spelt alike once '-' is written '__' in a schema name
_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    tenant TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT
)
"""


@dataclass(frozen=True, slots=True)
class ApiKey:
    id: str
    tenant: str
    name: str
    created_at: str
    last_used_at: str | None
    revoked_at: str | None


def check_tenant(tenant: str) -> str:
    """`tenant` when it may name a tenant: 1-63 lower-case letters, digits, '-' and '_', starting with a letter or
    a digit, and not reserved."""
    if not isinstance(tenant, str) or not _TENANT.fullmatch(tenant):
        raise InvalidInput("tenant", "must be 1-63 lower-case letters, digits, '-' or '_', starting with one")
    if tenant in RESERVED or tenant.startswith("pg_"):
        raise InvalidInput("tenant", f"{tenant!r} is reserved; choose another name")
    return tenant


def schema_of(tenant: str) -> str:
    """The PostgreSQL schema of a tenant, one per name. A name written the same once '-' becomes '__' (team-x and
    team__x) or too long for a schema name gets its own schema, named with a hash of the name; every other
    name keeps the schema it always had."""
    name = check_tenant(tenant)
    plain = "tenant_" + name.replace("-", "__")
    if len(plain) <= 63 and not _AMBIGUOUS.search(name):
        return plain
    return f"t_{name.replace('-', '_')[:44]}_{hashlib.sha256(name.encode()).hexdigest()[:16]}"


def is_tenant(tenant: object) -> bool:
    try:
        check_tenant(tenant)  # type: ignore[arg-type]
    except InvalidInput:
        return False
    return True


def private_dir(path: Path) -> Path:
    """`path`, made if missing as a folder only its owner may open (0700); an existing folder is left as it is
    (its owner chose its mode). Its parents are made with the system's default, as for any other program."""
    if not path.is_dir():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.mkdir(mode=0o700, exist_ok=True)
    return path


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class Keys:
    """The key registry, in `<home>/keys.db`."""

    def __init__(self, path: Path) -> None:
        private_dir(path.parent)
        if not path.exists():  # created 0600 before SQLite opens it (SQLite's own default is 0644)
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA busy_timeout = 5000")
        self._db.execute(_SCHEMA)
        self._lock = threading.Lock()

    def close(self) -> None:
        self._db.close()

    def create(self, tenant: str, name: str = "") -> tuple[ApiKey, str]:
        """A new key for `tenant`; the secret is returned here and never again. Its `name`, a label shown in
        listings, is printable text of at most 100 characters: an escape sequence in it reached the terminal of
        whoever listed the keys."""
        if not isinstance(name, str) or len(name) > 100 or not name.isprintable():
            raise InvalidInput(
                "name", "must be at most 100 printable characters (no control or invisible one)"
            )
        secret = PREFIX + secrets.token_urlsafe(32)
        key_id = secrets.token_hex(6)
        with self._lock:
            self._db.execute(
                "INSERT INTO api_keys(id, hash, tenant, name, created_at) VALUES (?, ?, ?, ?, ?)",
                (key_id, _digest(secret), check_tenant(tenant), name, _now()),
            )
        return self.get(key_id), secret

    def get(self, key_id: str) -> ApiKey:
        row = self._db.execute(
            "SELECT id, tenant, name, created_at, last_used_at, revoked_at FROM api_keys WHERE id = ?",
            (key_id,),
        ).fetchone()
        if row is None:
            raise InvalidInput("key_id", f"no key with id {key_id}")
        return ApiKey(*row)

    def list(self) -> list[ApiKey]:
        rows = self._db.execute(
            "SELECT id, tenant, name, created_at, last_used_at, revoked_at FROM api_keys ORDER BY created_at"
        ).fetchall()
        return [ApiKey(*r) for r in rows]

    def revoke(self, key_id: str) -> ApiKey:
        with self._lock:
            done = self._db.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                (_now(), key_id),
            ).rowcount
        key = self.get(key_id)
        if not done and key.revoked_at is None:
            raise InvalidInput("key_id", f"key {key_id} could not be revoked")
        return key

    def tenant_of(self, secret: str) -> str | None:
        """The tenant a live key belongs to; None for an unknown or revoked key."""
        if not secret.startswith(PREFIX):
            return None
        row = self._db.execute(
            "SELECT id, tenant FROM api_keys WHERE hash = ? AND revoked_at IS NULL", (_digest(secret),)
        ).fetchone()
        if row is None or not is_tenant(
            row[1]
        ):  # a key made for a name now reserved (`local`) acts for nobody
            return None
        with self._lock:
            self._db.execute("UPDATE api_keys SET last_used_at = ? WHERE id = ?", (_now(), row[0]))
        return str(row[1])


class Tenants:
    """One open `Memory` per tenant, opened on first use and shared by every request of that tenant (a `Memory`
    serialises its own writes)."""

    def __init__(
        self, settings: Settings, embedder: Embedder | None = None, db: str | Path | None = None
    ) -> None:
        self.settings = settings
        self.embedder = embedder
        self._local_db = db
        self._open: dict[str, Memory] = {}
        self._lock = threading.Lock()

    def path(self, tenant: str) -> str | Path:
        local = self._local_db if self._local_db is not None else self.settings.db_path
        if tenant == LOCAL:
            return local
        if is_url(local):
            return with_schema(local, schema_of(tenant))  # each tenant is a schema of the same database
        return self.settings.home / "tenants" / f"{check_tenant(tenant)}.db"

    def files(self, tenant: str) -> Path:
        """The only directory a tenant's file tools (export, import, backup, restore) read or write."""
        return self.settings.home / "files" / (LOCAL if tenant == LOCAL else check_tenant(tenant))

    def memory(self, tenant: str) -> Memory:
        with self._lock:
            mem = self._open.get(tenant)
            if mem is None:
                path = self.path(tenant)
                if isinstance(path, Path):
                    private_dir(path.parent)
                files = self.files(tenant)
                mem = Memory(path, embedder=self.embedder, settings=self.settings, files=files)
                self._open[tenant] = mem
            return mem

    @contextmanager
    def each(self) -> Iterator[dict[str, Memory]]:
        with self._lock:
            yield dict(self._open)

    def close(self) -> None:
        with self._lock:
            for mem in self._open.values():
                mem.close()
            self._open.clear()


__all__ = [
    "LOCAL",
    "RESERVED",
    "ApiKey",
    "Keys",
    "Tenants",
    "check_tenant",
    "is_tenant",
    "private_dir",
    "schema_of",
]
