"""Compact state tables for cards of many boxes (Maxi Yatzy: 2^20 masks of filled boxes).

A dense table `values[mask, upper total, armed]` of Maxi Yatzy would hold 2^20 × 85 × 2
float64 (1.4 GB), most of them states no game reaches. A *compact* table stores only distinct
states, in blocks: one block per set of filled lower boxes (bits 6 and up of the mask), and
within a block one slot per (filled upper boxes, upper total) pair that can occur, where the
upper totals from which the bonus can no longer be reached share one slot (they play alike:
the total only matters for the bonus). For Maxi Yatzy's bonus at 84 that is 2,043 slots a
block and 33.5 million states (268 MB as float64), instead of 89 million.

When the rules pay an extra bonus for a further all-same roll, the states with that box filled
also have an *armed* copy: their blocks follow the 2^L unarmed ones, one per lower mask with
the box filled (the box's bit squeezed out of the index).

The kernels read such a table as the 3-tuple `(values, slot, layout)`
(`kernel.state_value`): `values` the flat float64 values, `slot[filled upper boxes, upper
total]` the slot in a block (-1: no game reaches it), `layout` = (slots a block, lower boxes,
bit of the all-same box among the lower boxes or -1 when nothing is ever armed).

>>> layout = compact_layout(84, 6, 20, -1)
>>> layout.block, layout.blocks, layout.states
(2043, 16384, 33472512)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from fivedice.strategy.rule_arrays import UPPER_BOXES
from fivedice.strategy.tables import FloatArray, IntArray

__all__ = ["CompactLayout", "compact_index", "compact_layout", "reachable_upper"]

UPPER_MASKS = 1 << UPPER_BOXES


def reachable_upper(cap: int, dice: int) -> npt.NDArray[np.bool_]:
    """reach[upper_mask, total]: whether the filled upper boxes can total `total` (capped).

    >>> reach = reachable_upper(84, 6)
    >>> bool(reach[0b1, 6]), bool(reach[0b1, 7])  # ones alone: 0 to 6
    (True, False)
    """
    reach = np.zeros((UPPER_MASKS, cap + 1), dtype=np.bool_)
    reach[0, 0] = True
    for upper_mask in range(1, UPPER_MASKS):
        low = upper_mask & -upper_mask
        face = low.bit_length()
        previous = reach[upper_mask ^ low]
        for total in np.flatnonzero(previous):
            for n in range(dice + 1):
                reach[upper_mask, min(cap, int(total) + face * n)] = True
    return reach


@dataclass(frozen=True, eq=False)
class CompactLayout:
    """Where each state of a compact table lives (see the module docstring).

    Attributes:
        slot: (64, cap + 1) int64, the slot of each (filled upper boxes, upper total) in a
            block; -1 where no game gets.
        layout: int64 (slots a block, lower boxes, armed bit among the lower boxes or -1).
        solved_totals: (64, n) int64, per filled upper boxes the upper totals to solve (one
            per slot, in slot order), -1 padded.
        solved_count: (64,) int64, how many totals each has.
        block: slots a block.
        blocks: how many blocks (2^L unarmed, then the armed ones).
        states: block × blocks, the table's length.
    """

    slot: IntArray
    layout: IntArray
    solved_totals: IntArray
    solved_count: IntArray
    block: int
    blocks: int

    @property
    def states(self) -> int:
        return self.block * self.blocks

    def kernel_table(self, values: FloatArray) -> tuple[FloatArray, IntArray, IntArray]:
        """The table as the kernels read it (`kernel.state_value`)."""
        return values, self.slot, self.layout


def compact_layout(
    cap: int, dice: int, boxes: int, armed_box: int, first_tier: int = 0
) -> CompactLayout:
    """The compact layout of a card of `boxes` boxes (the six upper ones first).

    Args:
        cap: the upper bonus threshold (0: no upper bonus; the total is then not kept).
        dice: the number of dice (an upper box holds 0 to `dice` of its face).
        boxes: the number of boxes.
        armed_box: the box whose score arms a bonus for further all-same rolls (-1: none).
        first_tier: with tiers of the upper bonus (`cap` the top one), the lowest threshold
            (0: `cap`, one tier).
    """
    lower = boxes - UPPER_BOXES
    reach = reachable_upper(cap, dice)
    slot = np.full((UPPER_MASKS, cap + 1), -1, dtype=np.int64)
    solved: list[IntArray] = []
    offset = 0
    for upper in range(UPPER_MASKS):
        totals = np.flatnonzero(reach[upper]).astype(np.int64)
        dead = totals[:0]
        if cap > 0:
            still_possible = sum(dice * (b + 1) for b in range(UPPER_BOXES) if not (upper >> b) & 1)
            dead = totals[totals < (first_tier or cap) - still_possible]
        live = totals[dead.size :]
        kept = np.concatenate((dead[:1], live))
        slot[upper, kept] = offset + np.arange(kept.size)
        slot[upper, dead] = offset
        solved.append(kept)
        offset += kept.size
    width = max(t.size for t in solved)
    solved_totals = np.full((UPPER_MASKS, width), -1, dtype=np.int64)
    for upper, totals_kept in enumerate(solved):
        solved_totals[upper, : totals_kept.size] = totals_kept
    solved_count = np.array([t.size for t in solved], dtype=np.int64)
    armed_bit = armed_box - UPPER_BOXES if armed_box >= UPPER_BOXES else -1
    blocks = (1 << lower) + ((1 << (lower - 1)) if armed_bit >= 0 else 0)
    layout = np.array([offset, lower, armed_bit], dtype=np.int64)
    for array in (slot, layout, solved_totals, solved_count):
        array.setflags(write=False)
    return CompactLayout(slot, layout, solved_totals, solved_count, offset, blocks)


@njit(cache=True, nogil=True)
def compact_index(slot: IntArray, layout: IntArray, mask: int, up: int, armed: int) -> int:
    """The position of a state in a compact table's values (see the module docstring)."""
    low = mask >> UPPER_BOXES
    bit = layout[2]
    if armed == 1 and bit >= 0:
        below = low & ((1 << bit) - 1)
        low = (1 << layout[1]) + (below | ((low >> (bit + 1)) << bit))
    return int(low * layout[0] + slot[mask & (UPPER_MASKS - 1), up])
