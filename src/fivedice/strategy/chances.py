"""Winning chances: each seat's probability of winning from the current position.

How (see also the README, "Winning chances"):

1. **Each seat on its own.** A seat's final total is what it has now plus the points X still
   to come. X is taken to be played with the optimal expected-score strategy (how the expert
   plays, and close to how good players play). `moments` gives, for every position, the exact
   mean and variance of X under that strategy - between turns, and within a turn for the
   dice on the table and the rolls left. X is modelled as a normal distribution with that
   mean and variance, discretised to whole points (and cut at zero); with `EXACT_BOXES` open
   boxes or fewer (the last turns) the distribution of X is enumerated exactly instead.
2. **Across seats.** Seats' dice are independent, so the chance that seat i wins is
   Σ_t P(T_i = t) · E[share of the win | every other seat's total ≤ t], computed exactly on the
   integer grid. **Ties** for first share the win equally (two seats tied: half a win each),
   as the core's ranking shares a rank. So the chances of all seats sum to 1, and at the end
   of a game the winner has 1 (k seats tied for first: 1/k each) and everyone else 0.
3. **Turn order** needs no special care: each seat's own position (boxes filled, and for the
   seat to move its dice and rolls left) says how many turns it still has.
4. **Matches**: the totals of finished games count, and each game still to come adds the
   mean and variance of a whole optimal game to every seat.

Rule sets with several columns are an *estimate* (`is_estimate`): each column's moments come
from the single-column table (times its multiplier) and the columns are taken as independent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from fivedice.core.card import ScoreCard
from fivedice.core.game import GameState
from fivedice.core.rules import RuleSet
from fivedice.core.scoring import scoring_roll
from fivedice.strategy import solver as s
from fivedice.strategy.moments import (
    EXACT_BOXES,
    MomentTable,
    exact_pmf,
    exact_roll_pmf,
    moments_of,
)
from fivedice.strategy.rule_arrays import rule_arrays

__all__ = ["Outlook", "combine", "is_estimate", "seat_outlooks", "win_chances"]

FloatArray = npt.NDArray[np.floating]

SPREAD = 7.0
"""The normal model's grid covers the mean ± this many standard deviations."""


@dataclass(frozen=True, eq=False)
class Outlook:
    """The distribution of one seat's final total: P(total = offset + x) = pmf[x]."""

    offset: int
    pmf: FloatArray

    @property
    def mean(self) -> float:
        return self.offset + float(np.arange(self.pmf.size) @ self.pmf)


def is_estimate(rules: RuleSet) -> bool:
    """Whether the chances under these rules are an estimate (several columns)."""
    return rules.columns > 1


def win_chances(state: GameState, moments: MomentTable | None = None) -> tuple[float, ...]:
    """Each seat's chance of winning the game (or match) from this position; they sum to 1.

    Args:
        state: any position, including a finished game.
        moments: the moment table of the one-column rules (loaded, or solved, if not given).
    """
    return combine(seat_outlooks(state, moments))


def seat_outlooks(state: GameState, moments: MomentTable | None = None) -> list[Outlook]:
    """Each seat's distribution of its final total (of the match, if one is being played)."""
    rules = state.rules
    table = moments
    if table is None and not (state.is_game_over and state.is_match_over):
        table = moments_of(rules.replace(column_multipliers=(1,)))
    games_to_come = state.settings.match_length - state.game_number
    outlooks = []
    for seat, card in enumerate(state.cards):
        finished = sum(game.totals[seat] for game in state.finished_games)
        mover = seat == state.current_seat and not state.is_game_over
        dice = state.turn.dice if mover else None
        outlook = _card_outlook(table, rules, card, dice, state.rolls_left)
        if games_to_come > 0:
            assert table is not None
            mean, var = table.state(0, 0, False)
            scale = sum(rules.column_multipliers)
            square = sum(m * m for m in rules.column_multipliers)
            extra = _normal_pmf(games_to_come * mean * scale, games_to_come * var * square)
            outlook = Outlook(outlook.offset, np.convolve(outlook.pmf, extra))
        outlooks.append(Outlook(outlook.offset + finished, outlook.pmf))
    return outlooks


def _card_outlook(
    table: MomentTable | None,
    rules: RuleSet,
    card: ScoreCard,
    dice: tuple[int, ...] | None,
    rolls_left: int,
) -> Outlook:
    total = card.total(rules)
    if card.is_complete or table is None:
        return Outlook(total, np.ones(1))
    if rules.columns == 1:
        mask, up, armed = s.column_state(rules, card.columns[0])
        if dice is None:
            return Outlook(total, column_pmf(table, mask, up, armed))
        roll = scoring_roll(rules, dice)
        return Outlook(total, _roll_pmf(table, mask, up, armed, roll, rolls_left))
    mean = var = 0.0
    for column, multiplier in zip(card.columns, rules.column_multipliers, strict=True):
        if not column.is_complete:
            m, v = table.state(*s.column_state(rules, column))
            mean += multiplier * m
            var += multiplier * multiplier * v
    return Outlook(total, _normal_pmf(mean, var))


def column_pmf(table: MomentTable, mask: int, up: int, armed: bool) -> FloatArray:
    """The distribution of the points to come from a between-turn state of one column."""
    return _column_pmf(table, mask, min(up, table.table.upper_cap), bool(armed))


def _open_boxes(table: MomentTable, mask: int) -> int:
    """How many boxes of the card (13 in Yahtzee, 15 in Yatzy) the mask leaves open."""
    return table.table.full_mask.bit_count() - mask.bit_count()


@lru_cache(maxsize=8192)
def _column_pmf(table: MomentTable, mask: int, up: int, armed: bool) -> FloatArray:
    if mask == table.table.full_mask:
        return np.ones(1)
    if _open_boxes(table, mask) <= EXACT_BOXES:
        return exact_pmf(table, mask, up, armed)
    return _normal_pmf(*table.state(mask, up, armed))


def _roll_pmf(
    table: MomentTable, mask: int, up: int, armed: bool, roll: tuple[int, ...], rolls_left: int
) -> FloatArray:
    r = rule_arrays(table.rules).dice.roll_index[roll]
    if _open_boxes(table, mask) <= EXACT_BOXES:
        pmf: FloatArray = exact_roll_pmf(table, mask, up, armed, rolls_left + 1)[rolls_left, r]
        return pmf
    m1, m2 = table.in_turn(mask, up, armed, rolls_left + 1)[rolls_left, r]
    return _normal_pmf(float(m1), max(float(m2 - m1 * m1), 0.0))


def _normal_pmf(mean: float, var: float) -> FloatArray:
    """A normal distribution on the whole numbers ≥ 0 (the mass below 0 is cut off)."""
    sd = math.sqrt(var)
    if sd < 1e-9:
        pmf = np.zeros(max(round(mean), 0) + 1)
        pmf[-1] = 1.0
        return pmf
    top = math.ceil(mean + SPREAD * sd) + 1
    bottom = max(0, math.floor(mean - SPREAD * sd))
    edges = (np.arange(bottom, top + 1) - 0.5 - mean) / (sd * math.sqrt(2.0))
    cdf = 0.5 * (1.0 + _erf(edges))
    pmf = np.zeros(top)
    pmf[bottom:top] = np.diff(cdf)
    pmf /= pmf.sum()
    pmf.setflags(write=False)
    return pmf


_erf = np.vectorize(math.erf, otypes=[np.float64])


def combine(outlooks: list[Outlook]) -> tuple[float, ...]:
    """Each seat's expected share of the win, from independent final-total distributions.

    A seat with total t wins outright when every other total is below t; when k others tie
    with it, it gets 1/(k+1). The shares sum to 1.
    """
    n = len(outlooks)
    if n == 1:
        return (1.0,)
    low = min(o.offset for o in outlooks)
    high = max(o.offset + o.pmf.size for o in outlooks)
    grid = np.zeros((n, high - low))
    for i, o in enumerate(outlooks):
        grid[i, o.offset - low : o.offset - low + o.pmf.size] = o.pmf
    below = np.cumsum(grid, axis=1) - grid  # P(T_j < t)
    chances = []
    for i in range(n):
        # coefficients of Π_{j≠i} (P(T_j < t) + P(T_j = t)·z), per t: z^k = k others tie.
        poly = np.zeros((n, grid.shape[1]))
        poly[0] = 1.0
        for j in range(n):
            if j == i:
                continue
            shifted = np.zeros_like(poly)
            shifted[1:] = poly[:-1] * grid[j]
            poly = poly * below[j] + shifted
        share = sum(poly[k] / (k + 1) for k in range(n))
        chances.append(float(grid[i] @ share))
    total = sum(chances)
    return tuple(c / total for c in chances)
