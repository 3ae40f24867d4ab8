"""The FastAPI application: the JSON API (`/api`, OpenAPI at `/docs`), pages and static files.

`create_app(service)` wires a `GameService`; `app_from_environment()` is the factory uvicorn
workers call (`fivedice serve` passes the database URL in `$FIVEDICE_DATABASE_URL`).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from fivedice.core.errors import FivediceError, MalformedActionError, RuleSetError
from fivedice.core.game import SettingsError
from fivedice.service import GameService
from fivedice.store import DatabaseDamagedError, StoreUnavailableError
from fivedice.strategy.limits import SolverBusyError
from fivedice.text import error_text
from fivedice.web import api, pages
from fivedice.web.hub import GameHub, SeatError, UnknownGameError
from fivedice.web.security import Signer, load_secret
from fivedice.web.wording import gettext_for, pick_language

STATIC_DIR = Path(__file__).parent / "static"
SERVER_SOLVE_WAIT_SECONDS = 2.0


def error_status(error: FivediceError) -> int:
    """The HTTP status of a refused request."""
    if isinstance(error, UnknownGameError):
        return 404
    if isinstance(error, SeatError):
        return error.status
    if isinstance(error, MalformedActionError | RuleSetError | SettingsError):
        return 422
    if isinstance(error, StoreUnavailableError | SolverBusyError):
        return 503
    if isinstance(error, DatabaseDamagedError):
        return 500
    return 409  # illegal action, stale version, closed game, no hint possible


def create_app(
    service: GameService, secret: bytes | None = None, *, cpu_delay_ms: int = 700
) -> FastAPI:
    """The web application on a service.

    Args:
        service: the game service (its store decides SQLite or PostgreSQL).
        secret: the key of public ids and seat tokens (default: `load_secret()`).
        cpu_delay_ms: how long the page shows each CPU step before asking for the next.
    """
    app = FastAPI(
        title="fivedice",
        summary="Five dice, every house rule, and a coach that knows the best move.",
        version="1",
    )
    if service.solve_wait is None:  # a request waits a little for another's solve, then 503
        service.solve_wait = SERVER_SOLVE_WAIT_SECONDS
    app.state.hub = GameHub(service, Signer(secret or load_secret()))
    app.state.cpu_delay_ms = cpu_delay_ms
    app.include_router(api.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.exception_handler(FivediceError)
    def _refused(request: Request, error: FivediceError) -> Response:
        status = error_status(error)
        if request.url.path.startswith("/api/"):
            headers = {"WWW-Authenticate": "Bearer"} if status == 401 else {}
            if isinstance(error, SolverBusyError):
                headers["Retry-After"] = str(error.retry_after)
            return JSONResponse({"detail": str(error)}, status_code=status, headers=headers)
        # Pages speak the visitor's language; the JSON API's `detail` stays English.
        language = pick_language(
            request.cookies.get(pages.LANG_COOKIE), request.headers.get("accept-language")
        )
        message = error_text(error, gettext_for(language))
        retry = (
            {"Retry-After": str(error.retry_after)} if isinstance(error, SolverBusyError) else None
        )
        return HTMLResponse(
            f"<p>{status}: {_escape(message)}</p>", status_code=status, headers=retry
        )

    @app.exception_handler(RequestValidationError)
    def _malformed(request: Request, error: RequestValidationError) -> Response:
        # One readable sentence, plus FastAPI's usual list for programs.
        problems = "; ".join(
            f"{'.'.join(str(part) for part in item.get('loc', ()))}: {item.get('msg', '')}"
            for item in error.errors()
        )
        return JSONResponse(
            {"detail": f"malformed request: {problems}", "errors": _plain(error.errors())},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    def _http_error(request: Request, error: StarletteHTTPException) -> Response:
        # A body that is not even JSON (FastAPI says 400) is a malformed body: 422.
        status = error.status_code
        detail = error.detail
        if status == 400 and request.url.path.startswith("/api/"):
            status, detail = 422, f"malformed request: {detail}"
        return JSONResponse({"detail": detail}, status_code=status, headers=error.headers)

    return app


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _plain(errors: object) -> object:
    """Validation errors with only JSON-friendly values (pydantic may include exceptions)."""
    import json

    return json.loads(json.dumps(errors, default=str))


def app_from_environment() -> FastAPI:
    """The app on the database of `$FIVEDICE_DATABASE_URL` (the uvicorn worker factory)."""
    return create_app(GameService.open())
