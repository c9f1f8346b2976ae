"""schemathesis over the REST API's own OpenAPI document: generated requests, bounded, never a server error."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings

from engram import FakeEmbedder, Settings
from engram.interfaces.http.api import create_app
from engram.interfaces.tenants import Tenants

# The REST app the OpenAPI document describes (MCP's session manager runs once per process, not per request).
_home = Path(tempfile.mkdtemp(prefix="engram-fuzz-"))
atexit.register(shutil.rmtree, _home, ignore_errors=True)
# schemathesis calls the app as "testserver": a host name local mode must be told to answer to.
app = create_app(
    Tenants(Settings(home=_home), FakeEmbedder(), _home / "fuzz.db"),
    None,
    require_key=False,
    hosts=["testserver"],
)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_error(case: schemathesis.Case) -> None:
    response = case.call()
    assert response.status_code < 500, (case.method, case.path, response.text[:500])
