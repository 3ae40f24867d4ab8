"""The solver on Yacht, Yacht Dice and Kismet: Yacht Dice's published optimum, an independent
brute force on small remaining games for each new rule feature (sums plus a constant, colours
of pips, tiered upper bonuses, fixed and sum-scored boxes, a 1 standing in for a 2 or a 6),
and Generala's served points and Double Generala."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from fivedice.core.card import Column
from fivedice.core.dice import ALL_ROLLS
from fivedice.core.rules import PRESETS, Joker, RuleSet, find_ruleset
from fivedice.strategy.limits import is_supported
from fivedice.strategy.rule_arrays import rule_arrays
from fivedice.strategy.solver import (
    ROLL_INDEX,
    StrategyTable,
    UnsupportedRulesError,
    decision_values,
    solve,
    turn_values,
)
from tests.strategy.brute import BruteForce
from tests.strategy.test_solver_families import _card as _yatzy_card

Solved = Callable[[RuleSet], StrategyTable]

_TYPICAL = {"choice": 22, "little_straight": 30, "big_straight": 30, "yacht": 50,
            "escalera": 20, "full": 30, "poker": 40, "generala": 50}  # fmt: skip


def _card(rules: RuleSet, open_boxes: tuple[str, ...], **scores: int) -> Column:
    """`test_solver_families._card` with typical scores of these cards' own boxes too."""
    typical = {k: v for k, v in _TYPICAL.items() if rules.has_box(k) and k not in open_boxes}
    return _yatzy_card(rules, open_boxes, **(typical | scores))


EXACT = 1e-9

RULES: dict[str, RuleSet] = {
    "yacht": find_ruleset("yacht"),
    "yacht-dice": find_ruleset("yacht-dice"),
    "kismet": find_ruleset("kismet"),
    "ones-in-straights": find_ruleset("classic", {"ones_in_straights": "on"}),
    "tiers": find_ruleset("yatzy", {"upper_bonus_tiers": "70,60,80,100"}),
}

CASES = [
    # Tiered bonus: 40 in the upper boxes, sixes and fives may reach 63, 71 or 78.
    ("kismet", ("sixes", "fives"), {"fours": 16, "threes": 12, "twos": 8, "ones": 4}),
    # 62 in the upper boxes: fours crosses one, two or three tiers.
    (
        "kismet",
        ("fours", "two_pairs_same_colour", "flush"),
        {"sixes": 24, "fives": 20, "threes": 9, "twos": 6, "ones": 3},
    ),
    # Sums plus a constant, five of a kind as a full house, colours.
    ("kismet", ("full_house", "full_house_same_colour", "kismet"), {}),
    ("kismet", ("four_of_a_kind", "three_of_a_kind", "large_straight"), {}),
    # Yacht: sum-scored full house (no Yacht), four of a kind 4 x face, fixed straights.
    ("yacht", ("full_house", "four_of_a_kind", "yacht"), {}),
    ("yacht", ("little_straight", "big_straight", "choice"), {}),
    # Yacht Dice: the upper bonus, five of a kind as a sum-scored full house.
    ("yacht-dice", ("sixes", "full_house", "small_straight"), {"fives": 10}),
    ("yacht-dice", ("four_of_a_kind", "yacht", "large_straight"), {}),
    # A 1 standing in for a 2 or a 6.
    ("ones-in-straights", ("small_straight", "large_straight", "ones"), {}),
    # Three tiers on another card, 50 in the upper boxes.
    ("tiers", ("sixes", "fives", "chance"), {"fours": 20, "threes": 15, "twos": 10, "ones": 5}),
]


@pytest.mark.slow
def test_yacht_dice_published_optimum(solved_table: Solved) -> None:
    # 191.77: the optimum of Yacht Dice (51 Worldwide Games) as Yacht Dice solvers publish it.
    table = solved_table(RULES["yacht-dice"])
    assert table.expected_score == pytest.approx(191.77, abs=0.005)


@pytest.mark.slow
@pytest.mark.parametrize(
    "preset", [p for p in PRESETS if p.optimum is not None], ids=lambda p: p.name
)
def test_the_optimum_a_rules_text_quotes_is_the_solvers(solved_table: Solved, preset) -> None:
    # The rules text tells players this figure: it must be what the exact solve gives.
    assert solved_table(preset.rules).expected_score == pytest.approx(preset.optimum, abs=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "open_boxes", "scores"), CASES)
def test_presets_match_brute_force(
    solved_table: Solved,
    brute_force: Callable[[RuleSet], BruteForce],
    name: str,
    open_boxes: tuple[str, ...],
    scores: dict[str, int],
) -> None:
    rules = RULES[name]
    table = solved_table(rules)
    column = _card(rules, open_boxes, **scores)
    assert not column.is_complete
    brute = brute_force(rules)
    assert table.column_value(column) == pytest.approx(brute.future(column), abs=EXACT)
    rng = random.Random(name + "".join(open_boxes))
    turn = turn_values(table, column)
    levels = brute.roll_values(column)
    extra = [(6, 6, 6, 6, 6), (1, 3, 4, 5, 6), (1, 1, 6, 6, 6), (2, 2, 3, 5, 5), (1, 2, 3, 4, 5)]
    for roll in [*rng.sample(ALL_ROLLS, 8), *extra]:
        for rolls_left in range(rules.rolls_per_turn):
            assert turn.roll_values[rolls_left, ROLL_INDEX[roll]] == pytest.approx(
                levels[rolls_left][roll], abs=EXACT
            )
        _, boxes = decision_values(table, column, roll, rules.rolls_per_turn - 1)
        assert {box.key: v for box, v in boxes} == pytest.approx(
            brute.box_values(column, roll), abs=EXACT
        )


def test_the_kernels_read_the_tiers() -> None:
    arrays = rule_arrays(RULES["kismet"])
    assert arrays.cap == 78  # upper totals told apart up to the top tier


GENERALA = find_ruleset("generala")
GENERALA_CASES = [
    # Served hands: the first roll may be scored at once for 5 more.
    (GENERALA, ("escalera", "full", "poker"), {}),
    (GENERALA, ("escalera", "sixes"), {}),
    # Double Generala: open with Generala holding 50, holding 0, or open too.
    (GENERALA, ("double_generala", "poker"), {"generala": 50}),
    (GENERALA, ("double_generala", "poker"), {"generala": 0}),
    (GENERALA, ("generala", "double_generala", "full"), {}),
    # Without the 1 standing in, and without served points.
    (GENERALA.with_settings({"ones_in_straights": "off"}), ("escalera", "ones", "full"), {}),
    (GENERALA.with_settings({"served_bonus": 0}), ("escalera", "full", "poker"), {}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "open_boxes", "scores"), GENERALA_CASES)
def test_generala_values_match_brute_force(
    solved_table: Solved,
    brute_force: Callable[[RuleSet], BruteForce],
    rules: RuleSet,
    open_boxes: tuple[str, ...],
    scores: dict[str, int],
) -> None:
    """The solve is exact with served points and Double Generala (the values of the states)."""
    table = solved_table(rules)
    column = _card(rules, open_boxes, **scores)
    assert table.column_value(column) == pytest.approx(brute_force(rules).future(column), abs=EXACT)


def test_generala_is_supported_and_a_joker_with_double_generala_refused_cleanly() -> None:
    # The coach and the CPUs score served points (tests/strategy/test_generala_coach.py).
    assert is_supported(GENERALA)
    assert is_supported(GENERALA.with_settings({"served_bonus": 0}))  # Double Generala
    with pytest.raises(UnsupportedRulesError, match="second all-same box"):
        solve(GENERALA.replace(joker=Joker.FORCED))
