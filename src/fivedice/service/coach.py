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
from fivedice.service.errors import HintsUnavailableError
from fivedice.service.saved import SavedGames
from fivedice.strategy.hints import Hint, hints_for
from fivedice.strategy.limits import (
    SolveNotAllowedError,
    check_coached,
    has_win_chances,
    waiting_at_most,
)

if TYPE_CHECKING:
    pass


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
    moments = moments_if_ready(state.rules.replace(column_multipliers=(1,)))
    return None if moments is None else win_chances(state, moments)


def chances_are_estimates(rules: RuleSet) -> bool:
    """Whether `game_win_chances` under these rules are an estimate (several columns)."""
    from fivedice.strategy.chances import is_estimate

    return is_estimate(rules)


def state_hints(state: GameState, solve_wait: float | None = None) -> list[Hint]:
    """The hints for the seat to move in a state, best first: the one path from the strategy
    layer to every front end (`GameService.hint`, `LocalGame.hint`).

    Args:
        state: the position (a game, or a table game's coach state).
        solve_wait: how long to wait for another thread's table solve (None: as needed).

    Raises:
        HintsUnavailableError: no dice rolled, the game is over, or no strategy layer.
        SolveNotAllowedError, SolverBusyError: as `GameService.hint`.
    """
    if state.dice is None or state.is_match_over:
        raise HintsUnavailableError(N_("hints are given once the dice are rolled"))
    try:
        with waiting_at_most(solve_wait):
            return hints_for(state)
    except ImportError as error:
        raise HintsUnavailableError(
            N_("the strategy layer is not available: {reason}"), reason=str(error)
        ) from None


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
        from fivedice.strategy.advisor import advise
        from fivedice.strategy.cache import load_or_solve

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
    ) -> list[Hint]:
        """The options for the seat to move, best first (needs the strategy layer).

        One column: exact values (the advisor's). Several columns: values as the expert CPU
        estimates them (`Hint.estimate`). See `fivedice.strategy.hints`.

        Args:
            game_id: the game.
            dice: at the table, the dice typed for the coach (default: the dice entered).
            rolls_left: at the table, the rolls the player still has (default 0: choose a
                box); with rolls left the keeps are ranked too.

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
        return state_hints(state, self.solve_wait)

    def win_chances(self, game_id: int) -> tuple[float, ...] | None:
        """Each seat's chance of winning the game (or match) from the current position.

        None with a single seat, or when the strategy layer is not installed. The chances sum
        to 1; ties share the win. See `game_win_chances` and `fivedice.strategy.chances`.
        """
        return game_win_chances(self.view(game_id).state)
