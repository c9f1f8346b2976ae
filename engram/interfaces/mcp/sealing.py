"""The MCP SDK's request-state sealing, with `cryptography` loaded when a value is first sealed or opened.

`mcp.server.request_state` imports AES-GCM, HKDF and SHA-256 from `cryptography`, and every `MCPServer` derives
a key for them as it is made, to seal the state of a multi-round request (a tool asking its caller a question),
which Engram's tools never do. `cryptography`'s bindings sat in every serving process's resident set.
While that one module loads, the four names come from the stand-ins below: the key is derived with RFC 5869's
HKDF over the standard library's HMAC (the same bytes as `cryptography`'s), and AES-GCM loads `cryptography`
when it first seals or opens a value; its failed decryption is raised as the stand-in `InvalidTag` the module
catches. The stand-ins leave `sys.modules` at once, so any other importer gets the real `cryptography`; where it
is loaded already, the SDK takes it as it is.
"""

from __future__ import annotations

import hmac
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

from engram.model.standins import standing_in

SEALING_MODULE = "mcp.server.request_state"


class InvalidTag(Exception):  # cryptography's name, which the SDK catches
    """A sealed value that does not verify (cryptography's `InvalidTag`, raised again as this)."""


class AESGCM:
    """cryptography's AES-GCM under `key`, made when it first seals or opens a value."""

    def __init__(self, key: bytes) -> None:
        self._key = bytes(key)
        self._real: Any = None

    def _cipher(self) -> Any:
        if self._real is None:
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM as Real

            self._real = Real(self._key)
        return self._real

    def encrypt(self, nonce: bytes, data: bytes, associated_data: bytes | None) -> bytes:
        return bytes(self._cipher().encrypt(nonce, data, associated_data))

    def decrypt(self, nonce: bytes, data: bytes, associated_data: bytes | None) -> bytes:
        from cryptography.exceptions import InvalidTag as Real

        try:
            return bytes(self._cipher().decrypt(nonce, data, associated_data))
        except Real as exc:
            raise InvalidTag(*exc.args) from exc


class SHA256:
    """SHA-256 as HKDF's hash (the one the SDK derives its key with)."""

    name = "sha256"
    digest_size = 32


class HKDF:
    """RFC 5869's HKDF with SHA-256, over the standard library's HMAC."""

    def __init__(self, *, algorithm: object, length: int, salt: bytes | None, info: bytes | None) -> None:
        if not isinstance(algorithm, SHA256):
            raise TypeError(f"HKDF here derives with SHA-256 only, not {algorithm!r}")
        if not 0 < length <= 255 * SHA256.digest_size:
            raise ValueError(f"HKDF cannot derive {length} bytes")
        self._length, self._salt, self._info = length, salt or bytes(SHA256.digest_size), info or b""

    def derive(self, key_material: bytes) -> bytes:
        key = hmac.digest(self._salt, key_material, "sha256")  # extract
        out, block, counter = b"", b"", 1
        while len(out) < self._length:  # expand
            block = hmac.digest(key, block + self._info + bytes([counter]), "sha256")
            out, counter = out + block, counter + 1
        return out[: self._length]


def _stand_ins() -> dict[str, ModuleType]:
    names: dict[str, dict[str, object]] = {
        "cryptography.exceptions": {"InvalidTag": InvalidTag},
        "cryptography.hazmat.primitives.ciphers.aead": {"AESGCM": AESGCM},
        "cryptography.hazmat.primitives.hashes": {"SHA256": SHA256},
        "cryptography.hazmat.primitives.kdf.hkdf": {"HKDF": HKDF},
    }
    modules = {}
    for name, attributes in names.items():
        module = modules[name] = ModuleType(name)
        module.__dict__.update(attributes)
    return modules


class _Loader(importlib.machinery.SourceFileLoader):
    def exec_module(self, module: ModuleType) -> None:
        with standing_in({} if "cryptography" in sys.modules else _stand_ins()):
            super().exec_module(module)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the SDK's sealing module where the path finder does and loads it with `_Loader`."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != SEALING_MODULE:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and type(spec.loader) is importlib.machinery.SourceFileLoader:
            spec.loader = _Loader(spec.loader.name, spec.loader.path)
        return spec


def install() -> None:
    """Load the SDK's sealing module with the stand-ins, whoever imports it first (once per process)."""
    if SEALING_MODULE not in sys.modules and not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
