"""Generala's coach and CPUs score served points: on a turn's first roll a box is worth its
served points (Escalera, Full and Póker made on the first roll), exactly as the solver values
that roll; keeping every die means scoring now, so the CPUs score a served hand when that is
best. Checked against the solver's own table (every first roll of several cards) and against
an independent brute force on small remaining games."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable

import pytest

from fivedice.core.card import Column, ScoreCard
from fivedice.core.dice import ALL_ROLLS
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.strategy import advisor, turn_cache
from fivedice.strategy.bots import Bot
from fivedice.strategy.limits import check_supported, has_layer_tables, is_supported
from fivedice.strategy.rule_arrays import is_served_roll
from fivedice.strategy.solitaire import play_solitaire
from fivedice.strategy.solver import StrategyTable, any_dice_options, column_state
from fivedice.strategy.tables import dice_tables
from tests.strategy.brute import BruteForce
from tests.strategy.test_solver_presets import _card

Solved = Callable[[RuleSet], StrategyTable]

GENERALA = find_ruleset("generala")
FIRST = GENERALA.rolls_per_turn - 1  # rolls left on a turn's first roll
EXACT = 1e-9

# Cards (open boxes, score overrides) whose first rolls the coach is checked on exhaustively.
CARDS = [
    ((), {}),  # the empty card: the optimum itself
    (("escalera", "full", "poker", "generala", "sixes"), {}),
    (("double_generala", "poker", "full", "twos"), {"generala": 50}),
    (("double_generala", "escalera", "ones"), {"generala": 0}),
]


def _column(rules: RuleSet, open_boxes: tuple[str, ...], scores: dict[str, int]) -> Column:
    return Column.empty(rules) if not open_boxes else _card(rules, open_boxes, **scores)


def test_generala_is_played_by_the_coach_and_the_cpus_without_the_layer_tables() -> None:
    assert is_supported(GENERALA)
    check_supported(GENERALA)  # no refusal
    # The breakdown, goals and winning chances walk a turn without served points: not offered.
    assert not has_layer_tables(GENERALA)
    assert has_layer_tables(GENERALA.with_settings({"served_bonus": 0}))
    assert is_served_roll(GENERALA, FIRST) and not is_served_roll(GENERALA, FIRST - 1)
    assert not is_served_roll(GENERALA.with_settings({"served_bonus": 0}), FIRST)


@pytest.mark.slow
@pytest.mark.parametrize(("open_boxes", "scores"), CARDS)
def test_the_coachs_best_first_roll_values_make_the_solvers_value_of_the_card(
    solved_table: Solved, open_boxes: tuple[str, ...], scores: dict[str, int]
) -> None:
    # Every one of the 252 first rolls: the best option's value (a served box, or a keep),
    # weighted by the roll's chance, is the table's value of the card before the turn.
    table = solved_table(GENERALA)
    column = _column(GENERALA, open_boxes, scores)
    tables = dice_tables(5)
    expected = 0.0
    gains = 0
    for roll, chance in zip(tables.rolls, tables.probability, strict=True):
        options = turn_cache.advise(table, column, roll, FIRST)
        general = advisor.advise(table, column, roll, FIRST)
        assert [o.value for o in options] == pytest.approx([o.value for o in general], abs=EXACT)
        expected += chance * options[0].value
        # A served box is worth more than the same box scored on a later roll.
        later = {o.category: o.value for o in turn_cache.advise(table, column, roll, FIRST - 1)}
        gains += any(
            o.category is not None and o.value > later[o.category] + EXACT for o in options
        )
    assert expected == pytest.approx(table.column_value(column), abs=EXACT)
    assert gains > 0  # the served points changed some box's value


@pytest.mark.slow
def test_the_six_dice_path_of_the_coach_scores_served_points_too(solved_table: Solved) -> None:
    # `any_dice_options` (six dice, the wild die) takes the served scores on a first roll.
    table = solved_table(GENERALA)
    column = _card(GENERALA, ("escalera", "full", "poker"))
    mask, up, armed = column_state(GENERALA, column)
    for roll in [(1, 2, 3, 4, 5), (2, 2, 3, 3, 3), (1, 4, 4, 4, 4), (1, 3, 4, 5, 6)]:
        index = ALL_ROLLS.index(roll)
        for left in (FIRST, FIRST - 1):
            codes, values = any_dice_options(table, mask, up, armed, index, left)
            options = turn_cache.advise(table, column, roll, left)
            assert values == pytest.approx([o.value for o in options], abs=EXACT)
            assert len(codes) == len(options)


# Small remaining games where a served hand matters (Double Generala as in the solver's cases).
BRUTE_CASES = [
    (GENERALA, ("escalera", "full", "poker"), {}),
    (GENERALA, ("escalera", "sixes"), {}),
    (GENERALA, ("double_generala", "poker"), {"generala": 50}),
    (GENERALA, ("generala", "double_generala", "full"), {}),
    (GENERALA.with_settings({"ones_in_straights": "off"}), ("escalera", "ones", "full"), {}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "open_boxes", "scores"), BRUTE_CASES)
def test_the_coach_matches_brute_force_on_every_roll_of_a_small_game(
    solved_table: Solved,
    brute_force: Callable[[RuleSet], BruteForce],
    rules: RuleSet,
    open_boxes: tuple[str, ...],
    scores: dict[str, int],
) -> None:
    table = solved_table(rules)
    brute = brute_force(rules)
    column = _card(rules, open_boxes, **scores)
    for roll in ALL_ROLLS:
        for left in range(rules.rolls_per_turn):
            options = turn_cache.advise(table, column, roll, left)
            boxes = {o.category.key: o.value for o in options if o.category is not None}
            scored = (
                brute.served_box_values(column, roll)
                if left == FIRST
                else brute.box_values(column, roll)
            )
            assert boxes == pytest.approx(scored, abs=EXACT)
            keeps = {o.keep: o.value for o in options if o.keep is not None}
            assert keeps == pytest.approx(
                {k: brute.keep_value(column, k, left) for k in keeps}, abs=EXACT
            )
            # The best option is worth what the brute force's roll is worth.
            assert options[0].value == pytest.approx(
                brute.roll_values(column)[left][roll], abs=EXACT
            )


@pytest.mark.slow
@pytest.mark.parametrize(("open_boxes", "scores"), CARDS[:2])
def test_the_expert_cpu_scores_a_served_hand_when_the_coach_says_so(
    solved_table: Solved, open_boxes: tuple[str, ...], scores: dict[str, int]
) -> None:
    table = solved_table(GENERALA)
    column = _column(GENERALA, open_boxes, scores)
    card = ScoreCard((column,))
    bot = Bot("expert", GENERALA, table=table)
    scored_now = 0
    for roll in ALL_ROLLS:
        best = turn_cache.advise(table, column, roll, FIRST)[0]
        keep = bot.choose_keep(GENERALA, card, roll, FIRST)
        if best.category is not None:  # keeping every die is scoring now, in the served box
            assert keep == roll
            assert bot.choose_box(GENERALA, card, roll, served=True).category == best.category
            scored_now += 1
        else:
            assert keep == best.keep
    assert scored_now > 0


@pytest.mark.slow
def test_the_strong_cpu_values_keeping_every_die_as_the_best_served_box(
    solved_table: Solved,
) -> None:
    table = solved_table(GENERALA)
    card = ScoreCard.empty(GENERALA)
    bot = Bot("strong", GENERALA, table=table)
    base = table.column_value(card.columns[0])
    for roll in [(2, 3, 4, 5, 6), (3, 3, 5, 5, 5), (2, 6, 6, 6, 6), (1, 1, 2, 4, 6)]:
        options = turn_cache.advise(table, card.columns[0], roll, FIRST)
        best_box = max(o.value for o in options if o.category is not None)
        values = dict(bot.keep_options(GENERALA, card, roll, FIRST))
        assert values[roll] == pytest.approx(best_box - base, abs=1e-6)


@pytest.mark.slow
def test_the_expert_cpus_mean_is_the_optimum_within_four_standard_errors(
    solved_table: Solved,
) -> None:
    # A small sample (benchmarks/bench_presets.py plays 20,000 games): 400 games of the expert
    # CPU itself, served-aware, against the solver's optimum.
    table = solved_table(GENERALA)
    totals = play_solitaire(Bot("expert", GENERALA, table=table), GENERALA, 400, seed=11)
    error = statistics.stdev(totals) / math.sqrt(len(totals))
    assert abs(statistics.mean(totals) - table.expected_score) < 4 * error
    assert play_solitaire(Bot("expert", GENERALA, table=table), GENERALA, 5, 11) == totals[:5]
