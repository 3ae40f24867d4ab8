"""The coach for a goal: every option ranked by its best chance of reaching a final total.

A goal is a final total (e.g. 246 to beat 245). The points still needed are the goal minus
the card's total; the threshold tables (`fivedice.strategy.thresholds`) give, exactly, the
best chance of each box (the next state's chance of the rest) and of each keep (the mean over
the dice of the best chance with one roll less), each target played for its own sake: the
advice for "beat 300" is not the expected-score advice.

One score column and rules the exact solver handles; the same `Hint` type as the ordinary
coach, with `goal` set and `value` the chance.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fivedice.core.card import Column
from fivedice.core.game import GameState
from fivedice.core.scoring import position_codes, scoring_roll
from fivedice.strategy.hints import Hint, hold_positions

if TYPE_CHECKING:
    from fivedice.strategy.thresholds import ThresholdTable

__all__ = ["column_target_hints", "goal_chance", "points_needed", "target_hints"]


def points_needed(state: GameState, goal: int, seat: int | None = None) -> int:
    """The points a seat (default: the one to move) still needs for a final total of `goal`."""
    who = state.current_seat if seat is None else seat
    return goal - state.totals[who]


def _table(state: GameState) -> ThresholdTable:
    from fivedice.strategy.thresholds import default_top, thresholds_of

    return thresholds_of(state.rules, default_top(state.rules))


def goal_chance(
    state: GameState, goal: int, seat: int | None = None, table: ThresholdTable | None = None
) -> float:
    """The best chance, at the start of a turn of `seat`, of finishing with `goal` points or
    more (1 once reached; 0 at the end of the card below it)."""
    from fivedice.strategy.solver import column_state

    who = state.current_seat if seat is None else seat
    column = state.cards[who].columns[0]
    need = points_needed(state, goal, who)
    if column.is_complete:
        return 1.0 if need <= 0 else 0.0
    table = _table(state) if table is None else table
    return table.chance(*column_state(state.rules, column), need)


def target_hints(state: GameState, goal: int, table: ThresholdTable | None = None) -> list[Hint]:
    """Every option of the seat to move, ranked by the best chance of a final total of at
    least `goal` (boxes in card order, then keeps, among equal chances).

    Raises:
        ValueError: no dice rolled, or the game is over.
        TargetTooHigh: more points needed than the table holds (`thresholds.DEFAULT_TOP`).
        UnsupportedRulesError: rules the exact solver does not handle.
    """
    if state.dice is None or state.is_match_over or state.is_game_over:
        raise ValueError("there is no decision to hint at: no dice rolled, or the game is over")
    table = _table(state) if table is None else table
    column = state.cards[state.current_seat].columns[0]
    return column_target_hints(
        table, column, state.dice, state.rolls_left, goal, state.totals[state.current_seat],
        state.turn.held,
    )  # fmt: skip


def column_target_hints(
    table: ThresholdTable,
    column: Column,
    dice: Sequence[int],
    rolls_left: int,
    goal: int,
    total: int,
    held: Sequence[bool] | None = None,
) -> list[Hint]:
    """`target_hints` for a column with `total` points on it, its dice (held: which are held
    already) and rolls left."""
    from fivedice.strategy import solver as s
    from fivedice.strategy.rule_arrays import rule_arrays

    rules = table.rules
    mask, up, armed = s.column_state(rules, column)
    need = goal - total
    tables = rule_arrays(rules).dice
    roll = tables.roll_index[scoring_roll(rules, dice)]
    options: list[tuple[float, Hint]] = [
        (chance, Hint(None, rules.boxes[box], chance, goal=goal))
        for box, chance in table.box_chances(mask, up, armed, roll, need)
    ]
    if rolls_left > 0:
        keeps = table.turn(mask, up, armed, need, rolls_left + 1).keep_chances[rolls_left]
        positions = position_codes(rules, dice)
        for k in tables.sub_keeps[roll].tolist():
            if k < 0:
                break
            keep = tables.keeps[k]
            hold = tuple(sorted(hold_positions(positions, held or (False,) * len(dice), keep)))
            chance = min(float(keeps[k]), 1.0)
            options.append((chance, Hint(keep, None, chance, hold=hold, goal=goal)))
    # Stable: equal chances keep boxes (card order) before keeps; float32 noise is not a rank.
    options.sort(key=lambda item: -round(item[0], 6))
    best = options[0][0]
    return [
        Hint(h.keep, h.category, h.value, max(best - h.value, 0.0), hold=h.hold, goal=goal)
        for _, h in options
    ]
