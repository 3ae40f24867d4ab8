"""An independent expectimax over a small remaining game, in plain Python on the core's API.

It knows nothing of the solver's state encoding: it plays `Column` values with the core's
`keep_outcomes`, `sub_multisets`, `Column.placements` and `Column.fill`, memoised on the column.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import numpy as np
import numpy.typing as npt

from fivedice.core.card import Column, Placement
from fivedice.core.dice import (
    ALL_KEEPS,
    ALL_ROLLS,
    Roll,
    all_keeps,
    all_rolls,
    keep_outcomes,
    roll_probability,
)
from fivedice.core.rules import RuleSet

_FIRST_ROLL = tuple((roll, float(roll_probability(roll))) for roll in ALL_ROLLS)


@cache
def _first_roll(dice: int) -> tuple[tuple[Roll, float], ...]:
    return tuple((roll, float(roll_probability(roll, dice))) for roll in all_rolls(dice))


@cache
def _outcomes(keep: Roll, dice: int = 5) -> tuple[tuple[Roll, float], ...]:
    return tuple((roll, float(p)) for roll, p in keep_outcomes(keep, dice))


@cache
def _sub_keeps(roll: Roll) -> tuple[Roll, ...]:
    from fivedice.core.dice import sub_multisets

    return sub_multisets(roll)


Chances = npt.NDArray[np.float64]
_ROW = {roll: i for i, roll in enumerate(ALL_ROLLS)}
_KEEP_ROW = {keep: i for i, keep in enumerate(ALL_KEEPS)}
_FIRST_ROLL_VECTOR = np.array([p for _, p in _FIRST_ROLL])
# Every keep's outcomes one after another (rolls and probabilities), keep by keep in ALL_KEEPS
# order: a keep's average is a sum over its run (a sparse product, without BLAS threads).
_OUTCOME_ROLLS = np.array([_ROW[roll] for keep in ALL_KEEPS for roll, _ in _outcomes(keep)])
_OUTCOME_PROBABILITIES = np.array([p for keep in ALL_KEEPS for _, p in _outcomes(keep)])
_OUTCOME_STARTS = np.cumsum([0] + [len(_outcomes(keep)) for keep in ALL_KEEPS[:-1]])
_SUB_KEEP_ROWS = [[_KEEP_ROW[keep] for keep in _sub_keeps(roll)] for roll in ALL_ROLLS]


class BruteForce:
    """Expected points still to come from any column, under optimal play (any number of
    dice: the rules')."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.dice = rules.dice
        self.rolls = all_rolls(self.dice)
        self.keeps = all_keeps(self.dice)
        self._future: dict[Column, float] = {}
        self._turns: dict[Column, tuple[dict[Roll, float], ...]] = {}
        # Per column, per rolls left (index 0 unused): every keep's value, computed once on
        # the way to `roll_values` and reused by `keep_value` and the best keeps of the
        # policies below (which ask for them a few hundred thousand times).
        self._keeps: dict[Column, tuple[dict[Roll, float], ...]] = {}
        self._moves: dict[Column, dict[Roll, tuple[tuple[Placement, Column], ...]]] = {}
        self._children: dict[Column, dict[Placement, Column]] = {}

    def future(self, column: Column) -> float:
        """Expected points to come at the start of a turn."""
        if column.is_complete:
            return 0.0
        if column not in self._future:
            last = self.roll_values(column)[-1]
            self._future[column] = sum(p * last[roll] for roll, p in _first_roll(self.dice))
        return self._future[column]

    def moves(self, column: Column, roll: Roll) -> tuple[tuple[Placement, Column], ...]:
        """Each legal placement of the roll with the column it leaves (the core's answers,
        asked once: the policies below walk the same moves again). Many rolls place alike
        (any roll scoring 20 in Chance); the core fills the column once per placement."""
        moves = self._moves.setdefault(column, {})
        if roll not in moves:
            children = self._children.setdefault(column, {})
            for p in (placements := column.placements(self.rules, roll)):
                if p not in children:
                    children[p] = column.fill(self.rules, p.category, roll)
            moves[roll] = tuple((p, children[p]) for p in placements)
        return moves[roll]

    def box_values(self, column: Column, roll: Roll) -> dict[str, float]:
        """Each legal box's points now plus the future of the column it leaves."""
        return {
            p.category.key: p.points + self.future(after) for p, after in self.moves(column, roll)
        }

    def keep_value(self, column: Column, keep: Roll, rolls_left: int) -> float:
        """Keep `keep`, re-roll the rest, continue optimally with rolls_left - 1 left."""
        return self.keep_values(column)[rolls_left][keep]

    def keep_values(self, column: Column) -> tuple[dict[Roll, float], ...]:
        """Per rolls left (index 0 empty: no keep without a roll left): each keep's value."""
        self.roll_values(column)
        return self._keeps[column]

    def best_keep(self, column: Column, roll: Roll, rolls_left: int) -> Roll:
        """The policy's keep: the first of `roll`'s keeps with the highest value."""
        values = self.keep_values(column)[rolls_left]
        return max(_sub_keeps(roll), key=values.__getitem__)

    def roll_values(self, column: Column) -> tuple[dict[Roll, float], ...]:
        """Per rolls left (0 … rolls_per_turn - 1): the value of holding each roll."""
        if column not in self._turns:
            levels: list[dict[Roll, float]] = [
                {roll: max(self.box_values(column, roll).values()) for roll in self.rolls}
            ]
            keeps: list[dict[Roll, float]] = [{}]
            for _ in range(1, self.rules.rolls_per_turn):
                previous = levels[-1]
                keep_values = {
                    keep: sum(p * previous[roll] for roll, p in _outcomes(keep, self.dice))
                    for keep in self.keeps
                }
                keeps.append(keep_values)
                levels.append(
                    {roll: max(keep_values[k] for k in _sub_keeps(roll)) for roll in self.rolls}
                )
            if any(box.served for box in self.rules.boxes):
                # The first roll may be scored at once with its served points (Generala).
                first = levels[-1]
                levels[-1] = {
                    roll: max(first[roll], max(self.served_box_values(column, roll).values()))
                    for roll in self.rolls
                }
            self._turns[column] = tuple(levels)
            self._keeps[column] = tuple(keeps)
        return self._turns[column]

    def served_box_values(self, column: Column, roll: Roll) -> dict[str, float]:
        """`box_values` of the turn's first roll: with its served points."""
        return {
            p.category.key: p.points
            + self.future(column.fill(self.rules, p.category, roll, served=True))
            for p in column.placements(self.rules, roll, served=True)
        }


class BruteMoments:
    """E[X] and E[X²] of the points still to come when playing the brute force's optimal policy
    (its first best box and keep), computed on the core's API like `BruteForce`."""

    def __init__(self, brute: BruteForce) -> None:
        self.brute = brute
        self._memo: dict[Column, tuple[float, float]] = {}
        self._turns: dict[Column, list[dict[Roll, tuple[float, float]]]] = {}

    def start(self, column: Column) -> tuple[float, float]:
        """(E[X], E[X²]) at the start of a turn."""
        if column.is_complete:
            return 0.0, 0.0
        if column not in self._memo:
            last = self.rolls(column)[-1]
            self._memo[column] = (
                sum(p * last[roll][0] for roll, p in _FIRST_ROLL),
                sum(p * last[roll][1] for roll, p in _FIRST_ROLL),
            )
        return self._memo[column]

    def rolls(self, column: Column) -> list[dict[Roll, tuple[float, float]]]:
        """Per rolls left: the moments of holding each roll (this turn's points included)."""
        if column not in self._turns:
            self._turns[column] = self._rolls(column)
        return self._turns[column]

    def _rolls(self, column: Column) -> list[dict[Roll, tuple[float, float]]]:
        brute, rules = self.brute, self.brute.rules
        scored: dict[Roll, tuple[float, float]] = {}
        for roll in ALL_ROLLS:
            values = brute.box_values(column, roll)
            best = max(values, key=lambda key: values[key])
            placement, after = next(
                m for m in brute.moves(column, roll) if m[0].category.key == best
            )
            m1, m2 = self.start(after)
            points = placement.points
            scored[roll] = (points + m1, points * points + 2 * points * m1 + m2)
        levels = [scored]
        for left in range(1, rules.rolls_per_turn):
            previous = levels[-1]
            level = {}
            kept: dict[Roll, tuple[float, float]] = {}  # many rolls share their best keep
            for roll in ALL_ROLLS:
                keep = brute.best_keep(column, roll, left)
                if keep not in kept:
                    outcomes = _outcomes(keep)
                    kept[keep] = (
                        sum(p * previous[r][0] for r, p in outcomes),
                        sum(p * previous[r][1] for r, p in outcomes),
                    )
                level[roll] = kept[keep]
            levels.append(level)
        return levels


class BruteDistribution:
    """The whole distribution of the points still to come when playing the brute force's
    optimal policy (its first best box and keep), as {points: probability}, on the core's API
    like `BruteMoments` (a placement's points are the column's total after minus before, so
    every bonus counts)."""

    def __init__(self, brute: BruteForce) -> None:
        self.brute = brute
        self._memo: dict[Column, dict[int, float]] = {}

    def start(self, column: Column) -> dict[int, float]:
        """P(X = x) at the start of a turn."""
        if column.is_complete:
            return {0: 1.0}
        if column not in self._memo:
            last = self.rolls(column)[-1]
            self._memo[column] = _mixture((p, last[roll]) for roll, p in _FIRST_ROLL)
        return self._memo[column]

    def rolls(self, column: Column) -> list[dict[Roll, dict[int, float]]]:
        """Per rolls left: the distribution holding each roll (this turn's points included)."""
        brute, rules = self.brute, self.brute.rules
        before = column.total(rules)
        scored = {}
        for roll in ALL_ROLLS:
            values = brute.box_values(column, roll)
            best = max(values, key=lambda key: values[key])
            after = column.fill(rules, rules.box(best), roll)
            points = after.total(rules) - before
            scored[roll] = {points + x: q for x, q in self.start(after).items()}
        levels = [scored]
        for left in range(1, rules.rolls_per_turn):
            previous = levels[-1]
            level = {}
            for roll in ALL_ROLLS:
                keep = max(_sub_keeps(roll), key=lambda k: brute.keep_value(column, k, left))
                level[roll] = _mixture((p, previous[r]) for r, p in _outcomes(keep))
            levels.append(level)
        return levels


def _mixture(weighted: Iterable[tuple[float, dict[int, float]]]) -> dict[int, float]:
    mixed: dict[int, float] = {}
    for weight, pmf in weighted:
        for x, q in pmf.items():
            mixed[x] = mixed.get(x, 0.0) + weight * q
    return mixed


class BruteThresholds:
    """The best chance that the points still to come reach each target 0 … top (a vector per
    position: each target's own best policy), computed on the core's API like `BruteForce`.

    The turn's averages over re-rolls are the same sums as `BruteForce`'s (each keep's
    outcomes from the core's `keep_outcomes`), taken for a vector of targets at once."""

    def __init__(self, rules: RuleSet, top: int) -> None:
        self.rules = rules
        self.top = top
        self._moves = BruteForce(rules)  # only its memo of the core's placements
        self._memo: dict[Column, Chances] = {}
        self._turns: dict[Column, list[dict[Roll, Chances]]] = {}
        self._keeps: dict[Column, list[Chances]] = {}

    def shifted(self, chances: Chances, points: int) -> Chances:
        """The chances after `points` more: target t needs t - points (met when ≤ 0)."""
        return np.concatenate((np.ones(points), chances))[: self.top + 1]

    def start(self, column: Column) -> Chances:
        """chance[t] at the start of a turn."""
        if column.is_complete:
            done = np.zeros(self.top + 1)
            done[0] = 1.0
            return done
        if column not in self._memo:
            self.rolls(column)
        return self._memo[column]

    def box_chances(self, column: Column, roll: Roll) -> dict[str, Chances]:
        """Each legal box: the chances after scoring the roll there."""
        return {
            p.category.key: self.shifted(self.start(after), p.points)
            for p, after in self._moves.moves(column, roll)
        }

    def keep_chances(self, column: Column, keep: Roll, rolls_left: int) -> Chances:
        """Keep `keep`, re-roll the rest, go on with rolls_left - 1 left."""
        self.rolls(column)
        return self._keeps[column][rolls_left][_KEEP_ROW[keep]]

    def rolls(self, column: Column) -> list[dict[Roll, Chances]]:
        """Per rolls left: the chances holding each roll (each target's best play)."""
        if column not in self._turns:
            level = np.array(
                [
                    np.max(list(self.box_chances(column, roll).values()), axis=0)
                    for roll in ALL_ROLLS
                ]
            )
            levels, keeps = [level], [np.empty(0)]
            for _ in range(1, self.rules.rolls_per_turn):
                kept = np.add.reduceat(  # row k: keep k's chances
                    _OUTCOME_PROBABILITIES[:, None] * levels[-1][_OUTCOME_ROLLS], _OUTCOME_STARTS
                )
                keeps.append(kept)
                levels.append(np.array([kept[rows].max(axis=0) for rows in _SUB_KEEP_ROWS]))
            self._memo[column] = _FIRST_ROLL_VECTOR @ levels[-1]
            self._turns[column] = [dict(zip(ALL_ROLLS, rows, strict=True)) for rows in levels]
            self._keeps[column] = keeps
        return self._turns[column]


class BruteBreakdown:
    """The expected points of each box and bonus still to come when playing the brute force's
    optimal policy (its first best box and keep), on the core's API like `BruteMoments`: a
    placement's `box_points`, `upper_bonus` and `yahtzee_bonus` go to their own components."""

    UPPER = "upper_bonus"
    EXTRA = "yahtzee_bonus"

    def __init__(self, brute: BruteForce) -> None:
        self.brute = brute
        self._memo: dict[Column, dict[str, float]] = {}
        self._turns: dict[Column, list[dict[Roll, dict[str, float]]]] = {}

    def start(self, column: Column) -> dict[str, float]:
        """{component: expected points} at the start of a turn (absent: 0)."""
        if column.is_complete:
            return {}
        if column not in self._memo:
            last = self.rolls(column)[-1]
            self._memo[column] = _mix((p, last[roll]) for roll, p in _FIRST_ROLL)
        return self._memo[column]

    def scored(self, column: Column, roll: Roll, key: str) -> dict[str, float]:
        """Scoring roll in box `key` now: its parts plus the next state's breakdown."""
        placement, after = next(
            m for m in self.brute.moves(column, roll) if m[0].category.key == key
        )
        parts = dict(self.start(after))
        for name, points in (
            (key, placement.box_points),
            (self.UPPER, placement.upper_bonus),
            (self.EXTRA, placement.yahtzee_bonus),
        ):
            parts[name] = parts.get(name, 0.0) + points
        return parts

    def kept(self, column: Column, keep: Roll, rolls_left: int) -> dict[str, float]:
        """Keep `keep` with `rolls_left` rolls left (≥ 1), re-roll the rest, play on."""
        after = self.rolls(column)[rolls_left - 1]
        return _mix((p, after[roll]) for roll, p in _outcomes(keep))

    def rolls(self, column: Column) -> list[dict[Roll, dict[str, float]]]:
        """Per rolls left: the breakdown of holding each roll (this turn's points included)."""
        if column not in self._turns:
            self._turns[column] = self._rolls(column)
        return self._turns[column]

    def _rolls(self, column: Column) -> list[dict[Roll, dict[str, float]]]:
        brute, rules = self.brute, self.brute.rules
        scored = {}
        for roll in ALL_ROLLS:
            values = brute.box_values(column, roll)
            scored[roll] = self.scored(column, roll, max(values, key=lambda key: values[key]))
        levels = [scored]
        for left in range(1, rules.rolls_per_turn):
            previous = levels[-1]
            level = {}
            kept: dict[Roll, dict[str, float]] = {}  # many rolls share their best keep
            for roll in ALL_ROLLS:
                keep = brute.best_keep(column, roll, left)
                if keep not in kept:
                    kept[keep] = _mix((p, previous[r]) for r, p in _outcomes(keep))
                level[roll] = kept[keep]
            levels.append(level)
        return levels


def _mix(weighted: Iterable[tuple[float, dict[str, float]]]) -> dict[str, float]:
    total: dict[str, float] = {}
    for p, parts in weighted:
        for key, points in parts.items():
            total[key] = total.get(key, 0.0) + p * points
    return total
