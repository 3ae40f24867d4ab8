"""The FastAPI application: the JSON API (`/api`, OpenAPI at `/docs`), pages and static files.

`create_app(service)` wires a `GameService`; `app_from_environment()` is the factory uvicorn
workers call (`fivedice serve` passes the database URL in `$FIVEDICE_DATABASE_URL` and the
public URL in `$FIVEDICE_PUBLIC_URL`). `RequestLimits` (limits.py) wraps everything: bodies
bounded, deep JSON refused, event streams per client capped; inside it `PageGuard` (guard.py):
sessions, CSRF checks and security headers.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from fivedice.core.errors import N_, FivediceError
from fivedice.service.errors import SolverBusyError
from fivedice.service.games import GameService, GameView
from fivedice.service.readiness import check_readiness
from fivedice.service.solving import SOLVE_QUEUE_WATCHERS
from fivedice.store.notices import Topic
from fivedice.store.pg_async import AsyncStatements
from fivedice.web.driver import CpuDriver
from fivedice.web.expiry import ExpirySettings, expire_periodically
from fivedice.web.guard import (
    LANG_COOKIE,
    PUBLIC_URL_ENV,
    PageGuard,
    parse_public_url,
    session_of,
)
from fivedice.web.health import Probes, ReadinessProbe
from fivedice.web.hub import GameHub, UnknownGameError, error_status
from fivedice.web.limits import EdgeLimits, RequestLimits, quiet_errors
from fivedice.web.live import Live
from fivedice.web.logs import (
    access_log_from_environment,
    configure_logging,
    log_format_from_environment,
)
from fivedice.web.metrics import (
    LOOPBACK,
    METRICS_ALLOW_ENV,
    change_solves_queued,
    count_database_error,
    count_database_retry,
    metrics_networks,
)
from fivedice.web.observe import Observe
from fivedice.web.rates import ClientRates, RateGuard, RateLimitedError, RateSettings
from fivedice.web.routers import (
    alive,
    api,
    fairness,
    guide,
    pages,
    practice,
    review,
    rooms,
    sheet,
    table,
    tutorial,
)
from fivedice.web.security import Signer, load_secret
from fivedice.web.stopping import STOPPING
from fivedice.web.wording import gettext_for, pick_language
from fivedice.wording.text import error_text

STATIC_DIR = Path(__file__).parent / "static"
RETRY_AFTER_SECONDS = 5  # a database that went away: when to ask again
SERVER_SOLVE_WAIT_SECONDS = 2.0
CPU_SCAN_ENV = "FIVEDICE_CPU_SCAN_SECONDS"
CPU_DELAY_ENV = "FIVEDICE_CPU_DELAY_MS"
WATCH_ENV = "FIVEDICE_WATCH_SECONDS"  # a look keeps a game of CPUs alone playing this long
# A game whose driving worker was killed is picked up at the next scan of a worker that
# follows it (within two scans otherwise), once PostgreSQL has let the dead worker's lease
# go: 1 s keeps its CPU moving again within 5 s even on a loaded machine
# (tests/cluster/test_cluster_faults.py; 5 s measured 6.1–6.5 s; 2 s, 5.6–6.6 s at a load
# of 17, about one run in three). A scan is one small query per worker and second.
DEFAULT_CPU_SCAN_SECONDS = 1.0
_MOVES = frozenset({Topic.GAME, Topic.SEATS})  # changes after which a CPU may be to move
_GAME_TOPICS = frozenset({Topic.GAME, Topic.SEATS, Topic.ENDED})


def create_app(
    service: GameService,
    secret: bytes | None = None,
    *,
    cpu_delay_ms: int = 700,
    public_url: str | None = None,
    drive_cpus: bool = True,
    cpu_scan_seconds: float = DEFAULT_CPU_SCAN_SECONDS,
    limits: EdgeLimits | None = None,
    rates: RateSettings | None = None,
    expiry: ExpirySettings | None = None,
    metrics_allow: str | None = None,
) -> FastAPI:
    """The web application on a service.

    Args:
        service: the game service (its store decides SQLite or PostgreSQL). A server's is
            made with a `solve_wait` (`SERVER_SOLVE_WAIT_SECONDS`), so a request waits a
            little for another's table solve and then answers 503.
        secret: the key of public ids and seat tokens (default: `load_secret()`).
        cpu_delay_ms: the pace of CPU seats: how long each CPU step is shown before the next.
        drive_cpus: play CPU seats on the server (driver.py); off only for tests that step
            CPUs themselves through `POST /api/games/{id}/cpu`.
        cpu_scan_seconds: how often this worker looks for CPU turns nobody drives (a
            worker that died).
        public_url: the site's address as its visitors see it (``https://dice.example.org``):
            invite links are built from it (without it they are relative; never from the
            request's Host header), and forms posted from it pass the origin check.
        limits: what one client may send or hold (bodies, event streams; limits.py).
        rates: per-client rates (web/rates.py; default: `RateSettings.from_environment()`).
        expiry: when rooms never started and games never played are deleted (web/expiry.py;
            default: `ExpirySettings.from_environment()`).
        metrics_allow: the addresses and networks that may read `/metrics`, comma-separated
            (``*``: everyone; default ``$FIVEDICE_METRICS_ALLOW``, else loopback).

    Raises:
        PublicUrlError: `public_url` is not a site's address.
        RateSettingError: a rate variable of the environment is not a rate.
        ExpirySettingError: an expiry variable of the environment is not a positive number.
        MetricsAllowError: `metrics_allow` is not a list of addresses and networks.
    """
    metrics_from = metrics_networks(
        metrics_allow if metrics_allow is not None else os.environ.get(METRICS_ALLOW_ENV, LOOPBACK)
    )
    _count_into_metrics(service)
    client_rates = ClientRates(rates or RateSettings.from_environment())
    expiry = expiry or ExpirySettings.from_environment()
    public_origin = parse_public_url(public_url) if public_url else None
    signer = Signer(secret or load_secret())
    hub = GameHub(service, signer)
    driver = CpuDriver(hub, cpu_delay_ms, cpu_scan_seconds, permit=client_rates.server_permit)

    def on_change(topic: Topic, ident: int, version: int) -> None:
        if topic in _MOVES and drive_cpus:
            driver.poke(ident, version, seats=topic is Topic.SEATS)

    def on_remote_change(topic: Topic, ident: int, version: int) -> None:
        if topic in _MOVES and drive_cpus:
            driver.poke(ident, version, remote=True, seats=topic is Topic.SEATS)
        elif topic is Topic.DRIVER and drive_cpus:  # a stopping worker let the game go
            driver.adopt(ident)

    def on_remote(topic: Topic, ident: int, version: int) -> None:
        if topic in _GAME_TOPICS:  # (seats or status changed: the game is read again)
            hub.forget_older(ident, version, seats_changed=topic is not Topic.GAME)

    live = Live(service.store, on_remote=on_remote, on_action=hub.heard_action)
    live.local_hooks.append(on_change)
    live.remote_hooks = [on_remote_change]
    hub.changed = live.changed
    driver.watchers = lambda game_id: live.watchers((Topic.GAME, game_id))
    watch = os.environ.get(WATCH_ENV)
    if watch:
        driver.watch_seconds = float(watch)

    def looked(view: GameView) -> None:
        """Someone looked at a game: one nobody plays (and so paused, perhaps) plays on."""
        driver.looked_at(view.game_id)
        if drive_cpus and not view.has_person and view.is_cpu_turn:
            live.call_soon(driver.poke, view.game_id)

    hub.looked = looked

    def stop_gently() -> None:
        """The worker begins to stop (web/stopping.py): not ready any more (/readyz), streams
        sent elsewhere, CPU games handed over; uvicorn finishes the answers in flight."""
        readiness.stop()
        live.drain()
        if drive_cpus:
            driver.begin_hand_over()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        live.start(asyncio.get_running_loop())
        forget_hook = STOPPING.on_stop(stop_gently)
        restore_signals = STOPPING.watch_signals(asyncio.get_running_loop())
        if not service.store.is_sqlite:  # the hot statements awaited in this loop
            hub.statements = AsyncStatements(service.store)
        if drive_cpus:
            await driver.warm_up()
            driver.start()
        expiring = asyncio.create_task(expire_periodically(service, expiry))
        try:
            yield
        finally:
            STOPPING.exit_by_deadline()  # (also when the stop came before the hooks were set)
            restore_signals()
            forget_hook()
            expiring.cancel()
            await driver.stop()
            live.stop()
            statements, hub.statements = hub.statements, None
            if statements is not None:
                await statements.close()
            STOPPING.reset()  # (stopped: a server started later in this process is not)

    app = FastAPI(
        title="fivedice",
        summary="Five dice, every house rule, and a coach that knows the best move.",
        version="1",
        lifespan=lifespan,
        # No OpenTelemetry here: without this FastAPI asks the global providers (reading
        # the environment) on every request.
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.hub = hub
    app.state.live = live
    app.state.driver = driver
    app.state.drive_cpus = drive_cpus
    app.state.cpu_delay_ms = cpu_delay_ms
    app.state.public_url = public_origin
    app.state.rates = client_rates
    # (`app.state.readiness.stop()` when the worker begins to stop: /readyz answers 503.)
    readiness = ReadinessProbe(lambda: check_readiness(service.store))
    app.state.readiness = readiness
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(sheet.router)
    app.include_router(guide.router)
    app.include_router(review.router)
    app.include_router(table.router)
    app.include_router(tutorial.router)
    app.include_router(practice.router)
    app.include_router(rooms.router)
    app.include_router(fairness.router)
    app.include_router(alive.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(
        RateGuard, rates=client_rates, refuse=lambda scope, error: _refused(Request(scope), error)
    )
    app.add_middleware(
        PageGuard, signer=signer, public_origin=public_origin, sessions=hub.browser_seats
    )
    # Outermost: a body too large or too deep is refused before the guard or a route reads it.
    app.add_middleware(RequestLimits, limits=limits or EdgeLimits())
    # Outside even that: a balancer's /healthz and /readyz are never limited, rated or
    # given a session (web/health.py).
    app.add_middleware(Probes, probe=readiness)
    # Outermost: every answer, the probes' too, carries its request id and is counted
    # and logged (web/observe.py); /metrics is answered here.
    app.add_middleware(Observe, game_number=hub.game_id, metrics_from=metrics_from)

    @app.exception_handler(FivediceError)
    def _refused(request: Request, error: FivediceError) -> Response:
        status = error_status(error)
        headers = {}
        if status == 401:
            headers["WWW-Authenticate"] = "Bearer"
        if isinstance(error, SolverBusyError | RateLimitedError):
            headers["Retry-After"] = str(error.retry_after)
        elif status == 503:
            headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"detail": str(error)}, status_code=status, headers=headers)
        if isinstance(error, UnknownGameError):  # every page's one answer to a wrong game id
            return _message_page(request, status, None)
        # Pages speak the visitor's language; the JSON API's `detail` stays English.
        return _message_page(request, status, error, headers)

    @app.exception_handler(RequestValidationError)
    def _malformed(request: Request, error: RequestValidationError) -> Response:
        if not request.url.path.startswith("/api/"):  # a page's form: a sentence, not pydantic's
            return _message_page(request, 422, FivediceError(MALFORMED_FORM))
        # One readable sentence, plus FastAPI's usual list for programs; neither echoes the
        # input (pydantic's errors carry a copy of it: megabytes for a body of megabytes).
        errors = quiet_errors(error.errors())
        problems = "; ".join(
            f"{'.'.join(str(part) for part in item['loc'])}: {item['msg']}" for item in errors
        )
        return JSONResponse(
            {"detail": f"malformed request: {problems}", "errors": errors}, status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    def _http_error(request: Request, error: StarletteHTTPException) -> Response:
        # A body that is not even JSON (FastAPI says 400) is a malformed body: 422.
        status = error.status_code
        detail = error.detail
        if status == 400 and request.url.path.startswith("/api/"):
            status, detail = 422, f"malformed request: {detail}"
        if not request.url.path.startswith(("/api/", "/static/", "/docs", "/openapi")):
            # A page visitor reads "there is no such page" in their language, not "Not Found".
            template = PAGE_ERRORS.get(status, PAGE_ERRORS[400])
            return _message_page(request, status, FivediceError(template), error.headers)
        return JSONResponse({"detail": detail}, status_code=status, headers=error.headers)

    return app


MALFORMED_FORM = N_(
    "This form was not filled in as the page sends it; reload the page and try again."
)
PAGE_ERRORS = {
    404: N_("There is no such page here."),
    405: N_("That cannot be done on this page."),
    400: N_("This request could not be understood; reload the page and try again."),
}
"""What a page visitor reads for an HTTP error raised outside fivedice (a wrong address)."""


def _message_page(
    request: Request,
    status: int,
    error: FivediceError | None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """The message page, in the visitor's language, with the error's reason (None: the
    game asked for does not exist)."""
    language = pick_language(
        request.cookies.get(LANG_COOKIE), request.headers.get("accept-language")
    )
    visitor = pages.Visitor(language, session_of(request.scope), coach=False)
    if error is None:
        page = pages.render(
            request, visitor, "message.html", status=status, message_key="not_found"
        )
    else:
        message = error_text(error, gettext_for(language))
        page = pages.render(request, visitor, "message.html", status=status, message=message)
    page.headers.update(headers or {})
    return page


def _count_into_metrics(service: GameService) -> None:
    """The store's errors and retries and the solver's queue, counted in web/metrics.py
    (once per store and process, however many apps are made on them)."""
    signals = service.store.signals
    if count_database_error not in signals.errors:
        signals.errors.append(count_database_error)
        signals.retries.append(count_database_retry)
    if change_solves_queued not in SOLVE_QUEUE_WATCHERS:
        SOLVE_QUEUE_WATCHERS.append(change_solves_queued)


def app_from_environment() -> FastAPI:
    """The app on the database of `$FIVEDICE_DATABASE_URL` (the uvicorn worker factory);
    its log in `$FIVEDICE_LOG_FORMAT`, access lines unless `$FIVEDICE_ACCESS_LOG` is 0
    (web/logs.py)."""
    from fivedice.web.server import follow_supervisor

    follow_supervisor()  # (a worker of several ends with its supervisor)
    configure_logging(log_format_from_environment(), access_log=access_log_from_environment())
    scan = os.environ.get(CPU_SCAN_ENV)
    delay = os.environ.get(CPU_DELAY_ENV)
    return create_app(
        # A request waits a little for another's table solve, then answers 503.
        GameService.open(solve_wait=SERVER_SOLVE_WAIT_SECONDS),
        public_url=os.environ.get(PUBLIC_URL_ENV) or None,
        cpu_scan_seconds=float(scan) if scan else DEFAULT_CPU_SCAN_SECONDS,
        cpu_delay_ms=int(delay) if delay else 700,
        limits=EdgeLimits.from_environment(),
    )
