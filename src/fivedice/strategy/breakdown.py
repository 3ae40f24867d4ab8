"""Where the points to come come from: the expected points of each box and bonus, exactly.

The solver's table gives, for every between-turn state, the expected points still to come under
the optimal (expected-score) policy. A second pass over the same reachable states, in the same
layers as the winning-chances moments (`moments.policy_layers`), follows that policy and splits
the value into *components*: each box of the card, the upper bonus and the extra-Yahtzee
bonuses (the latter two only where the rules have them). By linearity of expectation,

    C(state) = Σ_r q(r) · (parts(r) + C(next(r))),

with q(r) the chance that the turn ends holding roll r (the policy's keeps followed forward from
the first throw: mass moves from a roll to its best keep, then over one more die's six faces)
and parts(r) the box points, upper bonus and extra bonus the policy's box scores for r. The
components of a state sum to its value in the table (to rounding, ~1e-12).

Per option (`option_breakdowns`): a box's breakdown is its parts plus its next state's; a
keep's is the same forward walk from the keep (this turn's part exact over the dice, as the
advisor values it), and from the same walk comes each box's *chance this turn* (see
`OptionBreakdown.chances`).

Storage: only a state's open boxes can still score, so a state keeps its open boxes'
components (card order) and then the bonuses'; states are stored in layer order, one flat
float64 array (`breakdown{VERSION}-KEY.npy` beside the table, written atomically, memory-mapped
when read, recomputed when missing or not matching). The index of each state's first
component is rebuilt from the layer walk when the file is read (well under a second). Classic:
about 23 MB; Yatzy: about 64 MB.

Only single-column rule sets with an exact table have a breakdown: under several columns the
coach's values are the expert CPU's estimates, and there is no exact split of an estimate.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit, prange

from fivedice.core.card import Column
from fivedice.core.categories import Category
from fivedice.core.dice import Roll
from fivedice.core.rules import RuleSet
from fivedice.core.scoring import scoring_roll
from fivedice.strategy import kernel
from fivedice.strategy import solver as s
from fivedice.strategy.cache import CompanionTables
from fivedice.strategy.limits import has_layer_tables
from fivedice.strategy.moments import dice_arrays, policy_layers, policy_values, turn_work
from fivedice.strategy.rule_arrays import CFG_BOXES, CFG_STRIDE, rule_arrays
from fivedice.strategy.solver import StrategyTable
from fivedice.strategy.tables import FloatArray, IntArray

__all__ = [
    "EXTRA_BONUS",
    "UPPER_BONUS",
    "BreakdownTable",
    "OptionBreakdown",
    "breakdown_for",
    "breakdown_if_ready",
    "breakdown_of",
    "breakdown_progress",
    "compute_breakdown",
    "load_or_compute",
    "option_breakdowns",
]

BREAKDOWN_VERSION = "2"
UPPER_BONUS = "upper_bonus"
"""The component of the upper bonus."""
EXTRA_BONUS = "yahtzee_bonus"
"""The component of the extra-Yahtzee bonuses."""


# ---------------------------------------------------------------------------------------------
# Kernels


@njit(cache=True, nogil=True)
def _walk_forward(
    roll_mass: FloatArray,
    rolls_left: int,
    best_keep: IntArray,
    add_face: IntArray,
    keep_mass: FloatArray,
) -> None:
    """Turns `roll_mass`, the chance of holding each roll with `rolls_left` rolls left, into
    the chance of each roll the turn ends with, following the policy's keeps (in place)."""
    first_roll = add_face.shape[0] - roll_mass.shape[0]
    for n in range(rolls_left, 0, -1):
        for k in range(keep_mass.shape[0]):
            keep_mass[k] = 0.0
        for r in range(roll_mass.shape[0]):
            keep_mass[best_keep[n, r]] += roll_mass[r]
        _spread(keep_mass, add_face)
        for r in range(roll_mass.shape[0]):
            roll_mass[r] = keep_mass[first_roll + r]


@njit(cache=True, nogil=True, inline="always")
def _spread(keep_mass: FloatArray, add_face: IntArray) -> None:
    """Rolls the dice not kept: each keep's chance goes over one more die's six faces, smaller
    keeps first (a keep's index is below those of the keeps with one die more)."""
    for k in range(_first_roll(add_face)):
        mass = keep_mass[k]
        if mass != 0.0:
            share = mass / 6.0
            for f in range(6):
                keep_mass[add_face[k, f]] += share
            keep_mass[k] = 0.0


@njit(cache=True, nogil=True, inline="always")
def _first_roll(add_face: IntArray) -> int:
    """The index of the first full keep (= roll): the first keep with no die to add."""
    for k in range(add_face.shape[0]):
        if add_face[k, 0] < 0:
            return int(k)
    return int(add_face.shape[0])


@njit(cache=True, nogil=True, inline="always")
def _add_state(
    acc: FloatArray,
    weight: float,
    data: FloatArray,
    index: IntArray,
    mask: int,
    up: int,
    armed: int,
    boxes: int,
    bonuses: IntArray,
) -> None:
    """acc += weight × the stored components of a state (open boxes, then the bonuses: their
    places in `acc` are `bonuses`, see `_bonuses`)."""
    i = index[mask, up, armed]
    for b in range(boxes):
        if not (mask >> b) & 1:
            acc[b] += weight * data[i]
            i += 1
    for j in range(bonuses.shape[0]):
        acc[bonuses[j]] += weight * data[i]
        i += 1


@njit(cache=True, nogil=True)
def _roll_parts(
    mask: int,
    up: int,
    armed: int,
    best_box: IntArray,
    data: FloatArray,
    index: IntArray,
    rules: Any,
    bonuses: IntArray,
    out: FloatArray,
    box_points: IntArray,
) -> None:
    """out[r] = the components of ending the turn with roll r (the policy's box): its box
    points, upper bonus and extra bonus, plus the next state's components; box_points[r] =
    the points of the box alone."""
    boxes = rules[4][CFG_BOXES]
    for r in range(out.shape[0]):
        for c in range(out.shape[1]):
            out[r, c] = 0.0
        b = best_box[r]
        points, upper, extra, after, total, armed_after = kernel.placement_outcome(
            b, r, mask, up, armed, rules
        )
        out[r, b] += points
        out[r, boxes] += upper
        out[r, boxes + 1] += extra
        box_points[r] = points
        _add_state(out[r], 1.0, data, index, after, total, armed_after, boxes, bonuses)


@njit(cache=True, nogil=True)
def _policy(
    mask: int,
    up: int,
    armed: int,
    values: FloatArray,
    rules: Any,
    levels: int,
    dice: Any,
    work: Any,
) -> None:
    """The policy's keeps (work[2]) and boxes (work[3]) for a turn (`kernel.turn`)."""
    score, joker_score, arms, all_same, config = rules
    add_face, remove_face, probability = dice
    kernel.turn(
        mask, up, armed, values, score, joker_score, arms, all_same, config, add_face,
        remove_face, probability, *work,
    )  # fmt: skip


@njit(cache=True, parallel=True)
def _breakdown_batch(
    states: Any,
    offsets: IntArray,
    values: FloatArray,
    data: FloatArray,
    index: IntArray,
    rules: Any,
    dice: Any,
    levels: int,
    bonuses: IntArray,
) -> None:
    """Fills the components of a layer's `states` (masks, ups, armeds) at their `offsets`."""
    masks, ups, armeds = states
    add_face, probability = dice[0], dice[2]
    config = rules[4]
    boxes = config[CFG_BOXES]
    rolls = probability.shape[0]
    keeps = add_face.shape[0]
    n = masks.shape[0]
    chunks = min(n, 64)
    for c in prange(chunks):
        work = turn_work(levels, rolls, keeps, boxes, config[CFG_STRIDE])
        mass = np.empty(rolls)
        keep_mass = np.empty(keeps)
        parts = np.empty((rolls, boxes + 2))
        box_points = np.empty(rolls, dtype=np.int64)
        acc = np.empty(boxes + 2)
        for i in range(c * n // chunks, (c + 1) * n // chunks):
            mask, up, armed = masks[i], ups[i], armeds[i]
            _policy(mask, up, armed, values, rules, levels, dice, work)
            for r in range(rolls):
                mass[r] = probability[r]
            _walk_forward(mass, levels - 1, work[2], add_face, keep_mass)
            _roll_parts(mask, up, armed, work[3], data, index, rules, bonuses, parts, box_points)
            for j in range(boxes + 2):
                acc[j] = 0.0
            for r in range(rolls):
                if mass[r] != 0.0:
                    for j in range(boxes + 2):
                        acc[j] += mass[r] * parts[r, j]
            o = offsets[i]
            for b in range(boxes):
                if not (mask >> b) & 1:
                    data[o] = acc[b]
                    o += 1
            for j in range(bonuses.shape[0]):
                data[o] = acc[bonuses[j]]
                o += 1


# ---------------------------------------------------------------------------------------------
# The table


def _bonuses(rules: RuleSet) -> IntArray:
    """The bonus components the rules' states carry, as their places in the kernels' full
    vectors (B boxes, upper bonus, extra bonus): the upper bonus's (only when the rules have
    one) and the extra-Yahtzee bonus's (only when they pay it), as in `component_keys`."""
    arrays = rule_arrays(rules)
    slots = [
        *((arrays.boxes,) if arrays.upper_bonus else ()),
        *((arrays.boxes + 1,) if arrays.yahtzee_bonus else ()),
    ]
    return np.array(slots, dtype=np.int64)


def component_keys(rules: RuleSet) -> tuple[str, ...]:
    """The components of a breakdown, in order: each box's key (card order), the upper bonus
    (when the rules have one) and the extra-Yahtzee bonus (when they pay it)."""
    arrays = rule_arrays(rules)
    return (
        *(box.key for box in rules.boxes),
        *((UPPER_BONUS,) if arrays.upper_bonus else ()),
        *((EXTRA_BONUS,) if arrays.yahtzee_bonus else ()),
    )


def _layout(rules: RuleSet) -> tuple[list[Any], list[IntArray], IntArray, int]:
    """The layers, each layer's offsets into the flat data, the index of every state's first
    component ([mask, upper, armed]) and the data's length."""
    arrays = rule_arrays(rules)
    bonuses = len(_bonuses(rules))
    layers = policy_layers(rules)
    index: IntArray = np.zeros((arrays.full_mask + 1, arrays.cap + 1, 2), dtype=np.int32)
    index[arrays.full_mask] = 0  # a complete card: its bonus components, 0, come first
    position = bonuses
    offsets: list[IntArray] = []
    for masks, ups, armeds, copy_masks, copy_to, copy_from in layers:
        open_count = np.zeros(masks.size, dtype=np.int64)
        for b in range(arrays.boxes):
            open_count += 1 - ((masks >> b) & 1)
        sizes = open_count + bonuses
        starts = position + np.cumsum(sizes) - sizes
        offsets.append(starts)
        index[masks, ups, armeds] = starts
        yahtzee = arrays.yahtzee if arrays.yahtzee_bonus else None
        # The states the solver copies (dead upper totals, an armed flag that cannot matter)
        # play alike: they share the components of the state they are copied from.
        s.fill_copied_states(index, masks, armeds, copy_masks, copy_to, copy_from, yahtzee)
        position += int(sizes.sum())
    index.setflags(write=False)
    return layers, offsets, index, position


@dataclass(frozen=True, eq=False)
class BreakdownTable:
    """For every reachable between-turn state, the expected points still to come under the
    optimal policy of `table`, split by component (`component_keys`: each box, then the bonuses).

    Attributes:
        table: the strategy table whose policy is followed.
        data: the flat float64 components (a state's open boxes, then its bonuses).
        index: int32 [mask, upper, armed]: where each state's components start in `data`.
        values: the policy's values as float64 (NaN → 0), what the kernels read.
    """

    table: StrategyTable
    data: FloatArray = field(repr=False)
    index: IntArray = field(repr=False)
    values: FloatArray = field(repr=False)

    @property
    def rules(self) -> RuleSet:
        return self.table.rules

    @cached_property
    def keys(self) -> tuple[str, ...]:
        """The components' names (`component_keys`)."""
        return component_keys(self.rules)

    @cached_property
    def _present(self) -> IntArray:
        """Positions of `keys` in the kernels' full vectors (boxes, upper bonus, extra)."""
        boxes = np.arange(rule_arrays(self.rules).boxes, dtype=np.int64)
        return np.concatenate((boxes, _bonuses(self.rules)))

    def state_vector(self, mask: int, up: int, armed: bool) -> FloatArray:
        """A between-turn state's components in the kernels' full order (B boxes, upper
        bonus, extra bonus)."""
        arrays = rule_arrays(self.rules)
        out = np.zeros(arrays.boxes + 2)
        _add_state(
            out,
            1.0,
            self.data,
            self.index,
            mask,
            min(up, self.table.upper_cap),
            int(armed),
            arrays.boxes,
            _bonuses(self.rules),
        )
        return out

    def state(self, mask: int, up: int, armed: bool) -> dict[str, float]:
        """The expected points to come of each component from a between-turn state."""
        vector = self.state_vector(mask, up, armed)[self._present]
        return dict(zip(self.keys, vector.tolist(), strict=True))

    def column(self, column: Column) -> dict[str, float]:
        """The breakdown at the start of a turn of this column."""
        return self.state(*s.column_state(self.rules, column))

    def named(self, vector: FloatArray) -> dict[str, float]:
        """A full-order vector as {component: points}."""
        return dict(zip(self.keys, vector[self._present].tolist(), strict=True))


def compute_breakdown(
    table: StrategyTable, progress: Callable[[int, int], None] | None = None
) -> BreakdownTable:
    """Fills the breakdown in layers, as `solver.solve` fills the values (about as long)."""
    rules = table.rules
    arrays = rule_arrays(rules)
    values = policy_values(table)
    layers, offsets, index, size = _layout(rules)
    data = np.zeros(size)
    total = sum(int(layer[0].size) for layer in layers)
    dice = dice_arrays(arrays)
    done = 0
    for (masks, ups, armeds, *_copies), starts in zip(layers, offsets, strict=True):
        if masks.size:
            _breakdown_batch(
                (masks, ups, armeds), starts, values, data, index, arrays.kernel_rules, dice,
                rules.rolls_per_turn, _bonuses(rules),
            )  # fmt: skip
        done += int(masks.size)
        if progress is not None:
            progress(done, total)
    data.setflags(write=False)
    return BreakdownTable(table, data, index, values)


def _load_breakdown(table: StrategyTable, path: Path) -> BreakdownTable | None:
    with contextlib.suppress(OSError, ValueError):
        _layers, _offsets, index, size = _layout(table.rules)
        loaded = np.load(path, mmap_mode="r", allow_pickle=False)
        if loaded.shape == (size,) and loaded.dtype == np.float64:
            return BreakdownTable(table, loaded, index, policy_values(table))
    return None


BREAKDOWNS = CompanionTables[BreakdownTable](
    "breakdown",
    f"breakdown{BREAKDOWN_VERSION}",
    _load_breakdown,
    compute_breakdown,
    lambda result, handle: np.save(handle, result.data, allow_pickle=False),
)
"""The breakdowns: the last two in memory, memory-mapped from disk beside the strategy table."""

load_or_compute = BREAKDOWNS.for_table
"""The breakdown of a strategy table: from memory or disk if there, else computed and saved,
once per machine."""
breakdown_of = BREAKDOWNS.of
"""The breakdown of single-column rules (solved and computed as needed; kept in memory).
Raises as `cache.load_or_solve`, and UnsupportedRulesError for several columns."""
breakdown_progress = BREAKDOWNS.build_progress
"""The progress of the breakdown's build under way, if any (`derived.BuildProgress`)."""


def breakdown_if_ready(rules: RuleSet) -> BreakdownTable | None:
    """The breakdown if it is at hand (in memory, or both files on disk: a quick load); else
    None, and it is prepared in a background thread (one rule set at a time), so that a web
    page never waits for it. None for Maxi Yatzy (no breakdown of its compact table)."""
    return BREAKDOWNS.ready(rules) if has_layer_tables(rules) else None


def breakdown_for(table: StrategyTable, *, wait: bool) -> BreakdownTable | None:
    """The breakdown of a table already at hand (the coach's): computed now if needed
    (`wait`), else only if at hand (`breakdown_if_ready`). Kept in memory as `breakdown_of`
    keeps it. None for Maxi Yatzy, whose compact table has no breakdown."""
    if not has_layer_tables(table.rules):
        return None
    if not wait:
        return breakdown_if_ready(table.rules)
    return load_or_compute(table)


# ---------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class OptionBreakdown:
    """One option's expected points to come, split by component, and its boxes' chances.

    Attributes:
        keep: the dice kept before rolling the others, or None.
        category: the box scored now, or None.
        parts: {component: expected points to come} (`component_keys`; the box's points and
            bonuses of this turn included, as in the option's value): they sum to its value.
        chances: for a keep, {box: the chance that, keeping these dice and playing on
            optimally (the expected-value policy: its keeps with the rolls left, then its
            box), this turn ends with that box scored for more than 0 points (the box's own
            points; bonuses aside)}, for every box with a chance above 0. For a box: that box,
            1.0 if the dice score there, else empty.
        value: the option's value as the advisor gives it (`advisor.Option.value`, to the
            last bit); `parts` sum to it to rounding (~1e-12).
    """

    keep: Roll | None
    category: Category | None
    parts: dict[str, float]
    chances: dict[str, float]
    value: float


def option_breakdowns(
    breakdown: BreakdownTable, column: Column, dice: tuple[int, ...], rolls_left: int
) -> list[OptionBreakdown]:
    """The breakdown of every option the advisor ranks at this decision, best first (the
    advisor's order).

    Raises:
        DiceError: not five dice 1-6.
        ValueError: rolls left out of range, or a complete card.
    """
    from fivedice.strategy.advisor import advise

    table = breakdown.table
    rules = table.rules
    arrays = rule_arrays(rules)
    options = advise(table, column, dice, rolls_left)
    mask, up, armed = s.column_state(rules, column)
    up = min(up, table.upper_cap)
    dice_tables = arrays.dice
    roll = dice_tables.roll_index[scoring_roll(rules, dice)]
    levels = rules.rolls_per_turn
    work = turn_work(
        levels,
        len(dice_tables.rolls),
        len(dice_tables.keeps),
        arrays.boxes,
        int(arrays.config[CFG_STRIDE]),
    )
    _policy(
        mask, up, int(armed), breakdown.values, arrays.kernel_rules, levels, dice_arrays(arrays),
        work,
    )  # fmt: skip
    rolls = len(dice_tables.rolls)
    parts = np.empty((rolls, arrays.boxes + 2))
    box_points = np.empty(rolls, dtype=np.int64)
    bonuses = _bonuses(rules)
    _roll_parts(
        mask,
        up,
        int(armed),
        work[3],
        breakdown.data,
        breakdown.index,
        arrays.kernel_rules,
        bonuses,
        parts,
        box_points,
    )
    result = []
    for option in options:
        if option.category is not None:
            b = rules.box_index(option.category.key)
            points, upper, extra, after, total, armed_after = kernel.placement_outcome(
                b, roll, mask, up, int(armed), arrays.kernel_rules
            )
            vector = np.zeros(arrays.boxes + 2)
            vector[b] += points
            vector[arrays.boxes] += upper
            vector[arrays.boxes + 1] += extra
            _add_state(
                vector,
                1.0,
                breakdown.data,
                breakdown.index,
                after,
                total,
                armed_after,
                arrays.boxes,
                bonuses,
            )
            chances = {option.category.key: 1.0} if points > 0 else {}
        else:
            assert option.keep is not None
            mass = _final_rolls(
                dice_tables.keep_index[option.keep], rolls_left, work[2], dice_tables
            )
            vector = mass @ parts
            scoring = np.bincount(work[3], weights=mass * (box_points > 0), minlength=arrays.boxes)
            chances = {
                rules.boxes[b].key: float(scoring[b])
                for b in range(arrays.boxes)
                if scoring[b] > 0.0
            }
        named = breakdown.named(vector)
        result.append(OptionBreakdown(option.keep, option.category, named, chances, option.value))
    return result


def _final_rolls(keep: int, rolls_left: int, best_keep: IntArray, dice: Any) -> FloatArray:
    """The chance of each roll a turn ends with, after keeping `keep` (an index into the
    keeps) and rolling the others, with `rolls_left` rolls left before that throw."""
    keep_mass = np.zeros(len(dice.keeps))
    keep_mass[keep] = 1.0
    _spread(keep_mass, dice.add_face)
    first = len(dice.keeps) - len(dice.rolls)
    mass = keep_mass[first:].copy()
    _walk_forward(mass, rolls_left - 1, best_keep, dice.add_face, keep_mass)
    return mass
