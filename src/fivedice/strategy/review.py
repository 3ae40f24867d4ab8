"""The review of a played game: every decision of every seat against the best one.

A game is reviewed by walking its replay (the states the core rebuilds from the saved log;
see `GameService.review`). Two kinds of decision are judged:

* a **keep**: each roll made while dice are showing; the dice held at that moment against
  the best keep for those dice and the rolls left then;
* a **box**: each box scored, against the best option of that moment (a box, or, while rolls
  are left, a keep: scoring early is judged against rolling on).

Values are expected points still to come under optimal play. With one column they are
exact (the advisor, from the solved table). With several columns there is no exact solution;
the options are then valued as the service's several-column hint values them (the expert
CPU's estimate: optimal one-column values per column times its multiplier), and every such
decision and the review as a whole are marked `exact=False`.

A decision's `loss` is the best option's value minus the chosen one's (0 for a best choice;
a choice tied with the best within `OPTIMAL_TOLERANCE` is reported as the best itself).

The curve of a seat has a point before its first turn and after each of its turns: the
points actually on the card, and the expected final score = those points + the optimal
expected points still to come (over a match: the match total so far, the current game's
points to come, and a fresh game's expectation for each game not yet started). Under
optimal play this is a fair forecast: it drifts only with the luck of the dice and the
points lost by decisions.

With several seats each curve point also has the seat's **chance of winning** from that
position (`CurvePoint.win_chance`) and every seat's chance at that same moment
(`CurvePoint.win_chances`, summing to 1), from the `win_chances` the service passes
(`fivedice.service.games.game_win_chances`; several columns: estimates). A solo game has none.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from fivedice.core.actions import Roll, Score, parse_action
from fivedice.core.card import ScoreCard
from fivedice.core.categories import Category
from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import GameState
from fivedice.core.rules import RuleSet, preset_name
from fivedice.strategy.hints import Hint, exact_hints

if TYPE_CHECKING:
    from fivedice.strategy.solver import StrategyTable

__all__ = [
    "OPTIMAL_TOLERANCE",
    "ChancesFor",
    "Choice",
    "CurvePoint",
    "Decision",
    "GameReview",
    "OptionsFor",
    "ReviewError",
    "SeatReview",
    "review_game",
]

OPTIMAL_TOLERANCE = 1e-9
"""A decision losing less than this (in expected points) counts as optimal."""

COSTLIEST = 3
"""How many of a seat's costliest decisions a review lists."""


class ReviewError(FivediceError):
    """A game cannot be reviewed (its log holds a choice no option matches)."""


OptionsFor = Callable[[GameState], Sequence[Hint]]
"""Every option of the seat to move in a state, best first (`fivedice.strategy.hints`)."""

ChancesFor = Callable[[GameState], tuple[float, ...] | None]
"""Every seat's chance of winning from a state (None: not known, e.g. a solo game)."""


@dataclass(frozen=True)
class Choice:
    """One option: keep dice (`keep` set) or score a box (`category` set, in `column`)."""

    keep: tuple[int, ...] | None = None
    category: Category | None = None
    column: int = 0
    several_columns: bool = False

    @property
    def label(self) -> str:
        """Action-like notation: "keep 6 6", "keep nothing", "score sixes", "score 2:sixes"."""
        if self.category is not None:
            if self.several_columns:
                return f"score {self.column + 1}:{self.category.key}"
            return f"score {self.category.key}"
        return "keep " + (" ".join(map(str, self.keep)) if self.keep else "nothing")


@dataclass(frozen=True)
class Decision:
    """One judged decision of a seat.

    Attributes:
        seat: the seat (0-based).
        game: the game of the match (1-based).
        turn: the seat's turn in that game (1-based).
        kind: "keep" (a roll with these dice held) or "box" (a box scored).
        dice: the dice showing when the decision was made.
        rolls_left: the rolls still allowed then.
        chosen, best: the option taken and the best option.
        chosen_value, best_value: their expected points still to come.
        loss: best_value - chosen_value (expected points; 0 for a best choice).
        exact: False when the values are estimates (several columns).
    """

    seat: int
    game: int
    turn: int
    kind: str
    dice: tuple[int, ...]
    rolls_left: int
    chosen: Choice
    best: Choice
    chosen_value: float
    best_value: float
    loss: float
    exact: bool

    @property
    def is_optimal(self) -> bool:
        return self.loss < OPTIMAL_TOLERANCE

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "turn": self.turn,
            "kind": self.kind,
            "dice": list(self.dice),
            "rolls_left": self.rolls_left,
            "chosen": self.chosen.label,
            "best": self.best.label,
            "chosen_value": self.chosen_value,
            "best_value": self.best_value,
            "loss": self.loss,
            "exact": self.exact,
        }


@dataclass(frozen=True)
class CurvePoint:
    """A seat's standing before its first turn (turn 0) and after each of its turns.

    Attributes:
        game: the game of the match (1-based).
        turn: the seat's turns completed in that game.
        scored: the points on the card (over a match: the match total so far).
        expected_final: `scored` + the optimal expected points still to come.
        win_chance: the seat's probability of winning from here (the game, or the match);
            None for a solo game or when the review was made without chances.
        win_chances: every seat's probability of winning at this same moment, in seat order
            (they sum to 1; `win_chance` is this seat's entry); None like `win_chance`.
    """

    game: int
    turn: int
    scored: int
    expected_final: float
    win_chance: float | None = None
    win_chances: tuple[float, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "turn": self.turn,
            "expected_final": self.expected_final,
            "scored": self.scored,
            "win_chance": self.win_chance,
            "win_chances": None if self.win_chances is None else list(self.win_chances),
        }


@dataclass(frozen=True)
class SeatReview:
    """Every decision of one seat, and its curve."""

    seat: int
    name: str
    cpu_level: str | None
    decisions: tuple[Decision, ...]
    curve: tuple[CurvePoint, ...]

    @property
    def total_loss(self) -> float:
        """Expected points lost by all decisions together."""
        return sum(decision.loss for decision in self.decisions)

    @property
    def optimal_share(self) -> float | None:
        """The share of decisions that lost nothing (None: the seat made no decision)."""
        if not self.decisions:
            return None
        return sum(decision.is_optimal for decision in self.decisions) / len(self.decisions)

    @property
    def costliest(self) -> tuple[Decision, ...]:
        """Up to three decisions that lost the most, costliest first (only ones that lost)."""
        losing = [decision for decision in self.decisions if not decision.is_optimal]
        losing.sort(key=lambda decision: -decision.loss)  # stable: earlier first among ties
        return tuple(losing[:COSTLIEST])

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "cpu_level": self.cpu_level,
            "total_loss": self.total_loss,
            "optimal_share": self.optimal_share,
            "costliest": [decision.to_json() for decision in self.costliest],
            "decisions": [decision.to_json() for decision in self.decisions],
            "curve": [point.to_json() for point in self.curve],
        }


@dataclass(frozen=True)
class GameReview:
    """The review of a game (or match): one `SeatReview` per seat, in seat order.

    Attributes:
        game_id: the saved game's id (None for a game that was never saved).
        rules: the rules played.
        status: the game's status when reviewed (finished or abandoned).
        exact: True when every value is exact (one column); False: estimates.
        seats: the seats' reviews.
    """

    game_id: int | None
    rules: RuleSet
    status: str
    exact: bool
    seats: tuple[SeatReview, ...]

    @property
    def rules_name(self) -> str:
        """The preset name of the rules, or "custom"."""
        return preset_name(self.rules) or "custom"

    def to_json(self) -> dict[str, Any]:
        """The review as JSON-ready data (`fivedice review --json`)."""
        return {
            "game": self.game_id,
            "rules": self.rules_name,
            "rule_settings": self.rules.settings(),
            "status": self.status,
            "exact": self.exact,
            "seats": [seat.to_json() for seat in self.seats],
        }


_tables_lock = threading.Lock()


@functools.lru_cache(maxsize=4)
def _table_cached(rules: RuleSet) -> StrategyTable:
    from fivedice.strategy.cache import load_or_solve

    return load_or_solve(rules)


def single_column_table(rules: RuleSet) -> StrategyTable:
    """The solved table of the one-column version of `rules` (kept for the next reviews)."""
    with _tables_lock:  # two reviews at once must not solve the same rules twice
        return _table_cached(rules.replace(column_multipliers=(1,)))


def exact_options(table: StrategyTable) -> OptionsFor:
    """The advisor's exact options for a one-column state (as the coach's hints)."""

    def options(state: GameState) -> Sequence[Hint]:
        return exact_hints(table, state)

    return options


def expected_to_come(table: StrategyTable, rules: RuleSet, card: ScoreCard) -> float:
    """The optimal expected points still to come on a card (several columns: an estimate,
    each column's one-column value times its multiplier)."""
    return sum(
        multiplier * table.column_value(column)
        for column, multiplier in zip(card.columns, rules.column_multipliers, strict=True)
        if not column.is_complete
    )


def review_game(
    replay: Iterable[tuple[str | None, GameState]],
    *,
    game_id: int | None = None,
    status: str = "finished",
    estimate_options: OptionsFor | None = None,
    win_chances: ChancesFor | None = None,
) -> GameReview:
    """Reviews a game from its replay.

    Args:
        replay: the new game as `(None, state)`, then each action's notation with the state
            after it (as `GameRecord.states()` gives them).
        game_id: the saved game's id, for the report.
        status: the game's status, for the report.
        estimate_options: values the options of a several-column state (the service's
            several-column hint); needed only for several columns.
        win_chances: every seat's chance of winning from a state; asked at the start and
            after every turn, for the curve points (None: the points have no chances).

    Raises:
        ReviewError: the replay is empty, a several-column game has no `estimate_options`,
            or a logged choice is not among the options.
    """
    steps = iter(replay)
    first = next(steps, None)
    if first is None:
        raise ReviewError(N_("there is nothing to review: the game has no record"))
    state = first[1]
    rules = state.rules
    exact = rules.is_single_column
    table = single_column_table(rules)
    if exact:
        options_for = exact_options(table)
    elif estimate_options is not None:
        options_for = estimate_options
    else:
        raise ReviewError(N_("several columns need the estimated hint to be reviewed"))
    fresh = expected_to_come(table, rules, ScoreCard.empty(rules))
    match_length = state.settings.match_length
    decisions: list[list[Decision]] = [[] for _ in state.seats]
    chances_for: ChancesFor = win_chances or (lambda _state: None)
    at_start = chances_for(state)
    curves: list[list[CurvePoint]] = [
        [_with_chances(CurvePoint(1, 0, 0, fresh * match_length), seat, at_start)]
        for seat in range(len(state.seats))
    ]
    for notation, after in steps:
        if notation is None:
            continue
        before = state
        state = after
        action = parse_action(notation, rules.dice)
        if before.dice is None or not isinstance(action, Roll | Score):
            continue  # the first roll of a turn, or a hold or release: no decision yet
        seat = before.current_seat
        if isinstance(action, Roll):
            chosen = Choice(keep=before.turn.kept_values)
        else:
            chosen = Choice(None, action.category, action.column, not exact)
        decisions[seat].append(_judge(before, chosen, options_for(before), exact))
        if isinstance(action, Score):
            point = _standing(before, after, seat, table, fresh)
            curves[seat].append(_with_chances(point, seat, chances_for(after)))
    seats = tuple(
        SeatReview(index, seat.name, seat.cpu_level, tuple(decisions[index]), tuple(curves[index]))
        for index, seat in enumerate(state.seats)
    )
    return GameReview(game_id, rules, status, exact, seats)


def _matches(option: Hint, choice: Choice, several_columns: bool) -> bool:
    if choice.category is not None:
        if option.category != choice.category:
            return False
        return not several_columns or (option.column or 0) == choice.column
    return option.keep is not None and tuple(option.keep) == choice.keep


def _choice_of(option: Hint, several_columns: bool) -> Choice:
    if option.category is not None:
        return Choice(None, option.category, option.column or 0, several_columns)
    return Choice(keep=tuple(option.keep or ()))


def _judge(state: GameState, chosen: Choice, options: Sequence[Hint], exact: bool) -> Decision:
    """The decision `chosen` at `state`, against the best of `options` (best first)."""
    several = not exact
    taken = next((option for option in options if _matches(option, chosen, several)), None)
    if taken is None or not options:
        raise ReviewError(
            N_("the choice {choice!r} is not among the options of its position"),
            choice=chosen.label,
        )
    best = options[0]
    loss = max(float(taken.loss), 0.0)
    best_choice = _choice_of(best, several)
    if loss < OPTIMAL_TOLERANCE:  # a tie with the best: the choice itself was best
        best_choice, best = chosen, taken
    assert state.dice is not None
    return Decision(
        seat=state.current_seat,
        game=state.game_number,
        turn=state.turn_number,
        kind="box" if chosen.category is not None else "keep",
        dice=state.dice,
        rolls_left=state.rolls_left,
        chosen=chosen,
        best=best_choice,
        chosen_value=float(taken.value),
        best_value=float(best.value),
        loss=loss,
        exact=exact,
    )


def _standing(
    before: GameState, after: GameState, seat: int, table: StrategyTable, fresh: float
) -> CurvePoint:
    """The seat's curve point after the turn that `before` → `after` ended."""
    rules = before.rules
    if after.game_number == before.game_number:
        card = after.cards[seat]
    else:  # the score finished a game of the match: its card is in finished_games now
        card = after.finished_games[-1].cards[seat]
    earlier = sum(game.totals[seat] for game in before.finished_games)
    scored = earlier + card.total(rules)
    games_to_start = before.settings.match_length - before.game_number
    expected = scored + expected_to_come(table, rules, card) + games_to_start * fresh
    return CurvePoint(before.game_number, card.boxes_filled, scored, expected)


def _with_chances(point: CurvePoint, seat: int, chances: tuple[float, ...] | None) -> CurvePoint:
    """The point with the chances of that moment (unchanged when there are none)."""
    if chances is None:
        return point
    return replace(point, win_chance=chances[seat], win_chances=tuple(chances))


def with_win_chances(review: GameReview, chances: Sequence[Sequence[float | None]]) -> GameReview:
    """The review with each seat's curve points given their winning chances.

    The hook for the winning-chances computation: `chances[seat][i]` is the chance of the
    seat's i-th curve point (None where unknown).
    """
    seats = tuple(
        replace(
            seat,
            curve=tuple(
                replace(point, win_chance=chance)
                for point, chance in zip(seat.curve, seat_chances, strict=True)
            ),
        )
        for seat, seat_chances in zip(review.seats, chances, strict=True)
    )
    return replace(review, seats=seats)
