"""CPU players of Texas Hold'em Yahtzee, one per level of `fivedice.strategy.levels`.

Every player decides from what its seat may see (`fivedice.core.holdem.view_for`): its own
pocket dice, the board, the pot and the bets; never another seat's dice. A decision comes
with its reason and the numbers behind it, which the coach puts into words.

The levels (the one list of `strategy.levels`):

- ``beginner``: a calling station - checks, or calls any bet; never bets, raises or folds.
- ``casual``: a person's mistakes - judges its hand by its name alone (a pair on the board
  counts as its own), never counts pot odds, calls too wide with a pair, chases straights,
  bets a fixed half pot, never bluffs.
- ``guide``: a rule a person can follow - raise with the top fifth of hands by equity, call
  when the equity beats the pot odds, else check or fold.
- ``strong``: bets and calls from equity and pot odds, with no bluffs or slow-plays.
- ``expert`` and ``master``: the same with a mixed strategy - bluffs (`BLUFF_FREQUENCY`) and
  slow-plays (`SLOW_PLAY_FREQUENCY`), so that always folding or always calling against them
  loses; ``master`` counts its equity exactly when at most two dice are unknown and with
  more samples otherwise (`EQUITY_BUDGETS`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import cache

from fivedice.core.holdem import (
    AllIn,
    Bet,
    BettingAction,
    Call,
    Check,
    Fold,
    HandKey,
    HoldemView,
    Raise,
    best_hand,
)
from fivedice.core.holdem.dice import Die
from fivedice.core.holdem.game import Street
from fivedice.strategy.holdem.odds import Equity, exact_equity, monte_carlo_equity
from fivedice.strategy.levels import Level

__all__ = [
    "AGGRESSION_DISCOUNT",
    "BLUFF_FREQUENCY",
    "EQUITY_BUDGETS",
    "SLOW_PLAY_FREQUENCY",
    "TOP_FIFTH",
    "Decision",
    "Reason",
    "decide",
    "seat_equity",
    "strongest_decision",
]

BLUFF_FREQUENCY = 0.12
"""How often the mixed levels bet or raise with a weak hand while dice are still to come."""
SLOW_PLAY_FREQUENCY = 0.15
"""How often the mixed levels only check or call with a strong hand."""

AGGRESSION_DISCOUNT = 0.35
"""How much more pot share than the pot odds a call needs, per pot of the bet faced."""

EQUITY_BUDGETS: dict[Level, tuple[int, int]] = {
    Level.GUIDE: (0, 150),
    Level.STRONG: (2, 250),
    Level.EXPERT: (2, 250),
    Level.MASTER: (2, 500),
}
"""Per level: (unknown dice up to which equity is enumerated exactly, Monte Carlo samples
otherwise). Before the flop every level reads a table of each pocket's equity instead."""

PREFLOP_SAMPLES = 4000
"""Monte Carlo samples of each entry of the preflop table (standard error <= 0.008)."""

TOP_FIFTH: dict[tuple[int, int], float] = {
    (2, 0): 0.567,
    (2, 3): 0.647,
    (2, 4): 0.71,
    (2, 5): 0.793,
    (3, 0): 0.388,
    (3, 3): 0.424,
}
"""The pot share that puts a pocket in the top fifth, by (players, board dice): the 80th
percentile of 300 random deals (each by 150 samples; seed 11). Other player counts scale
the heads-up value by 2 / players."""


class Reason(Enum):
    """Why a CPU (or the coach) chose its action."""

    STATION = "station"
    VALUE_BET = "value_bet"
    VALUE_RAISE = "value_raise"
    SLOW_PLAY = "slow_play"
    BLUFF = "bluff"
    POT_ODDS_CALL = "pot_odds_call"
    POT_ODDS_FOLD = "pot_odds_fold"
    FREE_CHECK = "free_check"
    HAND_NAME = "hand_name"
    TOP_FIFTH = "top_fifth"


@dataclass(frozen=True)
class Decision:
    """An action and what it was chosen from."""

    action: BettingAction
    reason: Reason
    equity: Equity | None = None
    pot_odds: float = 0.0
    """The share of the pot after a call that the call costs (0: nothing to call)."""


def _opponents(view: HoldemView) -> int:
    return sum(1 for n, seat in enumerate(view.seats) if seat.in_hand and n != view.viewer)


def _pocket(view: HoldemView) -> tuple[Die, ...]:
    assert view.viewer is not None
    pocket = view.seats[view.viewer].pocket
    assert pocket is not None
    return pocket


@cache
def _preflop(faces: tuple[int, int], suited: bool, players: int) -> Equity:
    from fivedice.core.holdem.dice import COLOURS

    second = COLOURS[0] if suited else COLOURS[1]
    pocket = (Die(faces[0], COLOURS[0]), Die(faces[1], second))
    rng = random.Random(f"preflop/{faces}/{suited}/{players}")
    return monte_carlo_equity(pocket, (), players, PREFLOP_SAMPLES, rng)


def seat_equity(
    pocket: tuple[Die, ...],
    board: tuple[Die, ...],
    players: int,
    rng: random.Random,
    exact_up_to: int = 2,
    samples: int = 500,
) -> Equity:
    """The pocket's equity against `players - 1` unknown pockets: the preflop table before
    the flop, exact when few dice are unknown, else Monte Carlo with `samples`."""
    players = max(2, players)
    if not board:
        faces = tuple(sorted(die.face for die in pocket))
        return _preflop((faces[0], faces[1]), pocket[0].colour is pocket[1].colour, players)
    unknown = 5 - len(board) + 2 * (players - 1)
    if unknown <= exact_up_to:
        return exact_equity(pocket, board, players)
    return monte_carlo_equity(pocket, board, players, samples, rng)


def _sized(view: HoldemView, chips: float) -> BettingAction:
    """A bet or raise of about `chips` more than the bet now, within what is allowed."""
    assert view.raise_range is not None
    least, most = view.raise_range
    target = max(least, min(most, view.current_bet + round(chips)))
    if target >= most and view.seats[view.viewer or 0].stack <= most:
        return AllIn()
    return Raise(target) if view.current_bet else Bet(target)


def _check_or_call(view: HoldemView) -> BettingAction:
    return Call() if view.to_call else Check()


def _pot_odds(view: HoldemView) -> float:
    return view.to_call / (view.pot + view.to_call) if view.to_call else 0.0


def station(view: HoldemView, rng: random.Random) -> Decision:
    return Decision(_check_or_call(view), Reason.STATION, pot_odds=_pot_odds(view))


def casual(view: HoldemView, rng: random.Random) -> Decision:
    """Judges the hand by its name; calls too much, never bluffs, bets half the pot."""
    pocket = _pocket(view)
    stack = view.seats[view.viewer or 0].stack
    if view.board:
        key = best_hand((*pocket, *view.board)).key
        loves = key.rank >= HandKey.FULL_HOUSE.rank if len(view.board) == 5 else key.rank >= 3
        likes = key.rank >= HandKey.ONE_PAIR.rank
        faces = {die.face for die in (*pocket, *view.board)}
        chasing = len(view.board) < 5 and (
            len(faces & {1, 2, 3, 4, 5}) >= 4 or len(faces & {2, 3, 4, 5, 6}) >= 4
        )
    else:
        loves = pocket[0].face == pocket[1].face
        likes = True
        chasing = False
    if loves and view.raise_range is not None and rng.random() < 0.8:
        return Decision(_sized(view, view.pot / 2), Reason.HAND_NAME)
    if view.to_call == 0:
        return Decision(Check(), Reason.HAND_NAME)
    if loves or chasing or (likes and view.to_call <= stack / 2):
        return Decision(Call(), Reason.HAND_NAME)
    if view.to_call <= view.pot / 4 or rng.random() < 0.2:
        return Decision(Call(), Reason.HAND_NAME)  # curiosity
    return Decision(Fold(), Reason.HAND_NAME)


def _top_fifth(players: int, board: int) -> float:
    if (players, board) in TOP_FIFTH:
        return TOP_FIFTH[(players, board)]
    return min(0.95, TOP_FIFTH[(2, board)] * 2 / players)


def guide(view: HoldemView, rng: random.Random) -> Decision:
    """Raises (a pot) with the top fifth by equity; calls when the equity beats the pot odds."""
    exact_up_to, samples = EQUITY_BUDGETS[Level.GUIDE]
    players = _opponents(view) + 1
    eq = seat_equity(_pocket(view), view.board, players, rng, exact_up_to, samples)
    odds = _pot_odds(view)
    if eq.share >= _top_fifth(players, len(view.board)) and view.raise_range is not None:
        return Decision(_sized(view, view.pot + view.to_call), Reason.TOP_FIFTH, eq, odds)
    if view.to_call == 0:
        return Decision(Check(), Reason.FREE_CHECK, eq, odds)
    if eq.share >= odds:
        return Decision(Call(), Reason.POT_ODDS_CALL, eq, odds)
    return Decision(Fold(), Reason.POT_ODDS_FOLD, eq, odds)


_STREETS_TO_COME = {Street.PREFLOP: 3, Street.FLOP: 2, Street.TURN: 1, Street.RIVER: 0}


def strongest_decision(
    view: HoldemView,
    rng: random.Random,
    *,
    mixed: bool = True,
    budget: tuple[int, int] = EQUITY_BUDGETS[Level.MASTER],
) -> Decision:
    """Bets from the equity, the pot odds and the streets still to come.

    A hand whose pot share is well above its fair share (1 / players) bets or raises about
    the pot; a good one bets half the pot, or calls; a call needs the share to beat the pot
    odds by a margin that grows with the betting still to come (more to pay later). Mixed:
    a strong hand is slow-played (`SLOW_PLAY_FREQUENCY`) and a weak one bluffs
    (`BLUFF_FREQUENCY`) while dice are still to come.
    """
    players = _opponents(view) + 1
    eq = seat_equity(_pocket(view), view.board, players, rng, *budget)
    share = eq.share
    odds = _pot_odds(view)
    fair = 1 / players
    to_come = _STREETS_TO_COME[view.street]
    strong = share >= fair + (1 - fair) * 0.45
    good = share >= fair + (1 - fair) * 0.15
    weak = fair * 0.5 <= share < fair * 0.75  # a bluff keeps some equity (a semi-bluff)
    can_raise = view.raise_range is not None
    pot = view.pot + view.to_call
    if strong and can_raise:
        if mixed and rng.random() < SLOW_PLAY_FREQUENCY:
            return Decision(_check_or_call(view), Reason.SLOW_PLAY, eq, odds)
        size = pot * (0.75 if share < fair + (1 - fair) * 0.7 else 1.0)
        reason = Reason.VALUE_RAISE if view.to_call else Reason.VALUE_BET
        return Decision(_sized(view, size), reason, eq, odds)
    if view.to_call == 0:
        if good and can_raise:
            return Decision(_sized(view, pot / 2), Reason.VALUE_BET, eq, odds)
        if weak and can_raise and mixed and to_come > 0 and rng.random() < BLUFF_FREQUENCY:
            return Decision(_sized(view, pot * 2 / 3), Reason.BLUFF, eq, odds)
        return Decision(Check(), Reason.FREE_CHECK, eq, odds)
    # A bet is evidence: the bettor's dice are likely better than a random pocket, the more
    # so the bigger the bet; and dice still to come mean more bets to pay.
    margin = 0.02 * to_come + AGGRESSION_DISCOUNT * min(1.0, view.to_call / max(1, view.pot))
    if share >= odds + margin:
        return Decision(Call(), Reason.POT_ODDS_CALL, eq, odds)
    if can_raise and mixed and to_come > 0 and rng.random() < BLUFF_FREQUENCY / 3:
        return Decision(_sized(view, pot), Reason.BLUFF, eq, odds)
    return Decision(Fold(), Reason.POT_ODDS_FOLD, eq, odds)


def _strong(view: HoldemView, rng: random.Random) -> Decision:
    return strongest_decision(view, rng, mixed=False, budget=EQUITY_BUDGETS[Level.STRONG])


def _expert(view: HoldemView, rng: random.Random) -> Decision:
    return strongest_decision(view, rng, budget=EQUITY_BUDGETS[Level.EXPERT])


def _master(view: HoldemView, rng: random.Random) -> Decision:
    return strongest_decision(view, rng)


PLAYERS: dict[Level, Callable[[HoldemView, random.Random], Decision]] = {
    Level.BEGINNER: station,
    Level.CASUAL: casual,
    Level.GUIDE: guide,
    Level.STRONG: _strong,
    Level.EXPERT: _expert,
    Level.MASTER: _master,
}
"""The player of each level (every level of the one list plays Hold'em)."""


def decide(level: Level | str, view: HoldemView, rng: random.Random) -> Decision:
    """The decision of a CPU of `level` for the seat of `view` (its turn).

    Raises:
        CpuLevelError: not a level.
    """
    return PLAYERS[Level.parse(level)](view, rng)
