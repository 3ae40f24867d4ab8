"""The exact solver with the wild die: small remaining games against an independent brute force
that plays the dice by position (the last die wild) on the core's API, and the wild dice tables'
own counts and probabilities."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from fivedice.core.boxes import score_box
from fivedice.core.card import Column
from fivedice.core.rules import Joker, RuleSet, find_ruleset
from fivedice.core.scoring import possible_scores
from fivedice.core.wild import WILD
from fivedice.strategy.advisor import advise
from fivedice.strategy.rule_arrays import rule_arrays, spec_of
from fivedice.strategy.solver import StrategyTable, decision_values, solve_compact, turn_values
from fivedice.strategy.tables import dice_tables

EXACT = 1e-9
CLASSIC_WILD = find_ruleset("classic", {"wild_die": "on"})
YATZY_WILD = find_ruleset("yatzy", {"wild_die": "on"})

State = tuple[tuple[int, ...], int]
"""The dice after a roll: the regular dice (sorted) and the wild die's face (1: the ★)."""
Keep = tuple[tuple[int, ...], int | None]
"""The dice held: regular ones (sorted), and the wild die's face or None (not held)."""


@cache
def _regular_outcomes(count: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every sorted outcome of `count` fresh regular dice, by enumerating each die's face."""
    tally = Counter(tuple(sorted(faces)) for faces in itertools.product(range(1, 7), repeat=count))
    return tuple((faces, Fraction(n, 6**count)) for faces, n in sorted(tally.items()))


class WildBrute:
    """Expected points to come under optimal play, with the dice as (regular, wild face)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.regular = rules.dice - 1
        self.states = [
            (regular, wild)
            for regular in itertools.combinations_with_replacement(range(1, 7), self.regular)
            for wild in range(1, 7)
        ]
        self.index = {state: i for i, state in enumerate(self.states)}
        first = dict(_regular_outcomes(self.regular))
        self.first = np.array([float(first[regular] / 6) for regular, _ in self.states])
        self.every_keep = sorted(
            {k for s in self.states for k in self.keeps_of(s)}, key=lambda k: (k[0], k[1] or 0)
        )
        self.outcomes = {k: self._outcomes(k) for k in self.every_keep}
        self._future: dict[Column, float] = {}
        self._levels: dict[Column, list[np.ndarray]] = {}
        self._keeps: dict[Column, list[dict[Keep, float]]] = {}

    def _outcomes(self, keep: Keep) -> tuple[np.ndarray, np.ndarray]:
        """The states a keep leads to (indices) and their chances, die by die."""
        regular, wild = keep
        faces = [wild] if wild is not None else list(range(1, 7))
        states, chances = [], []
        for rolled, p in _regular_outcomes(self.regular - len(regular)):
            for face in faces:
                states.append(self.index[(tuple(sorted(regular + rolled)), face)])
                chances.append(float(p / len(faces)))
        return np.array(states), np.array(chances)

    def keeps_of(self, state: State) -> set[Keep]:
        regular, wild = state
        subs = {
            tuple(sorted(c))
            for size in range(len(regular) + 1)
            for c in itertools.combinations(regular, size)
        }
        return {(sub, kept) for sub in subs for kept in (wild, None)}

    def box_values(self, column: Column, state: State) -> dict[str, float]:
        dice = (*state[0], state[1])  # in position order, the wild die last
        return {
            p.category.key: p.points + self.future(column.fill(self.rules, p.category, dice))
            for p in column.placements(self.rules, dice)
        }

    def future(self, column: Column) -> float:
        if column.is_complete:
            return 0.0
        if column not in self._future:
            self._future[column] = float(self.first @ self.levels(column)[-1])
        return self._future[column]

    def levels(self, column: Column) -> list[np.ndarray]:
        """Per rolls left: the value of holding each state (in `states` order)."""
        if column not in self._levels:
            levels = [np.array([max(self.box_values(column, s).values()) for s in self.states])]
            keep_levels: list[dict[Keep, float]] = [{}]
            for _ in range(1, self.rules.rolls_per_turn):
                previous = levels[-1]
                values = {
                    k: float(chances @ previous[states])
                    for k, (states, chances) in self.outcomes.items()
                }
                keep_levels.append(values)
                levels.append(
                    np.array([max(values[k] for k in self.keeps_of(s)) for s in self.states])
                )
            self._levels[column] = levels
            self._keeps[column] = keep_levels
        return self._levels[column]

    def keep_value(self, column: Column, keep: Keep, rolls_left: int) -> float:
        self.levels(column)
        return self._keeps[column][rolls_left][keep]


def _coded(regular: tuple[int, ...], wild: int | None) -> tuple[int, ...]:
    return regular if wild is None else (*regular, wild + WILD)


def _sub_game(rules: RuleSet, column: Column) -> StrategyTable:
    values, layout, states = solve_compact(rule_arrays(rules), within=column.filled_mask)
    return StrategyTable(rules, values, float("nan"), states, layout)


def _card(rules: RuleSet, open_boxes: tuple[str, ...], scores: dict[str, int]) -> Column:
    filled = {box.key: 0 for box in rules.boxes if box.key != "chance"} | {"chance": 20}
    filled |= scores
    for key in open_boxes:
        filled.pop(key)
    for key, score in filled.items():
        assert score in possible_scores(rules, rules.box(key)), key
    return Column.from_scores(rules, filled)


CASES = [
    # The bonus armed and a forced joker: a Yahtzee with the ★ goes to its upper box, +100.
    (CLASSIC_WILD, ("fours", "large_straight", "full_house"), {"yahtzee": 50, "sixes": 24}),
    # Upper bonus at stake, the Yahtzee box open.
    (CLASSIC_WILD, ("fives", "yahtzee"), {"sixes": 30, "fours": 16, "threes": 9, "twos": 4}),
    (CLASSIC_WILD.replace(joker=Joker.FREE_CHOICE), ("ones", "full_house"), {"yahtzee": 50}),
    (YATZY_WILD, ("ones", "small_straight", "yatzy"), {}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "open_boxes", "scores"), CASES)
def test_small_wild_games_match_brute_force(
    rules: RuleSet, open_boxes: tuple[str, ...], scores: dict[str, int]
) -> None:
    column = _card(rules, open_boxes, scores)
    table = _sub_game(rules, column)
    brute = WildBrute(rules)
    assert table.column_value(column) == pytest.approx(brute.future(column), abs=EXACT)
    turn = turn_values(table, column)
    assert turn.start_value == pytest.approx(brute.future(column), abs=EXACT)
    tables = rule_arrays(rules).dice
    levels = brute.levels(column)
    rng = random.Random("".join(open_boxes))
    chosen = [*rng.sample(brute.states, 12), ((4, 4, 4, 4), 1), ((2, 3, 4, 6), 1)]
    chosen += [((1, 1, 1, 1), 1), ((4, 4, 4, 4), 4), ((5, 5, 5, 5), 3)]
    for state in chosen:
        roll = _coded(*state)
        r = tables.rolls.index(roll)
        for rolls_left in range(rules.rolls_per_turn):
            assert turn.roll_values[rolls_left, r] == pytest.approx(
                levels[rolls_left][brute.index[state]], abs=EXACT
            )
        box_values = brute.box_values(column, state)
        keep_row, boxes = decision_values(table, column, roll, rules.rolls_per_turn - 1)
        assert {box.key: v for box, v in boxes} == pytest.approx(box_values, abs=EXACT)
        for keep in brute.keeps_of(state):
            assert keep_row[tables.keeps.index(_coded(*keep))] == pytest.approx(
                brute.keep_value(column, keep, rules.rolls_per_turn - 1), abs=EXACT
            )
        # The coach: every option's value, the wild die's keep included.
        for rolls_left in range(rules.rolls_per_turn):
            for option in advise(table, column, roll, rolls_left):
                if option.category is not None:
                    assert option.value == pytest.approx(box_values[option.category.key], abs=EXACT)
                else:
                    assert option.keep is not None
                    wild = [face - WILD for face in option.keep if face > WILD]
                    keep = (tuple(f for f in option.keep if f <= WILD), wild[0] if wild else None)
                    assert option.value == pytest.approx(
                        brute.keep_value(column, keep, rolls_left), abs=EXACT
                    )


@pytest.mark.slow
def test_wild_dice_tables_count_and_sum_to_one() -> None:
    tables = dice_tables(5, wild=True)
    assert len(tables.rolls) == 126 * 6
    assert len(tables.keeps) == (1 + 6 + 21 + 56 + 126) * 7
    assert tables.keeps[-len(tables.rolls) :] == tables.rolls
    assert float(tables.probability.sum()) == pytest.approx(1.0, abs=1e-15)
    # Each roll's chance: its regular dice's multiset chance, times 1/6 for the wild face.
    outcomes = dict(_regular_outcomes(4))
    for roll, p in zip(tables.rolls, tables.probability, strict=True):
        assert p == pytest.approx(float(outcomes[roll[:-1]] / 6), rel=1e-15)
    # A keep of four regular dice and no wild die re-rolls the wild die alone.
    k = tables.keeps.index((2, 3, 4, 5))
    assert [tables.keeps[j] for j in tables.add_face[k]] == [
        (2, 3, 4, 5, face + WILD) for face in range(1, 7)
    ]
    # Four alike with the ★ or with their own face on the wild die (for ones, the same roll).
    assert np.count_nonzero(tables.all_same) == 6 * 2 - 1


@pytest.mark.slow
def test_the_coach_and_the_cpus_hold_the_wild_die_by_its_position(tmp_path) -> None:
    """Every hint's hold is the keep's dice, the wild die at its own position (5), never a
    regular die of the same face; a CPU's keep is one of the coach's."""
    from fivedice.core.dice import ScriptedDice
    from fivedice.core.game import GameSettings, Seat, apply, new_game
    from fivedice.core.scoring import position_codes
    from fivedice.strategy.cache import load_or_solve
    from fivedice.strategy.hints import exact_hints
    from fivedice.strategy.players import make_bot

    table = load_or_solve(CLASSIC_WILD, cache_dir=tmp_path)
    state = new_game(GameSettings(seats=(Seat("Ann"),), rules=CLASSIC_WILD))
    for dice in ([4, 4, 2, 4, 1], [3, 5, 6, 2, 5], [1, 1, 6, 6, 1]):
        rolled = apply(state, "roll", ScriptedDice(dice))
        coded = position_codes(CLASSIC_WILD, rolled.dice)
        hints = exact_hints(table, rolled)
        keeps = [hint for hint in hints if hint.keep is not None]
        assert any(any(face > WILD for face in hint.keep) for hint in keeps)
        for hint in keeps:
            assert tuple(sorted(coded[p - 1] for p in hint.hold)) == hint.keep
        for level in ("beginner", "strong", "expert", "master"):
            bot = make_bot(level, CLASSIC_WILD, 1, table=table)
            card = rolled.cards[0]
            keep = bot.choose_keep(CLASSIC_WILD, card, rolled.dice, rolled.rolls_left)
            assert keep in {hint.keep for hint in keeps} | {tuple(sorted(coded))}
            placement = bot.choose_box(CLASSIC_WILD, card, rolled.dice)
            assert placement in card.placements(CLASSIC_WILD, rolled.dice)
    assert table.expected_score == pytest.approx(298.9374902, abs=1e-6)


def test_the_served_table_with_the_wild_die_is_scored_over_the_same_wild_rolls():
    """Generala with the wild die: the served scores (a turn's first roll) are the core's
    served scores of the very rolls `score` is indexed by, the wild die coded apart."""
    rules = find_ruleset("generala", {"wild_die": "on"})
    spec = spec_of(rules)
    rolls = dice_tables(rules.dice, True).rolls
    assert spec.served_score is not None
    assert spec.served_score.shape == (2, *spec.score.shape) == (2, len(rules.boxes), len(rolls))
    for b, box in enumerate(rules.boxes):
        if box.second:  # Double Generala scores through its 'joker' row (the armed bit)
            continue
        plain = [score_box(box, roll) for roll in rolls]
        served = [score_box(box, roll, served=True) for roll in rolls]
        assert spec.score[b].tolist() == plain
        assert spec.served_score[0, b].tolist() == served
