"""``GET /api/rules/components``: the numbers the /rules page fills into its texts."""

from __future__ import annotations

from fastapi import APIRouter, Header, Response

from app.rulesref.schemas import RulesComponentsOut
from app.rulesref.service import DOCUMENT

router = APIRouter(tags=["rules"])

# Public and the same for everyone; a client revalidates with the ETag after a short while.
CACHE_CONTROL = "public, max-age=300"


@router.get(
    "/api/rules/components",
    response_model=RulesComponentsOut,
    responses={304: {"description": "Not modified (the If-None-Match tag is current)"}},
)
async def rules_components(if_none_match: str | None = Header(default=None)) -> Response:
    """The component numbers of the rules engine (markers, huts, titles, advisors, favor
    tokens, events, solo, final scoring, effects), as in `app/rules/data/components.json`.
    Public, read-only, no sign-in; answered with an ETag (304 when `If-None-Match` matches)."""
    headers = {"ETag": DOCUMENT.etag, "Cache-Control": CACHE_CONTROL}
    if if_none_match is not None and DOCUMENT.etag in {t.strip() for t in if_none_match.split(",")}:
        return Response(status_code=304, headers=headers)
    return Response(content=DOCUMENT.body, media_type="application/json", headers=headers)
