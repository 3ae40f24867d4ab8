"""Random forms at every tutorial route (Hypothesis): never a server error or a traceback,
and a refused post changes neither the lesson in play nor the progress."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from fivedice.store import schema
from fivedice.web.routers import tutorial
from tests.web.test_fuzz import FUZZ, form_posts, no_hang, send_form
from tests.web.test_fuzz import world as world

ROUTES = sorted(
    (method, route.path) for route in tutorial.router.routes for method in route.methods
)
KEYS = st.sampled_from(["rolling", "zero", "guided", "nope", "%00", "x" * 300])


def progress(app):
    """Every owner's progress (the local user's and every browser session's)."""
    store = app.state.hub.service.store
    with store.engine.connect() as connection:
        return sorted(map(tuple, connection.execute(select(schema.tutorial_progress))))


@pytest.mark.parametrize(("method", "route"), ROUTES)
@FUZZ
@given(post=form_posts(), key=KEYS)
def test_random_forms_at_every_tutorial_route(world, method, route, post, key):
    app, client, token = world
    path = route.replace("{key}", key)
    before = progress(app)
    with no_hang():
        response = send_form(client, token, method, path, post)
    assert response.status_code < 500, response.text[:500]
    assert "Traceback" not in response.text
    if response.status_code >= 400:
        assert progress(app) == before
