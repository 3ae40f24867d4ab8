"""`fivedice serve`: the web app (pages and JSON API) on uvicorn.

Registered by `fivedice.cli`; FastAPI and uvicorn are imported only when the command runs.
"""

from __future__ import annotations

import os
from typing import Annotated

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
) -> None:
    """Serve the game in a browser, with a JSON API under /api (docs at /docs)."""
    from fivedice.service.games import GameService
    from fivedice.store import DATABASE_URL_ENV
    from fivedice.strategy.cache import cache_limit_bytes
    from fivedice.strategy.limits import SOLVE_RULES_ENV, allowed_rules
    from fivedice.web.guard import PUBLIC_URL_ENV, parse_public_url
    from fivedice.web.security import SecretError, load_secret
    from fivedice.web.server import run_server

    if db:
        os.environ[DATABASE_URL_ENV] = db  # the workers' factory reads it
    if public_url:
        os.environ[PUBLIC_URL_ENV] = public_url
    if solve_only is not None:
        os.environ[SOLVE_RULES_ENV] = solve_only  # read by every worker's solver
    try:
        if os.environ.get(PUBLIC_URL_ENV):
            parse_public_url(os.environ[PUBLIC_URL_ENV])  # refused here, not in every worker
        allowed_rules()  # a bad list or cache limit fails here, not at the first hint
        cache_limit_bytes()
        # Open once here: migrations run before any worker starts, and errors are clean.
        GameService.open(db).store.close()
        load_secret()  # create the shared secret file before the workers race for it
    except (FivediceError, SecretError) as error:
        from fivedice.wording.text import error_text

        typer.echo(f"fivedice: {error_text(error)}", err=True)
        raise typer.Exit(2) from None
    typer.echo(_("Serving fivedice on http://{host}:{port}/").format(host=host, port=port))
    run_server(
        host,
        port,
        workers=workers,
        proxy_headers=proxy_headers,
        forwarded_allow_ips=forwarded_allow_ips,
    )


def register(app: typer.Typer) -> None:
    """Adds `serve` to the main command."""
    app.command("serve")(serve)
