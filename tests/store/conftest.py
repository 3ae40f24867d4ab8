"""Store fixtures: every store test runs on SQLite and on a real PostgreSQL server.

`make test` starts a throwaway server (scripts/with-postgres.sh) and exports its URL as
FIVEDICE_TEST_POSTGRES_URL; without that variable the PostgreSQL cases are skipped.
"""

from __future__ import annotations

import os
import uuid

import pytest
from sqlalchemy import create_engine, text

from fivedice.core.card import Placement
from fivedice.core.game import GameState
from fivedice.service.games import GameService, cpu_next_action
from fivedice.store import Store

POSTGRES_ENV = "FIVEDICE_TEST_POSTGRES_URL"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty database URL of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
        return
    server = os.environ.get(POSTGRES_ENV)
    if not server:
        if os.environ.get("CI"):  # make test always starts a server: never skip silently in CI
            pytest.fail(f"{POSTGRES_ENV} is not set in CI; run the tests through make test")
        pytest.skip(f"{POSTGRES_ENV} is not set (make test sets it)")
    name = f"fivedice_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    base, _, _ = server.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def store(db_url):
    store = Store(db_url)
    yield store
    store.close()


class SimpleCpu:
    """A fast, deterministic stand-in for a bot: keeps its most common face, scores the
    placement worth most."""

    def choose_keep(self, rules, card, dice, rolls_left):
        best = max(set(dice), key=lambda face: (dice.count(face), face))
        return tuple(d for d in dice if d == best)

    def choose_box(self, rules, card, dice) -> Placement:
        return max(card.placements(rules, dice), key=lambda p: p.points)


def simple_cpu_factory(level, seed, rules):
    return SimpleCpu()


@pytest.fixture
def service(store):
    return GameService(store, cpu_factory=simple_cpu_factory)


def human_move(state: GameState) -> str:
    """The action the test's 'human' takes: the simple CPU's, in notation."""
    return str(cpu_next_action(state, SimpleCpu()))


def play_out(service: GameService, game_id: int, limit: int | None = None):
    """Plays a saved game on (or `limit` actions); humans move like the simple CPU."""
    view = service.load(game_id)
    count = 0
    while not view.is_over and (limit is None or count < limit):
        if view.is_cpu_turn:
            _, view = service.cpu_step(game_id, view.version)
        else:
            view = service.apply_action(game_id, human_move(view.state), view.version)
        count += 1
    return view
