"""The pure rules engine: dice, boxes, rule sets, score cards, the game and its actions.

Standard library only; no I/O. Everything here is immutable.
"""

from fivedice.core.actions import Action, Hold, Release, Roll, Score, parse_action
from fivedice.core.card import Column, Placement, ScoreCard
from fivedice.core.categories import CATEGORIES, LOWER, UPPER, Category
from fivedice.core.dice import (
    ALL_KEEPS,
    ALL_ROLLS,
    DiceSource,
    RandomDice,
    ScriptedDice,
    keep_outcomes,
    parse_dice,
    roll_probability,
)
from fivedice.core.errors import (
    ActionError,
    CardError,
    DiceError,
    FivediceError,
    IllegalActionError,
    MalformedActionError,
    RuleSetError,
    SettingsError,
)
from fivedice.core.game import (
    FirstPlayer,
    GameSettings,
    GameState,
    Seat,
    Turn,
    apply,
    legal_actions,
    new_game,
    rank,
    replay,
)
from fivedice.core.names import PlayerNameError, check_name, visible_text
from fivedice.core.rules import (
    PRESETS,
    BonusCondition,
    Joker,
    OfAKindScoring,
    RuleSet,
    Straights,
    find_preset,
    find_ruleset,
)
from fivedice.core.scoring import box_score, box_scores

__all__ = [
    "ALL_KEEPS",
    "ALL_ROLLS",
    "CATEGORIES",
    "LOWER",
    "PRESETS",
    "UPPER",
    "Action",
    "ActionError",
    "BonusCondition",
    "CardError",
    "Category",
    "Column",
    "DiceError",
    "DiceSource",
    "FirstPlayer",
    "FivediceError",
    "GameSettings",
    "GameState",
    "Hold",
    "IllegalActionError",
    "Joker",
    "MalformedActionError",
    "OfAKindScoring",
    "Placement",
    "PlayerNameError",
    "RandomDice",
    "Release",
    "Roll",
    "RuleSet",
    "RuleSetError",
    "Score",
    "ScoreCard",
    "ScriptedDice",
    "Seat",
    "SettingsError",
    "Straights",
    "Turn",
    "apply",
    "box_score",
    "box_scores",
    "check_name",
    "find_preset",
    "find_ruleset",
    "keep_outcomes",
    "legal_actions",
    "new_game",
    "parse_action",
    "parse_dice",
    "rank",
    "replay",
    "roll_probability",
    "visible_text",
]
