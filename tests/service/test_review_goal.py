"""The review judged against the winning total: which total, and one verdict per decision."""

from __future__ import annotations

import pytest

from fivedice.core.game import GameSettings, GameState, Seat
from fivedice.core.rules import CLASSIC
from fivedice.service.games import GameService
from fivedice.store import Store
from fivedice.strategy.hints import Hint, exact_hints

pytestmark = [pytest.mark.slow, pytest.mark.tables]


def _finished_game(service: GameService, *names: str) -> int:
    seats = tuple(Seat(name, "strong") for name in names)
    view = service.create_game(GameSettings(seats=seats, rules=CLASSIC), seed=11, practice=True)
    while not view.is_over:
        _action, view = service.cpu_step(view.game_id, view.version)
    return view.game_id


def test_each_decision_is_judged_against_one_point_more_than_the_best_other_total(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"))
    game_id = _finished_game(service, "Ann", "Bo", "Cy")
    totals = service.view(game_id).state.totals
    asked: set[int] = set()

    def fake_target_hints(state: GameState, goal: int, table: object = None) -> list[Hint]:
        # The goal's ranking is the expected-score one here, its chances made up from the
        # losses: what is checked is which goal is asked and how the verdicts are kept.
        asked.add(goal)
        hints = exact_hints(_table(state), state)
        return [Hint(h.keep, h.category, 1 / (1 + h.loss), h.loss, hold=h.hold, goal=goal)
                for h in hints]  # fmt: skip

    monkeypatch.setattr("fivedice.strategy.target.target_hints", fake_target_hints)
    review = service.review(game_id, against_winning_total=True)
    wanted = [max(t for j, t in enumerate(totals) if j != i) + 1 for i in range(3)]
    assert asked == set(wanted)
    for seat, goal in zip(review.seats, wanted, strict=True):
        assert seat.decisions and all(d.goal is not None for d in seat.decisions)
        for decision in seat.decisions:
            verdict = decision.goal
            assert verdict is not None and verdict.goal == goal
            assert verdict.chosen_chance == pytest.approx(1 / (1 + decision.loss))
            assert verdict.best_chance == 1.0
            assert decision.to_json()["goal"]["total"] == goal
    plain = service.review(game_id)
    assert all(d.goal is None for seat in plain.seats for d in seat.decisions)


def _table(state: GameState):  # the solved table of the rules (cached)
    from fivedice.strategy.cache import load_or_solve

    return load_or_solve(state.rules)
