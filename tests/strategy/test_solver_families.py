"""The solver on the Yatzy family and the new options: the published optimum, an independent
brute force on small remaining games (not tuned to the one published value), the legal boxes
against the core, and clean refusals."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from fivedice.core.card import Column
from fivedice.core.dice import ALL_KEEPS, ALL_ROLLS, sub_multisets
from fivedice.core.rules import FillOrder, Joker, RuleSet, find_ruleset
from fivedice.core.scoring import possible_scores
from fivedice.strategy.advisor import advise
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

Solved = Callable[[RuleSet], StrategyTable]
EXACT = 1e-9

YATZY = find_ruleset("yatzy")
VARIANTS: dict[str, RuleSet] = {
    "yatzy": YATZY,
    "fh5": find_ruleset("yatzy", {"five_of_a_kind_is_full_house": "on"}),
    "tp4": find_ruleset("yatzy", {"four_of_a_kind_is_two_pairs": "on"}),
    "forced": find_ruleset("yatzy", {"fill_order": "forced"}),
    "fh5-tp4-2-rolls": find_ruleset(
        "yatzy",
        {"five_of_a_kind_is_full_house": "on", "four_of_a_kind_is_two_pairs": "on"},
    ).replace(rolls_per_turn=2),
    # Yatzy's boxes with the Yahtzee family's bonus and joker: the kernel reads the all-same
    # box's position from the rule set (15th here, not 12th).
    "yatzy-joker-bonus": YATZY.replace(joker=Joker.FORCED, yahtzee_bonus=True),
    "classic-forced": find_ruleset("classic", {"fill_order": "forced"}),
}

_FULL = {
    "ones": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "one_pair": 10,
    "two_pairs": 14,
    "three_of_a_kind": 12,
    "four_of_a_kind": 16,
    "small_straight": 15,
    "large_straight": 20,
    "full_house": 18,
    "chance": 22,
    "yatzy": 50,
}


def _card(rules: RuleSet, open_boxes: tuple[str, ...], **scores: int) -> Column:
    """A column with every box filled (typical scores, then overrides) except `open_boxes`."""
    keys = [box.key for box in rules.boxes]
    filled = {key: _FULL.get(key, 0) for key in keys} | scores
    for key in open_boxes:
        filled.pop(key)
    for key, score in list(filled.items()):
        if score not in possible_scores(rules, rules.box(key)):
            filled[key] = 0
    return Column.from_scores(rules, filled)


# (variant, open boxes, score overrides): small remaining games where the options matter.
CASES = [
    ("yatzy", ("sixes", "full_house"), {"fives": 10}),  # upper 50 of 63: sixes may reach it
    ("yatzy", ("two_pairs", "four_of_a_kind", "yatzy"), {}),
    ("yatzy", ("one_pair", "small_straight", "large_straight"), {}),
    ("fh5", ("full_house", "yatzy", "threes"), {"sixes": 12}),
    ("fh5", ("full_house", "chance"), {}),
    ("tp4", ("two_pairs", "four_of_a_kind", "fours"), {}),
    ("tp4", ("two_pairs", "one_pair"), {}),
    ("forced", ("full_house", "chance", "yatzy"), {}),
    ("forced", ("large_straight", "full_house", "chance", "yatzy"), {}),
    ("fh5-tp4-2-rolls", ("two_pairs", "full_house", "sixes"), {"fives": 20}),
    ("yatzy-joker-bonus", ("fours", "chance", "large_straight"), {"threes": 6}),
    ("yatzy-joker-bonus", ("ones", "yatzy"), {"sixes": 24}),
    ("classic-forced", ("large_straight", "yahtzee", "chance"), {}),
]


@pytest.mark.slow
def test_yatzy_published_optimum(solved_table: Solved) -> None:
    table = solved_table(YATZY)
    assert table.expected_score == pytest.approx(248.4399894, abs=1e-6)
    assert table.values.shape[0] == 1 << 15


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "open_boxes", "scores"), CASES)
def test_variants_match_brute_force(
    solved_table: Solved,
    brute_force: Callable[[RuleSet], BruteForce],
    variant: str,
    open_boxes: tuple[str, ...],
    scores: dict[str, int],
) -> None:
    rules = VARIANTS[variant]
    table = solved_table(rules)
    column = _card(rules, open_boxes, **scores)
    assert not column.is_complete
    brute = brute_force(rules)
    assert table.column_value(column) == pytest.approx(brute.future(column), abs=EXACT)
    rng = random.Random(variant + "".join(open_boxes))
    turn = turn_values(table, column)
    levels = brute.roll_values(column)
    assert turn.start_value == pytest.approx(brute.future(column), abs=EXACT)
    for roll in [*rng.sample(ALL_ROLLS, 10), (6, 6, 6, 6, 6), (4, 4, 4, 4, 4), (2, 2, 5, 5, 5)]:
        for rolls_left in range(rules.rolls_per_turn):
            assert turn.roll_values[rolls_left, ROLL_INDEX[roll]] == pytest.approx(
                levels[rolls_left][roll], abs=EXACT
            )
        keeps, boxes = decision_values(table, column, roll, rules.rolls_per_turn - 1)
        assert {box.key: v for box, v in boxes} == pytest.approx(
            brute.box_values(column, roll), abs=EXACT
        )
        for keep in rng.sample(sub_multisets(roll), 3):
            assert keeps[ALL_KEEPS.index(keep)] == pytest.approx(
                brute.keep_value(column, keep, rules.rolls_per_turn - 1), abs=EXACT
            )
        # The coach (the advisor, what `advise --json` prints) is exact too, for every option.
        expected = brute.box_values(column, roll)
        for rolls_left in range(rules.rolls_per_turn):
            for option in advise(table, column, roll, rolls_left):
                if option.category is not None:
                    assert option.value == pytest.approx(expected[option.category.key], abs=EXACT)
                else:
                    assert option.keep is not None
                    assert option.value == pytest.approx(
                        brute.keep_value(column, option.keep, rolls_left), abs=EXACT
                    )


@pytest.mark.slow
def test_options_change_the_optimum_as_the_peer_publishes(solved_table: Solved) -> None:
    """Each option against the plain game: the direction is forced by the rules (more ways to
    score, or fewer choices), and the forced order is far below (122.56 by the peer)."""
    plain = solved_table(YATZY).expected_score
    assert solved_table(VARIANTS["fh5"]).expected_score > plain
    assert solved_table(VARIANTS["tp4"]).expected_score > plain
    forced = solved_table(VARIANTS["forced"])
    assert forced.expected_score < plain - 100
    assert forced.states < 200  # one mask per layer: the boxes go top to bottom


@pytest.mark.slow
def test_extra_turn_leaves_a_column_unchanged(solved_table: Solved) -> None:
    """The extra turn changes who plays next, not what one column's turns are: each turn
    still fills one box until the card is complete, so the solitaire values are the same."""
    extra = find_ruleset("yatzy", {"extra_turn_on_yahtzee": "on"})
    assert is_supported(extra)
    assert np.array_equal(solved_table(extra).values, solved_table(YATZY).values, equal_nan=True)


def test_saved_rolls_are_refused_cleanly() -> None:
    maxi = find_ruleset("maxi-yatzy")
    with pytest.raises(UnsupportedRulesError, match="saved rolls"):
        solve(maxi)
    assert not is_supported(maxi)
    assert is_supported(maxi.replace(saved_rolls=False))  # six dice: solved exactly
    assert is_supported(VARIANTS["forced"])
    # The kernels' arrays still describe Maxi Yatzy (its CPU players use them).
    arrays = rule_arrays(maxi)
    assert (arrays.boxes, arrays.dice.dice, arrays.score.shape) == (20, 6, (20, 462))


def _random_column(rules: RuleSet, rng: random.Random) -> Column:
    boxes = rules.boxes
    scores: list[int | None] = [
        None if rng.random() < 0.55 else rng.choice(sorted(possible_scores(rules, box)))
        for box in boxes
    ]
    if rules.fill_order is FillOrder.FORCED:  # filled top to bottom: a prefix
        first_open = rng.randrange(len(boxes))
        scores = [
            s if i < first_open else None
            for i, s in enumerate(rng.choice(sorted(possible_scores(rules, box))) for box in boxes)
        ]
    if all(s is not None for s in scores):
        scores[rng.randrange(len(boxes))] = None
    return Column.from_scores(
        rules, {b.key: s for b, s in zip(boxes, scores, strict=True) if s is not None}
    )


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_legal_boxes_and_points_match_placements(variant: str) -> None:
    rules = VARIANTS[variant]
    arrays = rule_arrays(rules)
    values = np.random.default_rng(7).uniform(0, 300, (1 << arrays.boxes, arrays.cap + 1, 2))
    values[-1] = 0.0
    table = StrategyTable(rules, values, float(values[0, 0, 0]), 0)
    rng = random.Random(variant)
    all_same = [roll for roll in ALL_ROLLS if len(set(roll)) == 1]
    for _ in range(600):
        column = _random_column(rules, rng)
        roll = rng.choice(all_same) if rng.random() < 0.4 else rng.choice(ALL_ROLLS)
        _, boxes = decision_values(table, column, roll, 0)
        expected = {
            p.category.key: p.points + table.column_value(column.fill(rules, p.category, roll))
            for p in column.placements(rules, roll)
        }
        got = {box.key: value for box, value in boxes}
        assert got == pytest.approx(expected, abs=1e-6), (column, roll)
