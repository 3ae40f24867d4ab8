"""How the rest of a game may go under optimal play: the mean and variance of the points to come.

The solver's table gives, for every between-turn state, the *expected* points still to come
under the optimal (expected-score) policy. Winning chances need the spread too, so a second
pass over the same reachable states, in the same layers (a full card back to the empty one),
follows that policy - every keep and box chosen by the expected-value table - and carries two
numbers per state: the mean M1 = E[X] and the second moment M2 = E[X²] of the points X still to
come. With p the points a turn scores (box and bonuses) and X' the points after it,

    E[(p + X')²] = p² + 2·p·E[X'] + E[X'²],

so the end of a turn combines the next state's (M1, M2) exactly, and within the turn both
moments are averaged over the dice exactly as the values are (a keep is the mean over the faces
of the next die; a roll takes its optimal keep's moments). Var X = M2 − M1².

For the last `EXACT_BOXES` boxes the whole distribution of X is enumerated exactly instead
(`exact_pmf`), the same way: a distribution per roll, averaged over the dice, shifted by the
points of the chosen box and mixed over the next states.

The moments of every state are cached on disk next to the strategy table (`moments-KEY.npy`,
recomputed if the file is missing or does not match), as every table is (`derived`: in
memory, else on disk, else built once per machine under a lock, written atomically).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit, prange

from fivedice.core.rules import RuleSet
from fivedice.strategy import kernel
from fivedice.strategy import solver as s
from fivedice.strategy.cache import CompanionTables
from fivedice.strategy.compact import reachable_upper
from fivedice.strategy.limits import has_layer_tables
from fivedice.strategy.rule_arrays import CFG_BOXES, CFG_STRIDE, RuleArrays, rule_arrays
from fivedice.strategy.solver import StrategyTable
from fivedice.strategy.tables import FloatArray, IntArray

__all__ = [
    "EXACT_BOXES",
    "MomentTable",
    "exact_pmf",
    "load_or_compute",
    "moments_if_ready",
    "moments_of",
    "moments_progress",
    "moments_ready",
]


EXACT_BOXES = 2
"""With this many open boxes or fewer, the distribution of the points to come is exact."""

MOMENTS_VERSION = "1"


@njit(cache=True, nogil=True)
def outcome(
    b: int, r: int, mask: int, up: int, armed: int, rules: Any
) -> tuple[int, int, int, int]:
    """Scoring roll r in open box b: (points with every bonus, next mask, upper, armed);
    `rules` as the kernel takes them (`kernel_rules`). The parts: `kernel.placement_outcome`."""
    points, upper_bonus, extra, after, total, armed_after = kernel.placement_outcome(
        b, r, mask, up, armed, rules
    )
    return points + upper_bonus + extra, after, total, armed_after


@njit(cache=True, nogil=True)
def turn_work(levels: int, rolls: int, keeps: int, boxes: int, stride: int) -> tuple[Any, ...]:
    """Scratch for `kernel.turn` over `levels` rolls left, for dice tables of `rolls` rolls
    and `keeps` keeps: (roll_values, keep_values, best_keep, best_box, running_max,
    running_arg, upper_value, lower_value) (`boxes` boxes, the rules' `CFG_STRIDE`)."""
    return (
        np.empty((levels, rolls)), np.empty((levels, keeps)),
        np.empty((levels, rolls), dtype=np.int64), np.empty(rolls, dtype=np.int64),
        np.empty(keeps), np.empty(keeps, dtype=np.int64),
        np.empty(kernel.upper_value_size(stride)), np.empty(boxes + 1),
    )  # fmt: skip


@njit(cache=True, nogil=True)
def _rules_work(levels: int, rules: Any, dice: Any) -> tuple[Any, ...]:
    """`turn_work` for the kernel's rules and dice arrays (add_face, remove_face,
    probability)."""
    config = rules[4]
    return turn_work(
        levels, dice[2].shape[0], dice[0].shape[0], config[CFG_BOXES], config[CFG_STRIDE]
    )


@njit(cache=True, nogil=True)
def _state_moments(
    mask: int,
    up: int,
    armed: int,
    values: FloatArray,
    moments: FloatArray,
    rules: Any,
    dice: Any,
    work: Any,
    roll_m: FloatArray,
    keep_m: FloatArray,
) -> tuple[float, float]:
    """One state's (M1, M2) under the policy of `values`; roll_m[n, r] gets the moments of
    holding roll r with n rolls left (the policy's keeps and boxes from `kernel.turn`, with its
    scratch `work` from `turn_work`). `rules` as the kernel takes them (`kernel_rules`), `dice`
    the dice tables' (add_face, remove_face, probability)."""
    score, joker_score, arms, five_face, config = rules
    add_face, remove_face, probability = dice
    best_keep, best_box = work[2], work[3]
    kernel.turn(
        mask, up, armed, values, score, joker_score, arms, five_face, config, add_face,
        remove_face, probability, *work,
    )  # fmt: skip
    rolls = probability.shape[0]
    first = add_face.shape[0] - rolls
    for r in range(rolls):
        p, nm, nu, na = outcome(best_box[r], r, mask, up, armed, rules)
        m1 = moments[nm, nu, na, 0]
        m2 = moments[nm, nu, na, 1]
        roll_m[0, r, 0] = p + m1
        roll_m[0, r, 1] = p * p + 2.0 * p * m1 + m2
    levels = roll_m.shape[0]
    for n in range(1, levels):
        for r in range(rolls):
            keep_m[first + r, 0] = roll_m[n - 1, r, 0]
            keep_m[first + r, 1] = roll_m[n - 1, r, 1]
        for k in range(first - 1, -1, -1):
            a = 0.0
            b2 = 0.0
            for f in range(6):
                j = add_face[k, f]
                a += keep_m[j, 0]
                b2 += keep_m[j, 1]
            keep_m[k, 0] = a / 6.0
            keep_m[k, 1] = b2 / 6.0
        for r in range(rolls):
            k = best_keep[n, r]
            roll_m[n, r, 0] = keep_m[k, 0]
            roll_m[n, r, 1] = keep_m[k, 1]
    m1 = 0.0
    m2 = 0.0
    for r in range(rolls):
        m1 += probability[r] * roll_m[levels - 1, r, 0]
        m2 += probability[r] * roll_m[levels - 1, r, 1]
    return m1, m2


@njit(cache=True, parallel=True)
def _moments_batch(
    states: Any, values: FloatArray, moments: FloatArray, rules: Any, dice: Any, levels: int
) -> None:
    """Fills the moments of a layer's `states`, (masks, ups, armeds), in parallel."""
    masks, ups, armeds = states
    n = masks.shape[0]
    chunks = min(n, 64)
    for c in prange(chunks):
        work = _rules_work(levels, rules, dice)
        roll_m = np.empty((levels, dice[2].shape[0], 2))
        keep_m = np.empty((dice[0].shape[0], 2))
        for i in range(c * n // chunks, (c + 1) * n // chunks):
            m1, m2 = _state_moments(
                masks[i], ups[i], armeds[i], values, moments, rules, dice, work, roll_m, keep_m
            )
            moments[masks[i], ups[i], armeds[i], 0] = m1
            moments[masks[i], ups[i], armeds[i], 1] = m2


@dataclass(frozen=True, eq=False)
class MomentTable:
    """For every reachable between-turn state: E[X] and E[X²] of the points still to come under
    the optimal policy of `table` (`moments[mask, upper, armed] = (M1, M2)`; unreachable
    states hold 0).

    Attributes:
        table: the strategy table whose policy is followed.
        moments: float64 (8192, upper cap + 1, 2, 2).
        values: the policy's values as float64 (NaN → 0), what the kernels read.
    """

    table: StrategyTable
    moments: FloatArray = field(repr=False)
    values: FloatArray = field(repr=False)

    @property
    def rules(self) -> RuleSet:
        return self.table.rules

    def state(self, mask: int, up: int, armed: bool) -> tuple[float, float]:
        """(mean, variance) of the points to come from a between-turn state."""
        m1, m2 = self.moments[mask, min(up, self.table.upper_cap), int(armed)]
        return float(m1), max(float(m2 - m1 * m1), 0.0)

    def in_turn(self, mask: int, up: int, armed: bool, levels: int) -> FloatArray:
        """roll_m[n, r] = (M1, M2) of holding roll r with n rolls left this turn (the points
        of this turn included), for n < levels."""
        arrays = rule_arrays(self.rules)
        dice = dice_arrays(arrays)
        roll_m = np.empty((levels, len(arrays.dice.rolls), 2))
        _state_moments(
            mask, min(up, self.table.upper_cap), int(armed), self.values, self.moments,
            arrays.kernel_rules, dice, _rules_work(levels, arrays.kernel_rules, dice), roll_m,
            np.empty((len(arrays.dice.keeps), 2)),
        )  # fmt: skip
        return roll_m


def dice_arrays(arrays: RuleArrays) -> tuple[IntArray, IntArray, FloatArray]:
    """The rules' dice tables as the kernels take them: (add_face, remove_face, probability)
    (with the wild die: its own rolls and keeps, `tables.dice_tables`)."""
    dice = arrays.dice
    return dice.add_face, dice.remove_face, dice.probability


def policy_values(table: StrategyTable) -> FloatArray:
    """The table's values as float64 with unreachable states 0 (never read by a placement)."""
    values = np.nan_to_num(np.asarray(table.values, dtype=np.float64), nan=0.0)
    values.setflags(write=False)
    return values


def policy_layers(
    rules: RuleSet,
) -> list[tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]]:
    """The solver's layers of states (`solver.layer_to_solve`), a full card back to the empty
    one: the walk of every second pass that follows the policy (moments, breakdowns), each
    layer's states needing only those of the layers before it.

    Raises:
        UnsupportedRulesError: Maxi Yatzy, whose table is compact (`limits.has_layer_tables`).
    """
    if not has_layer_tables(rules):
        raise s.UnsupportedRulesError("no full layers in a compact table (Maxi Yatzy)")
    arrays = rule_arrays(rules)
    reach = reachable_upper(arrays.cap, arrays.dice.dice)
    return [s.layer_to_solve(arrays, filled, reach) for filled in range(arrays.boxes - 1, -1, -1)]


def compute_moments(
    table: StrategyTable, progress: Callable[[int, int], None] | None = None
) -> MomentTable:
    """Fills the moment table in layers, as `solver.solve` fills the values."""
    rules = table.rules
    arrays = rule_arrays(rules)
    values = policy_values(table)
    layers = policy_layers(rules)
    total = sum(int(layer[0].size) for layer in layers)
    moments = np.zeros((arrays.full_mask + 1, arrays.cap + 1, 2, 2))
    done = 0
    for masks, ups, armeds, copy_masks, copy_to, copy_from in layers:
        _moments_batch(
            (masks, ups, armeds), values, moments, arrays.kernel_rules, dice_arrays(arrays),
            rules.rolls_per_turn,
        )  # fmt: skip
        yahtzee = arrays.yahtzee if arrays.yahtzee_bonus else None
        s.fill_copied_states(moments, masks, armeds, copy_masks, copy_to, copy_from, yahtzee)
        done += int(masks.size)
        if progress is not None:
            progress(done, total)
    moments.setflags(write=False)
    return MomentTable(table, moments, values)


def _load_moments(table: StrategyTable, path: Path) -> MomentTable | None:
    shape = (table.full_mask + 1, table.upper_cap + 1, 2, 2)
    with contextlib.suppress(OSError, ValueError):
        loaded = np.load(path, allow_pickle=False)
        if loaded.shape == shape and loaded.dtype == np.float64 and np.isfinite(loaded).all():
            loaded.setflags(write=False)
            return MomentTable(table, loaded, policy_values(table))
    return None


MOMENTS = CompanionTables[MomentTable](
    "moments",
    f"moments{MOMENTS_VERSION}",
    _load_moments,
    compute_moments,
    lambda result, handle: np.save(handle, result.moments, allow_pickle=False),
)
"""The moment tables: the last two in memory, on disk beside the strategy table."""

load_or_compute = MOMENTS.for_table
"""The moment table of a strategy table: from memory or disk if there, else computed (about as
long as the solve) and saved, once per machine."""
moments_of = MOMENTS.of
"""The moment table of single-column rules (solved and cached as needed; kept in memory)."""
moments_ready = MOMENTS.is_ready
"""Whether the moment table of these rules is at hand: in memory, or both tables on disk (a
quick load). Never computes."""
moments_if_ready = MOMENTS.ready
"""The moment table if it is at hand; else None, and it is prepared in the background."""
moments_progress = MOMENTS.build_progress
"""The progress of the moment table's build under way, if any (`derived.BuildProgress`)."""


# ---------------------------------------------------------------------------------------------
# Exact distributions near the end


@njit(cache=True, nogil=True)
def _propagate_pmf(
    roll_pmf: FloatArray, best_keep: IntArray, keep_pmf: FloatArray, add_face: IntArray
) -> None:
    """roll_pmf[0] holds each roll's distribution when scored now; fills roll_pmf[n] (n rolls
    left) following the policy's keeps (`add_face`: the dice tables')."""
    levels = roll_pmf.shape[0]
    rolls = roll_pmf.shape[1]
    width = roll_pmf.shape[2]
    first = add_face.shape[0] - rolls
    for n in range(1, levels):
        for r in range(rolls):
            keep_pmf[first + r] = roll_pmf[n - 1, r]
        for k in range(first - 1, -1, -1):
            for x in range(width):
                keep_pmf[k, x] = 0.0
            for f in range(6):
                j = add_face[k, f]
                for x in range(width):
                    keep_pmf[k, x] += keep_pmf[j, x]
            for x in range(width):
                keep_pmf[k, x] /= 6.0
        for r in range(rolls):
            roll_pmf[n, r] = keep_pmf[best_keep[n, r]]


@njit(cache=True, nogil=True)
def _turn_policy(
    mask: int, up: int, armed: int, values: FloatArray, rules: Any, dice: Any, levels: int
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The policy's boxes and keeps for a turn, and each roll's outcome (points, next state);
    `rules` as the kernel takes them (`kernel_rules`), `dice` as `dice_arrays`."""
    score, joker_score, arms, five_face, config = rules
    work = _rules_work(levels, rules, dice)
    best_keep, best_box = work[2], work[3]
    kernel.turn(
        mask, up, armed, values, score, joker_score, arms, five_face, config, dice[0], dice[1],
        dice[2], *work,
    )  # fmt: skip
    rolls = best_box.shape[0]
    points = np.empty(rolls, dtype=np.int64)
    nexts = np.empty((rolls, 3), dtype=np.int64)
    for r in range(rolls):
        p, nm, nu, na = outcome(best_box[r], r, mask, up, armed, rules)
        points[r] = p
        nexts[r, 0] = nm
        nexts[r, 1] = nu
        nexts[r, 2] = na
    return best_keep, best_box, points, nexts


def exact_pmf(moments: MomentTable, mask: int, up: int, armed: bool) -> FloatArray:
    """The exact distribution of the points to come from a between-turn state (pmf[x] =
    P(X = x)), under the policy; for states with at most `EXACT_BOXES` open boxes."""
    return _exact_pmf_cached(moments, mask, min(up, moments.table.upper_cap), int(armed))


def exact_roll_pmf(
    moments: MomentTable, mask: int, up: int, armed: bool, levels: int
) -> FloatArray:
    """pmf[n, r, x]: the distribution of the points to come (this turn's included) when holding
    roll r with n rolls left, for n < levels."""
    rules = moments.rules
    arrays = rule_arrays(rules)
    up = min(up, moments.table.upper_cap)
    best_keep, _, points, nexts = _turn_policy(
        mask, up, int(armed), moments.values, arrays.kernel_rules, dice_arrays(arrays), levels
    )
    rolls = len(arrays.dice.rolls)
    tails = {}
    for r in range(rolls):
        key = (int(nexts[r, 0]), int(nexts[r, 1]), int(nexts[r, 2]))
        if key not in tails:
            tails[key] = (
                np.ones(1)
                if key[0] == moments.table.full_mask
                else _exact_pmf_cached(moments, *key)
            )
    width = max(int(points[r]) + tails[(int(n[0]), int(n[1]), int(n[2]))].size
                for r, n in enumerate(nexts))  # fmt: skip
    roll_pmf = np.zeros((levels, rolls, width))
    for r in range(rolls):
        tail = tails[(int(nexts[r, 0]), int(nexts[r, 1]), int(nexts[r, 2]))]
        roll_pmf[0, r, points[r] : points[r] + tail.size] = tail
    keeps = np.empty((len(arrays.dice.keeps), width))
    _propagate_pmf(roll_pmf, best_keep, keeps, arrays.dice.add_face)
    return roll_pmf


@lru_cache(maxsize=4096)
def _exact_pmf_cached(moments: MomentTable, mask: int, up: int, armed: int) -> FloatArray:
    if mask == moments.table.full_mask:
        return np.ones(1)
    levels = moments.rules.rolls_per_turn
    roll_pmf = exact_roll_pmf(moments, mask, up, bool(armed), levels)
    pmf: FloatArray = rule_arrays(moments.rules).dice.probability @ roll_pmf[levels - 1]
    pmf.setflags(write=False)
    return pmf
