"""Drill positions: a decision to practise (`Position`: a one-column card, the dice and the
rolls left, as JSON in the store), and the built-in classic teaching positions (`BUILTIN`),
each with the advisor's best move (tests/service/test_drills.py checks them against the
solved table).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any

from fivedice.core.card import Column, ScoreCard
from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import GameSettings, GameState, Seat, Turn
from fivedice.core.rules import RuleSet, find_ruleset

BUILTIN_PREFIX = "builtin:"
"""The key of a built-in position's drill is this and its name ("builtin:three-sixes")."""


class DrillError(FivediceError):
    """A drill that cannot be shown or answered (unknown, or no longer in the book)."""


@dataclass(frozen=True)
class Position:
    """A decision to practise: a one-column card, the dice showing and the rolls left.

    >>> position = Position(find_ruleset("classic"), Column(), (6, 6, 6, 2, 3), 2)
    >>> position.kind, Position.from_json(position.to_json()) == position
    ('keep', True)
    """

    rules: RuleSet
    column: Column
    dice: tuple[int, ...]
    rolls_left: int

    @property
    def kind(self) -> str:
        """ "keep" (rolls are left: what would you keep?) or "box" (which box?)."""
        return "keep" if self.rolls_left > 0 else "box"

    def state(self) -> GameState:
        """The position as a one-seat game state, no die held (the core checks answers)."""
        settings = GameSettings(seats=(Seat("Player"),), rules=self.rules)
        turn = Turn(
            seat=0,
            dice=self.dice,
            held=(False,) * len(self.dice),
            rolls_used=self.rules.rolls_per_turn - self.rolls_left,
        )
        return GameState(settings, (ScoreCard((self.column,)),), turn)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.settings(),
            "scores": list(self.column.scores),
            "extra_yahtzees": self.column.extra_yahtzees,
            "dice": list(self.dice),
            "rolls_left": self.rolls_left,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Position:
        """The position `to_json` wrote.

        Raises:
            ValueError (a FivediceError among them), KeyError, TypeError: not a position.
        """
        rules = RuleSet().with_settings(data["rules"])
        scores = tuple(None if s is None else int(s) for s in data["scores"])
        column = replace(
            Column.empty(rules), scores=scores, extra_yahtzees=int(data["extra_yahtzees"])
        )
        dice = tuple(int(d) for d in data["dice"])
        rolls_left = int(data["rolls_left"])
        if len(dice) != rules.dice or not all(1 <= d <= 6 for d in dice):
            raise ValueError(f"not the dice of a drill: {dice!r}")
        if not 0 <= rolls_left < rules.rolls_per_turn or column.is_complete:
            raise ValueError(f"not a decision: {rolls_left} rolls left")
        return cls(rules, column, dice, rolls_left)

    @property
    def key(self) -> str:
        """The same position (dice in any order) always has the same key."""
        same = self.to_json() | {"dice": sorted(self.dice)}
        digest = hashlib.sha256(json.dumps(same, sort_keys=True).encode()).hexdigest()
        return "pos:" + digest[:24]


@dataclass(frozen=True)
class BuiltinPosition:
    """A classic teaching position: its title (a message id) and the advisor's best move."""

    name: str
    title: str
    scores: dict[str, int]
    dice: tuple[int, ...]
    rolls_left: int
    best: str
    """The advisor's best, in the hints' notation ("keep 6 6 6", "score full_house")."""

    def position(self) -> Position:
        rules = find_ruleset("classic")
        return Position(rules, Column.from_scores(rules, self.scores), self.dice, self.rolls_left)


_LATE = {
    "ones": 2,
    "twos": 6,
    "threes": 9,
    "three_of_a_kind": 20,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "yahtzee": 50,
    "chance": 22,
}

BUILTIN: tuple[BuiltinPosition, ...] = (
    BuiltinPosition(
        "three-sixes",
        N_("Three of a kind early: keep them and roll two"),
        {},
        (6, 2, 6, 3, 6),
        2,
        "keep 6 6 6",
    ),
    BuiltinPosition(
        "four-in-a-row",
        N_("Four in a row: keep the run, not the pair"),
        {},
        (5, 3, 2, 5, 4),
        2,
        "keep 2 3 4 5",
    ),
    BuiltinPosition(
        "two-pairs",
        N_("Two pairs early: keep only the higher pair"),
        {},
        (1, 5, 6, 1, 5),
        2,
        "keep 5 5",
    ),
    BuiltinPosition(
        "four-of-a-kind",
        N_("Four of a kind: go for the Yahtzee"),
        {},
        (4, 4, 2, 4, 4),
        2,
        "keep 4 4 4 4",
    ),
    BuiltinPosition(
        "full-house-early",
        N_("A full house with two rolls left: keep the three"),
        {},
        (3, 5, 3, 5, 3),
        2,
        "keep 3 3 3",
    ),
    BuiltinPosition(
        "full-house-last",
        N_("A full house on the last roll: take it"),
        {},
        (3, 5, 3, 5, 3),
        0,
        "score full_house",
    ),
    BuiltinPosition(
        "large-straight",
        N_("A large straight: score it at once"),
        {},
        (3, 1, 5, 2, 4),
        2,
        "score large_straight",
    ),
    BuiltinPosition(
        "inside-straight",
        N_("One roll left: keep the four in a row"),
        {},
        (6, 1, 4, 3, 5),
        1,
        "keep 3 4 5 6",
    ),
    BuiltinPosition(
        "nothing-last",
        N_("Nothing on the last roll: Ones, not Chance"),
        {},
        (4, 1, 6, 2, 1),
        0,
        "score ones",
    ),
    BuiltinPosition(
        "cheapest-zero",
        N_("Late in the game: a zero where it costs least"),
        _LATE,
        (2, 5, 1, 6, 2),
        0,
        "score four_of_a_kind",
    ),
)
"""The classic teaching positions, in the order a newcomer meets them."""


def builtin_position(key: str) -> BuiltinPosition | None:
    """The built-in position of a drill key ("builtin:three-sixes"), or None."""
    name = key.removeprefix(BUILTIN_PREFIX) if key.startswith(BUILTIN_PREFIX) else None
    return next((item for item in BUILTIN if item.name == name), None)


def position_json(position: Position, **origin: Any) -> str:
    """A position as the store keeps it, with where it was met (`origin`), if anywhere."""
    return json.dumps(position.to_json() | ({"origin": origin} if origin else {}))
