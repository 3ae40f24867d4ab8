"""`fivedice serve`: the web app (pages and JSON API) on uvicorn.

Registered by `fivedice.cli`; FastAPI and uvicorn are imported only when the command runs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from fivedice.core.errors import FivediceError
from fivedice.i18n import _


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database URL (sqlite:///path or postgresql+psycopg://...); "
            "default $FIVEDICE_DATABASE_URL or a file in the user data directory.",
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option(help="Worker processes (use PostgreSQL for more than a few).", min=1)
    ] = 1,
    proxy_headers: Annotated[
        bool, typer.Option(help="Trust X-Forwarded-* from --forwarded-allow-ips.")
    ] = True,
    forwarded_allow_ips: Annotated[
        str, typer.Option(help="Proxies whose X-Forwarded-* headers are trusted.")
    ] = "127.0.0.1",
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="The site's address as players see it (https://dice.example.org): invite "
            "links use it, and forms posted from it are accepted; default "
            "$FIVEDICE_PUBLIC_URL, else relative invite links.",
        ),
    ] = None,
    solve_only: Annotated[
        str | None,
        typer.Option(
            "--solve-only",
            help="Solve only these rule presets, e.g. classic,free-choice (for public servers; "
            "default $FIVEDICE_SOLVE_RULES, else every rule set).",
        ),
    ] = None,
    connections_per_client: Annotated[
        int | None,
        typer.Option(
            help="Open connections one client address may hold, per worker (default 50); "
            "a trusted proxy's own are not capped, so the proxy must cap its clients.",
            min=1,
        ),
    ] = None,
    max_connections: Annotated[
        int | None,
        typer.Option(
            help="Open connections per worker, beyond them 503 (default: the file limit "
            "less an eighth).",
            min=1,
        ),
    ] = None,
    streams_per_client: Annotated[
        int | None,
        typer.Option(
            help="Open event streams one client address may hold, per worker (default 20).",
            min=1,
        ),
    ] = None,
    header_timeout: Annotated[
        float | None,
        typer.Option(
            help="Seconds a client has to send a request's headers (default 10).", min=0.1
        ),
    ] = None,
    body_timeout: Annotated[
        float | None,
        typer.Option(help="Seconds a client has to send a request's body (default 30).", min=0.1),
    ] = None,
    keep_alive_timeout: Annotated[
        int | None,
        typer.Option(help="Seconds an idle connection stays open (default 5).", min=1),
    ] = None,
    graceful_timeout: Annotated[
        int,
        typer.Option(
            help="Seconds a worker asked to stop (SIGTERM) gives its answers in flight before it "
            "exits; its event streams are sent to the other workers and its CPU games handed "
            "over at once.",
            min=1,
        ),
    ] = 10,
    log_format: Annotated[
        str,
        typer.Option(
            "--log-format",
            help="The log on stderr: json (one object a line, for a log collector) or text.",
        ),
    ] = "json",
    access_log: Annotated[
        bool,
        typer.Option(help="Log a line for every request (method, route, status, duration)."),
    ] = True,
    metrics_allow: Annotated[
        str | None,
        typer.Option(
            "--metrics-allow",
            help="Addresses and networks that may read /metrics, comma-separated, or * for "
            "everyone; default $FIVEDICE_METRICS_ALLOW, else loopback and "
            "--forwarded-allow-ips.",
        ),
    ] = None,
) -> None:
    """Serve the game in a browser, with a JSON API under /api (docs at /docs)."""
    from fivedice.service.games import GameService
    from fivedice.store import DATABASE_URL_ENV
    from fivedice.strategy.cache import cache_limit_bytes
    from fivedice.strategy.limits import SOLVE_RULES_ENV, allowed_rules
    from fivedice.web.guard import PUBLIC_URL_ENV, parse_public_url
    from fivedice.web.limits import EdgeLimits
    from fivedice.web.logs import ACCESS_LOG_ENV, LOG_FORMAT_ENV, LOG_FORMATS, configure_logging
    from fivedice.web.metrics import METRICS_ALLOW_ENV, default_metrics_allow, metrics_networks
    from fivedice.web.security import SecretError, load_secret
    from fivedice.web.server import run_server

    if log_format not in LOG_FORMATS:
        typer.echo(
            _("fivedice: --log-format is json or text, not {value!r}").format(value=log_format),
            err=True,
        )
        raise typer.Exit(2)
    os.environ[LOG_FORMAT_ENV] = log_format  # (each worker sets its log up from it)
    os.environ[ACCESS_LOG_ENV] = "1" if access_log else "0"
    if metrics_allow is not None:
        os.environ[METRICS_ALLOW_ENV] = metrics_allow
    elif not os.environ.get(METRICS_ALLOW_ENV):
        os.environ[METRICS_ALLOW_ENV] = default_metrics_allow(forwarded_allow_ips)
    if db:
        os.environ[DATABASE_URL_ENV] = db  # the workers' factory reads it
    if public_url:
        os.environ[PUBLIC_URL_ENV] = public_url
    if solve_only is not None:
        os.environ[SOLVE_RULES_ENV] = solve_only  # read by every worker's solver
    try:
        if os.environ.get(PUBLIC_URL_ENV):
            parse_public_url(os.environ[PUBLIC_URL_ENV])  # refused here, not in every worker
        metrics_networks(os.environ[METRICS_ALLOW_ENV])
        allowed_rules()  # a bad list or cache limit fails here, not at the first hint
        cache_limit_bytes()
        # Open once here: migrations run before any worker starts, and errors are clean.
        GameService.open(db).store.close()
        load_secret()  # create the shared secret file before the workers race for it
    except (FivediceError, SecretError) as error:
        from fivedice.wording.text import error_text

        typer.echo(f"fivedice: {error_text(error)}", err=True)
        raise typer.Exit(2) from None
    given: dict[str, Any] = {
        "connections_per_client": connections_per_client,
        "max_connections": max_connections,
        "streams_per_client": streams_per_client,
        "header_timeout": header_timeout,
        "body_timeout": body_timeout,
        "keep_alive_timeout": keep_alive_timeout,
    }
    try:
        limits = dataclasses.replace(
            EdgeLimits.from_environment(),
            **{name: value for name, value in given.items() if value is not None},
        )
    except ValueError as error:  # a $FIVEDICE_<LIMIT> that is not a positive number
        typer.echo(_("fivedice: not a valid limit: {setting}").format(setting=error), err=True)
        raise typer.Exit(2) from None
    typer.echo(_("Serving fivedice on http://{host}:{port}/").format(host=host, port=port))
    configure_logging(log_format)  # (uvicorn's own lines, from this process)
    with metrics_directory(workers):
        run_server(
            host,
            port,
            workers=workers,
            proxy_headers=proxy_headers,
            forwarded_allow_ips=forwarded_allow_ips,
            limits=limits,
            graceful_timeout=graceful_timeout,
        )


@contextlib.contextmanager
def metrics_directory(workers: int) -> Iterator[None]:
    """With several workers, the directory they share their metrics in (prometheus-client's
    multiprocess mode, web/metrics.py): `$PROMETHEUS_MULTIPROC_DIR` if set (emptied of old
    values first), else a new one removed when the server ends. One worker keeps its own."""
    from fivedice.web.metrics import MULTIPROC_ENV

    if workers == 1:
        yield
        return
    given = os.environ.get(MULTIPROC_ENV)
    if given:
        for old in Path(given).glob("*.db"):  # (a server before this one: not ours to add)
            old.unlink(missing_ok=True)
        yield
        return
    import tempfile  # here, not at the top: a few ms of imports no other command needs

    directory = tempfile.mkdtemp(prefix="fivedice-metrics-")
    os.environ[MULTIPROC_ENV] = directory  # the workers, spawned after this, inherit it
    try:
        yield
    finally:
        del os.environ[MULTIPROC_ENV]
        shutil.rmtree(directory, ignore_errors=True)


def register(app: typer.Typer) -> None:
    """Adds `serve` to the main command."""
    app.command("serve")(serve)
