"""The `master` CPU level: plays to win, not to score.

Against others, master solves each of its turns for the best *chance of winning* instead of
the best expected score. The turn is searched exactly as the solver searches it (every keep of
every roll, every roll left), but a turn's end is valued by the chance of winning from there:

* if the card is then complete, its final total t is known: the chance is P(O < t) +
  ½·P(O = t), with O the best opponent's final total;
* otherwise its final total is modelled as normal, with the mean and variance of the points
  still to come under optimal play (`moments`), and so is O; the chance is
  Φ((own mean − O's mean) / √(own variance + O's variance)).

O is the best opponent's final total: its distribution comes from `chances.seat_outlooks`
(several opponents: the best of them), used exactly when every opponent has at most one box
left, else as a normal with its mean and variance. The last box of master's own card is not
normal at all: its distribution is enumerated exactly too (`last_box_pmfs`). In a match,
master plays to win in the last game (counting the games played); before it, like the
expert. A tiny
share of the expected score breaks ties between options of equal chance (a decided game is
played out like the expert). Behind, a high variance is worth having; ahead, a low one - so
master takes risks when behind and plays safe when ahead. Solo, and under rules with several
columns, it plays exactly like the expert.

`play_duels` plays two-seat games (expert or master in each seat) entirely in numba, for the
benchmark, and records every seat's position before every turn (the calibration of the
winning chances uses them).
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from fivedice.core.card import Placement, ScoreCard
from fivedice.core.categories import CATEGORIES
from fivedice.core.dice import ALL_KEEPS, check_roll
from fivedice.core.errors import N_, FivediceError
from fivedice.core.rules import RuleSet
from fivedice.strategy import solver as s
from fivedice.strategy.bots import Bot, Level
from fivedice.strategy.limits import has_win_chances
from fivedice.strategy.moments import MomentTable, exact_pmf, moments_of, outcome
from fivedice.strategy.playout import game_seeds, next_random

if TYPE_CHECKING:
    from fivedice.core.game import GameState

__all__ = ["Duels", "MasterBot", "play_duels", "win_turn"]

FloatArray = npt.NDArray[np.floating]
IntArray = npt.NDArray[np.integer]

EMPTY_KEEP = s.KEEP_INDEX[()]

TIE_BREAK = 1e-12
"""Weight of the expected final total in an option's value, to order options of equal chance."""


@njit(cache=True, nogil=True, inline="always")
def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


@njit(cache=True, nogil=True)
def _opponent_below(t: int, opp_mean: float, opp_sd: float, cdf: FloatArray, low: int) -> float:
    """P(O < t) + ½·P(O = t): from the exact table `cdf` when it has entries, else normal."""
    if cdf.size > 0:
        i = t - low
        if i < 0:
            return 0.0
        if i >= cdf.size:
            return 1.0
        return float(cdf[i])
    return _phi((t - opp_mean) / opp_sd)


@njit(cache=True, nogil=True)
def _end_chance(
    t: int,
    nm: int,
    nu: int,
    na: int,
    opp_mean: float,
    opp_sd: float,
    opp_pmf: FloatArray,
    cdf: FloatArray,
    low: int,
    moments: FloatArray,
    last: FloatArray,
) -> tuple[float, float]:
    """The chance of winning, and the expected final total, with t points after this turn
    and the card in state (nm, nu, na)."""
    if nm == 0x1FFF:
        return _opponent_below(t, opp_mean, opp_sd, cdf, low), float(t)
    m1 = moments[nm, nu, na, 0]
    if (nm | (nm + 1)) == 0x1FFF:  # one box left: its distribution is known exactly
        b = 0
        while (nm >> b) & 1:
            b += 1
        pmf = last[b, nu, na]
        w = 0.0
        for x in range(pmf.size):
            if pmf[x] > 0.0:
                w += pmf[x] * _opponent_below(t + x, opp_mean, opp_sd, cdf, low)
        return w, t + m1
    sd = math.sqrt(max(moments[nm, nu, na, 1] - m1 * m1, 0.0) + 1e-12)
    mean = t + m1
    if cdf.size > 0:
        w = 0.0
        for i in range(opp_pmf.size):
            if opp_pmf[i] > 0.0:
                w += opp_pmf[i] * _phi((mean - (low + i)) / sd)
        return w, mean
    return _phi((mean - opp_mean) / math.sqrt(sd * sd + opp_sd * opp_sd)), mean


@njit(cache=True, nogil=True)
def win_turn(
    mask: int,
    up: int,
    armed: int,
    total: int,
    opp_mean: float,
    opp_sd: float,
    opp_pmf: FloatArray,
    opp_low: int,
    moments: FloatArray,
    last: FloatArray,
    rules: Any,
    roll_w: FloatArray,
    keep_w: FloatArray,
    best_keep: IntArray,
    best_box: IntArray,
    running_max: FloatArray,
    running_arg: IntArray,
) -> None:
    """Solves one turn for the chance of winning (with a tiny expected-score tie-break).

    The best opponent's final total O is normal (opp_mean, opp_sd) when `opp_pmf` is empty,
    else exactly P(O = opp_low + i) = opp_pmf[i]. `last[b, upper, armed]` is the exact
    distribution of the points to come with only box b open (`last_box_pmfs`).
    `rules` as the kernel takes them (`kernel_rules`). roll_w[n, r] / keep_w[n, k]: the value
    of holding roll r / keeping k with n rolls left; best_keep[n, r], best_box[r] as in
    `solver.TurnValues`.
    """
    config, five_face = rules[4], rules[3]
    cdf = np.empty(opp_pmf.size)
    below = 0.0
    for i in range(opp_pmf.size):
        cdf[i] = below + 0.5 * opp_pmf[i]
        below += opp_pmf[i]
    open_boxes = ~mask & 0x1FFF
    allowed = open_boxes
    if config[5] != 0 and (open_boxes & 0x3F) != 0:
        allowed = open_boxes & 0x3F
    for r in range(252):
        chosen = allowed
        if five_face[r] > 0 and (mask >> 11) & 1:
            chosen, _joker, _extra = s._joker_boxes(
                five_face[r], open_boxes, allowed, armed, config
            )
        best = -1.0e300
        best_b = -1
        for b in range(13):
            if not (chosen >> b) & 1:
                continue
            p, nm, nu, na = outcome(b, r, mask, up, armed, rules)
            w, mean = _end_chance(
                total + p, nm, nu, na, opp_mean, opp_sd, opp_pmf, cdf, opp_low, moments, last
            )
            value = w + TIE_BREAK * mean
            if value > best:
                best = value
                best_b = b
        roll_w[0, r] = best
        best_box[r] = best_b
    for n in range(1, roll_w.shape[0]):
        s._reroll(
            roll_w[n - 1], keep_w[n], running_max, running_arg, roll_w[n], best_keep[n],
            s.ADD_FACE, s.REMOVE_FACE,
        )  # fmt: skip


def last_box_pmfs(moments: MomentTable) -> FloatArray:
    """pmf[b, upper, armed, x]: the exact distribution of the points to come when only box b
    is open (zero-padded to one width; states no game reaches are left at zero)."""
    return _last_box_pmfs(moments)


@lru_cache(maxsize=2)
def _last_box_pmfs(moments: MomentTable) -> FloatArray:
    cap = moments.table.upper_cap
    found = {}
    for b in range(13):
        mask = s.FULL_MASK ^ (1 << b)
        for up in range(cap + 1):
            for armed in (0, 1):
                if np.isnan(moments.table.values[mask, up, armed]):
                    continue
                found[b, up, armed] = exact_pmf(moments, mask, up, bool(armed))
    width = max(pmf.size for pmf in found.values())
    table = np.zeros((13, cap + 1, 2, width))
    for (b, up, armed), pmf in found.items():
        table[b, up, armed, : pmf.size] = pmf
    table.setflags(write=False)
    return table


class MasterBot(Bot):
    """A CPU player that maximises its chance of winning (see the module docstring).

    It needs to see the table: the service calls `observe(state)` before every decision. Until
    it has seen other seats (or solo, or with several columns) it plays like the expert.
    Arguments as for `Bot`; `moments` skips loading the moment table.
    """

    def __init__(
        self,
        rules: RuleSet,
        rng: random.Random | None = None,
        *,
        moments: MomentTable | None = None,
        **options: Any,
    ) -> None:
        super().__init__(Level.MASTER, rules, rng, **options)
        self._moments = moments
        self._opponent: tuple[float, float, FloatArray, int] | None = None

    def observe(self, state: GameState) -> None:
        """Takes note of the other seats: the distribution of the best opponent's final total
        (exact when every other card has at most one open box, else a fitted normal)."""
        self._opponent = None
        if len(state.cards) < 2 or not has_win_chances(state.rules):
            return  # solo, or rules without winning chances (Yatzy): plays like the expert
        if state.rules.columns != 1 or state.is_game_over:
            return
        if state.game_number < state.settings.match_length:
            return  # games still to come: their spread swamps this one's, play for points
        from fivedice.strategy.chances import seat_outlooks

        moments = self.moments_for(state.rules)
        seat = state.current_seat
        others = [o for i, o in enumerate(seat_outlooks(state, moments)) if i != seat]
        low = min(o.offset for o in others)
        high = max(o.offset + o.pmf.size for o in others)
        cdf = np.ones(high - low)
        for o in others:
            grid = np.zeros(high - low)
            grid[o.offset - low : o.offset - low + o.pmf.size] = o.pmf
            cdf *= np.cumsum(grid)
        pmf = np.diff(cdf, prepend=0.0)
        xs = np.arange(low, high)
        mean = float(xs @ pmf)
        sd = math.sqrt(max(float((xs - mean) ** 2 @ pmf), 1e-12))
        exact = all(
            len(card.columns[0].open_boxes) <= 1 for i, card in enumerate(state.cards) if i != seat
        )
        # Master's own card counts this game only: measure the opponents from its match total.
        done = sum(game.totals[seat] for game in state.finished_games)
        self._opponent = (mean - done, sd, pmf if exact else np.empty(0), low - done)

    def moments_for(self, rules: RuleSet) -> MomentTable:
        if self._moments is None or self._moments.rules != rules:
            self._moments = moments_of(rules)
        return self._moments

    def _turn(self, rules: RuleSet, card: ScoreCard, levels: int) -> tuple[IntArray, IntArray]:
        assert self._opponent is not None
        moments = self.moments_for(rules)
        mask, up, armed = s.column_state(rules, card.columns[0])
        arrays = s._rule_arrays(rules)
        best_keep = np.full((levels, 252), -1, dtype=np.int64)
        best_box = np.empty(252, dtype=np.int64)
        mean, sd, pmf, low = self._opponent
        win_turn(
            mask, min(up, moments.table.upper_cap), int(armed), card.total(rules), mean, sd,
            pmf, low, moments.moments, last_box_pmfs(moments), arrays.kernel_rules,
            np.empty((levels, 252)), np.empty((levels, 462)), best_keep, best_box,
            np.empty(462), np.empty(462, dtype=np.int64),
        )  # fmt: skip
        return best_keep, best_box

    def _plays_to_win(self, rules: RuleSet, card: ScoreCard) -> bool:
        return self._opponent is not None and rules.columns == 1 and rules == self.rules

    def choose_keep(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], rolls_left: int
    ) -> tuple[int, ...]:
        """The dice to hold before the next roll: the keep with the best chance of winning."""
        if not self._plays_to_win(rules, card):
            return super().choose_keep(rules, card, dice, rolls_left)
        roll = check_roll(dice)
        if card.is_complete or rolls_left < 1:
            return super().choose_keep(rules, card, dice, rolls_left)  # its errors
        best_keep, _ = self._turn(rules, card, rolls_left + 1)
        return ALL_KEEPS[int(best_keep[rolls_left, s.ROLL_INDEX[roll]])]

    def choose_box(self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...]) -> Placement:
        """Where to score: the box with the best chance of winning."""
        if not self._plays_to_win(rules, card) or card.is_complete:
            return super().choose_box(rules, card, dice)
        roll = check_roll(dice)
        _, best_box = self._turn(rules, card, 1)
        category = CATEGORIES[int(best_box[s.ROLL_INDEX[roll]])]
        for placement in card.placements(rules, roll):
            if placement.category == category:
                return placement
        raise FivediceError(f"no legal box {category.key} for {roll}")  # pragma: no cover


# ---------------------------------------------------------------------------------------------
# Two-seat games in numba (the benchmark)


class Duels(NamedTuple):
    """Two-seat games played by `play_duels`.

    Attributes:
        records: (games, 26, 2, 4) before each turn, both seats' (mask, upper, armed, total).
        finals: (games, 2) the final totals.
        firsts: (games,) the seat that started.
        stats: (games, 2, 3) per seat: upper bonus earned (0/1), Yahtzee box scored (0/1),
            extra Yahtzees.
    """

    records: IntArray
    finals: IntArray
    firsts: IntArray
    stats: IntArray


@njit(cache=True, nogil=True)
def _roll_from(keep: int, rng: npt.NDArray[np.uint64]) -> int:
    """Rolls the dice not kept: returns the index in ALL_ROLLS of the five dice."""
    k = keep
    while k < 210:
        k = s.ADD_FACE[k, int(next_random(rng) * 6.0)]
    return k - 210


@njit(cache=True, nogil=True)
def _play_duel(
    seed: int, first: int, duel: Any, record: IntArray, final: IntArray, stats: IntArray
) -> None:
    """One two-seat game; `duel` is what every game shares: (kinds, values, moments, last,
    rules, levels, master_from) as `_play_duels` takes them."""
    kinds, values, moments, last, rules, levels, master_from = duel
    score, joker_score, arms, five_face, config = rules
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    state = np.zeros((2, 4), dtype=np.int64)  # mask, upper, armed, total
    roll_v = np.empty((levels, 252))
    keep_v = np.empty((levels, 462))
    best_keep = np.empty((levels, 252), dtype=np.int64)
    best_box = np.empty(252, dtype=np.int64)
    running_max = np.empty(462)
    running_arg = np.empty(462, dtype=np.int64)
    empty_keep = EMPTY_KEEP
    opp_buf = np.empty(max(last.shape[3], 1))
    step = 0
    for _round in range(13):
        for turn in range(2):
            seat = (first + turn) % 2
            other = 1 - seat
            for i in range(2):
                for j in range(4):
                    record[step, i, j] = state[i, j]
            step += 1
            mask, up, armed, total = state[seat, 0], state[seat, 1], state[seat, 2], state[seat, 3]
            filled = 0
            for b in range(13):
                filled += (mask >> b) & 1
            if kinds[seat] == 1 and filled >= master_from:
                om, ou, oa, ot = state[other, 0], state[other, 1], state[other, 2], state[other, 3]
                m1 = moments[om, ou, oa, 0]
                opp_mean = ot + m1
                opp_sd = math.sqrt(max(moments[om, ou, oa, 1] - m1 * m1, 1e-12))
                size = 0
                if om == 0x1FFF:
                    opp_buf[0] = 1.0
                    size = 1
                elif (om | (om + 1)) == 0x1FFF:
                    b = 0
                    while (om >> b) & 1:
                        b += 1
                    size = last.shape[3]
                    opp_buf[:size] = last[b, ou, oa]
                win_turn(
                    mask, up, armed, total, opp_mean, opp_sd, opp_buf[:size], ot, moments,
                    last, rules, roll_v, keep_v, best_keep, best_box, running_max, running_arg,
                )  # fmt: skip
            else:
                s._turn(
                    mask, up, armed, values, score, joker_score, arms, five_face, config,
                    s.ADD_FACE, s.REMOVE_FACE, s.ROLL_PROBABILITY, roll_v, keep_v, best_keep,
                    best_box, running_max, running_arg, np.empty(186), np.empty(16),
                )  # fmt: skip
            r = _roll_from(empty_keep, rng)
            for n in range(levels - 1, 0, -1):
                keep = best_keep[n, r]
                if keep == 210 + r:
                    break
                r = _roll_from(keep, rng)
            b = best_box[r]
            p, nm, nu, na = outcome(b, r, mask, up, armed, rules)
            if b == 11 and score[11, r] > 0:
                stats[seat, 1] = 1
            if five_face[r] > 0 and (mask >> 11) & 1 and armed == 1 and config[3] > 0:
                stats[seat, 2] += 1
            state[seat, 0] = nm
            state[seat, 1] = nu
            state[seat, 2] = na
            state[seat, 3] = total + p
    for i in range(2):
        final[i] = state[i, 3]
        if config[2] > 0 and state[i, 1] >= config[1]:
            stats[i, 0] = 1


@njit(cache=True, parallel=True)
def _play_duels(
    seeds: npt.NDArray[np.uint64],
    kinds: IntArray,
    firsts: IntArray,
    values: FloatArray,
    moments: FloatArray,
    last: FloatArray,
    rules: Any,
    levels: int,
    master_from: int,
    records: IntArray,
    finals: IntArray,
    stats: IntArray,
) -> None:
    for g in prange(seeds.shape[0]):
        # Built in the loop: a parallel loop cannot take in a tuple that holds a tuple (rules).
        duel = (kinds, values, moments, last, rules, levels, master_from)
        _play_duel(seeds[g], firsts[g], duel, records[g], finals[g], stats[g])


def play_duels(
    moments: MomentTable,
    kinds: tuple[str, str],
    games: int,
    *,
    seed: int = 0,
    master_from: int = 0,
) -> Duels:
    """Plays two-seat games; the seats alternate who starts (game g: seat g % 2 first).

    Args:
        moments: the moment table of the (one-column) rules.
        kinds: each seat's level, "expert" or "master".
        games: how many games.
        seed: the dice seed (game g's dice come from (seed, g)).
        master_from: master plays like the expert until this many of its boxes are filled.

    Raises:
        FivediceError: a seat is neither expert nor master, or there are not two.
    """
    codes = {"expert": 0, "master": 1}
    if len(kinds) != 2 or any(kind not in codes for kind in kinds):
        raise FivediceError(
            N_("a simulated game against master seats two players, expert or master")
        )
    rules = moments.rules
    arrays = s._rule_arrays(rules)
    seeds = np.ascontiguousarray(game_seeds(seed, games)[:, 0])
    firsts = np.arange(games, dtype=np.int64) % 2
    records = np.zeros((games, 26, 2, 4), dtype=np.int64)
    finals = np.zeros((games, 2), dtype=np.int64)
    stats = np.zeros((games, 2, 3), dtype=np.int64)
    _play_duels(
        seeds, np.array([codes[k] for k in kinds], dtype=np.int64), firsts, moments.values,
        moments.moments, last_box_pmfs(moments), arrays.kernel_rules, rules.rolls_per_turn,
        master_from, records, finals, stats,
    )  # fmt: skip
    return Duels(records, finals, firsts, stats)
