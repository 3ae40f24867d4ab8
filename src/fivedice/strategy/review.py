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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from fivedice.core.actions import Roll, Score, parse_action
from fivedice.core.card import ScoreCard
from fivedice.core.categories import Category
from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import GameState
from fivedice.core.rules import RuleSet, preset_name
from fivedice.core.scoring import position_codes
from fivedice.core.wild import die_token
from fivedice.strategy.hints import Hint, exact_hints

if TYPE_CHECKING:
    from fivedice.strategy.breakdown import BreakdownTable
    from fivedice.strategy.solver import StrategyTable

__all__ = [
    "OPTIMAL_TOLERANCE",
    "ChancesFor",
    "Choice",
    "CurvePoint",
    "Decision",
    "GameReview",
    "GameSkill",
    "OptionsFor",
    "Proficiency",
    "ReviewError",
    "SeatReview",
    "SkillStats",
    "SkillTrend",
    "early_turns",
    "proficiency_of",
    "review_game",
    "skill_stats",
    "skill_trend",
    "turns_per_game",
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
        return "keep " + (" ".join(map(die_token, self.keep)) if self.keep else "nothing")


@dataclass(frozen=True)
class GoalVerdict:
    """A decision judged against a final total (the score that would have won the game):
    the best chance of reaching it after the choice made and after the best choice for it.

    Attributes:
        goal: the final total aimed at.
        best: the best choice for the goal (may differ from the best for points).
        chosen_chance, best_chance: the chances (0 to 1) of reaching it.
    """

    goal: int
    best: Choice
    chosen_chance: float
    best_chance: float

    @property
    def chance_lost(self) -> float:
        return max(self.best_chance - self.chosen_chance, 0.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.goal,
            "best": self.best.label,
            "chosen_chance": self.chosen_chance,
            "best_chance": self.best_chance,
        }


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
        reasons: what made the best option better than the chosen one, component by
            component (`Hint.reasons`: a box's key or a bonus, signed expected points); ()
            for a best choice, or without breakdowns (not at hand; several columns: keyed
            by column, "3:yahtzee", splitting the estimates).
        goal: judged against a goal too (the review's option): the chances of reaching it.
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
    reasons: tuple[tuple[str, float], ...] = ()
    goal: GoalVerdict | None = None

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
            "reasons": [{"component": key, "points": points} for key, points in self.reasons],
            **({"goal": self.goal.to_json()} if self.goal is not None else {}),
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
    """Every decision of one seat, its curve, and its proficiency (the loss per decision
    and how it splits; `proficiency_of` the decisions)."""

    seat: int
    name: str
    cpu_level: str | None
    decisions: tuple[Decision, ...]
    curve: tuple[CurvePoint, ...]
    proficiency: Proficiency = field(default_factory=lambda: Proficiency())

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
            "proficiency": self.proficiency.to_json(),
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


def exact_options(table: StrategyTable, breakdown: BreakdownTable | None = None) -> OptionsFor:
    """The advisor's exact options for a one-column state (as the coach's hints; with
    `breakdown`, with their parts: the reasons)."""

    def options(state: GameState) -> Sequence[Hint]:
        return exact_hints(table, state, breakdown)

    return options


def _breakdown(table: StrategyTable, explain: bool | None) -> BreakdownTable | None:
    """The breakdown for the reasons: computed if needed (True), only if at hand (None),
    or none (False)."""
    if explain is False:
        return None
    from fivedice.strategy.breakdown import breakdown_for

    return breakdown_for(table, wait=bool(explain))


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
    explain: bool | None = False,
    goals: Sequence[int | None] | None = None,
) -> GameReview:
    """Reviews a game from its replay.

    Args:
        replay: the new game as `(None, state)`, then each action's notation with the state
            after it (as `GameRecord.states()` gives them).
        game_id: the saved game's id, for the report.
        status: the game's status, for the report.
        estimate_options: values the options of a several-column state (the service's
            several-column hint, with its per-column reasons when it gives them); needed
            only for several columns.
        win_chances: every seat's chance of winning from a state; asked at the start and
            after every turn, for the curve points (None: the points have no chances).
        explain: give one-column decisions their reasons (`Decision.reasons`): True
            computes the breakdown if needed, None only if it is at hand, False never
            (several columns: `estimate_options` decides).
        goals: a final total per seat (None: none) to judge each of its decisions against
            too (`Decision.goal`: the chance of reaching it, chosen against best); one score
            column and one game a match.

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
        options_for = exact_options(table, _breakdown(table, explain))
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
            dice = position_codes(rules, before.dice)  # the wild die apart, as keeps have it
            held = zip(dice, before.turn.held, strict=True)
            chosen = Choice(keep=tuple(sorted(d for d, h in held if h)))
        else:
            chosen = Choice(None, action.category, action.column, not exact)
        decision = _judge(before, chosen, options_for(before), exact)
        goal = goals[seat] if goals is not None and exact and match_length == 1 else None
        if goal is not None:
            decision = replace(decision, goal=_judge_goal(before, chosen, goal))
        decisions[seat].append(decision)
        if isinstance(action, Score):
            point = _standing(before, after, seat, table, fresh)
            curves[seat].append(_with_chances(point, seat, chances_for(after)))
    turns = turns_per_game(rules)
    seats = tuple(
        SeatReview(
            index,
            seat.name,
            seat.cpu_level,
            tuple(decisions[index]),
            tuple(curves[index]),
            proficiency_of(decisions[index], turns, exact),
        )
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
        reasons=() if loss < OPTIMAL_TOLERANCE else best.reasons(taken),
    )


def _judge_goal(state: GameState, chosen: Choice, goal: int) -> GoalVerdict:
    """The decision `chosen` at `state` against the best for a final total of `goal`."""
    from fivedice.strategy.target import target_hints

    options = target_hints(state, goal)
    taken = next((option for option in options if _matches(option, chosen, False)), None)
    if taken is None:
        raise ReviewError(
            N_("the choice {choice!r} is not among the options of its position"),
            choice=chosen.label,
        )
    best = options[0]
    best_choice = chosen if best.value - taken.value < 1e-6 else _choice_of(best, False)
    return GoalVerdict(goal, best_choice, float(taken.value), float(best.value))


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


# -- proficiency: Verhoeff's loss per decision --------------------------------------------

PROFICIENCY_METHOD = 1
"""The version of the proficiency's definition (decisions judged, early and late turns):
stored summaries of another version are computed again."""

TREND_WINDOW = 10
"""The trend holds the last games (at most this many) against as many games before them."""


def early_turns(turns_per_game: int) -> int:
    """How many of a game's turns count as early: the first half, rounded down.

    Classic's 13 turns: turns 1-6 early, 7-13 late; Yatzy's 15: 1-7 / 8-15; a triple
    card's 39: 1-19 / 20-39.

    >>> early_turns(13), early_turns(15), early_turns(39)
    (6, 7, 19)
    """
    return turns_per_game // 2


@dataclass(frozen=True)
class Proficiency:
    """Verhoeff's proficiency measure over a run of decisions: the expected points lost per
    decision (every keep and every box choice counts once), with how it splits.

    Made from a seat's decisions (`proficiency_of`) and joined in play order (`then`), so a
    player's figures over many games are those of all their decisions at once: the loss
    per decision is pooled (decisions weigh equally, not games), and the longest run of
    optimal decisions may run on from one game into the next.

    Exact and estimated figures (several columns) never mix: `then` refuses to join them.

    Attributes:
        exact: whether the losses are exact (one column) or estimates.
        decisions, optimal: how many decisions, and how many of them lost nothing.
        loss: the expected points lost by all of them together.
        keeps, keep_loss / boxes, box_loss: the same for keeps and for box choices.
        early, early_loss / late, late_loss: for decisions in the early and late turns of
            a game (`early_turns`).
        longest_run: the longest run of optimal decisions in a row.
        opening_run, closing_run: optimal decisions in a row at the start and at the end
            (what a run joined to the neighbouring games' runs continues).
    """

    exact: bool = True
    decisions: int = 0
    optimal: int = 0
    loss: float = 0.0
    keeps: int = 0
    keep_loss: float = 0.0
    boxes: int = 0
    box_loss: float = 0.0
    early: int = 0
    early_loss: float = 0.0
    late: int = 0
    late_loss: float = 0.0
    longest_run: int = 0
    opening_run: int = 0
    closing_run: int = 0

    @property
    def loss_per_decision(self) -> float | None:
        """The headline: expected points lost per decision (None without decisions)."""
        return _per(self.loss, self.decisions)

    @property
    def optimal_share(self) -> float | None:
        """The share of decisions that lost nothing (None without decisions)."""
        return _per(self.optimal, self.decisions)

    @property
    def keep_loss_per_decision(self) -> float | None:
        return _per(self.keep_loss, self.keeps)

    @property
    def box_loss_per_decision(self) -> float | None:
        return _per(self.box_loss, self.boxes)

    @property
    def early_loss_per_decision(self) -> float | None:
        return _per(self.early_loss, self.early)

    @property
    def late_loss_per_decision(self) -> float | None:
        return _per(self.late_loss, self.late)

    @property
    def all_optimal(self) -> bool:
        return self.optimal == self.decisions

    def then(self, later: Proficiency) -> Proficiency:
        """These decisions followed by `later`'s, as one run.

        Raises:
            ReviewError: one is exact and the other an estimate (they must stay apart).
        """
        if not self.decisions:
            return later
        if not later.decisions:
            return self
        if self.exact != later.exact:
            raise ReviewError(N_("exact losses and estimated losses are never added up"))
        return Proficiency(
            exact=self.exact,
            decisions=self.decisions + later.decisions,
            optimal=self.optimal + later.optimal,
            loss=self.loss + later.loss,
            keeps=self.keeps + later.keeps,
            keep_loss=self.keep_loss + later.keep_loss,
            boxes=self.boxes + later.boxes,
            box_loss=self.box_loss + later.box_loss,
            early=self.early + later.early,
            early_loss=self.early_loss + later.early_loss,
            late=self.late + later.late,
            late_loss=self.late_loss + later.late_loss,
            longest_run=max(
                self.longest_run, later.longest_run, self.closing_run + later.opening_run
            ),
            opening_run=(
                self.decisions + later.opening_run if self.all_optimal else self.opening_run
            ),
            closing_run=(
                self.closing_run + later.decisions if later.all_optimal else later.closing_run
            ),
        )

    def figures(self) -> dict[str, float | int | bool]:
        """Every field by name (what the store keeps of a game's seat; `from_figures`)."""
        return {name: getattr(self, name) for name in PROFICIENCY_FIELDS}

    @classmethod
    def from_figures(cls, figures: Mapping[str, float | int | bool]) -> Proficiency:
        """The proficiency of stored `figures` (as `figures()` gave them)."""
        values: dict[str, Any] = {name: int(figures[name]) for name in _COUNTS}
        values |= {name: float(figures[name]) for name in _LOSSES}
        return cls(exact=bool(figures["exact"]), **values)

    def to_json(self) -> dict[str, Any]:
        return {
            "exact": self.exact,
            "loss_per_decision": self.loss_per_decision,
            "decisions": self.decisions,
            "optimal": self.optimal,
            "optimal_share": self.optimal_share,
            "total_loss": self.loss,
            "longest_optimal_run": self.longest_run,
            "keeps": {"decisions": self.keeps, "loss_per_decision": self.keep_loss_per_decision},
            "boxes": {"decisions": self.boxes, "loss_per_decision": self.box_loss_per_decision},
            "early": {"decisions": self.early, "loss_per_decision": self.early_loss_per_decision},
            "late": {"decisions": self.late, "loss_per_decision": self.late_loss_per_decision},
        }


_COUNTS = (
    "decisions",
    "optimal",
    "keeps",
    "boxes",
    "early",
    "late",
    "longest_run",
    "opening_run",
    "closing_run",
)
_LOSSES = ("loss", "keep_loss", "box_loss", "early_loss", "late_loss")
PROFICIENCY_FIELDS = ("exact", *_COUNTS, *_LOSSES)
"""The names of `Proficiency`'s fields, as the store keeps them."""


def _per(total: float, count: int) -> float | None:
    return total / count if count else None


def decision_proficiency(decision: Decision, turns_per_game: int) -> Proficiency:
    """The proficiency of one decision alone (`turns_per_game`: a seat's turns in a game)."""
    optimal = decision.is_optimal
    loss = 0.0 if optimal else decision.loss  # a tie within the tolerance lost nothing
    keep = decision.kind == "keep"
    early = decision.turn <= early_turns(turns_per_game)
    run = 1 if optimal else 0
    return Proficiency(
        exact=decision.exact,
        decisions=1,
        optimal=run,
        loss=loss,
        keeps=int(keep),
        keep_loss=loss if keep else 0.0,
        boxes=int(not keep),
        box_loss=0.0 if keep else loss,
        early=int(early),
        early_loss=loss if early else 0.0,
        late=int(not early),
        late_loss=0.0 if early else loss,
        longest_run=run,
        opening_run=run,
        closing_run=run,
    )


def proficiency_of(
    decisions: Iterable[Decision], turns_per_game: int, exact: bool = True
) -> Proficiency:
    """The proficiency of decisions in play order (`exact`: that of a seat with none)."""
    total = Proficiency(exact=exact)
    for decision in decisions:
        total = total.then(decision_proficiency(decision, turns_per_game))
    return total


def turns_per_game(rules: RuleSet) -> int:
    """A seat's turns in one game: one box a turn, every box of every column."""
    return len(rules.boxes) * rules.columns


@dataclass(frozen=True)
class GameSkill:
    """One game (or match) of a player in the statistics: when it ended, and how they did."""

    game_id: int
    finished: datetime
    proficiency: Proficiency

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "finished": self.finished.isoformat(),
            "loss_per_decision": self.proficiency.loss_per_decision,
            "decisions": self.proficiency.decisions,
            "optimal": self.proficiency.optimal,
        }


@dataclass(frozen=True)
class SkillTrend:
    """The loss per decision of the last `window` games against the `window` games before.

    `change` below zero: fewer points lost per decision lately (improving).
    """

    window: int
    recent: float
    earlier: float

    @property
    def change(self) -> float:
        return self.recent - self.earlier

    def to_json(self) -> dict[str, Any]:
        return {
            "window": self.window,
            "recent": self.recent,
            "earlier": self.earlier,
            "change": self.change,
        }


def skill_trend(games: Sequence[GameSkill], window: int = TREND_WINDOW) -> SkillTrend | None:
    """The trend over the last games, oldest first in `games` (None: fewer than two games
    with decisions). With fewer than 2 × `window` games both halves shrink alike: the last
    half of the games against the half before (an odd oldest game left out).

    Each side's figure is pooled over its games' decisions, as the overall one is.
    """
    judged = [game.proficiency for game in games if game.proficiency.decisions]
    size = min(window, len(judged) // 2)
    if size < 1:
        return None
    recent = _pooled(judged[-size:])
    earlier = _pooled(judged[-2 * size : -size])
    if recent is None or earlier is None:  # (each side has decisions: checked above)
        return None
    return SkillTrend(size, recent, earlier)


def _pooled(runs: Sequence[Proficiency]) -> float | None:
    total = Proficiency(exact=runs[0].exact) if runs else Proficiency()
    for run in runs:
        total = total.then(run)
    return total.loss_per_decision


@dataclass(frozen=True)
class SkillStats:
    """A player's proficiency under one set of rules, over their finished games.

    Attributes:
        profile: the player.
        rules: the rules' key (a preset's name, or custom-<hash>).
        exact: whether every figure is exact; estimates (several columns) are never mixed
            into exact figures.
        games: each game's figures, oldest first (the chart).
        overall: all their decisions at once (the longest run may span games).
        trend: the last games against the ones before (None: too few games).
    """

    profile: str
    rules: str
    exact: bool
    games: tuple[GameSkill, ...]
    overall: Proficiency
    trend: SkillTrend | None

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "rules": self.rules,
            "exact": self.exact,
            "overall": self.overall.to_json(),
            "trend": None if self.trend is None else self.trend.to_json(),
            "games": [game.to_json() for game in self.games],
        }


def skill_stats(profile: str, rules: str, games: Sequence[GameSkill]) -> list[SkillStats]:
    """A player's figures under one rules key, oldest game first in `games`: one entry, or
    two when exact and estimated games both occur (they are never added up)."""
    out = []
    for exact in (True, False):
        mine = tuple(game for game in games if game.proficiency.exact is exact)
        if not mine:
            continue
        overall = Proficiency(exact=exact)
        for game in mine:
            overall = overall.then(game.proficiency)
        out.append(SkillStats(profile, rules, exact, mine, overall, skill_trend(mine)))
    return out
