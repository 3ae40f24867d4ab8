"""The points to come box by box: the breakdown table against the solver's values, an
independent brute force and simulated games; every option's breakdown against its value."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from fivedice.core.card import Column
from fivedice.core.rules import PRESETS, RuleSet, find_ruleset
from fivedice.strategy import solver as s
from fivedice.strategy.advisor import advise
from fivedice.strategy.breakdown import (
    EXTRA_BONUS,
    UPPER_BONUS,
    component_keys,
    option_breakdowns,
)
from fivedice.strategy.limits import has_layer_tables
from fivedice.strategy.simulate import simulate
from tests.strategy.brute import BruteBreakdown
from tests.strategy.support import assert_breakdown_sums_to_values, column_with_open_boxes
from tests.support import tables

CLASSIC = find_ruleset("classic")
EXACT = 1e-9
SINGLE_COLUMN = [
    preset.name
    for preset in PRESETS
    if preset.rules.columns == 1 and has_layer_tables(preset.rules) and not preset.rules.saved_rolls
]


def test_single_column_presets_include_classic_and_yatzy() -> None:
    assert {"classic", "yatzy", "free-choice", "simple"} <= set(SINGLE_COLUMN)


def test_components_are_the_boxes_then_the_bonuses_the_rules_have() -> None:
    keys = component_keys(CLASSIC)
    assert keys[:13] == tuple(box.key for box in CLASSIC.boxes)
    assert keys[13:] == (UPPER_BONUS, EXTRA_BONUS)
    yatzy = find_ruleset("yatzy")
    assert component_keys(yatzy)[-1] == UPPER_BONUS  # no extra-Yahtzee bonus in Yatzy
    assert EXTRA_BONUS not in component_keys(find_ruleset("simple"))


# --- Every stored state sums to its value -----------------------------------------------------


@pytest.mark.parametrize("preset", SINGLE_COLUMN)
def test_every_state_sums_to_its_table_value(solved_table, preset: str) -> None:
    """Exhaustive: every state the solver solved (and so every state it copies)."""
    rules = find_ruleset(preset)
    table = solved_table(rules)
    assert_breakdown_sums_to_values(rules, table, tables.breakdown(table), EXACT)


# --- Against an independent brute force -------------------------------------------------------

BRUTE_CASES = [
    ("classic", ("sixes", "full_house"), {"fives": 10}),  # the upper bonus hangs on the sixes
    ("classic", ("fours", "chance", "large_straight"), {"threes": 6}),  # jokers, bonus armed
    ("classic", ("ones", "yahtzee"), {"sixes": 24}),
    ("free-choice", ("fives", "three_of_a_kind"), {}),
    ("simple", ("sixes", "yahtzee", "full_house"), {"fives": 10}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "open_boxes", "scores"), BRUTE_CASES)
def test_breakdowns_match_brute_force(
    solved_table, brute_force, preset: str, open_boxes: tuple[str, ...], scores: dict[str, int]
) -> None:
    rules = find_ruleset(preset)
    breakdown = tables.breakdown(solved_table(rules))
    column = column_with_open_boxes(rules, open_boxes, **scores)
    brute = BruteBreakdown(brute_force(rules))
    expected = brute.start(column)
    got = breakdown.column(column)
    assert {key for key, points in expected.items() if points} <= set(got)
    for key, points in got.items():
        assert points == pytest.approx(expected.get(key, 0.0), abs=EXACT), key
    assert sum(1 for points in got.values() if points > 0.01) >= len(open_boxes)
    # Every option of a few decisions of that turn.
    rng = random.Random(len(open_boxes))
    for rolls_left in range(rules.rolls_per_turn):
        dice = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
        for option in option_breakdowns(breakdown, column, dice, rolls_left):
            if option.category is not None:
                wanted = brute.scored(column, dice, option.category.key)
            else:
                assert option.keep is not None
                wanted = brute.kept(column, option.keep, rolls_left)
            for key, points in option.parts.items():
                assert points == pytest.approx(wanted.get(key, 0.0), abs=EXACT), (option, key)


# --- Every option of many positions ------------------------------------------------------------


def _random_position(rules: RuleSet, rng: random.Random) -> Column:
    """A column reached by play: random dice placed in random legal boxes."""
    column = Column.empty(rules)
    for _ in range(rng.randrange(len(rules.boxes))):
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        column = column.fill(rules, rng.choice(column.placements(rules, dice)).category, dice)
    return column


@pytest.mark.parametrize("preset", SINGLE_COLUMN)
def test_option_breakdowns_sum_to_the_option_values(solved_table, preset: str) -> None:
    rules = find_ruleset(preset)
    breakdown = tables.breakdown(solved_table(rules))
    rng = random.Random(preset)
    checked = 0
    for _ in range(40):
        column = _random_position(rules, rng)
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        for rolls_left in range(rules.rolls_per_turn):
            options = advise(breakdown.table, column, dice, rolls_left)
            explained = option_breakdowns(breakdown, column, dice, rolls_left)
            assert [(o.keep, o.category) for o in explained] == [
                (o.keep, o.category) for o in options
            ]
            for option, parts in zip(options, explained, strict=True):
                assert tuple(parts.parts) == component_keys(rules)
                assert sum(parts.parts.values()) == pytest.approx(option.value, abs=EXACT)
                assert all(0.0 < p <= 1.0 + EXACT for p in parts.chances.values())
                assert sum(parts.chances.values()) <= 1.0 + EXACT
                checked += 1
            # Filled boxes score nothing more.
            for box in rules.boxes:
                if column.is_filled(box):
                    assert all(abs(o.parts[box.key]) <= EXACT for o in explained)
    assert checked > 500


def test_a_box_option_is_sure_of_its_box_and_a_keep_spreads_its_chances(classic_table) -> None:
    breakdown = tables.breakdown(classic_table)
    options = option_breakdowns(breakdown, Column(), (2, 3, 4, 5, 1), 0)
    straight = next(o for o in options if o.category and o.category.key == "large_straight")
    assert straight.chances == {"large_straight": 1.0}
    assert straight.parts["large_straight"] == pytest.approx(40.0)
    keeps = option_breakdowns(breakdown, Column(), (2, 3, 4, 6, 6), 1)
    keep = next(o for o in keeps if o.keep == (2, 3, 4))
    # One roll left holding 2 3 4: a large straight needs 1 5 or 5 6 (4/36), and the policy
    # scores one in its box.
    assert keep.chances["large_straight"] == pytest.approx(4 / 36, abs=EXACT)


# --- Against simulated games --------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["classic", "yatzy"])
def test_start_of_game_breakdown_matches_simulated_means(solved_table, preset: str) -> None:
    """Each component's mean over 20,000 expert games is within 4 standard errors of the
    exact breakdown (the expert plays the same optimal policy)."""
    rules = find_ruleset(preset)
    breakdown = tables.breakdown(solved_table(rules))
    result = simulate(rules, "expert", 20_000, seed=7)
    assert result.parts is not None
    np.testing.assert_array_equal(result.parts.sum(axis=1), result.scores)
    simulated = result.breakdown()
    for key, points in breakdown.state(0, 0, False).items():
        mean, error = simulated[key]["mean"], simulated[key]["standard_error"]
        assert abs(mean - points) <= 4 * error + 1e-3, (key, points, mean, error)


def test_several_column_rules_have_no_breakdown() -> None:
    from fivedice.strategy.breakdown import breakdown_of

    with pytest.raises(s.UnsupportedRulesError):
        breakdown_of(find_ruleset("triple"), use_cache=False)


def test_a_tables_breakdown_and_goal_tables_count_towards_its_size_and_go_with_it(tmp_path) -> None:
    from fivedice.strategy.cache import companions, prune_cache

    old, new = tmp_path / "strategy-old.bin", tmp_path / "strategy-new.bin"
    for path, size in ((old, 100), (new, 100)):
        path.write_bytes(b"x" * size)
    breakdown = tmp_path / "breakdown1-old.npy"
    moments = tmp_path / "moments1-old.npy"
    goals = tmp_path / "thresholds1-old-400.npy"
    breakdown.write_bytes(b"x" * 500)
    moments.write_bytes(b"x" * 50)
    goals.write_bytes(b"x" * 20)
    (tmp_path / "thresholds1-older-400.npy").write_bytes(b"x")  # another table's ("older")
    os.utime(old, (1, 1))  # the least recently used
    assert companions(old) == [breakdown, moments, goals]
    assert companions(new) == []
    # The tables alone (200 bytes) fit in 300; with the old one's breakdown they do not.
    deleted = prune_cache(tmp_path, 300, keep=new)
    assert set(deleted) == {old, breakdown, moments, goals}
    assert new.exists() and not breakdown.exists()
