"""The API's documentation pages (/docs, /redoc), served with their own assets and no script written into them.

FastAPI's Swagger UI page starts the UI from an inline script, which a Content-Security-Policy can only allow
by allowing every inline script, the very thing it is for. /docs is a page of our own instead: the vendored
Swagger UI bundle and a starting script of ours, both loaded as files, so the page runs under the same policy
as the web UI and any script injected into it is refused by the browser."""

from __future__ import annotations

import html
import importlib.util
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

DOCS_ASSETS = "/docs-assets"  # Swagger UI and ReDoc, served here rather than from a CDN
DOCS_START = "/docs/start.js"
# Reads where the OpenAPI document is from the page, so the script is one fixed text whatever the root path.
_START = """\
const holder = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: holder.dataset.spec,
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
"""


def docs_assets() -> Path:
    """Swagger UI and ReDoc as the fastapi-offline package ships them (found, not imported: only its files are
    used)."""
    spec = importlib.util.find_spec("fastapi_offline")
    if spec is None or spec.origin is None:
        raise RuntimeError("fastapi-offline is not installed: it ships the assets of /docs and /redoc")
    return Path(spec.origin).parent / "static"


def swagger_page(title: str, spec: str, root: str) -> str:
    """Swagger UI's page: its stylesheet, its bundle and our starting script, all files; no inline script."""
    assets = html.escape(root + DOCS_ASSETS, quote=True)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1.0">\n'
        f"<title>{html.escape(title)}</title>\n"
        f'<link rel="stylesheet" href="{assets}/swagger-ui.css">\n'
        f'<link rel="icon" href="{assets}/favicon.png">\n</head>\n<body>\n'
        f'<div id="swagger-ui" data-spec="{html.escape(spec, quote=True)}"></div>\n'
        f'<script src="{assets}/swagger-ui-bundle.js"></script>\n'
        f'<script src="{html.escape(root + DOCS_START, quote=True)}"></script>\n</body>\n</html>\n'
    )


def offline_docs(app: FastAPI, assets: Path) -> None:
    """/docs and /redoc with every asset served by this server, so they work with no network."""
    app.mount(DOCS_ASSETS, StaticFiles(directory=assets), name="docs-assets")
    schema = app.openapi_url or "/openapi.json"

    @app.get("/docs", include_in_schema=False)
    def docs(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return HTMLResponse(swagger_page(f"{app.title} - Swagger UI", root + schema, root))

    @app.get(DOCS_START, include_in_schema=False)
    def start() -> Response:
        return Response(_START, media_type="text/javascript")

    @app.get("/redoc", include_in_schema=False)
    def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_redoc_html(
            openapi_url=root + schema,
            title=f"{app.title} - ReDoc",
            with_google_fonts=False,
            redoc_js_url=f"{root}{DOCS_ASSETS}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{DOCS_ASSETS}/favicon.png",
        )
