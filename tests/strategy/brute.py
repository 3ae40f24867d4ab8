"""An independent expectimax over a small remaining game, in plain Python on the core's API.

It knows nothing of the solver's state encoding: it plays `Column` values with the core's
`keep_outcomes`, `sub_multisets`, `Column.placements` and `Column.fill`, memoised on the column.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from fivedice.core.card import Column
from fivedice.core.dice import ALL_KEEPS, ALL_ROLLS, Roll, keep_outcomes, roll_probability
from fivedice.core.rules import RuleSet

_FIRST_ROLL = tuple((roll, float(roll_probability(roll))) for roll in ALL_ROLLS)


@cache
def _outcomes(keep: Roll) -> tuple[tuple[Roll, float], ...]:
    return tuple((roll, float(p)) for roll, p in keep_outcomes(keep))


@cache
def _sub_keeps(roll: Roll) -> tuple[Roll, ...]:
    from fivedice.core.dice import sub_multisets

    return sub_multisets(roll)


class BruteForce:
    """Expected points still to come from any column, under optimal play."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._future: dict[Column, float] = {}
        self._turns: dict[Column, tuple[dict[Roll, float], ...]] = {}

    def future(self, column: Column) -> float:
        """Expected points to come at the start of a turn."""
        if column.is_complete:
            return 0.0
        if column not in self._future:
            last = self.roll_values(column)[-1]
            self._future[column] = sum(p * last[roll] for roll, p in _FIRST_ROLL)
        return self._future[column]

    def box_values(self, column: Column, roll: Roll) -> dict[str, float]:
        """Each legal box's points now plus the future of the column it leaves."""
        return {
            p.category.key: p.points + self.future(column.fill(self.rules, p.category, roll))
            for p in column.placements(self.rules, roll)
        }

    def keep_value(self, column: Column, keep: Roll, rolls_left: int) -> float:
        """Keep `keep`, re-roll the rest, continue optimally with rolls_left - 1 left."""
        after = self.roll_values(column)[rolls_left - 1]
        return sum(p * after[roll] for roll, p in _outcomes(keep))

    def roll_values(self, column: Column) -> tuple[dict[Roll, float], ...]:
        """Per rolls left (0 … rolls_per_turn - 1): the value of holding each roll."""
        if column not in self._turns:
            levels: list[dict[Roll, float]] = [
                {roll: max(self.box_values(column, roll).values()) for roll in ALL_ROLLS}
            ]
            for _ in range(1, self.rules.rolls_per_turn):
                previous = levels[-1]
                keep_values = {
                    keep: sum(p * previous[roll] for roll, p in _outcomes(keep))
                    for keep in ALL_KEEPS
                }
                levels.append(
                    {roll: max(keep_values[k] for k in _sub_keeps(roll)) for roll in ALL_ROLLS}
                )
            self._turns[column] = tuple(levels)
        return self._turns[column]


class BruteMoments:
    """E[X] and E[X²] of the points still to come when playing the brute force's optimal policy
    (its first best box and keep), computed on the core's API like `BruteForce`."""

    def __init__(self, brute: BruteForce) -> None:
        self.brute = brute
        self._memo: dict[Column, tuple[float, float]] = {}

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
        brute, rules = self.brute, self.brute.rules
        scored: dict[Roll, tuple[float, float]] = {}
        for roll in ALL_ROLLS:
            values = brute.box_values(column, roll)
            best = max(values, key=lambda key: values[key])
            placement = next(p for p in column.placements(rules, roll) if p.category.key == best)
            m1, m2 = self.start(column.fill(rules, placement.category, roll))
            points = placement.points
            scored[roll] = (points + m1, points * points + 2 * points * m1 + m2)
        levels = [scored]
        for left in range(1, rules.rolls_per_turn):
            previous = levels[-1]
            level = {}
            for roll in ALL_ROLLS:
                keep = max(_sub_keeps(roll), key=lambda k: brute.keep_value(column, k, left))
                outcomes = _outcomes(keep)
                level[roll] = (
                    sum(p * previous[r][0] for r, p in outcomes),
                    sum(p * previous[r][1] for r, p in outcomes),
                )
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
    position: each target's own best policy), computed on the core's API like `BruteForce`."""

    def __init__(self, rules: RuleSet, top: int) -> None:
        import numpy as np

        self.rules = rules
        self.top = top
        self._np = np
        self._memo: dict[Column, object] = {}
        self._turns: dict[Column, list[dict[Roll, object]]] = {}

    def shifted(self, chances: object, points: int) -> object:
        """The chances after `points` more: target t needs t - points (met when ≤ 0)."""
        np = self._np
        return np.concatenate((np.ones(points), chances))[: self.top + 1]  # type: ignore[arg-type]

    def start(self, column: Column) -> object:
        """chance[t] at the start of a turn."""
        np = self._np
        if column.is_complete:
            done = np.zeros(self.top + 1)
            done[0] = 1.0
            return done
        if column not in self._memo:
            last = self.rolls(column)[-1]
            self._memo[column] = sum(p * last[roll] for roll, p in _FIRST_ROLL)  # type: ignore[operator]
        return self._memo[column]

    def box_chances(self, column: Column, roll: Roll) -> dict[str, object]:
        """Each legal box: the chances after scoring the roll there."""
        return {
            p.category.key: self.shifted(
                self.start(column.fill(self.rules, p.category, roll)), p.points
            )
            for p in column.placements(self.rules, roll)
        }

    def keep_chances(self, column: Column, keep: Roll, rolls_left: int) -> object:
        """Keep `keep`, re-roll the rest, go on with rolls_left - 1 left."""
        after = self.rolls(column)[rolls_left - 1]
        return sum(p * after[roll] for roll, p in _outcomes(keep))  # type: ignore[operator]

    def rolls(self, column: Column) -> list[dict[Roll, object]]:
        """Per rolls left: the chances holding each roll (each target's best play)."""
        np = self._np
        if column not in self._turns:
            levels = [
                {roll: np.max(list(self.box_chances(column, roll).values()), axis=0)
                 for roll in ALL_ROLLS}
            ]  # fmt: skip
            for _ in range(1, self.rules.rolls_per_turn):
                previous = levels[-1]
                keeps = {
                    keep: sum(p * previous[roll] for roll, p in _outcomes(keep))
                    for keep in ALL_KEEPS
                }
                levels.append(
                    {
                        roll: np.max([keeps[k] for k in _sub_keeps(roll)], axis=0)
                        for roll in ALL_ROLLS
                    }
                )
            self._turns[column] = levels
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
        rules = self.brute.rules
        placement = next(p for p in column.placements(rules, roll) if p.category.key == key)
        parts = dict(self.start(column.fill(rules, placement.category, roll)))
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
        brute, rules = self.brute, self.brute.rules
        scored = {}
        for roll in ALL_ROLLS:
            values = brute.box_values(column, roll)
            scored[roll] = self.scored(column, roll, max(values, key=lambda key: values[key]))
        levels = [scored]
        for left in range(1, rules.rolls_per_turn):
            previous = levels[-1]
            level = {}
            for roll in ALL_ROLLS:
                keep = max(_sub_keeps(roll), key=lambda k: brute.keep_value(column, k, left))
                level[roll] = _mix((p, previous[r]) for r, p in _outcomes(keep))
            levels.append(level)
        return levels


def _mix(weighted: Iterable[tuple[float, dict[str, float]]]) -> dict[str, float]:
    total: dict[str, float] = {}
    for p, parts in weighted:
        for key, points in parts.items():
            total[key] = total.get(key, 0.0) + p * points
    return total
