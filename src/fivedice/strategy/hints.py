"""The coach's options at a decision as one `Hint` type, for one column or several.

Every front end (terminal app, plain mode, web pages, JSON API, tutorial coach, review) gets
hints from the service as `Hint`s built here, in one place: exact ones from the advisor's
options for one column (`exact_hints`), estimated ones valued as the expert CPU values them
for several columns (`estimated_hints`). `hints_for` picks the one that fits a state.

Importing this module is cheap (core only): the solver, the advisor and the CPU kernels are
imported when a hint is asked for, so the service can name `Hint` without the strategy
layer's numpy/numba.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from fivedice.core.actions import Score
from fivedice.core.categories import Category
from fivedice.core.game import GameState
from fivedice.core.scoring import position_codes
from fivedice.core.wild import die_token, face_of

if TYPE_CHECKING:
    from fivedice.core.card import Column
    from fivedice.strategy.breakdown import BreakdownTable
    from fivedice.strategy.column_breakdown import CardBreakdown
    from fivedice.strategy.solver import StrategyTable

__all__ = [
    "Hint",
    "HintKind",
    "Reason",
    "estimated_hints",
    "exact_hints",
    "find_hint",
    "hints_for",
    "hold_positions",
    "reasons",
]


class HintKind(StrEnum):
    """What a hint says to do: keep some dice and roll the others, or score a box."""

    KEEP = "keep"
    SCORE = "score"


@dataclass(frozen=True, slots=True)
class Hint:
    """One option of the coach at a decision: keep dice and roll, or score a box.

    Exactly one of `keep` and `category` is set.

    Attributes:
        keep: the dice values to keep (sorted) before rolling the others, or None.
        category: the box to score in now, or None.
        column: the box's column (0-based) in a several-column game; None for a keep and for
            a one-column game.
        value: the expected points still to come after this choice (the box's points and
            bonuses included, the points already on the card excluded).
        loss: the best option's value minus this one's (0 for the best).
        estimate: True when the values are the expert CPU's estimates (several columns:
            each column's optimal one-column values times its multiplier), not exact optima.
        hold: for a keep, the dice positions (1-5) to hold so that exactly `keep` is held,
            preferring dice held already; None for a box.
        parts: where `value` comes from, exactly: (component, expected points) for each box
            (key) and bonus ("upper_bonus", "yahtzee_bonus") of the rules, summing to
            `value` (`fivedice.strategy.breakdown`); for several columns (estimates), keyed
            by column and component ("3:yahtzee", `fivedice.strategy.column_breakdown`),
            splitting the estimate; None when not asked for, or where there is no breakdown
            (Maxi Yatzy).
        chances: for a keep with `parts`, (box key, or "column:box" for several columns,
            chance) of each box that this turn may
            end scoring for more than 0 points, playing on optimally
            (`breakdown.OptionBreakdown.chances`), likeliest first; None otherwise.
        goal: for the coach of a goal (`fivedice.strategy.target`), the final total aimed
            at: then `value` is the best chance (0 to 1) of reaching it after this choice and
            `loss` the chance given up; None for the ordinary coach.
    """

    keep: tuple[int, ...] | None
    category: Category | None
    value: float
    loss: float = 0.0
    column: int | None = None
    estimate: bool = False
    hold: tuple[int, ...] | None = None
    parts: tuple[Reason, ...] | None = None
    chances: tuple[Reason, ...] | None = None
    goal: int | None = None

    @property
    def kind(self) -> HintKind:
        return HintKind.KEEP if self.category is None else HintKind.SCORE

    @property
    def box(self) -> str | None:
        """The box's key ("full_house"), or None for a keep."""
        return None if self.category is None else self.category.key

    @property
    def action(self) -> str:
        """The action that carries the hint out, in the game's notation: "score 2:sixes", or
        "roll" for a keep (once the dice of `hold` are held)."""
        if self.category is None:
            return "roll"
        return str(Score(self.category, self.column or 0))

    @property
    def notation(self) -> str:
        """The option as notation-like words: "keep 6 6", "keep nothing", "score sixes",
        "score 1:sixes" (a box of a several-column game names its column; English, for logs
        and `--json`; fronts word it through gettext)."""
        if self.category is not None and self.column is not None:
            return f"score {self.column + 1}:{self.category.key}"
        if self.category is not None:
            return f"score {self.category.key}"
        return "keep " + (" ".join(map(die_token, self.keep)) if self.keep else "nothing")

    def reasons(self, other: Hint, count: int | None = None) -> tuple[Reason, ...]:
        """What makes this option better than `other`, component by component (see
        `reasons`); () without breakdowns."""
        return reasons(self, other, REASONS if count is None else count)

    def is_choice(
        self,
        keep: Sequence[int] | None = None,
        category: Category | None = None,
        column: int | None = None,
    ) -> bool:
        """Whether this hint is the choice of a keep (any order), or of a box (in `column`,
        when both name a column)."""
        if category is not None:
            return self.category == category and (
                self.column is None or column is None or self.column == column
            )
        return keep is not None and self.keep is not None and self.keep == tuple(sorted(keep))


Reason = tuple[str, float]
"""A component (a box's key, "upper_bonus" or "yahtzee_bonus") and its points (or chance)."""

REASONS = 4
"""At most this many components make the difference between two options in words."""
NEGLIGIBLE = 0.05
"""Differences smaller than this (expected points) are not worth a reason: they round to 0.0."""


def reasons(better: Hint, other: Hint, count: int = REASONS) -> tuple[Reason, ...]:
    """What makes `better` better than `other`: the components whose expected points differ
    most (better − other), at most `count`, gains first (largest first), then losses (largest
    first); () when either has no `parts`.

    >>> a = Hint((2, 3, 4), None, 10.0, parts=(("sixes", 1.0), ("small_straight", 9.0)))
    >>> b = Hint((6, 6), None, 8.0, parts=(("sixes", 4.0), ("small_straight", 4.0)))
    >>> reasons(a, b)
    (('small_straight', 5.0), ('sixes', -3.0))
    """
    if better.parts is None or other.parts is None:
        return ()
    theirs = dict(other.parts)
    differences = [(key, points - theirs.get(key, 0.0)) for key, points in better.parts]
    largest = sorted(
        (item for item in differences if abs(item[1]) >= NEGLIGIBLE), key=lambda item: -abs(item[1])
    )[:count]
    gains = sorted((item for item in largest if item[1] > 0), key=lambda item: -item[1])
    losses = sorted((item for item in largest if item[1] < 0), key=lambda item: item[1])
    return (*gains, *losses)


def find_hint(
    hints: Sequence[Hint],
    keep: Sequence[int] | None = None,
    category: Category | None = None,
    column: int | None = None,
) -> Hint | None:
    """The hint of a choice (see `Hint.is_choice`), or None when it is not among them."""
    return next((hint for hint in hints if hint.is_choice(keep, category, column)), None)


def hold_positions(dice: Sequence[int], held: Sequence[bool], keep: Sequence[int]) -> set[int]:
    """Positions (1-5) to hold so that exactly the values in `keep` are held (with the wild
    die, `dice` coded as `scoring.position_codes` codes them: a plain face in `keep` is the
    wild die showing it when no other die does).

    Dice already held are preferred, so a CPU changes as few holds as it can.

    Raises:
        ValueError: `keep` is not among the dice.
    """
    wanted = Counter(keep)
    chosen: set[int] = set()
    order = sorted(range(len(dice)), key=lambda i: not held[i])
    for index in order:
        if wanted[dice[index]] > 0:
            wanted[dice[index]] -= 1
            chosen.add(index + 1)
    for index in order:  # a face kept without the wild die's code may be the wild die
        face = face_of(dice[index])
        if index + 1 not in chosen and face != dice[index] and wanted[face] > 0:
            wanted[face] -= 1
            chosen.add(index + 1)
    if sum(wanted.values()):
        raise ValueError(f"cannot keep {tuple(keep)} from {tuple(dice)}")
    return chosen


def _holds(state: GameState, keep: tuple[int, ...]) -> tuple[int, ...]:
    assert state.dice is not None
    dice = position_codes(state.rules, state.dice)
    return tuple(sorted(hold_positions(dice, state.turn.held, keep)))


def holds_finder(
    dice: Sequence[int], held: Sequence[bool]
) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """`hold_positions` for many keeps of the same dice, sorted: each face's positions (held
    dice first, as there) are found once, and a keep takes the first ones of its faces. The
    exact hints list up to 31 keeps of one roll, so this is most of a hint's time otherwise.

    >>> holds = holds_finder((6, 2, 6, 3, 6), (False, False, False, False, True))
    >>> holds((6, 6)), holds((2, 3, 6))
    ((1, 5), (2, 4, 5))

    Raises (the function returned):
        ValueError: `keep` is not among the dice.
    """
    positions: dict[int, list[int]] = {}
    for index in sorted(range(len(dice)), key=lambda i: not held[i]):
        positions.setdefault(dice[index], []).append(index + 1)

    def holds(keep: Sequence[int]) -> tuple[int, ...]:
        taken: dict[int, int] = {}
        chosen = []
        try:
            for face in keep:
                count = taken.get(face, 0)
                chosen.append(positions[face][count])
                taken[face] = count + 1
        except (KeyError, IndexError):
            raise ValueError(f"cannot keep {tuple(keep)} from {tuple(dice)}") from None
        chosen.sort()
        return tuple(chosen)

    return holds


def _check_decision(state: GameState) -> tuple[int, ...]:
    if state.dice is None or state.is_match_over:
        raise ValueError("there is no decision to hint at: no dice rolled, or the game is over")
    return state.dice


def hints_for(
    state: GameState, table: StrategyTable | None = None, *, explain: bool | None = False
) -> list[Hint]:
    """Every option of the seat to move, best first: exact for one column (from `table`, or
    the solved table of the rules), estimated for several columns and for rules the solver
    does not handle (Maxi Yatzy: its saved rolls).

    `explain`: True gives exact hints their `parts` and `chances` (the breakdown is computed
    if needed: about as long as a solve, the first time for a rule set); None gives them only
    when the breakdown is at hand (else it is prepared in the background: for a web page);
    estimated hints of several columns have them too, per column (`column_breakdown`), but
    hints of rules the solver does not handle (Maxi Yatzy) never.

    Raises:
        ValueError: no dice are rolled, or the game is over.
        SolveNotAllowedError, SolverBusyError: the rules' table may not be solved here, or
            not now (see `fivedice.strategy.limits`).
        ImportError: the strategy layer's numpy/numba are not installed.
    """
    from fivedice.strategy.limits import is_supported

    _check_decision(state)
    if not is_supported(state.rules):
        return estimated_hints(state)  # Maxi Yatzy's saved rolls: no breakdown at all
    if state.rules.columns != 1:
        return estimated_hints(state, explain=explain)
    if table is None:
        from fivedice.strategy.cache import load_or_solve

        table = load_or_solve(state.rules)
    breakdown = None
    if explain is not False:
        from fivedice.strategy.breakdown import breakdown_for

        breakdown = breakdown_for(table, wait=bool(explain))
    return exact_hints(table, state, breakdown)


def exact_hints(
    table: StrategyTable, state: GameState, breakdown: BreakdownTable | None = None
) -> list[Hint]:
    """The advisor's exact options for a one-column state, best first, as hints; with
    `breakdown` (of the same rules), each with its `parts` and (keeps) `chances`.

    Asked of the engine that keeps each state's turn values (`turn_cache.advise`, the public
    `fivedice.advise`'s): a turn asks up to three times on one card, and a review walks the
    turns of a game, so most questions after a turn's first only read its kept values.
    """
    from fivedice.strategy.turn_cache import advise

    dice = _check_decision(state)
    column = state.cards[state.current_seat].columns[0]
    if breakdown is not None:
        return _explained_hints(breakdown, state, column, dice)
    holds = holds_finder(position_codes(state.rules, dice), state.turn.held)
    return [
        Hint(
            option.keep,
            option.category,
            option.value,
            option.loss,
            hold=None if option.keep is None else holds(option.keep),
        )
        for option in advise(table, column, dice, state.rolls_left)
    ]


def _explained_hints(
    breakdown: BreakdownTable, state: GameState, column: Column, dice: tuple[int, ...]
) -> list[Hint]:
    from fivedice.strategy.breakdown import option_breakdowns

    explained = option_breakdowns(breakdown, column, dice, state.rolls_left)
    best = explained[0].value if explained else 0.0
    hints = []
    for option in explained:
        value = option.value  # the advisor's, to the last bit (the parts sum to it ~1e-12)
        chances = None
        if option.keep is not None:
            chances = tuple(sorted(option.chances.items(), key=lambda item: -item[1]))
        hints.append(
            Hint(
                option.keep,
                option.category,
                value,
                max(best - value, 0.0),
                hold=None if option.keep is None else _holds(state, option.keep),
                parts=tuple(option.parts.items()),
                chances=chances,
            )
        )
    return hints


def estimated_hints(state: GameState, *, explain: bool | None = False) -> list[Hint]:
    """Every keep and every legal (column, box) of the seat to move, best first.

    Valued exactly as the expert CPU decides (`Bot.keep_options` and the same placement
    kernel as `Bot.choose_box`): per column, the optimal one-column state values times the
    column's multiplier. `value` is the estimated points still to come (the card's current
    estimate plus the option's gain), `loss` the difference to the best option. Equal values
    list boxes (columns left to right, card order) before keeps (largest first).

    `explain` (as `hints_for`'s; rules the exact solver handles): each hint gets its `parts`
    per column ("3:yahtzee": the same estimate split by the one-column breakdowns,
    `column_breakdown`) and, for a keep, its `chances` per (column, box).

    Raises:
        ValueError: no dice rolled, or the game is over.
    """
    from fivedice.strategy import heuristics as h
    from fivedice.strategy.bots import Level
    from fivedice.strategy.players import make_bot

    dice = _check_decision(state)
    rules = state.rules
    card = state.cards[state.current_seat]
    bot = make_bot(Level.EXPERT, rules)
    values = bot.values_for(rules)
    rt = h.rule_tables(rules)
    boxes, _ = h.card_arrays(card.columns)
    base = 0.0  # the card's estimated points to come: the zero of the options' values
    for index, column_boxes in enumerate(boxes):
        mask, up, armed = h.column_key(column_boxes, rt.params)
        base += rules.column_multipliers[index] * h.state_value(values, mask, up, armed)
    split = _card_breakdown(state, values, explain)
    raw: list[tuple[float, int, Hint]] = []
    cols, box_ids, _, option_values = h.card_placements(
        rules, boxes, tuple(sorted(dice)), False, values
    )
    for i in range(len(cols)):
        value = base + float(option_values[i])
        box = rules.boxes[int(box_ids[i])]
        column = int(cols[i]) if rules.columns > 1 else None  # one column: none to name
        parts = None
        if split is not None:
            parts = tuple(split.placements[(int(cols[i]), int(box_ids[i]))][0].items())
        hint = Hint(None, box, value, column=column, estimate=True, parts=parts)
        raw.append((value, len(raw), hint))
    if state.rolls_left > 0:
        for keep, gain in bot.keep_options(rules, card, dice, state.rolls_left):
            kept = tuple(keep)
            parts, chances = None, None
            if split is not None:
                named, odds, _value = split.keeps[kept]
                parts = tuple(named.items())
                chances = tuple(sorted(odds.items(), key=lambda item: -item[1]))
            hint = Hint(
                kept,
                None,
                base + gain,
                estimate=True,
                hold=_holds(state, kept),
                parts=parts,
                chances=chances,
            )
            raw.append((base + gain, len(raw), hint))
    raw.sort(key=lambda item: (-round(item[0], 9), item[1]))
    best = raw[0][0]
    return [
        Hint(
            hint.keep,
            hint.category,
            hint.value,
            max(best - value, 0.0),
            hint.column,
            hint.estimate,
            hint.hold,
            hint.parts,
            hint.chances,
        )
        for value, _, hint in raw
    ]


def _card_breakdown(state: GameState, values: object, explain: bool | None) -> CardBreakdown | None:
    """The per-column split of the estimates (`column_breakdown`), when asked for and the
    one-column breakdown is at hand (or `explain` is True: computed now); None otherwise."""
    rules = state.rules
    if explain is False or rules.columns == 1:
        return None
    from fivedice.strategy.breakdown import breakdown_for
    from fivedice.strategy.cache import load_or_solve
    from fivedice.strategy.column_breakdown import card_breakdown

    table = load_or_solve(rules.replace(column_multipliers=(1,)))
    breakdown = breakdown_for(table, wait=bool(explain))
    if breakdown is None:
        return None
    assert state.dice is not None
    return card_breakdown(
        breakdown,
        values,  # type: ignore[arg-type]
        rules,
        state.cards[state.current_seat],
        state.dice,
        state.rolls_left,
    )
