"""The web front end: a FastAPI app with a JSON API and server-rendered pages.

Imported only by `fivedice serve` and the tests (FastAPI and Jinja2 load on demand). The app
itself is imported on first use of `create_app` or `app_from_environment`: the supervisor of
`fivedice serve --workers N` imports `fivedice.web.server` and never serves, so it does not
pay for importing the app (about a second of CPU) before it can start its workers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fivedice.web.app import app_from_environment, create_app

__all__ = ["app_from_environment", "create_app"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from fivedice.web import app

        return getattr(app, name)
    raise AttributeError(f"module 'fivedice.web' has no attribute {name!r}")
