"""`engram keys`: API keys, each acting for one tenant (only their SHA-256 is kept)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from engram.config import Settings
from engram.errors import EngramError
from engram.interfaces.cli.base import JsonOption, print_json
from engram.interfaces.cli.terminal import error, plain

out = Console()
err = Console(stderr=True)

keys_app = typer.Typer(help="API keys: each belongs to a tenant, whose memories live in their own database.")


def _keys() -> Any:
    from engram.interfaces.tenants import Keys

    return Keys(Settings().home / "keys.db")


@keys_app.command("create")
def keys_create(
    tenant: Annotated[str, typer.Argument(help="tenant (user or workspace) the key acts for")],
    name: Annotated[str, typer.Option(help="a label for the key")] = "",
    as_json: JsonOption = False,
) -> None:
    """Create a key; the secret is printed once and only its hash is stored.

    Example: engram keys create alice --name laptop
    """
    keys = _keys()
    try:
        key, secret = keys.create(tenant, name)
    except EngramError as exc:
        error(err, exc)
        raise typer.Exit(2) from None
    finally:
        keys.close()
    if as_json:  # a script keeps the secret from here: it is never shown again
        print_json(asdict(key) | {"secret": secret})
        return
    out.print(f"key {key.id} for tenant {key.tenant}: {secret}", markup=False, highlight=False)
    out.print("(shown once: store it now)")


@keys_app.command("list")
def keys_list(as_json: JsonOption = False) -> None:
    """Every key: id, tenant, name, created, last used, revoked.

    Example: engram keys list
    """
    from engram.interfaces.tenants import is_tenant

    keys = _keys()
    listed = keys.list()
    keys.close()
    if as_json:
        print_json([asdict(k) | {"valid_tenant": is_tenant(k.tenant)} for k in listed])
        return
    table = Table("id", "tenant", "name", "created", "last used", "revoked")
    for k in listed:
        # A key an older version made for a name now refused (`local`) acts for nobody: say so.
        tenant = k.tenant if is_tenant(k.tenant) else f"{k.tenant} (not a valid tenant: refused)"
        table.add_row(  # a name as written: no markup read in it, no control character sent to the terminal
            k.id,
            tenant,
            plain(k.name),
            k.created_at[:19],
            (k.last_used_at or "")[:19],
            (k.revoked_at or "")[:19],
        )
    out.print(table)


@keys_app.command("revoke")
def keys_revoke(
    key_id: Annotated[str, typer.Argument(help="the key's id (from keys list)")], as_json: JsonOption = False
) -> None:
    """Revoke a key: requests with it are refused from now on.

    Example: engram keys revoke k_3f9a2c
    """
    keys = _keys()
    try:
        key = keys.revoke(key_id)
    except EngramError as exc:
        error(err, exc)
        raise typer.Exit(2) from None
    finally:
        keys.close()
    if as_json:
        print_json(asdict(key))
        return
    out.print(f"revoked {key.id} (tenant {key.tenant})")
