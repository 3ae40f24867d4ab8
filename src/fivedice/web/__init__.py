"""The web front end: a FastAPI app with a JSON API and server-rendered pages.

Imported only by `fivedice serve` and the tests (FastAPI and Jinja2 load on demand).
"""

from fivedice.web.app import app_from_environment, create_app

__all__ = ["app_from_environment", "create_app"]
