"""What makes the site installable and its seats coloured: the service worker (`/sw.js`),
the offline page it shows (`/offline`) and the seat colours' stylesheet (`/seats.css`).

The worker is served from the site's root, not from `/static/`, because a worker's scope
is at most the folder it is served from: at the root it may answer for every page (with the
offline page when one cannot be reached). The manifest and the icons are plain static files
(`/static/manifest.webmanifest`, `/static/icons/`). `PageGuard` treats these three paths as
static files: cacheable, and no session is started for them.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from fivedice.web.palette import seat_css
from fivedice.web.routers.pages import Who, render

router = APIRouter(include_in_schema=False)
STATIC_DIR = Path(__file__).resolve().parents[1] / "static"


@router.get("/sw.js")
def service_worker() -> Response:
    """The service worker, its scope the whole site (it lives in static/sw.js)."""
    script = (STATIC_DIR / "sw.js").read_bytes()
    return Response(
        script,
        media_type="text/javascript",
        # A browser checks for a new worker at most daily anyway; this keeps it to a check.
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/seats.css")
def seats_stylesheet() -> Response:
    """The seat colours (`palette.SEAT_COLORS`) as classes `.chance-n` and `.seat-n`."""
    return Response(seat_css(), media_type="text/css", headers={"Cache-Control": "no-cache"})


@router.get("/offline", response_class=HTMLResponse)
def offline_page(request: Request, visitor: Who) -> HTMLResponse:
    """The page the service worker shows when a page cannot be reached (kept at install,
    in the language of that moment)."""
    return render(request, visitor, "offline.html")
