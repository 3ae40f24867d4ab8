"""Threshold tables: the best chance that the points still to come reach a target.

The solver's table maximises the *expected* points to come. A player with a goal ("beat 245",
"Ann has 231") wants instead the largest chance that the points still to come reach at least
`need`; the best policy for that differs per target. For every between-turn state s and every
target t in 0 … `top`, the table holds

    P*(s, t) = max over policies of P(points still to come from s ≥ t),

computed exactly, layer by layer like the solver (`solver.layer_to_solve`: a full card back
to the empty one, the same dead-upper-total and armed copies), with the same kernel pieces
(`kernel.open_and_allowed`, `kernel.boxes_of_roll` for the legal boxes and jokers, the dice
tables' ADD_FACE/REMOVE_FACE walk). For a roll scored in box b for p points (box, upper bonus,
extra-Yahtzee bonus) leading to state s', the chance is P*(s', t - p) (1 when t - p ≤ 0); a roll
takes its best box, a keep the mean over the next die's faces, a roll with rolls left its best
keep: the expectimax of `kernel.turn` with "max of expected chance" in place of "max of
expected points", run for a block of targets at once (the inner loops over the targets are
contiguous, so the compiler vectorises them).

Targets only go down along a game (t - p ≤ t), so a table for 0 … top is exact for every
target up to `top`; higher ones are refused (`TargetTooHigh`). `DEFAULT_TOP` caps targets at
400 points still to come (a classic game reaches 400 about once in a hundred games, and the
card's maximum when it is lower, e.g. Yatzy's 374): memory and build time grow with it.

Storage: one float32 row of top + 1 chances per *solved* state (the copies share their row:
`row_of[mask, upper, armed]`, -1 where no game goes), e.g. classic 359,613 rows × 401 × 4 B =
577 MB, saved next to the strategy table as `.npy` and memory-mapped on load.

Example (a small table of the last layers, quick: not a doctest, numba compiles for a while)::

    table = compute_thresholds(find_ruleset("classic"), top=60, min_filled=12)
    table.chance(0x0FFF, 0, False, 22)  # only Chance open, 22 points or more: 0.66…
    table.turn(0x0FFF, 0, False, 22, 3).keep_chances[2]  # each keep's chance, 2 rolls left
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from fivedice.core.errors import FivediceError
from fivedice.core.rules import RuleSet
from fivedice.strategy import kernel
from fivedice.strategy import solver as s
from fivedice.strategy.compact import reachable_upper
from fivedice.strategy.derived import (
    BuildProgress,
    CancelToken,
    DerivedTables,
    ProgressListener,
    Step,
    both_steps,
    build_in_memory,
    load_or_build,
)
from fivedice.strategy.limits import ask_new_solve_permit, check_allowed, has_layer_tables
from fivedice.strategy.rule_arrays import (
    CFG_BOXES,
    CFG_CAP,
    CFG_ROLLS,
    CFG_YAHTZEE_BONUS,
    UPPER_BOXES,
    RuleArrays,
    rule_arrays,
)
from fivedice.strategy.tables import FloatArray, IntArray

__all__ = [
    "DEFAULT_TOP",
    "BuildCost",
    "TargetTooHigh",
    "ThresholdTable",
    "TurnChances",
    "build_cost",
    "check_rules",
    "compute_thresholds",
    "load_or_compute",
    "thresholds_if_ready",
    "thresholds_of",
    "thresholds_progress",
]

DEFAULT_TOP = 400
"""The highest target (points still to come) a table holds by default (see the module doc)."""

THRESHOLDS_VERSION = "1"
_BLOCK = 64  # targets computed together: the scratch of a block stays in the core's cache

Float32Array = npt.NDArray[np.float32]


class TargetTooHigh(FivediceError):
    """The target is above the highest one the threshold table holds."""


# ---------------------------------------------------------------------------------------------
# Kernels


@njit(cache=True, nogil=True, inline="always")
def box_outcome(
    b: int, r: int, joker: bool, extra: int, mask: int, up: int, armed: int, rules: Any
) -> tuple[int, int, int, int]:
    """Roll r scored in legal box b: (points with every bonus, next mask, upper, armed).

    Mirrors `kernel.prepare_futures` and `kernel.box_value` (and so `Column.fill`)."""
    score, joker_score, arms, _, config = rules
    after = mask | (1 << b)
    if b < UPPER_BOXES:
        p = score[b, r]
        total = up + p
        bonus = kernel.upper_bonus_gain(up, p, config)
        total = min(total, config[CFG_CAP])
        return extra + p + bonus, after, total, armed
    if b == config[6]:  # the Yahtzee box (CFG_YAHTZEE): scoring a five of a kind arms the bonus
        return extra + score[b, r], after, up, arms[r]
    return extra + (joker_score[b, r] if joker else score[b, r]), after, up, armed


@njit(cache=True, nogil=True)
def roll_options(
    mask: int,
    up: int,
    armed: int,
    rules: Any,
    row_of: IntArray,
    points: IntArray,
    rows: IntArray,
    boxes: IntArray,
    counts: IntArray,
) -> None:
    """For every roll: its legal boxes (`boxes[r, :counts[r]]`), the points each scores and the
    row of the state it leads to."""
    config = rules[4]
    open_boxes, allowed = kernel.open_and_allowed(mask, config)
    for r in range(rules[0].shape[1]):
        chosen, joker, extra = kernel.boxes_of_roll(r, mask, open_boxes, allowed, armed, rules)
        c = 0
        for b in range(config[CFG_BOXES]):
            if (chosen >> b) & 1:
                p, nm, nu, na = box_outcome(b, r, joker, extra, mask, up, armed, rules)
                points[r, c] = p
                rows[r, c] = row_of[nm, nu, na]
                boxes[r, c] = b
                c += 1
        counts[r] = c


@njit(cache=True, nogil=True)
def _block(
    t0: int,
    width: int,
    points: IntArray,
    rows: IntArray,
    counts: IntArray,
    chances: Any,
    dice: tuple[IntArray, IntArray, FloatArray],
    roll_v: FloatArray,
    keep_v: FloatArray,
    running: FloatArray,
    start: FloatArray,
) -> None:
    """The turn for targets t0 … t0 + width - 1 (width ≤ roll_v.shape[2]): roll_v[n, r, j] the
    best chance holding roll r with n rolls left, keep_v[n, k, j] that of keep k with n rolls
    left (n ≥ 1), start[j] before the first roll."""
    add_face, remove_face, probability = dice
    levels, rolls = roll_v.shape[0], roll_v.shape[1]
    keeps = add_face.shape[0]
    first_roll = keeps - rolls
    sixth = np.float32(1.0 / 6.0)  # float32 arithmetic in the vectorised loops
    for r in range(rolls):
        out = roll_v[0, r]
        for j in range(width):
            out[j] = 0.0
        for c in range(counts[r]):
            p = points[r, c]
            row = chances[rows[r, c]]
            sure = min(width, max(p - t0 + 1, 0))  # targets met by this box alone
            for j in range(sure):
                out[j] = 1.0
            for j in range(sure, width):
                v = row[t0 + j - p]
                out[j] = v if v > out[j] else out[j]
    for n in range(1, levels):
        kv = keep_v[n]
        for r in range(rolls):
            into = kv[first_roll + r]
            held = roll_v[n - 1, r]
            for j in range(width):
                into[j] = held[j]
        for k in range(first_roll - 1, -1, -1):
            acc = kv[k]
            for j in range(width):
                acc[j] = 0.0
            for f in range(6):
                other = kv[add_face[k, f]]
                for j in range(width):
                    acc[j] += other[j]
            for j in range(width):
                acc[j] *= sixth
        for k in range(keeps):
            best = running[k]
            for j in range(width):
                best[j] = kv[k, j]
            for f in range(6):
                i = remove_face[k, f]
                if i < 0:
                    break
                sub = running[i]
                for j in range(width):
                    best[j] = sub[j] if sub[j] > best[j] else best[j]
        for r in range(rolls):
            row_n = roll_v[n, r]
            best = running[first_roll + r]
            for j in range(width):
                row_n[j] = best[j]
    last = roll_v[levels - 1]
    for j in range(width):
        start[j] = 0.0
    for r in range(rolls):
        pr = probability[r]
        for j in range(width):
            start[j] += pr * last[r, j]


@njit(cache=True, parallel=True)
def _layer(
    masks: IntArray,
    ups: IntArray,
    armeds: IntArray,
    row_of: IntArray,
    chances: Any,
    highest: IntArray,
    rules: Any,
    dice: tuple[IntArray, IntArray, FloatArray],
    levels: int,
    block: int,
) -> None:
    """Fills the chances of a layer's states (every target), in parallel, and `highest[row]`,
    the most points still to come (above it every chance is 0: those targets are skipped)."""
    n = masks.shape[0]
    top = chances.shape[1] - 1
    rolls = rules[0].shape[1]
    boxes = rules[4][CFG_BOXES]
    keeps = dice[0].shape[0]
    chunks = min(n, 64)
    for c in prange(chunks):
        points = np.empty((rolls, boxes), dtype=np.int64)
        rows = np.empty((rolls, boxes), dtype=np.int64)
        chosen = np.empty((rolls, boxes), dtype=np.int64)
        counts = np.empty(rolls, dtype=np.int64)
        # Contiguous float32 scratch (whole blocks, `width` used): the loops over the targets
        # vectorise; float32 as the table stores.
        roll_v = np.empty((levels, rolls, block), dtype=np.float32)
        keep_v = np.empty((levels, keeps, block), dtype=np.float32)
        running = np.empty((keeps, block), dtype=np.float32)
        start = np.empty(block, dtype=np.float32)
        for i in range(c * n // chunks, (c + 1) * n // chunks):
            roll_options(masks[i], ups[i], armeds[i], rules, row_of, points, rows, chosen, counts)
            row = row_of[masks[i], ups[i], armeds[i]]
            most = 0
            for r in range(rolls):
                for k in range(counts[r]):
                    most = max(most, points[r, k] + highest[rows[r, k]])
            highest[row] = most
            target = chances[row]
            target[0] = 1.0
            for t in range(min(most, top) + 1, top + 1):
                target[t] = 0.0
            for t0 in range(1, min(most, top) + 1, block):
                width = min(block, min(most, top) + 1 - t0)
                _block(
                    t0, width, points, rows, counts, chances, dice, roll_v, keep_v, running,
                    start,
                )  # fmt: skip
                for j in range(width):  # float32 sums of chances of 1 may round above it
                    target[t0 + j] = min(start[j], 1.0)


# ---------------------------------------------------------------------------------------------
# The table


@dataclass(frozen=True)
class TurnChances:
    """The best chances within one turn for one target (points still to come, this turn's
    included).

    Attributes:
        need: the target.
        roll_chances: (levels, 252) the chance holding each roll of `ALL_ROLLS` with n rolls
            left (row 0: it must be scored now).
        keep_chances: (levels, 462) the chance of keeping each keep of `ALL_KEEPS` and
            re-rolling the rest with n rolls left (row 0 unused).
        start: the chance before the turn's first roll.
    """

    need: int
    roll_chances: FloatArray = field(repr=False)
    keep_chances: FloatArray = field(repr=False)
    start: float


@dataclass(frozen=True, eq=False)
class ThresholdTable:
    """For every reachable between-turn state and target t ≤ `top`: the best chance that the
    points still to come reach t (`chances[row_of[mask, upper, armed], t]`).

    Attributes:
        rules: the single-column rules.
        top: the highest target held.
        row_of: int64 (masks, upper cap + 1, 2): each state's row, -1 where no game goes.
        chances: float32 (rows, top + 1), maybe memory-mapped.
        min_filled: states with fewer filled boxes than this were not computed (0: all).
    """

    rules: RuleSet
    top: int
    row_of: IntArray = field(repr=False)
    chances: Float32Array = field(repr=False)
    min_filled: int = 0

    @property
    def arrays(self) -> RuleArrays:
        return rule_arrays(self.rules)

    def _row(self, mask: int, up: int, armed: bool) -> int:
        arrays = self.arrays
        if not 0 <= mask <= arrays.full_mask or up < 0:
            raise ValueError(f"no such state: mask {mask}, upper total {up}")
        if bin(mask).count("1") < self.min_filled:
            raise ValueError(
                f"this table holds states with at least {self.min_filled} boxes filled"
            )
        row = int(self.row_of[mask, min(up, arrays.cap), int(armed)])
        if row < 0:
            raise ValueError(f"upper total {up} cannot occur with filled mask {mask:#x}")
        return row

    def _check_need(self, need: int) -> None:
        if need > self.top:
            raise TargetTooHigh(
                f"a target of {need} points to come is above this table's {self.top}"
            )

    def chance(self, mask: int, up: int, armed: bool, need: int) -> float:
        """The best chance that the points still to come from a between-turn state reach
        `need` (1 for need ≤ 0).

        Raises:
            TargetTooHigh: need > top.
            ValueError: no such state.
        """
        row = self._row(mask, up, armed)
        if need <= 0:
            return 1.0
        self._check_need(need)
        return float(self.chances[row, need])

    def state_chances(self, mask: int, up: int, armed: bool) -> Float32Array:
        """The chances of a state for every target 0 … top (read-only)."""
        row: Float32Array = self.chances[self._row(mask, up, armed)]
        return row

    def turn(self, mask: int, up: int, armed: bool, need: int, levels: int) -> TurnChances:
        """Within a turn from a between-turn state, for one target: the chance of every roll and
        keep with 0 … levels - 1 rolls left, exactly over the dice from the next states' rows.
        """
        self._row(mask, up, armed)
        arrays = self.arrays
        dice = arrays.dice
        rolls, keeps = len(dice.rolls), len(dice.keeps)
        roll_v = np.zeros((levels, rolls, 1))
        keep_v = np.full((levels, keeps, 1), np.nan)
        start = np.empty(1)
        if need <= 0:
            roll_v[:] = 1.0
            keep_v[1:] = 1.0
            return TurnChances(need, roll_v[:, :, 0], keep_v[:, :, 0], 1.0)
        self._check_need(need)
        points, rows, _, counts = self._options(mask, up, armed)
        _block(
            need, 1, points, rows, counts, self.chances, (dice.add_face, dice.remove_face,
            dice.probability), roll_v, keep_v, np.empty((keeps, 1)), start,
        )  # fmt: skip
        return TurnChances(need, roll_v[:, :, 0], keep_v[:, :, 0], float(start[0]))

    def box_chances(
        self, mask: int, up: int, armed: bool, roll: int, need: int
    ) -> list[tuple[int, float]]:
        """Every legal box for roll `roll` (index in the dice tables' rolls) with the best
        chance of reaching `need` after scoring it there: (box index, chance), card order."""
        self._row(mask, up, armed)
        points, rows, boxes, counts = self._options(mask, up, armed)
        result = []
        for c in range(int(counts[roll])):
            rest = need - int(points[roll, c])
            if rest > self.top:
                raise TargetTooHigh(f"a target of {need} points is above this table's {self.top}")
            chance = 1.0 if rest <= 0 else float(self.chances[rows[roll, c], rest])
            result.append((int(boxes[roll, c]), chance))
        return result

    def _options(
        self, mask: int, up: int, armed: bool
    ) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        arrays = self.arrays
        rolls = arrays.score.shape[1]
        points = np.empty((rolls, arrays.boxes), dtype=np.int64)
        rows = np.empty((rolls, arrays.boxes), dtype=np.int64)
        boxes = np.empty((rolls, arrays.boxes), dtype=np.int64)
        counts = np.empty(rolls, dtype=np.int64)
        roll_options(
            mask, min(up, arrays.cap), int(armed), arrays.kernel_rules, self.row_of, points,
            rows, boxes, counts,
        )  # fmt: skip
        return points, rows, boxes, counts


_Layer = tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]


def _rows(arrays: RuleArrays) -> tuple[IntArray, list[_Layer], int]:
    """Every state's row (`row_of`), the layers to compute (a full card first, the empty card
    last, as the solver's) and the number of rows. Row 0 is the full card (chance 1 for
    target 0, else 0)."""
    reach = reachable_upper(arrays.cap, arrays.dice.dice)
    layers = [s.layer_to_solve(arrays, f, reach) for f in range(arrays.boxes - 1, -1, -1)]
    row_of = np.full((arrays.full_mask + 1, arrays.cap + 1, 2), -1, dtype=np.int64)
    row_of[arrays.full_mask] = 0
    rows = 1
    for masks, ups, armeds, copy_masks, copy_to, copy_from in layers:
        row_of[masks, ups, armeds] = np.arange(rows, rows + masks.size)
        rows += int(masks.size)
        yahtzee = arrays.yahtzee if arrays.yahtzee_bonus else None
        s.fill_copied_states(row_of, masks, armeds, copy_masks, copy_to, copy_from, yahtzee)
    row_of.setflags(write=False)
    return row_of, layers, rows


def check_rules(rules: RuleSet) -> None:
    """Refuses rules the threshold tables cannot be computed for (those the exact solver
    does not handle, and Maxi Yatzy's compact table: `UnsupportedRulesError`)."""
    s.check_rules(rules)
    if not has_layer_tables(rules):
        raise s.UnsupportedRulesError("no threshold tables over a compact table (Maxi Yatzy)")


def default_top(rules: RuleSet) -> int:
    """`DEFAULT_TOP`, or the most a whole game of these rules can score when that is less
    (every box at its best, the upper bonus, an extra-Yahtzee bonus on every other turn)."""
    arrays = rule_arrays(rules)
    best = int(np.maximum(arrays.score, arrays.joker_score).max(axis=1).sum())
    best += rules.upper_bonus_points(rules.upper_bonus_cap)
    if arrays.yahtzee_bonus:
        best += int(arrays.config[CFG_YAHTZEE_BONUS]) * (arrays.boxes - 1)
    return min(DEFAULT_TOP, best)


def compute_thresholds(
    rules: RuleSet,
    top: int = DEFAULT_TOP,
    *,
    min_filled: int = 0,
    out: Float32Array | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ThresholdTable:
    """Computes the threshold table of single-column rules, layer by layer.

    Args:
        rules: rules the exact solver handles.
        top: the highest target (points still to come), ≥ 1.
        min_filled: compute only the states with at least this many boxes filled (the last
            layers: a quick table for late positions and tests).
        out: a float32 (rows, top + 1) array to fill (e.g. a memory-mapped file).
        progress: called as `progress(states_done, states_total)`.

    Raises:
        UnsupportedRulesError: rules the exact solver does not handle, or Maxi Yatzy.
    """
    check_rules(rules)
    if top < 1:
        raise ValueError(f"the highest target must be at least 1, not {top}")
    arrays = rule_arrays(rules)
    row_of, layers, rows = _rows(arrays)
    chances = np.full((rows, top + 1), np.nan, dtype=np.float32) if out is None else out
    chances[0] = 0.0
    chances[0, 0] = 1.0
    highest = np.zeros(rows, dtype=np.int64)
    dice = (arrays.dice.add_face, arrays.dice.remove_face, arrays.dice.probability)
    todo = layers[: max(arrays.boxes - min_filled, 0)]
    total = sum(int(layer[0].size) for layer in todo)
    done = 0
    for masks, ups, armeds, *_ in todo:
        for begin in range(0, masks.size, 8192):
            stop = min(begin + 8192, masks.size)
            _layer(
                masks[begin:stop], ups[begin:stop], armeds[begin:stop], row_of, chances,
                highest, arrays.kernel_rules, dice, int(arrays.config[CFG_ROLLS]), _BLOCK,
            )  # fmt: skip
            done += stop - begin
            if progress is not None:
                progress(done, total)
    return ThresholdTable(rules, top, row_of, chances, min_filled)


# ---------------------------------------------------------------------------------------------
# On disk and in memory


def _path(rules: RuleSet, top: int, cache_dir: str | os.PathLike[str] | None) -> Path:
    from fivedice.strategy.cache import cache_key, resolve_cache_dir

    name = f"thresholds{THRESHOLDS_VERSION}-{cache_key(rules)}-{top}.npy"
    return resolve_cache_dir(cache_dir) / name


def _load_thresholds(rules: RuleSet, top: int, path: Path) -> ThresholdTable | None:
    with contextlib.suppress(OSError, ValueError):
        loaded = np.load(path, mmap_mode="r", allow_pickle=False)
        row_of, _, rows = _rows(rule_arrays(rules))
        if loaded.shape == (rows, top + 1) and loaded.dtype == np.float32:
            return ThresholdTable(rules, top, row_of, loaded)
    return None


def _build_thresholds(
    rules: RuleSet, top: int, temporary: Path | None, step: Step
) -> ThresholdTable:
    """Computes the table, straight into the temporary file when there is one (hundreds of MB:
    never all in memory); the file is read again, memory-mapped, once in place."""
    if temporary is None:
        return compute_thresholds(rules, top, progress=step)
    _, _, rows = _rows(rule_arrays(rules))
    out = np.lib.format.open_memmap(temporary, mode="w+", dtype=np.float32,
                                    shape=(rows, top + 1))  # fmt: skip
    table = compute_thresholds(rules, top, out=out, progress=step)
    out.flush()
    return table


GOAL_TABLES = DerivedTables[ThresholdTable]("goal")
"""The threshold (goal) tables of this process (the last two, memory-mapped)."""


def _key(rules: RuleSet, top: int, cache_dir: str | os.PathLike[str] | None) -> Any:
    return (rules, top, None if cache_dir is None else str(cache_dir))


def load_or_compute(
    rules: RuleSet,
    top: int = DEFAULT_TOP,
    *,
    use_cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    listener: ProgressListener | None = None,
    cancel: CancelToken | None = None,
) -> ThresholdTable:
    """The threshold table of the rules: memory-mapped from disk when a complete file is there,
    else computed (straight into a temporary file, renamed when complete) once per machine
    (`derived.load_or_build`) and read again memory-mapped."""

    def build(temporary: Path | None, step: Step) -> ThresholdTable:
        both = both_steps(step, progress)
        return _build_thresholds(rules, top, temporary, both)

    if not use_cache:
        return build_in_memory(build, kind=GOAL_TABLES.kind, listener=listener, cancel=cancel)
    from fivedice.strategy.cache import keep_in_bounds

    path = _path(rules, top, cache_dir)
    load_or_build(
        path, lambda found: _load_thresholds(rules, top, found), build, kind=GOAL_TABLES.kind,
        written=lambda: keep_in_bounds(rules, cache_dir), listener=listener, cancel=cancel,
    )  # fmt: skip
    loaded = _load_thresholds(rules, top, path)  # memory-mapped, not the build's array
    if loaded is None:
        raise OSError(f"the goal table {path} could not be read back")
    return loaded


def thresholds_of(
    rules: RuleSet,
    top: int = DEFAULT_TOP,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    listener: ProgressListener | None = None,
    cancel: CancelToken | None = None,
) -> ThresholdTable:
    """The threshold table of the rules (from memory, disk or computed once; kept in memory)."""
    return GOAL_TABLES.remembered(
        _key(rules, top, cache_dir),
        lambda: load_or_compute(rules, top, cache_dir=cache_dir, listener=listener, cancel=cancel),
    )


def thresholds_if_ready(rules: RuleSet, top: int) -> ThresholdTable | None:
    """The threshold table if it is at hand (in memory, or on disk: a quick memory map); else
    None, and it is computed in a background thread (one at a time), so that a web page
    never waits minutes for it. Minutes of CPU and hundreds of MB: a server's client asks
    the same permit as for a new table (raises SolverBusyError when its quota is spent)."""
    key, path = _key(rules, top, None), _path(rules, top, None)
    if GOAL_TABLES.at_hand(key) is None and not path.exists():
        check_allowed(rules)  # (`--solve-only`: no build for rules this server does not solve)
    return GOAL_TABLES.if_ready(
        key,
        path,
        lambda listener: thresholds_of(rules, top, listener=listener),
        before_start=lambda: ask_new_solve_permit(rules),
    )


CPU_SECONDS_PER_CELL = 313.5 / (359_613 * 401)
"""The build's CPU time per stored chance, measured: classic (359,613 rows × 401 targets) in
313.5 s of CPU (benchmarks/bench_thresholds.py --build; docs/play/tables.md)."""


@dataclass(frozen=True)
class BuildCost:
    """What building a goal table costs, told before it starts: bytes on disk, CPU seconds."""

    size: int
    cpu_seconds: float


def build_cost(rules: RuleSet, top: int) -> BuildCost | None:
    """The cost of the rules' goal table up to `top` if it is not on disk yet, else None."""
    if _path(rules, top, None).exists():
        return None
    _, _, rows = _rows(rule_arrays(rules))
    cells = rows * (top + 1)
    return BuildCost(cells * 4 + 128, cells * CPU_SECONDS_PER_CELL)


def thresholds_progress(rules: RuleSet, top: int) -> BuildProgress | None:
    """The progress of the goal table's build under way, if any (`derived.BuildProgress`)."""
    return GOAL_TABLES.progress(_key(rules, top, None), _path(rules, top, None))
