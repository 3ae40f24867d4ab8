"""The coach: hints for the seat to move, winning chances, and what the strategy layer
can play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from fivedice.core.actions import EnterDice
from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import GameState
from fivedice.core.rules import RuleSet
from fivedice.service.errors import HintsUnavailableError, TablesPreparingError
from fivedice.service.saved import SavedGames
from fivedice.strategy.hints import Hint, hints_for
from fivedice.strategy.limits import (
    SolveNotAllowedError,
    SolverBusyError,
    check_coached,
    has_layer_tables,
    has_win_chances,
    is_supported,
    waiting_at_most,
)

if TYPE_CHECKING:
    from fivedice.core.card import Column
    from fivedice.strategy.derived import BuildProgress, ProgressListener
    from fivedice.strategy.thresholds import BuildCost


def strategy_refusal(rules: RuleSet) -> SolveNotAllowedError | None:
    """Why the coach and the CPU players cannot play these rules (None: they can), for
    front ends that offer the coach before anything is asked of it."""
    try:
        check_coached(rules)
    except SolveNotAllowedError as error:
        return error
    return None


def game_win_chances(state: GameState, *, wait: bool = True) -> tuple[float, ...] | None:
    """Each seat's chance of winning from `state` (None solo or without the strategy layer).

    The review of a game calls this on the state after each turn. Under rules with several
    columns the chances are an estimate (`fivedice.strategy.chances.is_estimate`).

    Args:
        state: any position.
        wait: solve the tables the chances need if they are not at hand (the first time for
            a rule set: about as long as a solve). False: None instead, while they are
            prepared in the background (for a web page).
    """
    if len(state.seats) < 2 or not has_win_chances(state.rules):
        return None
    try:
        from fivedice.strategy.chances import win_chances
        from fivedice.strategy.moments import moments_if_ready
    except ImportError:
        return None
    if wait or (state.is_game_over and state.is_match_over):
        return win_chances(state)
    try:
        moments = moments_if_ready(state.rules.replace(column_multipliers=(1,)))
    except (SolverBusyError, SolveNotAllowedError):  # no permit, or rules not solved here
        return None
    return None if moments is None else win_chances(state, moments)


def chances_offered(state: GameState) -> bool:
    """Whether the winning chances can be shown for this game (several seats, and rules whose
    tables give them): a page offers the bar only then, never a toggle that shows nothing."""
    return len(state.seats) > 1 and has_win_chances(state.rules)


def goal_offered(rules: RuleSet) -> bool:
    """Whether the coach plays for a goal under these rules (`goal_hints` refuses the
    others): a page offers the goal only then, never a box that can only be refused."""
    if rules.columns != 1:
        return False
    try:
        _check_goal_rules(rules)
    except HintsUnavailableError:
        return False
    return True


def chances_are_estimates(rules: RuleSet) -> bool:
    """Whether `game_win_chances` under these rules are an estimate (several columns)."""
    from fivedice.strategy.chances import is_estimate

    return is_estimate(rules)


def state_hints(
    state: GameState,
    solve_wait: float | None = None,
    explain: bool | None = False,
    goal: str | int | None = None,
) -> list[Hint]:
    """The hints for the seat to move in a state, best first: the one path from the strategy
    layer to every front end (`GameService.hint`, `LocalGame.hint`).

    Args:
        state: the position (a game, or a table game's coach state).
        solve_wait: how long to wait for another thread's table solve (None: as needed).
        explain: give exact hints their breakdown (`Hint.parts`, `Hint.chances`: the
            reasons, `fivedice.wording.reasons`): True computes it if needed (the first
            time for a rule set: about as long as a solve), None only if it is at hand (a web
            page: it is prepared in the background meanwhile). Several columns: the same,
            split per column (the estimates' breakdown, `strategy.column_breakdown`); rules
            the solver does not handle (Maxi Yatzy): never.
        goal: a goal for the coach (`goal_total`): then the options are ranked by their best
            chance of reaching it (`Hint.goal` set, `Hint.value` the chance).

    Raises:
        HintsUnavailableError: no dice rolled, the game is over, or no strategy layer.
        SolveNotAllowedError, SolverBusyError: as `GameService.hint`.
    """
    if state.dice is None or state.is_match_over:
        raise HintsUnavailableError(N_("hints are given once the dice are rolled"))
    try:
        if goal is not None:
            try:
                return goal_hints(state, goal_total(state, goal), wait=solve_wait is None)
            except TablesPreparingError:
                pass  # the normal advice meanwhile (`build_progress` says how far the build is)
        with waiting_at_most(solve_wait):
            return hints_for(state, explain=explain)
    except ImportError as error:
        raise HintsUnavailableError(
            N_("the strategy layer is not available: {reason}"), reason=str(error)
        ) from None


GOAL_TABLES_PREPARING = N_("the coach is preparing its tables for goals (minutes): ask again soon")


def build_progress(rules: RuleSet, *, goal: bool = False) -> BuildProgress | None:
    """How far the build of a table the coach waits for under these rules is (any process),
    None when none is under way: the goal table first (with `goal`), then the breakdown, the
    winning chances' moments and the strategy table (`strategy.derived.BuildProgress`)."""
    from fivedice.strategy.breakdown import breakdown_progress
    from fivedice.strategy.cache import strategy_progress
    from fivedice.strategy.moments import moments_progress
    from fivedice.strategy.thresholds import default_top, thresholds_progress

    single = rules if rules.columns == 1 else rules.replace(column_multipliers=(1,))
    if not is_supported(single):
        return None
    found = thresholds_progress(single, default_top(single)) if goal else None
    return (
        found or breakdown_progress(single) or moments_progress(single) or strategy_progress(single)
    )


GOAL_LIMIT = 100_000
"""The largest final total a goal may name (far above any game: the refusal says why)."""


def goal_total(state: GameState | None, goal: str | int) -> int:
    """The final total a goal asks the seat to move for.

    A goal is a total to reach ("300", "reach 300"), a total to beat ("beat 245": 246), or a
    player to beat ("beat Ann"): one point more than Ann's total once she has finished, else
    than her expected final total (her total now plus the points optimal play expects from her
    card, rounded: what she will most likely stand at).

    >>> from fivedice.core.game import GameSettings, Seat, new_game
    >>> from fivedice.core.dice import RandomDice
    >>> state = new_game(GameSettings(seats=(Seat("Ann"), Seat("Bo"))), RandomDice(1))
    >>> goal_total(state, "reach 300"), goal_total(state, "beat 245"), goal_total(state, 280)
    (300, 246, 280)

    Without a game (`state` None) a goal names a total, not a player.

    Raises:
        HintsUnavailableError: not a goal, a total out of range, or no such other player.
    """
    if isinstance(goal, int) and not isinstance(goal, bool):
        return _checked_total(goal)
    words = str(goal).split()
    if words[:1] and words[0].lower() == "goal":  # as typed in the plain mode: "goal 300"
        words = words[1:]
    if len(words) == 1 and words[0].lstrip("+-").isdigit():
        return _checked_total(int(words[0]))
    if len(words) >= 2 and words[0].lower() in {"reach", "beat"}:
        rest = " ".join(words[1:])
        if rest.lstrip("+-").isdigit():
            total = int(rest)
            return _checked_total(total + 1 if words[0].lower() == "beat" else total)
        if words[0].lower() == "beat" and state is not None:
            return _checked_total(_rival_total(state, rest) + 1)
    raise HintsUnavailableError(
        N_("a goal is a total to reach (300), 'beat 245' or 'beat' and a name, not {goal!r}"),
        goal=str(goal),
    )


def _checked_total(total: int) -> int:
    if not 1 <= total <= GOAL_LIMIT:
        raise HintsUnavailableError(
            N_("a goal is a final total from 1 to {most}, not {goal}"), most=GOAL_LIMIT, goal=total
        )
    return total


def _rival_total(state: GameState, name: str) -> int:
    """The total of the other player named `name`: final, or expected when still playing."""
    wanted = name.strip().casefold()
    seat = next(
        (
            index
            for index, seat in enumerate(state.seats)
            if seat.name.casefold() == wanted and index != state.current_seat
        ),
        None,
    )
    if seat is None:
        others = ", ".join(s.name for i, s in enumerate(state.seats) if i != state.current_seat)
        raise HintsUnavailableError(
            N_("no other player is called {name} (players: {others})"),
            name=name,
            others=others or "-",
        )
    card = state.cards[seat]
    if card.is_complete:
        return state.totals[seat]
    from fivedice.strategy.cache import load_or_solve

    table = load_or_solve(state.rules.replace(column_multipliers=(1,)))
    return state.totals[seat] + round(table.column_value(card.columns[0]))


def goal_hints(state: GameState, goal: int, *, wait: bool = True) -> list[Hint]:
    """The options ranked by the best chance of a final total of `goal` (see
    `fivedice.strategy.target`); one score column and rules the exact solver handles.

    Args:
        wait: compute the rules' threshold tables if they are not at hand (the first time for
            a rule set: minutes); False: refuse for now while they are computed in the
            background (a server).

    Raises:
        HintsUnavailableError: several columns, unsupported rules, a goal too far ahead, or
            tables not ready (without `wait`).
    """
    from fivedice.strategy.target import target_hints
    from fivedice.strategy.thresholds import TargetTooHigh, default_top, thresholds_if_ready

    if state.rules.columns != 1:
        raise HintsUnavailableError(N_("the coach plays for a goal with one score column only"))
    need = goal - state.totals[state.current_seat]
    if need > default_top(state.rules):  # refused before any table is loaded
        raise _too_far(goal, need, default_top(state.rules))
    _check_goal_rules(state.rules)
    try:
        table = None
        if not wait:
            table = thresholds_if_ready(state.rules, default_top(state.rules))
            if table is None:
                raise TablesPreparingError(GOAL_TABLES_PREPARING)
        return target_hints(state, goal, table)
    except TargetTooHigh:
        raise _too_far(goal, need, default_top(state.rules)) from None


def column_goal_hints(
    rules: RuleSet,
    column: Column,
    dice: Sequence[int],
    rolls_left: int,
    goal: str | int,
    *,
    listener: ProgressListener | None = None,
) -> list[Hint]:
    """The options for dice on a lone column (`fivedice advise --target`), ranked by the
    chance of a final total of `goal` ("300", "beat 245"); the goal table built first if
    needed, its progress told to `listener` (`goal_table_cost` says its cost beforehand).

    Raises:
        HintsUnavailableError: not a goal, or one the coach cannot rank (see `goal_hints`).
        BuildCancelled: the goal table's build was cancelled.
    """
    from fivedice.strategy.target import column_target_hints
    from fivedice.strategy.thresholds import TargetTooHigh, default_top, thresholds_of

    total = goal_total(None, goal)
    need = total - column.total(rules)
    try:
        if need > default_top(rules):  # refused before any table is loaded
            raise TargetTooHigh("too far")
        _check_goal_rules(rules)
        table = thresholds_of(rules, default_top(rules), listener=listener)
        return column_target_hints(table, column, dice, rolls_left, total, column.total(rules))
    except TargetTooHigh:
        raise _too_far(total, need, default_top(rules)) from None


def goal_table_cost(rules: RuleSet) -> BuildCost | None:
    """What the rules' goal table costs to build (disk, CPU), or None when it is built or the
    coach plays for no goal under these rules."""
    from fivedice.strategy.thresholds import build_cost, default_top

    try:
        _check_goal_rules(rules)
    except HintsUnavailableError:
        return None
    return build_cost(rules, default_top(rules))


def _check_goal_rules(rules: RuleSet) -> None:
    """Refuses, in words, rules without threshold tables: those the solver does not handle,
    and Maxi Yatzy, whose exact table is compact (`strategy.limits.has_layer_tables`)."""
    from fivedice.strategy.solver import UnsupportedRulesError
    from fivedice.strategy.thresholds import check_rules

    if is_supported(rules) and not has_layer_tables(rules):
        raise HintsUnavailableError(
            N_("the coach does not play for a goal in Maxi Yatzy: its table is too large")
        )
    try:
        check_rules(rules)
    except UnsupportedRulesError:
        raise HintsUnavailableError(
            N_("the coach plays for a goal only under rules it solves exactly")
        ) from None


def _too_far(goal: int, need: int, top: int) -> HintsUnavailableError:
    return HintsUnavailableError(
        N_("a goal of {goal} is {need} points ahead: the coach ranks goals up to {top} ahead"),
        goal=goal,
        need=need,
        top=top,
    )


SolveProgress = Callable[[int, int], None]
"""Called as `progress(states_done, states_total)` while a strategy table is being solved."""


def warm_up_hints(rules: RuleSet, progress: SolveProgress | None = None) -> None:
    """Readies hints for these rules ahead of the first one (loads or solves the table,
    compiles the kernels), so the first hint comes at once. Silent when it cannot: the
    hint itself will say why.

    Args:
        rules: the rules of the game.
        progress: told how far a solve has come (a table not solved before takes about
            half a minute), for a front end to show; not called when the table is at hand.
    """
    from fivedice.core.card import Column

    try:
        if rules.columns != 1:
            from fivedice.strategy.bots import level_values

            level_values(rules, "expert", progress=progress)
            return
        from fivedice.strategy.cache import load_or_solve
        from fivedice.strategy.turn_cache import advise  # the engine the hints ask

        dice = (1, 2, 3, 4, 4, 5)[: rules.dice]  # five dice, or six (Maxi Yatzy)
        advise(load_or_solve(rules, progress=progress), Column(), dice, 2)
    except (ImportError, FivediceError):  # no strategy layer, or not allowed here
        return


def table_coach_state(
    state: GameState, dice: Sequence[int] | None, rolls_left: int | None
) -> GameState:
    """The decision the coach ranks at the table: typed (or entered) dice, rolls left.

    Nothing is applied: the state only carries the dice and rolls to the advisor.

    Raises:
        HintsUnavailableError: no dice, or more rolls left than a turn has after its first.
    """
    most = state.rules.rolls_per_turn - 1
    left = 0 if rolls_left is None else rolls_left
    if isinstance(left, bool) or not isinstance(left, int) or not 0 <= left <= most:
        raise HintsUnavailableError(
            N_("rolls left is a number from 0 to {most}, not {value!r}"), most=most, value=left
        )
    if dice is None:
        if state.dice is None:
            raise HintsUnavailableError(
                N_("type the dice for the coach, or enter them first (e.g. 'dice 3 3 3 5 5')")
            )
        roll = state.dice
    else:
        try:
            roll = EnterDice(tuple(sorted(dice))).dice
        except FivediceError as error:
            raise HintsUnavailableError(error.template, **error.params) from None
    turn = replace(state.turn, dice=roll, rolls_used=state.rules.rolls_per_turn - left)
    return replace(state, turn=turn)


class Coaching(SavedGames):
    """A saved game's hints and winning chances (part of `GameService`)."""

    def hint(
        self,
        game_id: int,
        dice: Sequence[int] | None = None,
        rolls_left: int | None = None,
        explain: bool | None = False,
        goal: str | int | None = None,
    ) -> list[Hint]:
        """The options for the seat to move, best first (needs the strategy layer).

        One column: exact values (the advisor's), with `explain` their breakdown (see
        `state_hints`). Several columns: values as the expert CPU estimates them
        (`Hint.estimate`). See `fivedice.strategy.hints`.

        Args:
            game_id: the game.
            dice: at the table, the dice typed for the coach (default: the dice entered).
            rolls_left: at the table, the rolls the player still has (default 0: choose a
                box); with rolls left the keeps are ranked too.
            goal: a goal ("300", "beat 245", "beat Ann": `goal_total`): the options ranked by
                their chance of reaching it instead.

        Raises:
            HintsUnavailableError: no advisor here, or nothing to decide.
            SolveNotAllowedError: the rules are not on `$FIVEDICE_SOLVE_RULES`, or the
                strategy layer cannot play them (`UnsupportedByStrategyError`).
            SolverBusyError: another table is being solved (longer than `solve_wait`).
        """
        view = self.view(game_id)
        state = view.state
        check_coached(state.rules)
        if state.settings.is_table and not view.is_over:
            state = table_coach_state(state, dice, rolls_left)
        elif dice is not None or rolls_left is not None:
            raise HintsUnavailableError(
                N_("typed dice are for games at the table; here the coach uses the dice rolled")
            )
        if view.is_over:
            raise HintsUnavailableError(N_("hints are given once the dice are rolled"))
        return state_hints(state, self.solve_wait, explain, goal)

    def build_progress(self, game_id: int, *, goal: bool = False) -> BuildProgress | None:
        """How far the build of a table this game's coach waits for is (`build_progress`)."""
        try:
            return build_progress(self.view(game_id).state.rules, goal=goal)
        except ImportError:
            return None

    def win_chances(self, game_id: int) -> tuple[float, ...] | None:
        """Each seat's chance of winning the game (or match) from the current position.

        None with a single seat, or when the strategy layer is not installed. The chances sum
        to 1; ties share the win. See `game_win_chances` and `fivedice.strategy.chances`.
        """
        return game_win_chances(self.view(game_id).state)
