"""The clairvoyant ceiling: how often a player who knows its opponent's final total beats it.

No real player knows how the opponent's game will end; a player who does - and plays each of
its turns for the best chance of beating (½ for tying) exactly that total - wins more often
than any real player can, so its win rate against `expert` is a ceiling for `master`'s
(published for Scandinavian Yatzy: 55.3%).

Its turn is exact from the threshold tables (`thresholds`: P*(s, t), the best chance that
the points to come from state s reach t): a roll scored in a box for p points, leading to
state s', is worth ½·P*(s', O − T − p + 1) + ½·P*(s', O − T − p) (T its total before, O the
opponent's final total; beating needs one point more than tying), and the rolls and keeps
before it are the usual expectimax over the dice. Those two chances come from the best
policy for each target, so the value is an optimistic guide; the *measured* rate is what the
player really achieves (a lower bound on the true ceiling, close to it).

Games are paired (`master.seatings`): the opponent is the expert playing its own dice stream
(its game does not depend on the clairvoyant's), then the clairvoyant plays the other stream
knowing that total; the next game swaps the two streams. Any one-column rule set with a
threshold table: classic and Yatzy alike.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from fivedice.core.errors import N_, FivediceError
from fivedice.strategy import kernel
from fivedice.strategy import solver as s
from fivedice.strategy import thresholds as th
from fivedice.strategy.master import EMPTY_KEEP, earlier_rolls, seat_roll, seatings
from fivedice.strategy.moments import policy_values
from fivedice.strategy.rule_arrays import CFG_BOXES, CFG_CAP, CFG_STRIDE, rule_arrays
from fivedice.strategy.solver import StrategyTable
from fivedice.strategy.tables import FloatArray, IntArray
from fivedice.strategy.thresholds import ThresholdTable

__all__ = ["CeilingGames", "play_ceiling"]


class CeilingGames(NamedTuple):
    """Clairvoyant-against-expert games (`play_ceiling`).

    Attributes:
        finals: (games, 2) the clairvoyant's and the expert's final totals.
        streams: (games, 2) the dice stream each played.
    """

    finals: IntArray
    streams: npt.NDArray[np.uint64]


@njit(cache=True, nogil=True, inline="always")
def _reach(chances: Any, row: int, need: int) -> float:
    """P*(state of `row`, need); 1 for need ≤ 0, and 0 beyond the table's top (rare: more
    than `top` points still to come)."""
    if need <= 0:
        return 1.0
    if need >= chances.shape[1]:
        return 0.0
    return float(chances[row, need])


@njit(cache=True, nogil=True)
def clairvoyant_turn(
    total: int,
    opponent: int,
    points: IntArray,
    rows: IntArray,
    counts: IntArray,
    chances: Any,
    roll_w: FloatArray,
    keep_w: FloatArray,
    best_keep: IntArray,
    best_option: IntArray,
    running_max: FloatArray,
    running_arg: IntArray,
) -> None:
    """One turn for the best chance of beating `opponent` (tying counts ½), with `total`
    points now; the options of every roll as `thresholds.roll_options` gives them.
    best_option[r] is the index c of roll r's chosen option (its box: boxes[r, c])."""
    for r in range(roll_w.shape[1]):
        best = -1.0
        chosen = -1
        for c in range(counts[r]):
            tie = opponent - total - points[r, c]
            v = 0.5 * (_reach(chances, rows[r, c], tie + 1) + _reach(chances, rows[r, c], tie))
            if v > best:
                best = v
                chosen = c
        roll_w[0, r] = best
        best_option[r] = chosen
    earlier_rolls(roll_w, keep_w, running_max, running_arg, best_keep)


@njit(cache=True, nogil=True)
def _play_turn(keep_of: IntArray, stream: np.uint64, turn: int, levels: int, rng: Any) -> int:
    """Rolls a turn by the keeps `keep_of[n, r]` (n rolls left): the roll it ends on."""
    r = seat_roll(EMPTY_KEEP, stream, turn, 0, rng)
    for n in range(levels - 1, 0, -1):
        keep = keep_of[n, r]
        if keep == 210 + r:
            break
        r = seat_roll(keep, stream, turn, levels - n, rng)
    return r


@njit(cache=True, nogil=True)
def _ceiling_game(streams: npt.NDArray[np.uint64], shared: Any, final: IntArray) -> None:
    """The expert on streams[1], then the clairvoyant on streams[0] knowing its total (and
    playing like the expert before its turn `since`)."""
    values, rules, row_of, chances, levels, since = shared
    score, joker_score, arms, all_same, config = rules
    boxes = config[CFG_BOXES]
    rng = np.empty(1, dtype=np.uint64)
    roll_v = np.empty((levels, 252))
    keep_v = np.empty((levels, 462))
    best_keep = np.empty((levels, 252), dtype=np.int64)
    best_box = np.empty(252, dtype=np.int64)
    running_max = np.empty(462)
    running_arg = np.empty(462, dtype=np.int64)
    upper_value = np.empty(kernel.upper_value_size(config[CFG_STRIDE]))
    lower_value = np.empty(boxes + 1)
    points = np.empty((252, boxes), dtype=np.int64)
    rows = np.empty((252, boxes), dtype=np.int64)
    box_of = np.empty((252, boxes), dtype=np.int64)
    counts = np.empty(252, dtype=np.int64)
    for player in (1, 0):
        mask = 0
        up = 0
        armed = 0
        total = 0
        for turn in range(boxes):
            if player == 1 or turn < since:
                kernel.turn(
                    mask, up, armed, values, score, joker_score, arms, all_same, config,
                    s.ADD_FACE, s.REMOVE_FACE, s.ROLL_PROBABILITY, roll_v, keep_v, best_keep,
                    best_box, running_max, running_arg, upper_value, lower_value,
                )  # fmt: skip
                r = _play_turn(best_keep, streams[player], turn, levels, rng)
                b = best_box[r]
                open_boxes, allowed = kernel.open_and_allowed(mask, config)
                _chosen, joker, extra = kernel.boxes_of_roll(
                    r, mask, open_boxes, allowed, armed, rules
                )
                p, mask, up, armed = th.box_outcome(b, r, joker, extra, mask, up, armed, rules)
                total += p
            else:
                th.roll_options(mask, up, armed, rules, row_of, points, rows, box_of, counts)
                clairvoyant_turn(
                    total, final[1], points, rows, counts, chances, roll_v, keep_v, best_keep,
                    best_box, running_max, running_arg,
                )  # fmt: skip
                r = _play_turn(best_keep, streams[0], turn, levels, rng)
                b = box_of[r, best_box[r]]
                open_boxes, allowed = kernel.open_and_allowed(mask, config)
                _chosen, joker, extra = kernel.boxes_of_roll(
                    r, mask, open_boxes, allowed, armed, rules
                )
                p, mask, up, armed = th.box_outcome(b, r, joker, extra, mask, up, armed, rules)
                total += p
            up = min(up, config[CFG_CAP])
        final[player] = total


@njit(cache=True, parallel=True)
def _play_ceilings(
    streams: npt.NDArray[np.uint64],
    values: FloatArray,
    rules: Any,
    row_of: IntArray,
    chances: Any,
    levels: int,
    since: int,
    finals: IntArray,
) -> None:
    for g in prange(streams.shape[0]):
        shared = (values, rules, row_of, chances, levels, since)
        _ceiling_game(streams[g], shared, finals[g])


def play_ceiling(
    table: StrategyTable,
    thresholds: ThresholdTable,
    games: int,
    *,
    seed: int = 0,
    since: int | None = None,
) -> CeilingGames:
    """Paired clairvoyant-against-expert games (game 2k + 1 swaps game 2k's dice streams).

    Args:
        table: the rules' solved table (the expert's policy).
        thresholds: the same rules' threshold table (top ≥ the scores that matter).
        games: an even number of games.
        seed: the dice seed (the streams are those of `seatings(2, games, seed, paired=True)`,
            the ones `play_table` deals with the same seed).
        since: the first turn (0 …) the clairvoyant plays for the win, like the expert before;
            by default the first turn the threshold table holds (`min_filled`).

    Raises:
        FivediceError: an odd number of games, or tables of other rules.
    """
    if games % 2 or games < 2:
        raise FivediceError(
            N_("paired games come in sets of {players}, one per seating: not {games}"),
            players=2,
            games=games,
        )
    if thresholds.rules != table.rules or table.rules.columns != 1:
        raise FivediceError("the clairvoyant needs one column's solved and threshold tables")
    rules = table.rules
    arrays = rule_arrays(rules)
    _, streams = seatings(2, games, seed, paired=True)
    finals = np.zeros((games, 2), dtype=np.int64)
    _play_ceilings(
        streams, policy_values(table), arrays.kernel_rules, thresholds.row_of,
        np.asarray(thresholds.chances), rules.rolls_per_turn,
        thresholds.min_filled if since is None else max(since, thresholds.min_filled), finals,
    )  # fmt: skip
    return CeilingGames(finals, streams)
