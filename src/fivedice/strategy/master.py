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

`play_table` plays games of 2-8 seats (expert or master in each) entirely in numba, for the
simulator and the benchmarks, each seat with dice of its own (so that paired games can swap
the players' seats exactly), and records every seat's position before every turn (the
calibration of the winning chances uses them).
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from fivedice.core.card import Placement, ScoreCard
from fivedice.core.categories import Category
from fivedice.core.errors import N_, FivediceError
from fivedice.core.rules import RuleSet
from fivedice.core.scoring import scoring_roll
from fivedice.strategy import kernel
from fivedice.strategy import solver as s
from fivedice.strategy.bots import Bot, Level
from fivedice.strategy.limits import has_table_games, has_win_chances
from fivedice.strategy.moments import (
    MomentTable,
    dice_arrays,
    exact_pmf,
    moments_of,
    outcome,
)
from fivedice.strategy.playout import GOLDEN, game_seeds, mix64, next_random
from fivedice.strategy.rule_arrays import (
    CFG_BOXES,
    CFG_STRIDE,
    CFG_YAHTZEE,
    CFG_YAHTZEE_BONUS,
    rule_arrays,
)
from fivedice.strategy.thresholds import ThresholdTable, default_top, thresholds_if_ready

if TYPE_CHECKING:
    from fivedice.core.game import GameState

__all__ = [
    "PLAYS_FROM_THRESHOLDS",
    "SEAT_KINDS",
    "MasterBot",
    "TableGames",
    "play_table",
    "seat_roll",
    "seatings",
    "thresholds_at_hand",
    "win_turn",
]

FloatArray = npt.NDArray[np.floating]
IntArray = npt.NDArray[np.integer]

EMPTY_KEEP = s.KEEP_INDEX[()]

QUANTILES = 32
"""Points at which `threshold_turn` takes the opponent's normal."""

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
    full: int,
) -> tuple[float, float]:
    """The chance of winning, and the expected final total, with t points after this turn
    and the card in state (nm, nu, na); `full` is the mask of a complete card."""
    if nm == full:
        return _opponent_below(t, opp_mean, opp_sd, cdf, low), float(t)
    m1 = moments[nm, nu, na, 0]
    if (nm | (nm + 1)) == full:  # one box left: its distribution is known exactly
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
def earlier_rolls(
    roll_w: FloatArray,
    keep_w: FloatArray,
    running_max: FloatArray,
    running_arg: IntArray,
    best_keep: IntArray,
    dice: Any = None,
) -> None:
    """The rest of a turn from its end: with `roll_w[0]` (each roll's value with no roll left)
    filled, each earlier level n's roll values `roll_w[n]`, keep values and best keeps, one
    `kernel.reroll` a level (the end-of-turn valuations of master and the clairvoyant).
    `dice`: the rules' dice tables (`moments.dice_arrays`; None: five plain dice)."""
    if dice is None:
        add_face, remove_face = s.ADD_FACE, s.REMOVE_FACE
    else:
        add_face, remove_face = dice[0], dice[1]
    for n in range(1, roll_w.shape[0]):
        kernel.reroll(
            roll_w[n - 1], keep_w[n], running_max, running_arg, roll_w[n], best_keep[n],
            add_face, remove_face,
        )  # fmt: skip


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
    dice: Any = None,
) -> None:
    """Solves one turn for the chance of winning (with a tiny expected-score tie-break).

    The best opponent's final total O is normal (opp_mean, opp_sd) when `opp_pmf` is empty,
    else exactly P(O = opp_low + i) = opp_pmf[i]. `last[b, upper, armed]` is the exact
    distribution of the points to come with only box b open (`last_box_pmfs`).
    `rules` as the kernel takes them (`kernel_rules`). roll_w[n, r] / keep_w[n, k]: the value
    of holding roll r / keeping k with n rolls left; best_keep[n, r], best_box[r] as in
    `solver.TurnValues`. The rolls and keeps are those of the rules' dice tables (`dice`, as
    `moments.dice_arrays`; None: five plain dice): the arrays are sized for them.
    """
    config = rules[4]
    boxes = config[CFG_BOXES]
    full = (1 << boxes) - 1
    cdf = np.empty(opp_pmf.size)
    below = 0.0
    for i in range(opp_pmf.size):
        cdf[i] = below + 0.5 * opp_pmf[i]
        below += opp_pmf[i]
    open_boxes, allowed = kernel.open_and_allowed(mask, config)
    for r in range(best_box.shape[0]):
        chosen, _joker, _extra = kernel.boxes_of_roll(r, mask, open_boxes, allowed, armed, rules)
        best = -1.0e300
        best_b = -1
        for b in range(boxes):
            if not (chosen >> b) & 1:
                continue
            p, nm, nu, na = outcome(b, r, mask, up, armed, rules)
            w, mean = _end_chance(
                total + p, nm, nu, na, opp_mean, opp_sd, opp_pmf, cdf, opp_low, moments, last,
                full,
            )  # fmt: skip
            value = w + TIE_BREAK * mean
            if value > best:
                best = value
                best_b = b
        roll_w[0, r] = best
        best_box[r] = best_b
    earlier_rolls(roll_w, keep_w, running_max, running_arg, best_keep, dice)


@njit(cache=True, nogil=True)
def threshold_turn(
    mask: int,
    up: int,
    armed: int,
    total: int,
    opp_points: FloatArray,
    opp_weights: FloatArray,
    moments: FloatArray,
    row_of: IntArray,
    chances: Any,
    rules: Any,
    roll_w: FloatArray,
    keep_w: FloatArray,
    best_keep: IntArray,
    best_box: IntArray,
    running_max: FloatArray,
    running_arg: IntArray,
    dice: Any = None,
) -> None:
    """Like `win_turn`, a turn's end valued from the threshold tables instead of normals: with
    the best opponent's final total O = opp_points[k] with weight opp_weights[k], a box that
    leaves T points and state s' is worth Σ_k w_k·½·(P*(s', O_k − T + 1) + P*(s', O_k − T)),
    P*(s', t) the best chance of t points more (`thresholds`; 0 beyond the table's top)."""
    config = rules[4]
    boxes = config[CFG_BOXES]
    top = chances.shape[1] - 1
    open_boxes, allowed = kernel.open_and_allowed(mask, config)
    for r in range(best_box.shape[0]):
        chosen, _joker, _extra = kernel.boxes_of_roll(r, mask, open_boxes, allowed, armed, rules)
        best = -1.0e300
        best_b = -1
        for b in range(boxes):
            if not (chosen >> b) & 1:
                continue
            p, nm, nu, na = outcome(b, r, mask, up, armed, rules)
            row = row_of[nm, nu, na]
            t = total + p
            w = 0.0
            for k in range(opp_points.size):
                tie = math.floor(opp_points[k] + 0.5) - t  # the nearest whole total
                both = 0.0
                for need in (tie, tie + 1):
                    if need <= 0:
                        both += 1.0
                    elif need <= top:
                        both += chances[row, need]
                w += opp_weights[k] * 0.5 * both
            value = w + TIE_BREAK * (t + moments[nm, nu, na, 0])
            if value > best:
                best = value
                best_b = b
        roll_w[0, r] = best
        best_box[r] = best_b
    earlier_rolls(roll_w, keep_w, running_max, running_arg, best_keep, dice)


def last_box_pmfs(moments: MomentTable) -> FloatArray:
    """pmf[b, upper, armed, x]: the exact distribution of the points to come when only box b
    is open (zero-padded to one width; states no game reaches are left at zero)."""
    return _last_box_pmfs(moments)


@lru_cache(maxsize=2)
def _last_box_pmfs(moments: MomentTable) -> FloatArray:
    cap = moments.table.upper_cap
    boxes = len(moments.rules.boxes)
    found = {}
    for b in range(boxes):
        mask = moments.table.full_mask ^ (1 << b)
        for up in range(cap + 1):
            for armed in (0, 1):
                if np.isnan(moments.table.values[mask, up, armed]):
                    continue
                found[b, up, armed] = exact_pmf(moments, mask, up, bool(armed))
    width = max(pmf.size for pmf in found.values())
    table = np.zeros((boxes, cap + 1, 2, width))
    for (b, up, armed), pmf in found.items():
        table[b, up, armed, : pmf.size] = pmf
    table.setflags(write=False)
    return table


PLAYS_FROM_THRESHOLDS = True
"""Whether master values a turn's end from the threshold tables (`threshold_turn`) when the
rules' table is at hand: the stronger policy in paired games (benchmarks/README.md, "Playing
to win"). While the table is being built (minutes, in the background), the normal model."""


def thresholds_at_hand(rules: RuleSet) -> ThresholdTable | None:
    """The rules' threshold table (every target the coach for a goal holds) if it is at hand;
    else None, and it is built in the background (`thresholds.thresholds_if_ready`: a game
    never waits for it). None too when a server refuses the build (no permit left)."""
    try:
        return thresholds_if_ready(rules, default_top(rules))
    except FivediceError:  # SolverBusyError: this client may not start a build now
        return None


class MasterBot(Bot):
    """A CPU player that maximises its chance of winning (see the module docstring).

    It needs to see the table: the service calls `observe(state)` before every decision. Until
    it has seen other seats (or solo, or with several columns) it plays like the expert.
    With the rules' threshold table at hand it values a turn's end from it (`threshold_turn`,
    `PLAYS_FROM_THRESHOLDS`), else from normals (`win_turn`).
    Arguments as for `Bot`; `moments` skips loading the moment table; `thresholds` gives the
    threshold table to play from (None: `thresholds_at_hand`; False: never).
    """

    def __init__(
        self,
        rules: RuleSet,
        rng: random.Random | None = None,
        *,
        moments: MomentTable | None = None,
        thresholds: ThresholdTable | bool | None = None,
        **options: Any,
    ) -> None:
        super().__init__(Level.MASTER, rules, rng, **options)
        self._moments = moments
        self._thresholds = thresholds
        self._opponent: tuple[float, float, FloatArray, int] | None = None
        self._others_at_table = False  # a served hand that wins at once would win (observe)

    def observe(self, state: GameState) -> None:
        """Takes note of the other seats: the distribution of the best opponent's final total
        (exact when every other card has at most one open box, else a fitted normal)."""
        self._opponent = None
        self._others_at_table = len(state.cards) > 1
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
        pmf = np.empty(cdf.size)
        below = 0.0
        for i in range(cdf.size):
            pmf[i] = cdf[i] - below
            below = cdf[i]
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
        arrays = rule_arrays(rules)
        dice = dice_arrays(arrays)
        rolls, keeps = len(arrays.dice.rolls), len(arrays.dice.keeps)
        best_keep = np.full((levels, rolls), -1, dtype=np.int64)
        best_box = np.empty(rolls, dtype=np.int64)
        scratch = (
            np.empty((levels, rolls)), np.empty((levels, keeps)), best_keep, best_box,
            np.empty(keeps), np.empty(keeps, dtype=np.int64), dice,
        )  # fmt: skip
        mean, sd, pmf, low = self._opponent
        up = min(up, moments.table.upper_cap)
        thresholds = self.thresholds_for(rules)
        if thresholds is not None:
            if pmf.size > 0:
                points, weights = np.arange(pmf.size) + float(low), pmf
            else:
                points = mean + sd * normal_quantiles(QUANTILES)
                weights = np.full(QUANTILES, 1.0 / QUANTILES)
            threshold_turn(
                mask, up, int(armed), card.total(rules), points, weights, moments.moments,
                thresholds.row_of, np.asarray(thresholds.chances), arrays.kernel_rules, *scratch,
            )  # fmt: skip
            return best_keep, best_box
        win_turn(
            mask, up, int(armed), card.total(rules), mean, sd, pmf, low, moments.moments,
            last_box_pmfs(moments), arrays.kernel_rules, *scratch,
        )  # fmt: skip
        return best_keep, best_box

    def thresholds_for(self, rules: RuleSet) -> ThresholdTable | None:
        """The threshold table master plays from now, if any (see the class docstring)."""
        given = self._thresholds
        if isinstance(given, ThresholdTable):
            return given if given.rules == rules else None
        if given is False or not PLAYS_FROM_THRESHOLDS:
            return None
        return thresholds_at_hand(rules)

    def _winning_box(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], rolls_left: int
    ) -> Category | None:
        """The open box that wins the game at once with these dice (`Box.served_wins`: a
        served Generala, others at the table), if any: a certain win, whatever the points.

        Master's chances (`strategy.chances`) are not built for rules with served points, so
        beyond this master plays those rules as the expert (the most points)."""
        if not self._others_at_table or rolls_left != rules.rolls_per_turn - 1:
            return None
        if rules.columns != 1 or card.is_complete:
            return None
        served = card.placements(rules, scoring_roll(rules, dice), True)
        return next(
            (p.category for p in served if p.category.served_wins and p.box_points > 0), None
        )

    def _plays_to_win(self, rules: RuleSet, card: ScoreCard) -> bool:
        return self._opponent is not None and rules.columns == 1 and rules == self.rules

    def choose_keep(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], rolls_left: int
    ) -> tuple[int, ...]:
        """The dice to hold before the next roll: the keep with the best chance of winning."""
        if self._winning_box(rules, card, dice, rolls_left) is not None:
            return tuple(sorted(dice))  # every die kept: scored now, the game won
        if not self._plays_to_win(rules, card):
            return super().choose_keep(rules, card, dice, rolls_left)
        tables = rule_arrays(rules).dice
        roll = tables.roll_index[scoring_roll(rules, dice)]
        if card.is_complete or rolls_left < 1:
            return super().choose_keep(rules, card, dice, rolls_left)  # its errors
        best_keep, _ = self._turn(rules, card, rolls_left + 1)
        return tables.keeps[int(best_keep[rolls_left, roll])]

    def choose_box(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], *, served: bool = False
    ) -> Placement:
        """Where to score: the box with the best chance of winning."""
        if served:
            box = self._winning_box(rules, card, dice, rules.rolls_per_turn - 1)
            if box is not None:
                legal = card.placements(rules, scoring_roll(rules, dice), served)
                return next(placement for placement in legal if placement.category == box)
        if not self._plays_to_win(rules, card) or card.is_complete:
            return super().choose_box(rules, card, dice, served=served)
        roll = scoring_roll(rules, dice)
        _, best_box = self._turn(rules, card, 1)
        box = rules.boxes[int(best_box[rule_arrays(rules).dice.roll_index[roll]])]  # card order
        for placement in card.placements(rules, roll):
            if placement.category == box:
                return placement
        raise FivediceError(f"no legal box {box.key} for {roll}")  # pragma: no cover


# ---------------------------------------------------------------------------------------------
# Games at one table in numba (the simulator and the benchmarks)
#
# The dice of a seat. Every seat of a game draws from its own dice *stream* (a 64-bit number).
# The faces of a roll depend only on (stream, the seat's own turn 0, 1, …, the roll 0-2 of the
# turn): they are drawn from a splitmix64 generator seeded from those three, and rolling k dice
# (the ones not kept) takes the first k faces. So a seat's dice never depend on what the other
# seats do, nor on the order in which the seats play; two players who keep the same dice from
# the same stream see exactly the same rolls, and where their keeps differ they still share the
# first faces of every roll. Paired games play one set of streams once per rotation of the
# players round the seats: with two players, game 2k and game 2k + 1 have the same two streams
# and the players swapped (each player takes the other's place in the turn order *and* its
# stream), so luck cancels out of the pair.

SEAT_KINDS = {"expert": 0, "master": 1}
"""The levels `play_table` seats, and their codes in the numba kernels."""
MAX_SEATS = 8


class TableGames(NamedTuple):
    """Games played by `play_table`; every per-seat array is indexed by *player* (the order of
    the `kinds` given), whatever seat the player had in each game.

    Attributes:
        kinds: each player's level.
        records: (games, boxes × players, players, 4) before each turn, in the order of play,
            every player's (mask, upper, armed, total).
        finals: (games, players) the final totals.
        positions: (games, players) each player's place in the turn order (0 starts).
        streams: (games, players) the dice stream each player drew from.
        stats: (games, players, 3) upper bonus earned (0/1), Yahtzee box scored (0/1), extra
            Yahtzees.
        paired: whether every set of streams was played once per rotation of the players
            (games g·n … g·n + n − 1 share theirs, n players).
    """

    kinds: tuple[str, ...]
    records: IntArray
    finals: IntArray
    positions: IntArray
    streams: npt.NDArray[np.uint64]
    stats: IntArray
    paired: bool


@njit(cache=True, nogil=True)
def seat_roll(
    keep: int, stream: np.uint64, turn: int, roll: int, rng: npt.NDArray[np.uint64]
) -> int:
    """The roll (index in ALL_ROLLS) a seat gets holding `keep` (index in ALL_KEEPS) on roll
    `roll` (0 = the turn's first) of its own turn `turn`, from dice stream `stream`.

    The dice not kept take the first faces of the five drawn for (stream, turn, roll): the
    result depends on nothing else (`rng` is scratch, one uint64)."""
    rng[0] = mix64(np.uint64(stream) + np.uint64(turn * 4 + roll + 1) * np.uint64(GOLDEN))
    k = keep
    while k < 210:
        k = s.ADD_FACE[k, int(next_random(rng) * 6.0)]
    return k - 210


@njit(cache=True, nogil=True)
def _best_opponent(
    state: IntArray, mover: int, moments: FloatArray, last: FloatArray
) -> tuple[float, float, FloatArray, int]:
    """The best other seat's final total as `win_turn` takes it: (mean, sd, pmf, low), the pmf
    exact when every other card has at most one open box, else empty (a normal: one opponent's
    own, several opponents' maximum computed on a grid of normals, then taken as normal)."""
    seats = state.shape[0]
    full = (1 << last.shape[0]) - 1
    exact = True
    for o in range(seats):
        om = state[o, 0]
        if o != mover and om != full and (om | (om + 1)) != full:
            exact = False
    if exact:
        low = 1 << 30
        high = -(1 << 30)
        for o in range(seats):
            if o != mover:
                size = 1 if state[o, 0] == full else last.shape[3]
                low = min(low, state[o, 3])
                high = max(high, state[o, 3] + size)
        cdf = np.ones(high - low)
        for o in range(seats):
            if o == mover:
                continue
            om, ou, oa, ot = state[o, 0], state[o, 1], state[o, 2], state[o, 3]
            grid = np.zeros(high - low)
            if om == full:
                grid[ot - low] = 1.0
            else:
                b = 0
                while (om >> b) & 1:
                    b += 1
                pmf = last[b, ou, oa]
                grid[ot - low : ot - low + pmf.size] = pmf
            cdf *= np.cumsum(grid)
        pmf = np.empty(cdf.size)
        below = 0.0
        for i in range(cdf.size):
            pmf[i] = cdf[i] - below
            below = cdf[i]
        mean = 0.0
        for i in range(pmf.size):
            mean += (low + i) * pmf[i]
        var = 0.0
        for i in range(pmf.size):
            var += (low + i - mean) ** 2 * pmf[i]
        return mean, math.sqrt(max(var, 1e-12)), pmf, low
    means = np.empty(seats)
    sds = np.empty(seats)
    for o in range(seats):
        om, ou, oa, ot = state[o, 0], state[o, 1], state[o, 2], state[o, 3]
        m1 = moments[om, ou, oa, 0]
        means[o] = ot + m1
        sds[o] = math.sqrt(max(moments[om, ou, oa, 1] - m1 * m1, 1e-12))
    if seats == 2:
        o = 1 - mover
        return means[o], sds[o], np.empty(0), 0
    low_f = 1e300
    high_f = -1e300
    for o in range(seats):
        if o != mover:
            low_f = min(low_f, means[o] - 8.0 * sds[o])
            high_f = max(high_f, means[o] + 8.0 * sds[o])
    low = math.floor(low_f)
    width = math.ceil(high_f) - low + 1
    cdf = np.ones(width)
    for o in range(seats):
        if o != mover:
            for i in range(width):
                cdf[i] *= _phi((low + i + 0.5 - means[o]) / sds[o])
    mean = 0.0
    second = 0.0
    below = 0.0
    for i in range(width):
        p = cdf[i] - below
        below = cdf[i]
        mean += (low + i) * p
        second += (low + i) ** 2 * p
    return mean, math.sqrt(max(second - mean * mean, 1e-12)), np.empty(0), 0


@njit(cache=True, nogil=True)
def _play_game(
    streams: npt.NDArray[np.uint64],
    kinds: IntArray,
    shared: Any,
    record: IntArray,
    final: IntArray,
    stats: IntArray,
) -> None:
    """One game, seats in turn order 0, 1, …: seat p draws from streams[p] and plays level
    kinds[p]. `shared` is (values, moments, last, rules, levels, master_from, row_of,
    chances, quantiles, threshold_from) as
    `_play_tables` takes them; record, final and stats are indexed by seat."""
    values, moments, last, rules, levels, master_from, row_of, chances, quantiles, t_from = shared
    score, joker_score, arms, five_face, config = rules
    boxes = config[CFG_BOXES]
    yahtzee = config[CFG_YAHTZEE]
    seats = streams.shape[0]
    rng = np.empty(1, dtype=np.uint64)
    state = np.zeros((seats, 4), dtype=np.int64)  # mask, upper, armed, total
    roll_v = np.empty((levels, 252))
    keep_v = np.empty((levels, 462))
    best_keep = np.empty((levels, 252), dtype=np.int64)
    best_box = np.empty(252, dtype=np.int64)
    running_max = np.empty(462)
    running_arg = np.empty(462, dtype=np.int64)
    upper_value = np.empty(kernel.upper_value_size(config[CFG_STRIDE]))
    lower_value = np.empty(boxes + 1)
    step = 0
    for turn in range(boxes):
        for seat in range(seats):
            record[step] = state
            step += 1
            mask, up, armed, total = state[seat, 0], state[seat, 1], state[seat, 2], state[seat, 3]
            if kinds[seat] == 1 and turn >= master_from:
                opp_mean, opp_sd, opp_pmf, opp_low = _best_opponent(state, seat, moments, last)
                if turn >= t_from:
                    if opp_pmf.size > 0:
                        opp_points = np.arange(opp_pmf.size) + float(opp_low)
                        opp_weights = opp_pmf
                    else:
                        opp_points = opp_mean + opp_sd * quantiles
                        opp_weights = np.full(quantiles.size, 1.0 / quantiles.size)
                    threshold_turn(
                        mask, up, armed, total, opp_points, opp_weights, moments, row_of,
                        chances, rules, roll_v, keep_v, best_keep, best_box, running_max,
                        running_arg,
                    )  # fmt: skip
                else:
                    win_turn(
                        mask, up, armed, total, opp_mean, opp_sd, opp_pmf, opp_low, moments,
                        last, rules, roll_v, keep_v, best_keep, best_box, running_max,
                        running_arg,
                    )  # fmt: skip
            else:
                kernel.turn(
                    mask, up, armed, values, score, joker_score, arms, five_face, config,
                    s.ADD_FACE, s.REMOVE_FACE, s.ROLL_PROBABILITY, roll_v, keep_v, best_keep,
                    best_box, running_max, running_arg, upper_value, lower_value,
                )  # fmt: skip
            r = seat_roll(EMPTY_KEEP, streams[seat], turn, 0, rng)
            for n in range(levels - 1, 0, -1):
                keep = best_keep[n, r]
                if keep == 210 + r:
                    break
                r = seat_roll(keep, streams[seat], turn, levels - n, rng)
            b = best_box[r]
            p, nm, nu, na = outcome(b, r, mask, up, armed, rules)
            if b == yahtzee and score[b, r] > 0:
                stats[seat, 1] = 1
            if (
                five_face[r] > 0
                and yahtzee >= 0
                and (mask >> yahtzee) & 1
                and armed == 1
                and (config[CFG_YAHTZEE_BONUS] > 0)
            ):
                stats[seat, 2] += 1
            state[seat, 0] = nm
            state[seat, 1] = nu
            state[seat, 2] = na
            state[seat, 3] = total + p
    for i in range(seats):
        final[i] = state[i, 3]
        if config[2] > 0 and state[i, 1] >= config[1]:
            stats[i, 0] = 1


@njit(cache=True, parallel=True)
def _play_tables(
    streams: npt.NDArray[np.uint64],
    kinds: IntArray,
    values: FloatArray,
    moments: FloatArray,
    last: FloatArray,
    rules: Any,
    levels: int,
    master_from: int,
    row_of: IntArray,
    chances: Any,
    quantiles: FloatArray,
    threshold_from: int,
    records: IntArray,
    finals: IntArray,
    stats: IntArray,
) -> None:
    for g in prange(streams.shape[0]):
        # Built in the loop: a parallel loop cannot take in a tuple that holds a tuple (rules).
        shared = (
            values, moments, last, rules, levels, master_from, row_of, chances, quantiles,
            threshold_from,
        )  # fmt: skip
        _play_game(streams[g], kinds[g], shared, records[g], finals[g], stats[g])


def seatings(
    players: int, games: int, seed: int, *, paired: bool
) -> tuple[IntArray, npt.NDArray[np.uint64]]:
    """Who sits where and with which dice: (positions, streams), both (games, players) and
    indexed by player.

    Game g rotates the players by r = g mod players: player i takes seat (i + r) mod players
    (seat 0 starts). Paired, games g·n … g·n + n − 1 (n = players) share one set of n streams,
    one per seat, so each player plays every seat with its dice once; unpaired, every game has
    streams of its own. The streams come from (seed, number): the same seed gives the same games.

        >>> positions, streams = seatings(2, 4, 7, paired=True)
        >>> positions.tolist()
        [[0, 1], [1, 0], [0, 1], [1, 0]]
        >>> bool(streams[0, 0] == streams[1, 1] and streams[0, 1] == streams[1, 0])
        True
    """
    rotation = np.arange(games, dtype=np.int64) % players
    positions = (np.arange(players, dtype=np.int64)[None, :] + rotation[:, None]) % players
    group = np.arange(games, dtype=np.int64) // players if paired else np.arange(games)
    groups = int(group.max()) + 1 if games else 0
    seat_streams = game_seeds(seed, groups * players)[:, 0].reshape(groups, players)
    streams = seat_streams[group[:, None], positions]
    return positions, np.ascontiguousarray(streams)


def play_table(
    moments: MomentTable,
    kinds: tuple[str, ...],
    games: int,
    *,
    seed: int = 0,
    paired: bool = False,
    master_from: int = 0,
    thresholds: ThresholdTable | None = None,
    threshold_from: int = 0,
    quantiles: int = QUANTILES,
    spread: float = 1.0,
) -> TableGames:
    """Plays games of 2-8 seats, expert or master in each, one column (see `seatings` for who
    sits where, and the comment above `SEAT_KINDS` for the dice).

    Args:
        moments: the moment table of the (one-column) rules.
        kinds: each player's level, "expert" or "master".
        games: how many games (paired: a multiple of the number of players).
        seed: the dice seed.
        paired: play each set of dice streams once per rotation of the players.
        master_from: master plays like the expert in its first turns, until this turn (0, 1, …).
        thresholds: the rules' threshold table: from turn `threshold_from` on, master values
            a turn's end by it (`threshold_turn`; the opponent's normal taken at `quantiles`
            equally likely points) instead of by normals (`win_turn`).
        spread: scales the opponent's standard deviation in `threshold_turn` (below 1: master
            plays for a narrower band of the opponent's totals - the tables' chances assume it
            knows the total, which it learns only as the opponent plays); an exact opponent
            distribution (one box left) is never scaled.

    Raises:
        FivediceError: a player is neither expert nor master, fewer than 2 or more than 8
            players, or paired games not a multiple of the players.
        UnsupportedRulesError: rules not `limits.has_table_games` (the wild die).
    """
    players = len(kinds)
    if not 2 <= players <= MAX_SEATS or any(kind not in SEAT_KINDS for kind in kinds):
        raise FivediceError(
            N_("a simulated game with master seats 2 to {most} players, expert or master"),
            most=MAX_SEATS,
        )
    if paired and games % players:
        raise FivediceError(
            N_("paired games come in sets of {players}, one per seating: not {games}"),
            players=players,
            games=games,
        )
    rules = moments.rules
    if not has_table_games(rules):
        raise s.UnsupportedRulesError("games at a table are played with five plain dice only")
    arrays = rule_arrays(rules)
    positions, streams = seatings(players, games, seed, paired=paired)
    codes = np.array([SEAT_KINDS[kind] for kind in kinds], dtype=np.int64)
    seat_kinds = np.empty_like(positions)
    seat_streams = np.empty_like(streams)
    rows = np.arange(games)[:, None]
    seat_kinds[rows, positions] = codes[None, :]
    seat_streams[rows, positions] = streams
    row_of: IntArray
    chances: npt.NDArray[np.float32]
    if thresholds is None:
        row_of, chances = np.zeros((1, 1, 1), dtype=np.int64), np.zeros((1, 1), np.float32)
    else:
        row_of, chances = thresholds.row_of, np.asarray(thresholds.chances)
    records = np.zeros((games, arrays.boxes * players, players, 4), dtype=np.int64)
    finals = np.zeros((games, players), dtype=np.int64)
    stats = np.zeros((games, players, 3), dtype=np.int64)
    _play_tables(
        seat_streams, seat_kinds, moments.values, moments.moments, last_box_pmfs(moments),
        arrays.kernel_rules, rules.rolls_per_turn, master_from, row_of, chances,
        normal_quantiles(quantiles) * spread,
        threshold_from if thresholds is not None else 99, records, finals, stats,
    )  # fmt: skip
    return TableGames(
        kinds=tuple(kinds),
        records=_by_player(records, positions),
        finals=np.take_along_axis(finals, positions, axis=1),
        positions=positions,
        streams=streams,
        stats=np.take_along_axis(stats, positions[:, :, None], axis=1),
        paired=paired,
    )


def normal_quantiles(count: int) -> FloatArray:
    """`count` equally likely points of the standard normal (the midpoints' quantiles).

    >>> [round(float(z), 3) for z in normal_quantiles(3)]
    [-0.967, 0.0, 0.967]
    """
    unit = NormalDist()
    return np.array([unit.inv_cdf((k + 0.5) / count) for k in range(count)])


def _by_player(records: IntArray, positions: IntArray) -> IntArray:
    """records[g, step, seat] reindexed as [g, step, player]."""
    return np.take_along_axis(records, positions[:, None, :, None], axis=2)
