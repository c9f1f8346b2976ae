"""Who a request acts for: the tenant of its API key (Bearer or X-API-Key), or the local tenant when keys are not
required and none is given. A wrong key is refused even then."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from engram import Memory
from engram.interfaces.tenants import LOCAL


class Caller:
    """The tenant a request acts for, and its Memory."""

    def __init__(self, tenant: str, memory: Memory) -> None:
        self.tenant = tenant
        self.memory = memory


def secret_of(headers: object) -> str | None:
    """The API key a request carries: `Authorization: Bearer <key>` or `X-API-Key: <key>`."""
    get = getattr(headers, "get", None)
    if get is None:
        return None
    header = str(get("authorization") or "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    key = get("x-api-key")
    return None if key is None else str(key)


def caller(request: Request) -> Caller:
    state = request.app.state
    secret = secret_of(request.headers)
    if secret:
        tenant = state.keys.tenant_of(secret) if state.keys is not None else None
        if tenant is None:
            raise PermissionError("the API key is unknown or revoked")
        return Caller(tenant, state.tenants.memory(tenant))
    if state.require_key:
        raise PermissionError("an API key is required (Authorization: Bearer <key>)")
    return Caller(LOCAL, state.tenants.memory(LOCAL))


Who = Annotated[Caller, Depends(caller)]
