"""Verhoeff's proficiency (loss per decision): its split, its runs, its trend, and how games
join; built from decisions whose losses are known, so every figure is checked by hand."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from fivedice.core.categories import Category
from fivedice.strategy.review import (
    Choice,
    Decision,
    GameSkill,
    Proficiency,
    ReviewError,
    early_turns,
    proficiency_of,
    skill_stats,
    skill_trend,
)

TURNS = 13  # classic: turns 1-6 early, 7-13 late


def decision(loss: float, *, turn: int = 1, kind: str = "keep", exact: bool = True) -> Decision:
    chosen = Choice(keep=(6,)) if kind == "keep" else Choice(category=Category.CHANCE)
    return Decision(
        seat=0, game=1, turn=turn, kind=kind, dice=(1, 2, 3, 4, 6), rolls_left=1,
        chosen=chosen, best=chosen, chosen_value=10.0 - loss, best_value=10.0, loss=loss,
        exact=exact,
    )  # fmt: skip


def test_loss_per_decision_is_the_mean_of_the_losses():
    losses = [0.0, 2.5, 0.0, 1.25, 7.0]
    proficiency = proficiency_of([decision(loss) for loss in losses], TURNS)
    assert proficiency.decisions == 5
    assert proficiency.loss_per_decision == pytest.approx(sum(losses) / 5)
    assert proficiency.loss == pytest.approx(10.75)


def test_share_optimal_and_longest_run_of_a_known_sequence():
    losses = [0, 0, 1.5, 0, 0, 0, 2.0, 0, 0.0000000001]  # the last ties the best
    proficiency = proficiency_of([decision(loss) for loss in losses], TURNS)
    assert proficiency.optimal == 7
    assert proficiency.optimal_share == pytest.approx(7 / 9)
    assert proficiency.longest_run == 3
    assert proficiency.opening_run == 2
    assert proficiency.closing_run == 2
    assert proficiency.loss == pytest.approx(3.5)  # a tie with the best loses nothing


def test_no_decisions_have_no_figures():
    empty = proficiency_of([], TURNS)
    assert empty.decisions == 0
    assert empty.loss_per_decision is None and empty.optimal_share is None
    assert empty.longest_run == 0


def test_losses_split_by_kind_and_by_phase():
    decisions = [
        decision(1.0, turn=1, kind="keep"),
        decision(3.0, turn=6, kind="box"),  # the last early turn
        decision(0.0, turn=7, kind="keep"),  # the first late one
        decision(2.0, turn=13, kind="keep"),
        decision(5.0, turn=13, kind="box"),
    ]
    proficiency = proficiency_of(decisions, TURNS)
    assert (proficiency.keeps, proficiency.boxes) == (3, 2)
    assert proficiency.keep_loss_per_decision == pytest.approx((1 + 0 + 2) / 3)
    assert proficiency.box_loss_per_decision == pytest.approx((3 + 5) / 2)
    assert (proficiency.early, proficiency.late) == (2, 3)
    assert proficiency.early_loss_per_decision == pytest.approx((1 + 3) / 2)
    assert proficiency.late_loss_per_decision == pytest.approx((0 + 2 + 5) / 3)


@pytest.mark.parametrize(("turns", "early"), [(13, 6), (15, 7), (20, 10), (39, 19), (1, 0)])
def test_early_is_the_first_half_of_a_games_turns(turns, early):
    assert early_turns(turns) == early


def test_games_joined_in_order_are_one_run_of_all_their_decisions():
    rng = random.Random(7)
    for _trial in range(200):
        losses = [rng.choice([0.0, 0.0, 0.0, rng.random() * 5]) for _ in range(rng.randrange(40))]
        kinds = [rng.choice(["keep", "box"]) for _ in losses]
        turns = [rng.randrange(1, TURNS + 1) for _ in losses]
        decisions = [
            decision(loss, turn=turn, kind=kind)
            for loss, kind, turn in zip(losses, kinds, turns, strict=True)
        ]
        cuts = sorted(rng.sample(range(len(decisions) + 1), k=min(3, len(decisions) + 1)))
        parts = [decisions[a:b] for a, b in zip([0, *cuts], [*cuts, len(decisions)], strict=True)]
        joined = Proficiency()
        for part in parts:
            joined = joined.then(proficiency_of(part, TURNS))
        whole = proficiency_of(decisions, TURNS)
        assert joined.figures() == pytest.approx(whole.figures())
        # The longest run, counted directly.
        longest = run = 0
        for loss in losses:
            run = run + 1 if loss == 0 else 0
            longest = max(longest, run)
        assert whole.longest_run == longest


def test_a_run_of_optimal_decisions_goes_on_into_the_next_game():
    first = proficiency_of([decision(2.0), decision(0), decision(0)], TURNS)
    perfect = proficiency_of([decision(0)] * 4, TURNS)
    last = proficiency_of([decision(0), decision(1.0)], TURNS)
    joined = first.then(perfect).then(last)
    assert joined.longest_run == 2 + 4 + 1
    assert joined.opening_run == 0 and joined.closing_run == 0


def test_exact_and_estimated_losses_are_never_added_up():
    exact = proficiency_of([decision(1.0)], TURNS)
    estimate = proficiency_of([decision(1.0, exact=False)], TURNS, exact=False)
    with pytest.raises(ReviewError):
        exact.then(estimate)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    games = [GameSkill(1, start, exact), GameSkill(2, start, estimate), GameSkill(3, start, exact)]
    found = skill_stats("Ann", "custom", games)
    assert [(entry.exact, len(entry.games)) for entry in found] == [(True, 2), (False, 1)]
    assert found[0].overall.loss == pytest.approx(2.0)
    assert found[1].overall.loss == pytest.approx(1.0)


def game_with(loss_per_decision: float, index: int, decisions: int = 10) -> GameSkill:
    losses = [loss_per_decision] * decisions
    finished = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=index)
    return GameSkill(index, finished, proficiency_of([decision(x) for x in losses], TURNS))


def test_the_trend_holds_the_last_ten_games_against_the_ten_before():
    per_game = [5.0] * 5 + [3.0] * 10 + [1.0] * 10  # 25 games, improving
    games = [game_with(loss, index) for index, loss in enumerate(per_game)]
    trend = skill_trend(games)
    assert trend is not None
    assert trend.window == 10
    assert trend.recent == pytest.approx(1.0)
    assert trend.earlier == pytest.approx(3.0)
    assert trend.change == pytest.approx(-2.0)


def test_with_few_games_the_trend_halves_them_and_pools_decisions():
    games = [game_with(4.0, 0), game_with(2.0, 1, decisions=30), game_with(1.0, 2, decisions=10)]
    trend = skill_trend(games)
    assert trend is not None and trend.window == 1
    assert trend.recent == pytest.approx(1.0) and trend.earlier == pytest.approx(2.0)
    assert skill_trend(games[:1]) is None


def test_overall_figures_pool_every_decision():
    games = [game_with(4.0, 0, decisions=10), game_with(1.0, 1, decisions=30)]
    (entry,) = skill_stats("Ann", "classic", games)
    assert entry.overall.loss_per_decision == pytest.approx((40 + 30) / 40)  # not (4 + 1) / 2
    assert entry.to_json()["overall"]["decisions"] == 40


def test_figures_round_trip_through_what_the_store_keeps():
    proficiency = proficiency_of([decision(0), decision(1.5, kind="box", turn=9)], TURNS)
    assert Proficiency.from_figures(proficiency.figures()) == proficiency
