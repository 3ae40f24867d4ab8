"""Texas Hold'em Yahtzee: the bag of coloured dice, the hands, the betting state machine,
the per-seat views and the game record (a pure core, beside the score-card game).

The entry points: `new_game`, `apply` (an action and the dice it deals), `legal_actions`,
`view_for` (what a seat may see), `best_hand` (the best five of seven dice), and
`HoldemRecord` (the log that replays and verifies).
"""

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
from fivedice.core.holdem.dice import COLOURS, Colour, Die, dice_text, parse_dice, parse_die
from fivedice.core.holdem.game import (
    Betting,
    HandResult,
    HoldemRules,
    HoldemState,
    PotAward,
    Street,
    apply,
    legal_actions,
    new_game,
)
from fivedice.core.holdem.hands import HAND_KEYS, HandKey, HandValue, best_hand
from fivedice.core.holdem.view import HoldemView, SeatLine, view_for

__all__ = [
    "COLOURS",
    "HAND_KEYS",
    "AllIn",
    "Bet",
    "Betting",
    "BettingAction",
    "Call",
    "Check",
    "Colour",
    "Die",
    "Fold",
    "HandKey",
    "HandResult",
    "HandValue",
    "HoldemRules",
    "HoldemState",
    "HoldemView",
    "PotAward",
    "Raise",
    "SeatLine",
    "Street",
    "apply",
    "best_hand",
    "dice_text",
    "legal_actions",
    "new_game",
    "parse_betting_action",
    "parse_dice",
    "parse_die",
    "view_for",
]
