"""The betting state machine: turns, legal and illegal actions, pots, side pots, the end."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from fivedice.core.dice import RandomDice, ScriptedDice
from fivedice.core.errors import IllegalActionError, MalformedActionError, SettingsError
from fivedice.core.game import Seat
from fivedice.core.holdem import (
    AllIn,
    Bet,
    Betting,
    HandKey,
    HoldemRules,
    Raise,
    apply,
    legal_actions,
    new_game,
    parse_betting_action,
    view_for,
)
from fivedice.core.holdem.game import HoldemState, SeatHand, pots_of
from tests.core.holdem.dealing import deal

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
NO_DICE = ScriptedDice([])


def seats(count: int) -> tuple[Seat, ...]:
    return tuple(Seat(name) for name in NAMES[:count])


def with_stacks(state: HoldemState, stacks: list[int]) -> HoldemState:
    """The dealt hand with other stacks behind the antes (for built all-in hands)."""
    return replace(
        state,
        seats=tuple(replace(hand, stack=s) for hand, s in zip(state.seats, stacks, strict=True)),
    )


@pytest.mark.parametrize("text", ["check", "call", "fold", "allin", "bet 40", "raise 120"])
def test_the_notation_round_trips(text):
    assert str(parse_betting_action(text)) == text


@pytest.mark.parametrize("text", ["", "bet", "bet -3", "bet 0", "raise x", "hold 1", "call 5"])
def test_malformed_actions_are_refused(text):
    with pytest.raises(MalformedActionError):
        parse_betting_action(text)


def test_two_to_six_seats_with_different_names():
    with pytest.raises(SettingsError):
        new_game(seats(1), HoldemRules(), RandomDice(1))
    with pytest.raises(SettingsError):
        new_game(tuple(Seat(f"P{n}") for n in range(7)), HoldemRules(), RandomDice(1))
    with pytest.raises(SettingsError):
        new_game((Seat("Ann"), Seat("ann")), HoldemRules(), RandomDice(1))


def test_a_hand_antes_deals_two_pocket_dice_each_and_starts_left_of_the_button():
    state = new_game(seats(3), HoldemRules(), deal(["1r 2r", "3b 4b", "5w 6w"], ""))
    assert [s.stack for s in state.seats] == [990, 990, 990]
    assert state.pot == 30
    assert [len(s.pocket) for s in state.seats] == [2, 2, 2]
    assert state.to_act == 1
    assert sum(state.bag) == 20 - 6


def test_the_streets_deal_three_one_and_one_die_then_the_showdown_pays():
    dice = deal(["6r 6b", "1w 2y", "3w 4y"], "6w 6y 5r 5b 1b")
    state = new_game(seats(3), HoldemRules(), dice)
    for expected_board in (0, 0, 0, 3, 3, 3, 4, 4, 4, 5, 5):
        assert len(state.board) == expected_board
        state = apply(state, "check", dice)
    state = apply(state, "check", RandomDice(5))  # the last check ends the hand
    result = state.last_hand
    assert result is not None and result.showdown
    assert result.hands[0] is not None and result.hands[0].key is HandKey.FOUR_OF_A_KIND
    assert result.won == (30, 0, 0)
    assert state.hand_number == 2 and state.button == 1
    assert [s.stack for s in state.seats] == [1020 - 10, 990 - 10, 990 - 10]


def test_an_exact_tie_splits_the_pot_odd_chip_left_of_the_button():
    # Both play the board's Yahtzee (5s): a tie. 3 seats, seat 2 folds: 31 chips... built
    # with antes of 10 and a fold: 30 chips in, split 15/15; then with an odd pot.
    rules = HoldemRules(ante=11)
    dice = deal(["1r 2b", "1w 2y", "3y 4y"], "5r 5b 5w 5y 5r")
    state = new_game(seats(3), rules, dice, button=1)  # left of the button: seat 2, then 0
    state = apply(state, "fold", dice)  # seat 2
    for _ in range(7):
        state = apply(state, "check", dice)
    state = apply(state, "check", RandomDice(1))
    result = state.last_hand
    assert result is not None
    (award,) = result.awards
    assert award.amount == 33 and award.winners == (0, 1)
    assert result.won == (17, 16, 0)  # the odd chip to seat 0, first left of the button


def test_side_pots_with_three_all_in_seats():
    dice = deal(["6r 6b", "5r 5b", "4r 4b"], "6w 5w 4w 1y 2y")  # 6s > 5s > 4s: three of a kind
    state = with_stacks(new_game(seats(3), HoldemRules(), dice), [90, 190, 390])
    state = apply(state, "allin", dice)  # seat 1: 190 (200 in)
    state = apply(state, "allin", dice)  # seat 2: 390 (400 in)
    state = apply(state, "allin", dice)  # seat 0: 90 (100 in)
    result = state.last_hand
    assert result is not None
    assert [(a.amount, a.eligible, a.winners) for a in result.awards] == [
        (300, (0, 1, 2), (0,)),
        (200, (1, 2), (1,)),
        (200, (2,), (2,)),
    ]
    assert [s.stack for s in state.seats] == [300 - 10, 200 - 10, 200 - 10]


def test_side_pots_with_four_seats_one_folding():
    dice = deal(["1r 2b", "6r 6b", "5r 5b", "4r 4b"], "4w 5w 6w 1y 3y")
    state = with_stacks(new_game(seats(4), HoldemRules(), dice), [990, 40, 140, 990])
    state = apply(state, "allin", dice)  # seat 1: 40
    state = apply(state, "allin", dice)  # seat 2: 140
    state = apply(state, "call", dice)  # seat 3: 140
    state = apply(state, "fold", dice)  # seat 0 (its straight is never shown)
    result = state.last_hand
    assert result is not None
    assert result.shown[0] is None and result.shown[1] is not None
    assert [(a.amount, a.eligible, a.winners) for a in result.awards] == [
        (160, (1, 2, 3), (1,)),
        (200, (2, 3), (2,)),
    ]
    assert [s.stack for s in state.seats] == [990 - 10, 160 - 10, 200 - 10, 850 - 10]


def test_pots_of_levels():
    assert pots_of([50, 200, 200, 400], [True, True, True, True]) == [
        (200, (0, 1, 2, 3)),
        (450, (1, 2, 3)),
        (200, (3,)),
    ]
    # A folded seat's chips go into the pots they reached.
    assert pots_of([100, 300, 300, 150], [True, True, True, False]) == [
        (400, (0, 1, 2)),
        (450, (1, 2)),
    ]


def test_the_yahtzee_flush_wins_the_whole_game():
    dice = deal(["6r 6r", "1b 2b", "5w 5y"], "6r 6r 6r 3b 4w")
    state = new_game(seats(3), HoldemRules(), dice)
    for _ in range(11):
        state = apply(state, "check", dice)
    state = apply(state, "check", RandomDice(2))
    assert state.is_game_over and state.winner == 0 and state.to_act is None
    assert state.last_hand is not None and state.last_hand.yahtzee_flush == 0
    assert [s.stack for s in state.seats] == [3000, 0, 0]
    with pytest.raises(IllegalActionError):
        apply(state, "check", RandomDice(3))


def test_illegal_actions_raise_and_change_nothing():
    dice = deal(["1r 2b", "3r 4b", "5r 6b"], "")
    state = new_game(seats(3), HoldemRules(), dice)
    before = state
    with pytest.raises(IllegalActionError, match="it is Bob's turn, not Ann's"):
        apply(state, "check", NO_DICE, seat=0)  # Bob (seat 1) is to act
    with pytest.raises(IllegalActionError, match="smallest"):
        apply(state, "bet 5", NO_DICE)
    with pytest.raises(IllegalActionError, match="only"):
        apply(state, "bet 5000", NO_DICE)
    with pytest.raises(IllegalActionError, match="no bet to call"):
        apply(state, "call", NO_DICE)
    with pytest.raises(IllegalActionError, match="no bet to raise"):
        apply(state, "raise 40", NO_DICE)
    state = apply(state, "bet 40", NO_DICE)
    after_bet = state
    with pytest.raises(IllegalActionError, match="cannot check"):
        apply(state, "check", NO_DICE)
    with pytest.raises(IllegalActionError, match="already a bet"):
        apply(state, "bet 100", NO_DICE)
    with pytest.raises(IllegalActionError, match="smallest bet or raise now is to 80"):
        apply(state, "raise 60", NO_DICE)  # the smallest raise is the last bet: 40 more
    assert before.to_act == 1 and after_bet.to_act == 2 and after_bet.current_bet == 40
    assert [s.stack for s in before.seats] == [990, 990, 990]


def test_the_smallest_raise_is_the_last_bet_or_raise():
    state = new_game(seats(3), HoldemRules(), deal(["1r 2b", "3r 4b", "5r 6b"], ""))
    state = apply(state, "bet 40", NO_DICE)
    state = apply(state, "raise 150", NO_DICE)  # a raise of 110
    assert state.raise_range(0) == (260, 990)


def test_an_all_in_for_less_than_a_raise_does_not_reopen_the_betting():
    dice = deal(["1r 2b", "3r 4b", "5r 6b"], "1w 2w 3w 4y 6y")
    state = with_stacks(new_game(seats(3), HoldemRules(), dice), [990, 990, 60])
    state = apply(state, "bet 40", dice)  # Bob
    state = apply(state, "allin", dice)  # Cy: to 60, 20 more (less than a raise of 40)
    state = apply(state, "call", dice)  # Ann calls 60
    assert state.to_act == 1
    assert state.raise_range(1) is None  # Bob may only call or fold
    assert [str(a) for a in legal_actions(state)] == ["fold", "call"]


def test_fixed_limit_bets_are_one_size_and_capped():
    rules = HoldemRules(betting=Betting.FIXED_LIMIT, bet_cap=3)
    state = new_game(seats(2), rules, deal(["1r 2b", "3r 4b"], ""))
    with pytest.raises(IllegalActionError, match="exactly 20"):
        apply(state, "bet 30", NO_DICE)
    state = apply(state, "bet 20", NO_DICE)
    state = apply(state, "raise 40", NO_DICE)
    state = apply(state, "raise 60", NO_DICE)
    assert state.raise_range(state.to_act or 0) is None  # the cap of 3 is reached
    assert AllIn() not in legal_actions(state) and Raise(80) not in legal_actions(state)


def test_blinds_heads_up_button_posts_the_small_blind_and_acts_first():
    rules = HoldemRules(ante=0, blinds=(5, 10))
    state = new_game(seats(2), rules, deal(["1r 2b", "3r 4b"], ""))
    assert [s.street_bet for s in state.seats] == [5, 10]
    assert state.to_act == 0 and state.to_call(0) == 5
    assert Raise(20) in legal_actions(state)


def test_the_views_hide_other_seats_pocket_dice():
    state = new_game(seats(3), HoldemRules(), RandomDice(4))
    for viewer in (0, 1, 2):
        view = view_for(state, viewer)
        for number, line in enumerate(view.seats):
            assert (line.pocket is not None) == (number == viewer)
    assert all(line.pocket is None for line in view_for(state, None).seats)
    assert state.board == ()  # so no die in a spectator's view can be a pocket die
    assert "Die(" not in repr(view_for(state, None))


def play_randomly(seed: int) -> int:
    """Plays a whole game of random legal actions; checks every chip after every action."""
    rng = random.Random(seed)
    count = rng.randint(2, 6)
    rules = HoldemRules(
        starting_stack=rng.choice([30, 100, 300]),
        blinds=(5, 10) if seed % 3 == 0 else None,
        betting=Betting.FIXED_LIMIT if seed % 4 == 0 else Betting.NO_LIMIT,
    )
    state = new_game(seats(count), rules, RandomDice(rng))
    total = state.chips
    hands = 0
    while not state.is_game_over and hands < 400:
        action = rng.choice(legal_actions(state))
        if isinstance(action, (Bet, Raise)) and rules.betting is Betting.NO_LIMIT:
            least, most = state.raise_range(state.to_act or 0) or (0, 0)
            action = type(action)(rng.randint(least, most))
        number = state.hand_number
        state = apply(state, action, RandomDice(rng))
        assert state.chips == total
        assert all(hand.stack >= 0 and hand.committed >= 0 for hand in state.seats)
        hands += state.hand_number != number or state.is_game_over
    return hands


def test_chips_are_conserved_in_every_hand_of_many_random_games():
    assert sum(play_randomly(seed) for seed in range(8)) > 150


@pytest.mark.slow  # (thousands of hands: `make test`, not the fast lane)
def test_chips_are_conserved_in_thousands_of_hands():
    assert sum(play_randomly(seed) for seed in range(100, 300)) > 5000


def test_a_seat_without_chips_is_out_and_the_last_with_chips_wins():
    dice = deal(["6r 6b", "1w 2y"], "6w 6y 5r 3b 1b")
    state = new_game(seats(2), HoldemRules(starting_stack=100), dice)
    state = apply(state, "allin", dice)
    state = apply(state, "call", dice)
    assert state.is_game_over and state.winner == 0
    assert view_for(state, 1).seats[1].is_out


def test_a_seat_hand_is_a_value():
    assert SeatHand(10) == SeatHand(10)
