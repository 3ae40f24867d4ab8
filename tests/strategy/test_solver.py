"""The solver: published optima, an independent brute force, and legality against the core."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from fivedice.core.card import Column
from fivedice.core.categories import CATEGORIES
from fivedice.core.dice import ALL_KEEPS, ALL_ROLLS, sub_multisets
from fivedice.core.rules import (
    BonusCondition,
    Joker,
    OfAKindScoring,
    RuleSet,
    Straights,
    find_ruleset,
)
from fivedice.core.scoring import possible_scores
from fivedice.strategy.advisor import advise
from fivedice.strategy.solver import (
    ROLL_INDEX,
    StrategyTable,
    UnsupportedRulesError,
    column_state,
    decision_values,
    solve,
    turn_values,
)
from tests.strategy.brute import BruteForce
from tests.strategy.support import column_with_open_boxes

Solved = Callable[[RuleSet], StrategyTable]
EXACT = 1e-9
"""Float64 tables: the solver and advisor agree with the brute force to rounding (~1e-12)."""


# --- Published optima ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("preset", "published"),
    [
        ("classic", 254.5877287),  # Glenn 2006
        ("free-choice", 254.5896095),  # Verhoeff 1999
        ("simple", 245.8707745),  # Verhoeff 1999 (no bonus, no joker)
    ],
)
def test_published_optimum(solved_table: Solved, preset: str, published: float) -> None:
    table = solved_table(find_ruleset(preset))
    assert table.expected_score == pytest.approx(published, abs=1e-6)
    assert table.values.dtype == np.float64
    assert table.value(0, 0, False) == pytest.approx(published, abs=1e-6)


def test_multi_column_rules_are_refused() -> None:
    with pytest.raises(UnsupportedRulesError, match="one score column"):
        solve(find_ruleset("triple"))
    assert issubclass(UnsupportedRulesError, ValueError)


# --- Brute force over small remaining games -------------------------------------------------

CLASSIC = find_ruleset("classic")
VARIANTS: dict[str, RuleSet] = {
    "classic": CLASSIC,
    "free-choice": find_ruleset("free-choice"),
    "simple": find_ruleset("simple"),
    "forced-upper-first-box-filled-threshold": CLASSIC.replace(
        upper_first=True,
        yahtzee_bonus_condition=BonusCondition.BOX_FILLED,
        upper_bonus_threshold=30,
        upper_bonus_value=20,
    ),
    "free-upper-first-matching-fixed-4-rolls": CLASSIC.replace(
        joker=Joker.FREE_CHOICE,
        upper_first=True,
        of_a_kind_scores=OfAKindScoring.MATCHING_DICE,
        straights=Straights.FIXED,
        rolls_per_turn=4,
    ),
    "none-1-roll-fh5-no-upper-bonus": CLASSIC.replace(
        joker=Joker.NONE,
        rolls_per_turn=1,
        five_of_a_kind_is_full_house=True,
        upper_bonus=False,
        yahtzee_bonus_value=70,
        full_house=35,
    ),
}

# (variant, open boxes, score overrides): small remaining games where the options interact.
CASES = [
    ("classic", ("sixes", "full_house"), {"fives": 10}),  # upper at 50: sixes may reach 63
    ("classic", ("fours", "chance", "large_straight"), {"threes": 6}),  # joker, bonus armed
    ("classic", ("fours", "yahtzee"), {"sixes": 12}),
    ("classic", ("ones", "twos"), {"yahtzee": 0, "sixes": 24}),  # joker without the bonus
    ("free-choice", ("sixes", "small_straight", "full_house"), {"fives": 10}),
    ("free-choice", ("fives", "three_of_a_kind"), {}),
    ("simple", ("sixes", "yahtzee", "full_house"), {"fives": 10}),
    ("forced-upper-first-box-filled-threshold", ("twos", "full_house", "chance"), {}),
    (
        "forced-upper-first-box-filled-threshold",
        ("threes", "large_straight"),
        {"yahtzee": 0, "ones": 1, "twos": 2, "fours": 4, "fives": 5, "sixes": 6},
    ),
    ("free-upper-first-matching-fixed-4-rolls", ("fives", "small_straight", "four_of_a_kind"), {}),
    ("free-upper-first-matching-fixed-4-rolls", ("large_straight", "chance"), {"fours": 8}),
    ("none-1-roll-fh5-no-upper-bonus", ("sixes", "full_house", "yahtzee"), {}),
    ("none-1-roll-fh5-no-upper-bonus", ("ones", "full_house"), {}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "open_boxes", "scores"), CASES)
def test_state_values_match_brute_force(
    solved_table: Solved,
    brute_force: Callable[[RuleSet], BruteForce],
    variant: str,
    open_boxes: tuple[str, ...],
    scores: dict[str, int],
) -> None:
    rules = VARIANTS[variant]
    table = solved_table(rules)
    column = column_with_open_boxes(rules, open_boxes, **scores)
    brute = brute_force(rules)
    assert table.column_value(column) == pytest.approx(brute.future(column), abs=EXACT)
    # Turn values and advisor engine at a few decision points of that turn.
    rng = random.Random(len(open_boxes) * 100 + len(scores))
    turn = turn_values(table, column)
    levels = brute.roll_values(column)
    assert turn.start_value == pytest.approx(brute.future(column), abs=EXACT)
    for roll in [*rng.sample(ALL_ROLLS, 12), (6, 6, 6, 6, 6), (4, 4, 4, 4, 4)]:
        for rolls_left in range(rules.rolls_per_turn):
            index = ROLL_INDEX[roll]
            assert turn.roll_values[rolls_left, index] == pytest.approx(
                levels[rolls_left][roll], abs=EXACT
            )
        keeps, boxes = decision_values(table, column, roll, rules.rolls_per_turn - 1)
        expected = brute.box_values(column, roll)
        assert {c.key: v for c, v in boxes} == pytest.approx(expected, abs=EXACT)
        if rules.rolls_per_turn > 1:
            keep = rng.choice(sub_multisets(roll))
            assert keeps[ALL_KEEPS.index(keep)] == pytest.approx(
                brute.keep_value(column, keep, rules.rolls_per_turn - 1), abs=EXACT
            )
        # The advisor (what `advise --json` prints) is exact too, for every option.
        for rolls_left in range(rules.rolls_per_turn):
            for option in advise(table, column, roll, rolls_left):
                if option.category is not None:
                    assert option.value == pytest.approx(expected[option.category.key], abs=EXACT)
                else:
                    assert option.keep is not None
                    assert option.value == pytest.approx(
                        brute.keep_value(column, option.keep, rolls_left), abs=EXACT
                    )


# --- Legality and scoring against Column.placements ----------------------------------------


def _random_column(rules: RuleSet, rng: random.Random) -> Column:
    scores: list[int | None] = []
    for category in CATEGORIES:
        if rng.random() < 0.55:
            scores.append(None)
        else:
            scores.append(rng.choice(sorted(possible_scores(rules, category))))
    if all(s is not None for s in scores):
        scores[rng.randrange(13)] = None
    column = Column(tuple(scores))
    if column.pays_yahtzee_bonus(rules) and rng.random() < 0.5:
        column = Column(column.scores, extra_yahtzees=rng.randrange(3))
    return column


def _random_table(rules: RuleSet, seed: int) -> StrategyTable:
    """A table of random values: enough to check which boxes are legal and what they score."""
    cap = rules.upper_bonus_threshold if rules.upper_bonus else 0
    values = np.random.default_rng(seed).uniform(0, 300, (8192, cap + 1, 2))
    values[8191] = 0.0
    return StrategyTable(rules, values, float(values[0, 0, 0]), 0)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("joker", list(Joker))
@pytest.mark.parametrize("upper_first", [False, True])
@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"yahtzee_bonus_condition": BonusCondition.BOX_FILLED, "upper_bonus_threshold": 40},
        {"yahtzee_bonus": False, "upper_bonus": False, "five_of_a_kind_is_full_house": True},
    ],
)
def test_legal_boxes_and_points_match_placements(
    joker: Joker, upper_first: bool, extra: dict[str, object]
) -> None:
    rules = CLASSIC.replace(joker=joker, upper_first=upper_first, **extra)
    table = _random_table(rules, seed=hash((joker, upper_first)) % 1000)
    rng = random.Random(f"{joker}{upper_first}{sorted(extra)}")
    five_of_a_kind = [roll for roll in ALL_ROLLS if len(set(roll)) == 1]
    jokers_seen = 0
    for _ in range(1500):
        column = _random_column(rules, rng)
        roll = rng.choice(five_of_a_kind) if rng.random() < 0.5 else rng.choice(ALL_ROLLS)
        _, boxes = decision_values(table, column, roll, 0)
        placements = column.placements(rules, roll)
        jokers_seen += any(p.joker for p in placements)
        expected = {
            p.category: p.points + table.column_value(column.fill(rules, p.category, roll))
            for p in placements
        }
        got = dict(boxes)
        assert got.keys() == expected.keys(), (column, roll)
        assert got == pytest.approx(expected, abs=1e-3), (column, roll)
    if joker is not Joker.NONE:
        assert jokers_seen > 50


# --- Table and turn-value invariants ----------------------------------------------------------


@pytest.mark.slow
def test_turn_values_are_consistent(classic_table: StrategyTable) -> None:
    rules = classic_table.rules
    column = Column.from_scores(rules, {"yahtzee": 50, "threes": 9, "chance": 21})
    turn = turn_values(classic_table, column)
    assert turn.start_value == pytest.approx(classic_table.column_value(column), abs=1e-4)
    assert turn.roll_values.shape == (3, 252)
    assert turn.keep_values.shape == (3, 462)
    for index, roll in enumerate(ALL_ROLLS):
        for rolls_left in (1, 2):
            keep = ALL_KEEPS[turn.best_keep[rolls_left, index]]
            assert keep in sub_multisets(roll)
            row = turn.keep_values[rolls_left]
            best = max(row[ALL_KEEPS.index(k)] for k in sub_multisets(roll))
            assert turn.roll_values[rolls_left, index] == pytest.approx(best)
            assert turn.roll_values[rolls_left, index] >= turn.roll_values[rolls_left - 1, index]
        assert CATEGORIES[turn.best_box[index]] in column.open_boxes
    assert turn.best_keep_for((1, 1, 3, 3, 3), 2) in sub_multisets((1, 1, 3, 3, 3))
    # Keeping nothing is worth exactly the expectation over fresh rolls.
    probabilities = np.array([float(p) for p in map(_probability, ALL_ROLLS)])
    assert turn.keep_values[2, 0] == pytest.approx(float(probabilities @ turn.roll_values[1]))


def _probability(roll: tuple[int, ...]) -> float:
    from fivedice.core.dice import roll_probability

    return float(roll_probability(roll))


@pytest.mark.slow
def test_value_lookup(classic_table: StrategyTable) -> None:
    rules = classic_table.rules
    assert classic_table.states > 100_000
    assert classic_table.value(8191, 80, True) == 0.0
    # The upper total is capped at the threshold: any total past it reads the same entry.
    mask = (1 << 6) - 1
    assert classic_table.value(mask, 63, False) == classic_table.value(mask, 105, False)
    # Before the bonus flag exists (Yahtzee box open) both readings agree.
    assert classic_table.value(0, 0, True) == classic_table.value(0, 0, False)
    with pytest.raises(ValueError, match="cannot occur"):
        classic_table.value(1, 6, False)  # the ones box holds at most 5
    with pytest.raises(ValueError, match="no such state"):
        classic_table.value(1 << 13, 0, False)
    column = Column.from_scores(rules, {"sixes": 24, "yahtzee": 50})
    assert column_state(rules, column) == (1 << 5 | 1 << 11, 24, True)
    with pytest.raises(ValueError, match="complete"):
        turn_values(classic_table, Column(tuple([0] * 13)))
