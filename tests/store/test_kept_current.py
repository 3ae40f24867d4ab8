"""Games kept current instead of replayed, and bounded caches.

`GameService.latest` brings a cached game up to date with the actions another worker saved
(one short read) instead of replaying the whole log: whatever happens in between, it must
equal a full replay. Every per-game cache has a size limit, and a game dropped from one
comes back correct.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fivedice.core.game import GameSettings, Seat, legal_actions
from fivedice.service.games import GameService
from fivedice.store import IN_PROGRESS, StaleVersionError
from tests.support.players import human_move, play_out, simple_cpu_factory

SEATS = GameSettings((Seat("Ann"), Seat("Bob"), Seat("Cora", "casual")))


def _step(worker: GameService, game_id: int, rng: random.Random) -> None:
    """One random thing a worker may do to the game: any legal action, an undo, a CPU step."""
    view = worker.latest(game_id)
    if view.is_over:
        return
    if view.is_cpu_turn:
        worker.cpu_step(game_id, view.version)
        return
    choice = rng.random()
    if choice < 0.1 and view.version > 0 and worker.can_undo(game_id) is None:
        worker.apply_action(game_id, "undo", view.version)
    elif choice < 0.5:
        worker.apply_action(game_id, human_move(view.state), view.version)
    else:
        worker.apply_action(game_id, rng.choice(legal_actions(view.state)), view.version)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 120), looks=st.integers(1, 6))
def test_kept_current_equals_a_full_replay(store, seed, steps, looks):
    """Worker B plays random actions (undos and CPU steps too); worker A looks now and then
    and keeps its cached game current: it always equals the game replayed from the log."""
    a = GameService(store, cpu_factory=simple_cpu_factory)
    b = GameService(store, cpu_factory=simple_cpu_factory)
    rng = random.Random(seed)
    game_id = a.create_game(SEATS, seed=seed).game_id
    for _ in range(steps):
        _step(b if rng.random() < 0.8 else a, game_id, rng)
        if rng.randrange(looks) == 0:
            kept = a.latest(game_id)
            replayed = GameService(store, cpu_factory=simple_cpu_factory).load(game_id)
            assert kept == replayed
    kept, replayed = a.latest(game_id), GameService(store).load(game_id)
    assert kept == replayed
    assert kept.version >= 1


def test_latest_reads_only_new_actions_and_sees_the_status(store):
    a = GameService(store, cpu_factory=simple_cpu_factory)
    b = GameService(store, cpu_factory=simple_cpu_factory)
    game = a.create_game(GameSettings((Seat("Ann"),)), seed=5)
    assert a.latest(game.game_id) is game  # nothing new: the cached view itself
    play_out(b, game.game_id, limit=7)
    steps: list = []
    kept = a.latest(game.game_id, steps)
    assert kept.version == 7 and kept == b.load(game.game_id)
    # The versions in between, as a replay of the log goes through them.
    replayed = [state for _entry, state in store.load_game(game.game_id).states()]
    assert [step.version for step in steps] == [1, 2, 3, 4, 5, 6]
    assert [step.state for step in steps] == replayed[1:7]
    b.abandon(game.game_id)
    gone = a.latest(game.game_id)
    assert gone.status != IN_PROGRESS and gone.status == b.load(game.game_id).status
    assert gone.state == kept.state


def test_a_kept_view_never_lets_a_stale_action_in(store):
    a = GameService(store, cpu_factory=simple_cpu_factory)
    b = GameService(store, cpu_factory=simple_cpu_factory)
    game = a.create_game(GameSettings((Seat("Ann"),)), seed=9)
    b.apply_action(game.game_id, "roll", 0)
    with pytest.raises(StaleVersionError):
        a.apply_action(game.game_id, "roll", 0)  # A still caches version 0
    assert a.apply_action(game.game_id, "hold 1", 1).version == 2  # caught up, then applied


def test_the_view_cache_never_exceeds_its_limit_and_evicted_games_reload(store, monkeypatch):
    monkeypatch.setattr(GameService, "CACHED_VIEWS", 3)
    service = GameService(store, cpu_factory=simple_cpu_factory)
    other = GameService(store, cpu_factory=simple_cpu_factory)
    games = [service.create_game(SEATS, seed=n).game_id for n in range(8)]
    for round_ in range(3):
        for game_id in games:
            play_out(service, game_id, limit=2 + round_)
            assert len(service._views) <= 3
    for game_id in games:
        assert service.latest(game_id) == other.load(game_id)
        assert len(service._views) <= 3


def test_the_cpu_players_never_exceed_their_limit_and_play_the_same(store):
    """The real bots, evicted between moves, choose exactly what kept ones choose (a CPU is
    reseeded before every move)."""
    bounded, kept = GameService(store), GameService(store)
    bounded.CACHED_CPUS = 1
    pairs = [
        (bounded.create_game(SEATS, seed=n).game_id, kept.create_game(SEATS, seed=n).game_id)
        for n in range(3)
    ]
    for _ in range(4):
        for mine, theirs in pairs:
            play_out(bounded, mine, limit=6)
            play_out(kept, theirs, limit=6)
            assert len(bounded._cpus) <= 1
    assert len(kept._cpus) == 3
    for mine, theirs in pairs:
        played = [(e.seat, e.action, e.dice) for e in store.load_game(mine).actions]
        assert played == [(e.seat, e.action, e.dice) for e in store.load_game(theirs).actions]
        assert any(seat == 2 for seat, _action, _dice in played)  # the CPU did move
