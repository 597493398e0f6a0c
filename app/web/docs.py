"""``/docs``: the interactive OpenAPI page, served whole by this server.

Swagger UI's script and stylesheet come from a pinned Python package (``fastapi-offline``, which
ships Swagger UI 5: OpenAPI 3.1 as FastAPI writes it) and are served from ``/docs/…`` with the
server's own origin, each named with its ``integrity`` hash; the page starts Swagger UI from a
script file of its own, never an inline script. So the page runs under the same strict policy
as every other (app/web/headers.py): scripts and styles from this origin only.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import fastapi_offline
from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from app.errors import NotFound

SWAGGER_DIR: Final = Path(fastapi_offline.__file__).resolve().parent / "static"
# Starts Swagger UI on the page (``queryConfigEnabled`` off: no ``?url=`` loads another document).
INIT_JS: Final = b"""window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    queryConfigEnabled: false,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
});
"""
PAGE: Final = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Emara API</title>
<link rel="icon" href="/docs/favicon.png">
<link rel="stylesheet" href="/docs/swagger-ui.css" integrity="{css}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js" integrity="{bundle}"></script>
<script src="/docs/init.js" integrity="{init}"></script>
</body>
</html>
"""


@dataclass(frozen=True)
class Asset:
    body: bytes
    media_type: str

    @property
    def integrity(self) -> str:
        return "sha384-" + base64.b64encode(hashlib.sha384(self.body).digest()).decode()


def load_assets() -> dict[str, Asset]:
    def read(name: str) -> bytes:
        return (SWAGGER_DIR / name).read_bytes()

    return {
        "swagger-ui-bundle.js": Asset(read("swagger-ui-bundle.js"), "text/javascript"),
        "swagger-ui.css": Asset(read("swagger-ui.css"), "text/css"),
        "favicon.png": Asset(read("favicon.png"), "image/png"),
        "init.js": Asset(INIT_JS, "text/javascript"),
    }


def docs_router() -> APIRouter:
    """``GET /docs`` and its four files (read once, at start-up)."""
    assets = load_assets()
    page = PAGE.format(
        css=assets["swagger-ui.css"].integrity,
        bundle=assets["swagger-ui-bundle.js"].integrity,
        init=assets["init.js"].integrity,
    )
    router = APIRouter(include_in_schema=False)

    @router.get("/docs")
    async def docs() -> HTMLResponse:
        return HTMLResponse(page)

    @router.get("/docs/{name}")
    async def docs_file(name: str) -> Response:
        asset = assets.get(name)
        if asset is None:
            raise NotFound("no such file")
        return Response(
            asset.body,
            media_type=asset.media_type,
            headers={"Cache-Control": "public, max-age=86400"},
        )

    return router
