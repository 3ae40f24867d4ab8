"""Exact odds of Texas Hold'em Yahtzee: the chance of each hand, and a seat's equity.

`hand_chances(7)`: for every hand key, the exact chance (a `Fraction`) that it is the best
hand of seven dice drawn from the full bag and rolled (two pocket dice and the five of the
board); `hand_chances(5)` the same for five dice. Why exact is cheap: a hand's colours count
only when five of its dice share one (a bag holds five of each colour), so the chance splits
into "no colour five times" (then only the faces count: every multiset of faces, weighted by
its rolls) and "one colour five times" (its five faces and the others'), each weighted by the
chance of the colours drawn (multivariate hypergeometric).

`equity(pocket, board, players)`: the chance that the pocket wins, ties or loses at the
showdown against `players - 1` unknown pockets, the rest of the board to come. Exact by
enumeration when at most `EXACT_UNKNOWN_DICE` dice are unknown (every colour and face of each
unknown die, each sequence weighted by its chance: at most 24^3 = 13,824 deals); else Monte
Carlo (the method is named in the answer, with its standard error).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from fivedice.core.errors import N_, DiceError
from fivedice.core.holdem.dice import (
    BAG_SIZE,
    COLOURS,
    DICE_PER_COLOUR,
    Bag,
    Die,
    bag_without,
)
from fivedice.core.holdem.game import MAX_SEATS, MIN_SEATS
from fivedice.core.holdem.hands import HAND_KEYS, HandKey, best_hand

__all__ = [
    "EXACT_UNKNOWN_DICE",
    "Equity",
    "equity",
    "exact_equity",
    "hand_chances",
    "monte_carlo_equity",
    "samples_for",
]

EXACT_UNKNOWN_DICE = 3
"""Equity is enumerated exactly when at most this many dice are unknown (24^3 deals)."""

EXACT = "exact"
MONTE_CARLO = "monte_carlo"


@cache
def hand_chances(count: int = 7) -> dict[HandKey, Fraction]:
    """The exact chance of each hand key as the best hand of `count` dice (5 to 7) drawn
    blind from the full bag and rolled; the chances sum to exactly 1.

    >>> chances = hand_chances(5)
    >>> sum(chances.values())
    Fraction(1, 1)
    >>> chances[HandKey.YAHTZEE_FLUSH] == Fraction(4, 15504) * 6 / 6**5
    True
    """
    if not 5 <= count <= 7:
        raise DiceError(N_("a hand is made of 5 to 7 dice, not {count}"), count=count)
    chances = dict.fromkeys(HAND_KEYS, Fraction(0))
    total = math.comb(BAG_SIZE, count)
    five_of_a_colour = Fraction(
        len(COLOURS) * math.comb(BAG_SIZE - DICE_PER_COLOUR, count - 5), total
    )
    # No colour five times: only the faces count (spread the dice over the colours).
    for faces, weight in _face_multisets(count):
        dice = [Die(face, COLOURS[n % len(COLOURS)]) for n, face in enumerate(faces)]
        chances[best_hand(dice).key] += (1 - five_of_a_colour) * weight
    # One colour five times (red here), the other dice of other colours.
    for coloured, weight in _face_multisets(5):
        for others, other_weight in _face_multisets(count - 5):
            dice = [Die(face, COLOURS[0]) for face in coloured]
            dice += [Die(face, COLOURS[1 + n % 3]) for n, face in enumerate(others)]
            chances[best_hand(dice).key] += five_of_a_colour * weight * other_weight
    return chances


def _face_multisets(count: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every multiset of `count` faces with its chance among `count` rolled dice."""
    found = []
    for faces in itertools.combinations_with_replacement(range(1, 7), count):
        orders = math.factorial(count)
        for times in Counter(faces).values():
            orders //= math.factorial(times)
        found.append((faces, Fraction(orders, 6**count)))
    return found


@dataclass(frozen=True)
class Equity:
    """A pocket's chances at the showdown: win (alone), tie (share a pot), lose.

    `share` is the pot share it can expect (a tie among k hands counts 1/k)."""

    win: float
    tie: float
    lose: float
    share: float
    method: str
    """"exact" (enumerated) or "monte_carlo"."""
    deals: int
    """Deals enumerated, or samples drawn."""
    standard_error: float = 0.0
    """Of `win` (Monte Carlo; 0 for exact)."""


def _check(pocket: Sequence[Die], board: Sequence[Die], players: int) -> Bag:
    if len(pocket) != 2:
        raise DiceError(N_("a pocket is two dice, not {count}"), count=len(pocket))
    if len(board) not in (0, 3, 4, 5):
        raise DiceError(N_("a board has 0, 3, 4 or 5 dice, not {count}"), count=len(board))
    if not MIN_SEATS <= players <= MAX_SEATS:
        raise DiceError(
            N_("there are {least} to {most} players, not {count}"),
            least=MIN_SEATS,
            most=MAX_SEATS,
            count=players,
        )
    return bag_without([*pocket, *board])


def _showdown(mine: tuple[int, ...], others: Sequence[tuple[int, ...]]) -> tuple[int, int]:
    """(1 if it wins alone, else 0; the number of hands it ties with, 0 if it loses)."""
    best_other = max(others)
    if mine > best_other:
        return 1, 0
    if mine < best_other:
        return 0, 0
    return 0, sum(1 for other in others if other == mine)


def _deal_outcome(
    pocket: Sequence[Die], board: Sequence[Die], dice: Sequence[Die], players: int
) -> tuple[int, int]:
    """`_showdown` of one deal: `dice` are the rest of the board, then each other pocket."""
    to_come = 5 - len(board)
    full_board = (*board, *dice[:to_come])
    mine = best_hand((*pocket, *full_board)).order
    others = [
        best_hand((*dice[to_come + 2 * n : to_come + 2 * n + 2], *full_board)).order
        for n in range(players - 1)
    ]
    return _showdown(mine, others)


_DIE_TYPES = tuple(Die(face, colour) for colour in COLOURS for face in range(1, 7))


def exact_equity(pocket: Sequence[Die], board: Sequence[Die], players: int) -> Equity:
    """The equity enumerated over every colour and face of every unknown die.

    Raises:
        DiceError: bad pocket or board, or more than `EXACT_UNKNOWN_DICE` dice unknown.
    """
    bag = _check(pocket, board, players)
    to_come = 5 - len(board)
    unknown = to_come + 2 * (players - 1)
    if unknown > EXACT_UNKNOWN_DICE:
        raise DiceError(
            N_("exact equity enumerates at most {most} unknown dice, not {count}"),
            most=EXACT_UNKNOWN_DICE,
            count=unknown,
        )
    win = tie = share = 0.0
    deals = 0
    left = sum(bag)
    for dice in itertools.product(_DIE_TYPES, repeat=unknown):
        chance = 1.0
        counts = list(bag)
        remaining = left
        for die in dice:
            position = COLOURS.index(die.colour)
            chance *= counts[position] / remaining / 6
            counts[position] -= 1
            remaining -= 1
        if chance == 0:
            continue
        deals += 1
        alone, tied = _deal_outcome(pocket, board, dice, players)
        win += chance * alone
        if tied:
            tie += chance
            share += chance / (tied + 1)
    share += win
    return Equity(win, tie, max(0.0, 1 - win - tie), share, EXACT, deals)


def _draw(pool: Sequence[int], count: int, rng: random.Random) -> list[Die]:
    """`count` dice drawn from the bag (`pool`: a colour number per die) and rolled."""
    return [_DIE_TYPES[colour * 6 + int(rng.random() * 6)] for colour in rng.sample(pool, count)]


def monte_carlo_equity(
    pocket: Sequence[Die],
    board: Sequence[Die],
    players: int,
    samples: int,
    rng: random.Random,
) -> Equity:
    """The equity from `samples` random deals of the unknown dice (with `rng`)."""
    bag = _check(pocket, board, players)
    to_come = 5 - len(board)
    unknown = to_come + 2 * (players - 1)
    pool = [number for number, count in enumerate(bag) for _ in range(count)]
    wins = ties = 0
    share = 0.0
    for _ in range(samples):
        alone, tied = _deal_outcome(pocket, board, _draw(pool, unknown, rng), players)
        wins += alone
        if tied:
            ties += 1
            share += 1 / (tied + 1)
    win = wins / samples
    tie = ties / samples
    error = math.sqrt(max(win * (1 - win), 1e-12) / samples)
    return Equity(win, tie, 1 - win - tie, win + share / samples, MONTE_CARLO, samples, error)


def samples_for(error: float) -> int:
    """Monte Carlo samples that bound the standard error of a chance by `error` (the
    worst case, a chance of one half: 1 / (4 error^2))."""
    return math.ceil(1 / (4 * error * error))


def equity(
    pocket: Sequence[Die],
    board: Sequence[Die],
    players: int,
    *,
    error: float = 0.001,
    rng: random.Random | None = None,
) -> Equity:
    """Exact when few dice are unknown, else Monte Carlo to a standard error of `error`.

    Raises:
        DiceError: a pocket that is not two dice, a board of another size, a die the bag
            no longer holds, or a player count outside 2-6.
    """
    _check(pocket, board, players)
    unknown = 5 - len(board) + 2 * (players - 1)
    if unknown <= EXACT_UNKNOWN_DICE:
        return exact_equity(pocket, board, players)
    return monte_carlo_equity(pocket, board, players, samples_for(error), rng or random.Random(0))
