"""Maxi Yatzy with saved rolls, played on the exact table of the game without them.

With saved rolls a turn may use the rolls earlier turns left unused, so a state is (card, rolls
in the bank): no single machine solves that exactly (docs/maxi-saved-rolls.md). This player
values a card by the exact table of the same rules *without* saved rolls (`solver`, compact
table: 33.5 million states) and adds a value for the rolls it banks, `bank[s, t]`: s rolls
carried into the next turn with t turns still to play after it. Within a turn it is an exact
expectimax over its rolls (the turn's own and the banked ones) where, after each roll, it may
also stop and score, banking the rolls it has left:

    R_0(r) = E(r),  R_n(r) = max(E(r) + bank[n, t], max over kept dice k ⊊ r of K_n(k)),
    K_n(k) = mean over the re-rolled dice of R_{n-1}(k + them),

E(r) being the best placement's points plus the exact future of the card it leaves
(`policy.end_values`), and t the turns still to play after this one. The bank's value is
learned from rollouts: `bank[s, t] = per_roll × min(s, cap × t)` with the two numbers chosen by
simulated games (`benchmarks/bench_maxi.py --saved-rolls`: 7 points a roll, at most 0.75 of a
roll a turn left, for the preset); a roll banked for no later turn is worth nothing, so the
last turn uses them all.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from fivedice.core.rules import RuleSet
from fivedice.strategy import heuristics as h
from fivedice.strategy.kernel import mean_keep_values
from fivedice.strategy.playout import card_score, count_code, game_seeds, game_shape, next_random
from fivedice.strategy.policy import column_key, end_values, pick, placement, placement_options
from fivedice.strategy.tables import FloatArray, IntArray

__all__ = ["bank_values", "play_banked_games", "simulate_banked"]


def bank_values(per_roll: float, cap: float, rules: RuleSet) -> FloatArray:
    """`bank[s, t]` = per_roll × min(s, cap × t): the value of ending a turn with s rolls
    banked and t turns still to play after it (0 when t = 0: nothing can use them then).

    >>> from fivedice.core.rules import find_ruleset
    >>> bank = bank_values(2.0, 1.5, find_ruleset("maxi-yatzy"))
    >>> float(bank[3, 0]), float(bank[3, 1]), float(bank[3, 4])
    (0.0, 3.0, 6.0)
    """
    turns = rules.columns * len(rules.boxes)
    most = (rules.rolls_per_turn - 1) * (turns + 1) + 1
    saved = np.arange(most)[:, None]
    after = np.arange(turns + 1)[None, :]
    bank: FloatArray = per_roll * np.minimum(saved, cap * after).astype(np.float64)
    bank.setflags(write=False)
    return bank


@njit(cache=True, nogil=True)
def _banked_tables(
    ends: FloatArray,
    levels: int,
    bank: FloatArray,
    keep_add: IntArray,
    keep_remove: IntArray,
    out_keep: FloatArray,
    out_roll: FloatArray,
    best: FloatArray,
) -> None:
    """The turn's expectimax with stopping: out_roll[n, r] (n rolls left) and out_keep[n, k]
    (keep k with n + 1 rolls left); bank[n] is the value of stopping with n rolls left.
    Keeping every die is not a re-roll here: it is the stop."""
    rolls = ends.shape[0]
    keeps = keep_add.shape[0]
    first_roll = keeps - rolls
    for r in range(rolls):
        out_roll[0, r] = ends[r] + bank[0]
    for n in range(levels):
        mean_keep_values(out_roll[n], out_keep[n], keep_add)
        for k in range(keeps):
            value = out_keep[n, k] if k < first_roll else -1.0e300
            for f in range(6):
                j = keep_remove[k, f]
                if j < 0:
                    break
                value = best[j] if best[j] > value else value
            best[k] = value
        for r in range(rolls):
            stop = ends[r] + bank[n + 1]
            keep = best[first_roll + r]
            out_roll[n + 1, r] = stop if stop > keep else keep


@njit(cache=True, nogil=True)
def _play_banked(seeds: Any, player: Any, keeps: Any, bank: FloatArray, out: IntArray) -> None:
    """One game: writes (score, upper bonuses, rolls banked at the end, rolls used)."""
    multipliers, arrays, _, _ = player
    params = arrays[3]
    keep_add, keep_remove, roll_keeps, keep_of_code, keep_faces = keeps
    columns, boxes, rolls, n_rolls, n_keeps, first_roll, dice, turns = game_shape(player, keeps)
    most_levels = (rolls - 1) * turns
    card = np.full((columns, boxes), -1, dtype=np.int64)
    ends = np.empty(n_rolls)
    keep_values = np.empty((most_levels, n_keeps))
    roll_values = np.empty((most_levels + 1, n_rolls))
    best = np.empty(n_keeps)
    counts = np.zeros(6, dtype=np.int64)
    option_values = np.empty(roll_keeps.shape[1])
    p_col = np.empty(turns, dtype=np.int64)
    p_box = np.empty(turns, dtype=np.int64)
    p_joker = np.empty(turns, dtype=np.int64)
    p_value = np.empty(turns)
    dice_state = np.zeros(1, dtype=np.uint64)
    dice_state[0] = np.uint64(seeds[0])
    saved = 0
    used = 0
    for turn in range(turns):
        levels = rolls - 1 + saved
        after = turns - turn - 1  # turns still to play after this one
        turn_bank = bank[: levels + 1, after]
        end_values(card, player, ends)
        _banked_tables(
            ends, levels, turn_bank, keep_add, keep_remove, keep_values, roll_values, best
        )
        counts[:] = 0
        for _ in range(dice):
            counts[int(next_random(dice_state) * 6.0)] += 1
        used += 1
        unused = 0
        for rolls_left in range(levels, 0, -1):
            roll = keep_of_code[count_code(counts, dice)] - first_roll
            n = 0
            for j in range(roll_keeps.shape[1]):
                k = roll_keeps[roll, j]
                if k < 0:
                    break
                if k == first_roll + roll:  # keep all: stop and bank the rolls left
                    option_values[j] = ends[roll] + turn_bank[rolls_left]
                else:
                    option_values[j] = keep_values[rolls_left - 1, k]
                n += 1
            chosen = roll_keeps[roll, pick(option_values, n, 1.0, 0.0, 0.0)]
            if chosen == first_roll + roll:
                unused = rolls_left
                break
            counts[:] = keep_faces[chosen]
            size = 0
            for f in range(6):
                size += counts[f]
            for _ in range(dice - size):
                counts[int(next_random(dice_state) * 6.0)] += 1
            used += 1
        saved = unused
        roll = keep_of_code[count_code(counts, dice)] - first_roll
        n = placement_options(card, roll, False, player, (p_col, p_box, p_joker, p_value))
        i = pick(p_value, n, 1.0, 0.0, 0.0)
        col = p_col[i]
        _, up, _ = column_key(card[col], params)
        points, _, _ = placement(card[col], p_box[i], p_joker[i], roll, up, arrays)
        card[col, p_box[i]] = points
    score, bonuses = card_score(card, np.zeros(columns, dtype=np.int64), multipliers, params)
    out[0] = score
    out[1] = bonuses
    out[2] = saved
    out[3] = used


@njit(cache=True, parallel=True)
def play_banked_games(
    seeds: npt.NDArray[np.uint64],
    multipliers: IntArray,
    arrays: Any,
    values: Any,
    typical: FloatArray,
    keeps: Any,
    bank: FloatArray,
    out: IntArray,
) -> None:
    """`_play_banked` for each row of seeds, in parallel (the player as `player_args`)."""
    for g in prange(seeds.shape[0]):
        player = (multipliers, arrays, values, typical)
        _play_banked(seeds[g], player, keeps, bank, out[g])


def simulate_banked(
    rules: RuleSet, values: h.Values, bank: FloatArray, games: int, seed: int = 0
) -> IntArray:
    """Plays `games` solitaire games of the banked player; per game (score, upper bonuses,
    rolls left in the bank at the end, rolls thrown). The dice of game i come from the same
    stream as `simulate`'s game i with the same seed (`playout.game_seeds`).

    Args:
        rules: rules with saved rolls (Maxi Yatzy).
        values: the exact values of the same rules without saved rolls
            (`bots.values_from_table`).
        bank: `bank_values(...)`.
    """
    rt = h.rule_tables(rules)
    dt = h.dice_tables(rt.dice)
    out = np.zeros((games, 4), dtype=np.int64)
    play_banked_games(
        game_seeds(seed, games), rt.multipliers, rt.arrays, values,
        h.typical_box_values(rules), dt.arrays, np.ascontiguousarray(bank), out,
    )  # fmt: skip
    return out
