"""The betting actions of Texas Hold'em Yahtzee, with a text notation that round-trips.

=============  ===========================================================================
``check``      pass without betting (nothing to call)
``call``       put in what the bet to you asks (all you have, when that is less)
``bet 40``     open the betting round: your bet this round becomes 40
``raise 120``  raise to 120: your bet this round becomes 120 (not 120 more)
``allin``      put in every chip you have (a call, a bet or a raise)
``fold``       give up the hand
=============  ===========================================================================

>>> parse_betting_action("Raise 120")
Raise(to=120)
>>> str(parse_betting_action(" all-in "))
'allin'
>>> [str(parse_betting_action(text)) for text in ("check", "call", "bet 40", "fold")]
['check', 'call', 'bet 40', 'fold']
"""

from __future__ import annotations

from dataclasses import dataclass

from fivedice.core.errors import N_, MalformedActionError

__all__ = [
    "AllIn",
    "Bet",
    "BettingAction",
    "Call",
    "Check",
    "Fold",
    "Raise",
    "parse_betting_action",
]


@dataclass(frozen=True)
class Check:
    def __str__(self) -> str:
        return "check"


@dataclass(frozen=True)
class Call:
    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True)
class Fold:
    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True)
class AllIn:
    def __str__(self) -> str:
        return "allin"


@dataclass(frozen=True)
class Bet:
    """Opens the round: the seat's bet this round becomes `to` chips."""

    to: int

    def __str__(self) -> str:
        return f"bet {self.to}"


@dataclass(frozen=True)
class Raise:
    """Raises to `to` chips: the seat's bet this round becomes `to`."""

    to: int

    def __str__(self) -> str:
        return f"raise {self.to}"


BettingAction = Check | Call | Fold | AllIn | Bet | Raise

_PLAIN: dict[str, BettingAction] = {
    "check": Check(),
    "call": Call(),
    "fold": Fold(),
    "allin": AllIn(),
    "all-in": AllIn(),
}
_SIZED: dict[str, type[Bet] | type[Raise]] = {"bet": Bet, "raise": Raise}


def parse_betting_action(text: str) -> BettingAction:
    """The action written as `text` (any case, outer spaces ignored).

    Raises:
        MalformedActionError: not an action of the notation above.
    """
    words = text.strip().lower().split() if isinstance(text, str) else []
    if len(words) == 1 and words[0] in _PLAIN:
        return _PLAIN[words[0]]
    if len(words) == 2 and words[0] in _SIZED:
        amount = words[1]
        if not (amount.isascii() and amount.isdigit()) or int(amount) <= 0 or len(amount) > 12:
            raise MalformedActionError(
                N_("the amount of a bet or raise is a whole number of chips, not {amount!r}"),
                amount=words[1],
            )
        return _SIZED[words[0]](int(amount))
    raise MalformedActionError(
        N_("an action is check, call, fold, allin, bet AMOUNT or raise AMOUNT, not {text!r}"),
        text=text,
    )
