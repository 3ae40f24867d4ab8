"""The game of Texas Hold'em Yahtzee as a pure state machine: `apply(state, action, dice)`.

A hand: every seat with chips antes (and posts the blinds, when the rules have them); each
draws two pocket dice blind from the bag of 20 and rolls them hidden; a betting round; the
flop (three dice drawn and rolled on the board); betting; the turn (one die); betting; the
river (one); betting; the showdown. The pots (side pots as in poker) go to the best hands
(`fivedice.core.holdem.hands`); an exact tie splits a pot, odd chips to the first seat left
of the button. The button then passes left; a seat without chips is out; the last seat with
chips wins. A Yahtzee Flush shown at a showdown wins the whole game at once: every chip goes
to its seat (the best such hand, the first of equals left of the button).

The dice come from the `DiceSource` handed to the action that needs them (the action that
ends a betting round deals the next street; the one that ends a hand deals the next hand;
`new_game` deals the first), so the same source gives the same game.

>>> from fivedice.core.dice import RandomDice
>>> from fivedice.core.game import Seat
>>> state = new_game((Seat("Ann"), Seat("Bob")), HoldemRules(), RandomDice(7))
>>> state.pot, [seat.stack for seat in state.seats], state.to_act
(20, [990, 990], 1)
>>> state = apply(state, "check", RandomDice(8))
>>> state = apply(state, "check", RandomDice(9))
>>> state.street.value, len(state.board)
('flop', 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from fivedice.core.dice import DiceSource
from fivedice.core.errors import N_, IllegalActionError, MalformedActionError, SettingsError
from fivedice.core.game import Seat
from fivedice.core.holdem.actions import (
    AllIn,
    Bet,
    BettingAction,
    Call,
    Check,
    Fold,
    Raise,
    parse_betting_action,
)
from fivedice.core.holdem.dice import Bag, Die, draw_die, full_bag
from fivedice.core.holdem.hands import HandKey, HandValue, best_hand
from fivedice.core.names import name_key

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "Betting",
    "HandResult",
    "HoldemRules",
    "HoldemState",
    "PotAward",
    "SeatHand",
    "Street",
    "apply",
    "legal_actions",
    "new_game",
    "pots_of",
]

MIN_SEATS = 2
MAX_SEATS = 6
POCKET_DICE = 2


class Betting(Enum):
    NO_LIMIT = "no_limit"
    FIXED_LIMIT = "fixed_limit"


class Street(Enum):
    """The betting rounds of a hand, in order."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


_BOARD_AFTER = {Street.PREFLOP: 0, Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}
_NEXT_STREET = {Street.PREFLOP: Street.FLOP, Street.FLOP: Street.TURN, Street.TURN: Street.RIVER}


@dataclass(frozen=True)
class HoldemRules:
    """The options of a game (the defaults are fivedice's rules).

    `blinds` (small, big) are posted by the two seats left of the button (heads-up: the
    button posts the small blind), besides the ante. No-limit: the smallest bet is the big
    blind, else the ante (at least 1 chip). Fixed-limit: bets and raises are `small_bet`
    before the flop and on the flop, `big_bet` on the turn and river, at most `bet_cap`
    bets and raises a round.
    """

    starting_stack: int = 1000
    ante: int = 10
    blinds: tuple[int, int] | None = None
    betting: Betting = Betting.NO_LIMIT
    small_bet: int = 20
    big_bet: int = 40
    bet_cap: int = 4

    def __post_init__(self) -> None:
        numbers = {
            "starting_stack": self.starting_stack,
            "ante": self.ante,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "bet_cap": self.bet_cap,
        }
        for name, value in numbers.items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise SettingsError(
                    N_("{option} is a whole number of chips, not {value!r}"),
                    option=name,
                    value=value,
                )
        if self.starting_stack < 1 or self.bet_cap < 1 or self.small_bet < 1 or self.big_bet < 1:
            raise SettingsError(N_("stacks, bets and the bet cap are at least 1"))
        if self.blinds is not None and not (
            len(self.blinds) == 2 and 0 < self.blinds[0] <= self.blinds[1]
        ):
            raise SettingsError(N_("the blinds are a small and a big blind, small <= big"))

    @property
    def minimum_bet(self) -> int:
        """The smallest no-limit bet: the big blind, else the ante (at least 1)."""
        return max(1, self.blinds[1] if self.blinds else self.ante)


@dataclass(frozen=True)
class SeatHand:
    """A seat's chips and its part in the hand being played."""

    stack: int
    pocket: tuple[Die, ...] = ()
    folded: bool = False
    committed: int = 0
    """Chips put in the pot this hand (ante and blinds included)."""
    street_bet: int = 0
    """Chips put in during this betting round (the blinds count as preflop bets)."""
    acted: bool = False
    """Has acted since the last full bet or raise (then it may not raise an incomplete one)."""

    @property
    def in_hand(self) -> bool:
        return bool(self.pocket) and not self.folded

    @property
    def can_act(self) -> bool:
        return self.in_hand and self.stack > 0

    @property
    def is_out(self) -> bool:
        """Out of the game: no chips and no part in the hand."""
        return self.stack == 0 and not self.in_hand


@dataclass(frozen=True)
class PotAward:
    """One pot of a finished hand: its chips, who could win it, who won and how much each."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]


@dataclass(frozen=True)
class HandResult:
    """How a hand ended: the board, the pockets shown (None: not shown), the hands and pots."""

    number: int
    button: int
    board: tuple[Die, ...]
    shown: tuple[tuple[Die, ...] | None, ...]
    hands: tuple[HandValue | None, ...]
    awards: tuple[PotAward, ...]
    won: tuple[int, ...]
    """Chips each seat took from the pots (not its profit)."""
    committed: tuple[int, ...]
    """Chips each seat put in this hand (its profit: `won` less this)."""
    stacks: tuple[int, ...] = ()
    """Each seat's chips once the pots were paid (before the next hand's antes)."""
    yahtzee_flush: int | None = None
    """The seat whose Yahtzee Flush won the whole game, if one did (it took every chip)."""

    @property
    def showdown(self) -> bool:
        return any(pocket is not None for pocket in self.shown)


@dataclass(frozen=True)
class HoldemState:
    """The whole game between two actions (immutable)."""

    rules: HoldemRules
    players: tuple[Seat, ...]
    seats: tuple[SeatHand, ...]
    button: int
    hand_number: int
    street: Street = Street.PREFLOP
    board: tuple[Die, ...] = ()
    bag: Bag = field(default_factory=full_bag)
    to_act: int | None = None
    """The seat whose turn it is (None: the game is over)."""
    current_bet: int = 0
    """The highest bet of this round."""
    min_raise: int = 0
    """The smallest raise now: the last bet or raise of this round."""
    bets_this_round: int = 0
    last_hand: HandResult | None = None
    winner: int | None = None

    @property
    def is_game_over(self) -> bool:
        return self.winner is not None

    @property
    def pot(self) -> int:
        return sum(seat.committed for seat in self.seats)

    @property
    def chips(self) -> int:
        """Every chip at the table (stacks and pot): the same from start to end."""
        return sum(seat.stack + seat.committed for seat in self.seats)

    def to_call(self, seat: int) -> int:
        """What `seat` must put in to call (at most its stack)."""
        hand = self.seats[seat]
        return min(self.current_bet - hand.street_bet, hand.stack)

    def bet_size(self) -> int:
        """Fixed-limit: the size of a bet or raise this round."""
        rules = self.rules
        early = self.street in (Street.PREFLOP, Street.FLOP)
        return rules.small_bet if early else rules.big_bet

    def raise_range(self, seat: int) -> tuple[int, int] | None:
        """The smallest and largest total this round `seat` may bet or raise to (the largest
        is all-in), or None when it may not bet or raise. A smallest above the largest is
        not returned: then only all-in raises (`AllIn`), and only if more than a call."""
        hand = self.seats[seat]
        most = hand.street_bet + hand.stack
        if most <= self.current_bet or not self._may_raise(seat):
            return None
        if self.rules.betting is Betting.FIXED_LIMIT:
            target = self.current_bet + self.bet_size()
            return (min(target, most), min(target, most))
        least = self.current_bet + self.min_raise if self.current_bet else self.rules.minimum_bet
        return (min(least, most), most)

    def _may_raise(self, seat: int) -> bool:
        hand = self.seats[seat]
        if hand.acted:
            return False  # only an incomplete all-in raise since it acted: call or fold
        if self.rules.betting is Betting.FIXED_LIMIT and self.bets_this_round >= self.rules.bet_cap:
            return False
        # No one left to call a raise when every other seat in the hand is all-in.
        return any(other.can_act for number, other in enumerate(self.seats) if number != seat)


def _check_players(players: Sequence[Seat]) -> None:
    if not MIN_SEATS <= len(players) <= MAX_SEATS:
        raise SettingsError(
            N_("Texas Hold'em Yahtzee has {least} to {most} seats, not {count}"),
            least=MIN_SEATS,
            most=MAX_SEATS,
            count=len(players),
        )
    names = [name_key(seat.name) for seat in players]
    if len(set(names)) != len(names):
        raise SettingsError(N_("two seats have the same name; give each player their own"))


def new_game(
    players: Sequence[Seat], rules: HoldemRules, dice: DiceSource, button: int = 0
) -> HoldemState:
    """A new game with the first hand dealt (its dice from `dice`).

    Raises:
        SettingsError: fewer than 2 or more than 6 seats, two seats of the same name.
    """
    _check_players(players)
    seats = tuple(SeatHand(rules.starting_stack) for _ in players)
    state = HoldemState(rules, tuple(players), seats, button % len(players), 0)
    return _start_hand(state, dice)


def _left_of(state: HoldemState, seat: int, wanted: str = "chips") -> int:
    """The next seat left of `seat` that has chips (`wanted="chips"`) or can act."""
    count = len(state.seats)
    for step in range(1, count + 1):
        number = (seat + step) % count
        hand = state.seats[number]
        if (hand.stack > 0) if wanted == "chips" else hand.can_act:
            return number
    return seat


def _put_in(hand: SeatHand, amount: int, *, bet: bool) -> SeatHand:
    amount = min(amount, hand.stack)
    return replace(
        hand,
        stack=hand.stack - amount,
        committed=hand.committed + amount,
        street_bet=hand.street_bet + amount if bet else hand.street_bet,
    )


def _start_hand(state: HoldemState, dice: DiceSource) -> HoldemState:
    """Antes, blinds and pocket dice for a new hand (the button already placed)."""
    rules = state.rules
    seats = [SeatHand(hand.stack) for hand in state.seats]
    dealt = [number for number, hand in enumerate(seats) if hand.stack > 0]
    bag = full_bag()
    order = [(state.button + step) % len(seats) for step in range(1, len(seats) + 1)]
    order = [number for number in order if number in dealt]
    for _round in range(POCKET_DICE):
        for number in order:
            die, bag = draw_die(bag, dice)
            seats[number] = replace(seats[number], pocket=(*seats[number].pocket, die))
    for number in dealt:
        seats[number] = _put_in(seats[number], rules.ante, bet=False)
    current_bet = 0
    first_after = state.button  # the first to act is left of this seat
    if rules.blinds is not None:
        # Heads-up the button posts the small blind, as in poker.
        small_seat, big_seat = (state.button, order[0]) if len(order) == 2 else order[:2]
        seats[small_seat] = _put_in(seats[small_seat], rules.blinds[0], bet=True)
        seats[big_seat] = _put_in(seats[big_seat], rules.blinds[1], bet=True)
        current_bet = max(seats[small_seat].street_bet, seats[big_seat].street_bet)
        first_after = big_seat
    started = replace(
        state,
        seats=tuple(seats),
        hand_number=state.hand_number + 1,
        street=Street.PREFLOP,
        board=(),
        bag=bag,
        current_bet=current_bet,
        min_raise=rules.minimum_bet,
        bets_this_round=1 if rules.blinds is not None else 0,
    )
    return _next_to_act(started, first_after, dice)


def _next_to_act(state: HoldemState, after: int, dice: DiceSource) -> HoldemState:
    """The turn passes to the first seat left of `after` that must act; when none must, the
    round ends (the next street is dealt, or the hand is settled)."""
    seats = state.seats
    count = len(seats)
    in_hand = [number for number, hand in enumerate(seats) if hand.in_hand]
    if len(in_hand) <= 1:
        return _settle(state, dice)
    for step in range(1, count + 1):
        number = (after + step) % count
        hand = seats[number]
        if hand.can_act and (not hand.acted or hand.street_bet < state.current_bet):
            # A lone seat with chips facing no bet has no one to bet against.
            able = [n for n in in_hand if seats[n].can_act]
            if len(able) == 1 and hand.street_bet >= state.current_bet:
                break
            return replace(state, to_act=number)
    return _end_round(state, dice)


def _end_round(state: HoldemState, dice: DiceSource) -> HoldemState:
    if state.street is Street.RIVER:
        return _settle(state, dice)
    street = _NEXT_STREET[state.street]
    board, bag = state.board, state.bag
    while len(board) < _BOARD_AFTER[street]:
        die, bag = draw_die(bag, dice)
        board = (*board, die)
    seats = tuple(replace(hand, street_bet=0, acted=False) for hand in state.seats)
    dealt = replace(
        state,
        seats=seats,
        street=street,
        board=board,
        bag=bag,
        current_bet=0,
        min_raise=state.rules.minimum_bet,
        bets_this_round=0,
        to_act=None,
    )
    return _next_to_act(dealt, state.button, dice)


def pots_of(committed: Sequence[int], in_hand: Sequence[bool]) -> list[tuple[int, tuple[int, ...]]]:
    """The main pot and side pots: (chips, seats that can win it), main pot first.

    Each level of what the seats still in the hand put in makes a pot; the chips of folded
    seats go into the pots their chips reached.

    >>> pots_of([100, 300, 300, 50], [True, True, True, False])
    [(350, (0, 1, 2)), (400, (1, 2))]
    """
    levels = sorted({amount for amount, live in zip(committed, in_hand, strict=True) if live})
    pots: list[tuple[int, tuple[int, ...]]] = []
    floor = 0
    for level in levels:
        amount = sum(max(0, min(c, level) - floor) for c in committed)
        eligible = tuple(
            n
            for n, (c, live) in enumerate(zip(committed, in_hand, strict=True))
            if live and c >= level
        )
        if amount:
            if pots and pots[-1][1] == eligible:
                pots[-1] = (pots[-1][0] + amount, eligible)
            else:
                pots.append((amount, eligible))
        floor = level
    beyond = sum(max(0, c - floor) for c in committed)  # (none: the top bettor is live)
    if beyond and pots:
        pots[-1] = (pots[-1][0] + beyond, pots[-1][1])
    return pots


def _settle(state: HoldemState, dice: DiceSource) -> HoldemState:
    """The end of a hand: the rest of the board (all-in), the showdown, the pots paid; then
    the next hand, or the end of the game."""
    seats = list(state.seats)
    in_hand = [hand.in_hand for hand in seats]
    contested = sum(in_hand) > 1
    board, bag = state.board, state.bag
    if contested:
        while len(board) < 5:
            die, bag = draw_die(bag, dice)
            board = (*board, die)
    hands: list[HandValue | None] = [
        best_hand((*hand.pocket, *board)) if live and contested else None
        for hand, live in zip(seats, in_hand, strict=True)
    ]
    count = len(seats)
    by_position = [(state.button + step) % count for step in range(1, count + 1)]
    won = [0] * count
    awards = []
    for amount, eligible in pots_of([h.committed for h in seats], in_hand):
        if contested:
            best = max(hands[n] for n in eligible if hands[n] is not None)  # type: ignore[type-var]
            winners = tuple(n for n in eligible if hands[n] == best)
        else:
            winners = eligible
        share, odd = divmod(amount, len(winners))
        shares = {n: share for n in winners}
        for n in [p for p in by_position if p in winners][:odd]:
            shares[n] += 1
        for n, chips in shares.items():
            won[n] += chips
        awards.append(PotAward(amount, eligible, winners, tuple(shares[n] for n in winners)))
    seats = [
        replace(hand, stack=hand.stack + chips, committed=0, street_bet=0)
        for hand, chips in zip(seats, won, strict=True)
    ]
    flushes = [
        n
        for n in by_position
        if hands[n] is not None and hands[n].key is HandKey.YAHTZEE_FLUSH  # type: ignore[union-attr]
    ]
    yahtzee_flush = None
    if flushes:
        best_flush = max(hands[n] for n in flushes)  # type: ignore[type-var]
        yahtzee_flush = next(n for n in flushes if hands[n] == best_flush)
    if yahtzee_flush is not None:
        total = sum(hand.stack for hand in seats)
        seats = [
            replace(hand, stack=total if n == yahtzee_flush else 0) for n, hand in enumerate(seats)
        ]
    result = HandResult(
        state.hand_number,
        state.button,
        board,
        tuple(
            hand.pocket if live and contested else None
            for hand, live in zip(state.seats, in_hand, strict=True)
        ),
        tuple(hands),
        tuple(awards),
        tuple(won),
        tuple(hand.committed for hand in state.seats),
        tuple(hand.stack for hand in seats),
        yahtzee_flush,
    )
    settled = replace(
        state,
        seats=tuple(replace(hand, pocket=(), folded=False, acted=False) for hand in seats),
        board=board,
        bag=bag,
        to_act=None,
        current_bet=0,
        last_hand=result,
    )
    with_chips = [n for n, hand in enumerate(seats) if hand.stack > 0]
    if len(with_chips) == 1:
        return replace(settled, winner=with_chips[0])
    return _start_hand(replace(settled, button=_left_of(settled, state.button)), dice)


def _illegal(template: str, **params: object) -> IllegalActionError:
    return IllegalActionError(template, **params)


def apply(
    state: HoldemState,
    action: BettingAction | str,
    dice: DiceSource,
    seat: int | None = None,
) -> HoldemState:
    """The state after the seat to act takes `action` (dice for what it deals).

    Args:
        seat: who is acting, when known (a front end's player): refused if not their turn.

    Raises:
        MalformedActionError: text that is not an action.
        IllegalActionError: the game is over, not this seat's turn, a check facing a bet,
            a bet below the smallest or above the stack, a raise too small, ...
    """
    if isinstance(action, str):
        action = parse_betting_action(action)
    if state.to_act is None:
        raise _illegal(N_("the game is over: no more actions"))
    acting = state.to_act
    if seat is not None and seat != acting:
        raise _illegal(
            N_("it is {name}'s turn, not {seat}'s"),
            name=state.players[acting].name,
            seat=state.players[seat].name if 0 <= seat < len(state.players) else seat,
        )
    hand = state.seats[acting]
    to_call = state.current_bet - hand.street_bet
    if isinstance(action, Fold):
        seats = _with(state.seats, acting, replace(hand, folded=True, acted=True))
        return _next_to_act(replace(state, seats=seats), acting, dice)
    if isinstance(action, Check):
        if to_call > 0:
            raise _illegal(
                N_("you cannot check facing a bet: call {amount}, raise or fold"), amount=to_call
            )
        seats = _with(state.seats, acting, replace(hand, acted=True))
        return _next_to_act(replace(state, seats=seats), acting, dice)
    if isinstance(action, Call):
        if to_call <= 0:
            raise _illegal(N_("there is no bet to call: check or bet"))
        paid = replace(_put_in(hand, to_call, bet=True), acted=True)
        return _next_to_act(replace(state, seats=_with(state.seats, acting, paid)), acting, dice)
    if isinstance(action, AllIn):
        target = hand.street_bet + hand.stack
        if target <= state.current_bet:
            paid = replace(_put_in(hand, hand.stack, bet=True), acted=True)
            return _next_to_act(
                replace(state, seats=_with(state.seats, acting, paid)), acting, dice
            )
        return _raise_to(state, acting, target, dice=dice)
    if isinstance(action, Bet):
        if state.current_bet > 0:
            raise _illegal(N_("there is already a bet: call, raise or fold"))
        return _raise_to(state, acting, action.to, dice=dice)
    if isinstance(action, Raise):
        if state.current_bet == 0:
            raise _illegal(N_("there is no bet to raise: bet instead"))
        return _raise_to(state, acting, action.to, dice=dice)
    raise MalformedActionError(
        N_("an action is check, call, fold, allin, bet AMOUNT or raise AMOUNT, not {text!r}"),
        text=str(action),
    )


def _with(seats: tuple[SeatHand, ...], number: int, hand: SeatHand) -> tuple[SeatHand, ...]:
    return (*seats[:number], hand, *seats[number + 1 :])


def _raise_to(state: HoldemState, acting: int, target: int, *, dice: DiceSource) -> HoldemState:
    hand = state.seats[acting]
    most = hand.street_bet + hand.stack
    allowed = state.raise_range(acting)
    if allowed is None:
        raise _illegal(N_("you may not bet or raise now: call or fold"))
    least, _most = allowed
    if target > most:
        raise _illegal(N_("you have only {most} chips to bet with"), most=most)
    if target < least and target != most:
        raise _illegal(N_("the smallest bet or raise now is to {least}"), least=least)
    if state.rules.betting is Betting.FIXED_LIMIT and target != least:
        raise _illegal(N_("fixed limit: bet or raise to exactly {least}"), least=least)
    increment = target - state.current_bet
    full = increment >= (state.min_raise if state.current_bet else state.rules.minimum_bet)
    if state.rules.betting is Betting.FIXED_LIMIT:
        full = increment >= state.bet_size()
    paid = replace(_put_in(hand, target - hand.street_bet, bet=True), acted=True)
    seats = list(_with(state.seats, acting, paid))
    if full:  # a full bet or raise reopens the betting to every other seat
        seats = [
            replace(other, acted=False) if n != acting else other for n, other in enumerate(seats)
        ]
    raised = replace(
        state,
        seats=tuple(seats),
        current_bet=target,
        min_raise=increment if full else state.min_raise,
        bets_this_round=state.bets_this_round + 1,
    )
    return _next_to_act(raised, acting, dice)


def legal_actions(state: HoldemState) -> list[BettingAction]:
    """The actions the seat to act may take (a bet or raise: the smallest and all-in)."""
    seat = state.to_act
    if seat is None:
        return []
    hand = state.seats[seat]
    actions: list[BettingAction] = [Fold()]
    actions.append(Call() if state.current_bet > hand.street_bet else Check())
    allowed = state.raise_range(seat)
    if allowed is not None:
        least, _most = allowed
        sized = Bet(least) if state.current_bet == 0 else Raise(least)
        everything = hand.street_bet + hand.stack
        if least < everything:
            actions.append(sized)
        if state.rules.betting is Betting.NO_LIMIT or least == everything:
            actions.append(AllIn())
    return actions
