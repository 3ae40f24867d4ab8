"""Whole games played inside numba, one CPU level at a time (the simulator's engine).

One game is a loop of turns: roll, keep by the policy's keep values (`policy.turn_tables` over
`policy.end_values`), score by `policy.placement_options`. Every game draws its dice from its
own splitmix64 stream, so a game is reproducible whatever thread plays it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from fivedice.strategy.kernel import upper_bonus_at
from fivedice.strategy.policy import (
    beginner_keep,
    column_key,
    end_values,
    pick,
    placement,
    placement_options,
    straight_open,
    turn_tables,
)
from fivedice.strategy.rule_arrays import (
    CFG_BOXES,
    CFG_ROLLS,
    CFG_SAVED_ROLLS,
    CFG_THRESHOLD,
    CFG_YAHTZEE,
    CFG_YAHTZEE_BONUS,
    UPPER_BOXES,
)
from fivedice.strategy.tables import FloatArray, IntArray


def game_seeds(seed: int, games: int) -> npt.NDArray[np.uint64]:
    """Two independent splitmix64 seeds per game (dice, slips), from (seed, game number).

    The same seed and game number always give the same pair, so a game plays the same
    whichever thread, batch or benchmark plays it.
    """
    with np.errstate(over="ignore"):
        index = np.arange(games, dtype=np.uint64) * np.uint64(2)
        base = np.uint64(seed) * np.uint64(0xD1B54A32D192ED03)
        seeds = np.empty((games, 2), dtype=np.uint64)
        seeds[:, 0] = _mix(base + index)
        seeds[:, 1] = _mix(base + index + np.uint64(1))
    return seeds


GOLDEN = 0x9E3779B97F4A7C15
"""splitmix64's increment: a stream's state advances by it, and it separates seeds."""


@njit(cache=True, nogil=True, inline="always")
def mix64(z: Any) -> Any:
    """splitmix64's finaliser: a uint64 in the kernels, or a uint64 array (`_mix`)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _mix(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """splitmix64's first output of each stream of an array, in numpy."""
    finalise = getattr(mix64, "py_func", mix64)  # the Python function under the kernel
    with np.errstate(over="ignore"):
        mixed: npt.NDArray[np.uint64] = finalise(x + np.uint64(GOLDEN))
        return mixed


@njit(cache=True, nogil=True, inline="always")
def next_random(state: npt.NDArray[np.uint64]) -> float:
    """A uniform number in [0, 1) from a splitmix64 state (advanced in place)."""
    state[0] += np.uint64(GOLDEN)
    z = mix64(state[0])
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True, inline="always")
def count_code(counts: IntArray, dice: int) -> int:
    """The face counts as a number in base dice + 1 (the index of `keep_of_code`)."""
    code = 0
    scale = 1
    for f in range(6):
        code += counts[f] * scale
        scale *= dice + 1
    return code


BOX_POINTS = 4
"""In a `play_game` result row long enough for them (4 + boxes + 2), where each box's points
start (then the upper bonus's and the extra bonuses' points)."""


@njit(cache=True, nogil=True, inline="always")
def game_shape(player: Any, keeps: Any) -> tuple[int, int, int, int, int, int, int, int]:
    """A game's sizes from its player and dice tables: (columns, boxes, rolls a turn, rolls,
    keeps, the index of the first whole roll among the keeps, dice, turns)."""
    multipliers, arrays, _, _ = player
    params = arrays[3]
    keep_add, keep_faces = keeps[0], keeps[4]
    columns = multipliers.shape[0]
    boxes = params[CFG_BOXES]
    n_rolls = arrays[0].shape[1]
    n_keeps = keep_add.shape[0]
    dice = 0
    for f in range(6):
        dice += keep_faces[n_keeps - 1, f]
    return (columns, boxes, params[CFG_ROLLS], n_rolls, n_keeps, n_keeps - n_rolls, dice,
            columns * boxes)  # fmt: skip


@njit(cache=True, nogil=True)
def card_score(card: IntArray, extras: IntArray, multipliers: IntArray, params: Any) -> Any:
    """A finished card's (score, upper bonuses): each column's boxes, its upper bonus and
    its extra-Yahtzee bonuses (`extras`), times the column's multiplier."""
    score = 0
    bonuses = 0
    for col in range(multipliers.shape[0]):
        upper = 0
        total = 0
        for c in range(card.shape[1]):
            total += card[col, c]
            if c < UPPER_BOXES:
                upper += card[col, c]
        if upper >= params[CFG_THRESHOLD]:
            total += upper_bonus_at(upper, params)
            bonuses += 1
        total += extras[col] * params[CFG_YAHTZEE_BONUS]
        score += multipliers[col] * total
    return score, bonuses


@njit(cache=True, nogil=True)
def play_game(
    style: Any, seeds: Any, player: Any, keeps: Any, first_keep: FloatArray, out: IntArray
) -> None:
    """Plays one solitaire game; writes (score, upper bonuses, Yahtzee scored, extras) to out,
    and, when out is long enough, the points of each box and bonus (`BOX_POINTS`).

    `style` is the level's (greedy, slip, max_loss) (`bots.LevelProfile`); `seeds` the game's
    (dice seed, slip seed); `player` the CPU player on its card (`policy`); `keeps` the dice
    tables (keep_add, keep_remove, roll_keeps, keep_of_code, keep_faces)
    (`heuristics.DiceTables.arrays`); `first_keep` the keep values of the first turn (the same
    in every game).
    """
    greedy, slip, max_loss = style
    multipliers, arrays, _, _ = player
    params = arrays[3]
    keep_add, keep_remove, roll_keeps, keep_of_code, keep_faces = keeps
    columns, boxes, rolls, n_rolls, n_keeps, first_roll, dice, turns = game_shape(player, keeps)
    # Saved rolls (Maxi Yatzy): a turn may use the rolls earlier turns left unused.
    most_levels = rolls - 1 + ((rolls - 1) * turns if params[CFG_SAVED_ROLLS] == 1 else 0)
    card = np.full((columns, boxes), -1, dtype=np.int64)
    extras = np.zeros(columns, dtype=np.int64)
    ends = np.empty(n_rolls)
    keep_values = np.empty((max(most_levels, 1), n_keeps))
    roll_values = np.empty((most_levels + 1, n_rolls))
    best = np.empty(n_keeps)
    counts = np.zeros(6, dtype=np.int64)
    held = np.zeros(6, dtype=np.int64)
    option_values = np.empty(roll_keeps.shape[1])
    p_col = np.empty(columns * boxes, dtype=np.int64)
    p_box = np.empty(columns * boxes, dtype=np.int64)
    p_joker = np.empty(columns * boxes, dtype=np.int64)
    p_value = np.empty(columns * boxes)
    dice_state = np.zeros(1, dtype=np.uint64)
    dice_state[0] = np.uint64(seeds[0])
    slip_state = np.zeros(1, dtype=np.uint64)
    slip_state[0] = np.uint64(seeds[1])
    saved = 0
    for turn in range(turns):
        levels = rolls - 1 + saved
        if not greedy and levels > 0:
            if turn == 0 and levels == rolls - 1:
                keep_values[:levels, :] = first_keep[:levels]
            else:
                end_values(card, player, ends)
                turn_tables(ends, levels, keep_add, keep_remove, keep_values, roll_values, best)
        counts[:] = 0
        for _ in range(dice):
            counts[int(next_random(dice_state) * 6.0)] += 1
        unused = 0
        for rolls_left in range(levels, 0, -1):
            roll = keep_of_code[count_code(counts, dice)] - first_roll
            if greedy:
                beginner_keep(counts, straight_open(card, params), held)
            else:
                n = 0
                for j in range(roll_keeps.shape[1]):
                    k = roll_keeps[roll, j]
                    if k < 0:
                        break
                    option_values[j] = keep_values[rolls_left - 1, k]
                    n += 1
                draw = next_random(slip_state) if slip > 0.0 else 1.0
                chosen = roll_keeps[roll, pick(option_values, n, draw, slip, max_loss)]
                held[:] = keep_faces[chosen]
            size = 0
            for f in range(6):
                size += held[f]
            if size == dice:
                unused = rolls_left
                break  # keeping everything: score now
            counts[:] = held
            for _ in range(dice - size):
                counts[int(next_random(dice_state) * 6.0)] += 1
        saved = unused if params[CFG_SAVED_ROLLS] == 1 else 0
        roll = keep_of_code[count_code(counts, dice)] - first_roll
        n = placement_options(card, roll, greedy, player, (p_col, p_box, p_joker, p_value))
        draw = next_random(slip_state) if slip > 0.0 else 1.0
        i = pick(p_value, n, draw, slip, max_loss)
        col = p_col[i]
        _, up, _ = column_key(card[col], params)
        points, _, extra = placement(card[col], p_box[i], p_joker[i], roll, up, arrays)
        card[col, p_box[i]] = points
        extras[col] += extra
    score, bonuses = card_score(card, extras, multipliers, params)
    yahtzees = 0
    yahtzee = params[CFG_YAHTZEE]
    for col in range(columns):
        if yahtzee >= 0 and card[col, yahtzee] > 0:
            yahtzees += 1
    out[0] = score
    out[1] = bonuses
    out[2] = yahtzees
    out[3] = extras.sum()
    if out.shape[0] >= BOX_POINTS + boxes + 2:
        # Where the score came from: each box's points, then the upper bonus's and the
        # extra-Yahtzee bonuses' (times the columns' multipliers; they sum to the score).
        for c in range(boxes + 2):
            out[BOX_POINTS + c] = 0
        for col in range(columns):
            upper = 0
            for c in range(boxes):
                out[BOX_POINTS + c] += multipliers[col] * card[col, c]
                if c < UPPER_BOXES:
                    upper += card[col, c]
            out[BOX_POINTS + boxes] += multipliers[col] * upper_bonus_at(upper, params)
            out[BOX_POINTS + boxes + 1] += (
                multipliers[col] * extras[col] * params[CFG_YAHTZEE_BONUS]
            )


@njit(cache=True, parallel=True)
def play_games(
    greedy: bool,
    slip: float,
    max_loss: float,
    seeds: npt.NDArray[np.uint64],
    multipliers: IntArray,
    arrays: Any,
    values: Any,
    typical: FloatArray,
    keeps: Any,
    first_keep: FloatArray,
    out: IntArray,
) -> None:
    """`play_game` for each row of seeds (dice seed, slip seed), in parallel; the player's
    parts as `player_args` gives them, the dice tables as `DiceTables.arrays`."""
    for g in prange(seeds.shape[0]):
        # Built in the loop: a parallel loop cannot take in a tuple that holds a tuple (the
        # rules' arrays, the factored values).
        player = (multipliers, arrays, values, typical)
        play_game((greedy, slip, max_loss), seeds[g], player, keeps, first_keep, out[g])
