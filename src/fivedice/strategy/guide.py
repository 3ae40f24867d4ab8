"""The strategy guide: rules a person can follow at the table, and the `guide` level that
plays exactly them.

A guide is data (`Guide`, shipped as JSON beside this module and produced by
`scripts/derive-guide.py` from the solver's decisions): a *par table* for choosing the box,
and an ordered list of *keep rules*. Only the vocabulary is code: the features a rule may test
(`FEATURES`: how many of a kind, which face, how close a straight is, which boxes are open,
the turn, the rolls left, the upper section against par) and the keeps it may prescribe
(`ACTIONS`: keep the most common face, draw to a straight, ...). Which rules, in what order,
with what numbers, and what each is worth all come from the derivation.

Choosing a box: score where `points − par` is largest; in the upper section, while the bonus
is neither made nor out of reach, each point above or below three of the face counts
`upper_weight` times extra ("take the upper box when it keeps you on par").

Choosing a keep: the first keep rule whose conditions all hold decides; when none does, keep
the dice of the most common face.

>>> counts = counts_of((6, 6, 6, 2, 3))
>>> action_keep(MOST, counts, (True,) * 6)
(6, 6, 6)
>>> action_keep(SMALL_DRAW, counts_of((1, 2, 3, 5, 5)), (True,) * 6)
(2, 3, 5)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from fivedice.core.rules import RuleSet

__all__ = [
    "ACTIONS",
    "BOX_KEYS",
    "FEATURES",
    "MOST",
    "SMALL_DRAW",
    "Condition",
    "Guide",
    "KeepRule",
    "Position",
    "action_keep",
    "bonus_in_play",
    "bonus_threshold",
    "choose_box_index",
    "counts_of",
    "features",
    "guide_for",
    "load_guide",
    "rule_matches",
]

BOX_KEYS: tuple[str, ...] = (
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
"""The boxes a guide knows, in card order (the classic card)."""

UPPER_BOXES = 6
THREE_KIND, FOUR_KIND, FULL_HOUSE, SMALL, LARGE, YAHTZEE, CHANCE = range(6, 13)

# The features a keep rule may test, by name; `features` computes them in this order.
FEATURES: tuple[str, ...] = (
    "of_a_kind",  # how many dice show the most common face (1-5)
    "face",  # that face (the higher one on a tie)
    "second",  # how many show the next most common face
    "small_run",  # most faces of one small straight (1-2-3-4, 2-3-4-5, 3-4-5-6) held (1-4)
    "large_run",  # most faces of one large straight (1-2-3-4-5, 2-3-4-5-6) held (1-5)
    "rolls_left",  # rolls left this turn (1 or 2)
    "turn",  # the turn, 1-13
    "face_upper_open",  # 1 if the upper box of `face` is open
    "three_of_a_kind_open",
    "four_of_a_kind_open",
    "full_house_open",
    "small_straight_open",
    "large_straight_open",
    "yahtzee_open",
    "chance_open",
    "upper_margin",  # upper total against par (3 of each filled face), -15..15; 15 once made
    "sum",  # the dice's sum
    "yahtzee_scored",  # 1 if the Yahtzee box holds 50 (a further one earns the bonus)
)
FEATURE_INDEX = {name: i for i, name in enumerate(FEATURES)}

# The keeps a rule may prescribe.
ALL, MOST, MOST_UPPER, SMALL_DRAW, LARGE_DRAW, HOUSE, MOST_HIGH4, MOST_HIGH5 = range(8)
HIGH4, HIGH5, NOTHING = range(8, 11)
ACTIONS: tuple[str, ...] = (
    "all",  # keep everything: score now
    "most",  # the dice of the most common face (the higher face on a tie)
    "most_upper",  # the dice of the most common face whose upper box is open
    "small_draw",  # one die of each face of the nearest small straight
    "large_draw",  # one die of each face of the nearest large straight
    "house",  # the three of a kind and the pair, or the two pairs, or the three, or the pair
    "most_high4",  # the most common face and every other die of 4 or more
    "most_high5",  # the most common face and every other die of 5 or more
    "high4",  # every die of 4 or more
    "high5",  # every die of 5 or more
    "nothing",  # reroll all five
)
ACTION_INDEX = {name: i for i, name in enumerate(ACTIONS)}

_SMALL_WINDOWS = ((2, 3, 4, 5), (3, 4, 5, 6), (1, 2, 3, 4))  # the middle one first: open ended
_LARGE_WINDOWS = ((2, 3, 4, 5, 6), (1, 2, 3, 4, 5))
MARGIN_LIMIT = 15


def counts_of(dice: Sequence[int]) -> tuple[int, ...]:
    """How many dice show each face 1-6.

    >>> counts_of((2, 2, 5, 6, 6))
    (0, 2, 0, 0, 1, 2)
    """
    return tuple(sum(1 for d in dice if d == face) for face in range(1, 7))


@dataclass(frozen=True)
class Position:
    """What a guide rule looks at: the card (one column, classic boxes) and the dice.

    Attributes:
        scores: each box's score in card order (`BOX_KEYS`), None while open.
        counts: how many dice show each face 1-6.
        rolls_left: rolls left this turn (0: the dice must be scored).
    """

    scores: tuple[int | None, ...]
    counts: tuple[int, ...]
    rolls_left: int

    @property
    def upper_total(self) -> int:
        return sum(s or 0 for s in self.scores[:UPPER_BOXES])


def _most_common(counts: Sequence[int], faces: Sequence[int]) -> int:
    """The face among `faces` that most dice show (the higher face on a tie); 0 if none."""
    best = 0
    for face in faces:
        if counts[face - 1] > 0 and (best == 0 or counts[face - 1] >= counts[best - 1]):
            best = face
    return best


def _window(counts: Sequence[int], windows: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The faces held of the window with the most faces held (the first on a tie)."""
    best: tuple[int, ...] = ()
    for window in windows:
        held = tuple(face for face in window if counts[face - 1] > 0)
        if len(held) > len(best):
            best = held
    return best


def upper_margin(scores: Sequence[int | None], threshold: int = 63) -> int:
    """The upper total against par (three of each filled face), clipped to ±15; 15 once the
    bonus is made."""
    total = sum(s or 0 for s in scores[:UPPER_BOXES])
    if total >= threshold:
        return MARGIN_LIMIT
    margin = sum(s - 3 * (i + 1) for i, s in enumerate(scores[:UPPER_BOXES]) if s is not None)
    return max(-MARGIN_LIMIT, min(MARGIN_LIMIT, margin))


def features(position: Position) -> tuple[int, ...]:
    """The position's features, in the order of `FEATURES`.

    >>> p = Position((None,) * 13, counts_of((4, 4, 4, 1, 2)), 2)
    >>> dict(zip(FEATURES, features(p)))["of_a_kind"], dict(zip(FEATURES, features(p)))["face"]
    (3, 4)
    """
    counts, scores = position.counts, position.scores
    face = _most_common(counts, range(1, 7))
    others = sorted((c for i, c in enumerate(counts) if i != face - 1), reverse=True)
    opened = [1 if s is None else 0 for s in scores]
    return (
        counts[face - 1],
        face,
        others[0],
        len(_window(counts, _SMALL_WINDOWS)),
        len(_window(counts, _LARGE_WINDOWS)),
        position.rolls_left,
        len(scores) - sum(opened) + 1,
        opened[face - 1],
        opened[THREE_KIND],
        opened[FOUR_KIND],
        opened[FULL_HOUSE],
        opened[SMALL],
        opened[LARGE],
        opened[YAHTZEE],
        opened[CHANCE],
        upper_margin(scores),
        sum((i + 1) * c for i, c in enumerate(counts)),
        1 if (scores[YAHTZEE] or 0) > 0 else 0,
    )


def action_keep(action: int, counts: Sequence[int], upper_open: Sequence[bool]) -> tuple[int, ...]:
    """The dice an action keeps (sorted), from the dice's face counts.

    Args:
        action: an index into `ACTIONS`.
        counts: how many dice show each face 1-6.
        upper_open: whether each upper box (ones to sixes) is open.

    >>> action_keep(HOUSE, counts_of((3, 3, 5, 5, 1)), (True,) * 6)
    (3, 3, 5, 5)
    >>> action_keep(MOST_UPPER, counts_of((3, 3, 5, 5, 1)), (True,) * 4 + (False, True))
    (3, 3)
    """
    held = [0] * 6
    if action == ALL:
        held = list(counts)
    elif action in (MOST, MOST_HIGH4, MOST_HIGH5):
        face = _most_common(counts, range(1, 7))
        held[face - 1] = counts[face - 1]
        low = {MOST_HIGH4: 4, MOST_HIGH5: 5}.get(action, 7)
        for f in range(low, 7):
            held[f - 1] = counts[f - 1]
    elif action == MOST_UPPER:
        face = _most_common(counts, [f for f in range(1, 7) if upper_open[f - 1]])
        face = face or _most_common(counts, range(1, 7))
        held[face - 1] = counts[face - 1]
    elif action in (SMALL_DRAW, LARGE_DRAW):
        for face in _window(counts, _SMALL_WINDOWS if action == SMALL_DRAW else _LARGE_WINDOWS):
            held[face - 1] = 1
    elif action == HOUSE:
        first = _most_common(counts, range(1, 7))
        held[first - 1] = min(counts[first - 1], 3)
        rest = [f for f in range(1, 7) if f != first]
        second = _most_common(counts, rest)
        if second and counts[second - 1] >= 2:
            held[second - 1] = 2
    elif action in (HIGH4, HIGH5):
        for f in range(4 if action == HIGH4 else 5, 7):
            held[f - 1] = counts[f - 1]
    return tuple(f + 1 for f in range(6) for _ in range(held[f]))


@dataclass(frozen=True)
class Condition:
    """One test of a keep rule: `low <= feature <= high`."""

    feature: int
    low: int
    high: int

    def holds(self, values: Sequence[int]) -> bool:
        return self.low <= values[self.feature] <= self.high

    def as_data(self) -> list[Any]:
        return [FEATURES[self.feature], self.low, self.high]


@dataclass(frozen=True)
class KeepRule:
    """If every condition holds, keep what `action` keeps.

    Attributes:
        action: an index into `ACTIONS`.
        conditions: the tests, all of which must hold.
        worth: points a game lost when the rule is left out (measured by the derivation).
    """

    action: int
    conditions: tuple[Condition, ...]
    worth: float = 0.0

    def as_data(self) -> dict[str, Any]:
        return {
            "action": ACTIONS[self.action],
            "when": [c.as_data() for c in self.conditions],
            "worth": round(self.worth, 3),
        }


def rule_matches(rule: KeepRule, values: Sequence[int]) -> bool:
    """Whether every condition of the rule holds for these feature values."""
    return all(condition.holds(values) for condition in rule.conditions)


@dataclass(frozen=True)
class Guide:
    """A derived strategy guide.

    Attributes:
        pars: each box's par, in card order (`BOX_KEYS`).
        upper_weight: extra worth of each upper point above or below par while the bonus is
            in play.
        keep_rules: the keep rules, first match decides.
        box_worth: points a game lost when the box rules are replaced by "score the most
            points now" (measured by the derivation).
        upper_worth: points a game lost without the upper-section rule.
        mean: the guide level's mean score, `games` games (measured by the derivation).
        games: how many games `mean` is over.
        rules_name: the preset the guide was derived for.
        optimum: optimal play's mean score under those rules (the solver's).
    """

    pars: tuple[float, ...]
    upper_weight: float
    keep_rules: tuple[KeepRule, ...]
    box_worth: float = 0.0
    upper_worth: float = 0.0
    mean: float = 0.0
    games: int = 0
    rules_name: str = "classic"
    optimum: float = 0.0

    def keep(self, position: Position) -> tuple[int, ...]:
        """The dice to keep (all five: score now)."""
        values = features(position)
        upper_open = tuple(s is None for s in position.scores[:UPPER_BOXES])
        for rule in self.keep_rules:
            if rule_matches(rule, values):
                return action_keep(rule.action, position.counts, upper_open)
        return action_keep(MOST, position.counts, upper_open)

    def as_data(self) -> dict[str, Any]:
        return {
            "rules": self.rules_name,
            "mean": round(self.mean, 3),
            "optimum": round(self.optimum, 4),
            "games": self.games,
            "box": {
                "pars": {key: round(par, 2) for key, par in zip(BOX_KEYS, self.pars, strict=True)},
                "upper_weight": round(self.upper_weight, 3),
                "worth": round(self.box_worth, 3),
                "upper_worth": round(self.upper_worth, 3),
            },
            "keep": [rule.as_data() for rule in self.keep_rules],
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Guide:
        box = data["box"]
        return cls(
            pars=tuple(float(box["pars"][key]) for key in BOX_KEYS),
            upper_weight=float(box["upper_weight"]),
            keep_rules=tuple(
                KeepRule(
                    ACTION_INDEX[rule["action"]],
                    tuple(
                        Condition(FEATURE_INDEX[name], int(low), int(high))
                        for name, low, high in rule["when"]
                    ),
                    float(rule.get("worth", 0.0)),
                )
                for rule in data["keep"]
            ),
            box_worth=float(box.get("worth", 0.0)),
            upper_worth=float(box.get("upper_worth", 0.0)),
            mean=float(data.get("mean", 0.0)),
            games=int(data.get("games", 0)),
            rules_name=str(data.get("rules", "classic")),
            optimum=float(data.get("optimum", 0.0)),
        )


def bonus_threshold(rules: RuleSet) -> int:
    """The upper total that earns the bonus, or one no card reaches when there is none."""
    return rules.upper_bonus_threshold if rules.upper_bonus else 10**6


def box_value(
    guide: Guide, box: int, points: int, scores: Sequence[int | None], threshold: int = 63
) -> float:
    """What the guide counts a placement as worth: points − par, and in the upper section,
    while the bonus is in play, `upper_weight` per point above or below three of the face."""
    value = points - guide.pars[box]
    if box < UPPER_BOXES and bonus_in_play(scores, threshold):
        value += guide.upper_weight * (points - 3 * (box + 1))
    return value


def bonus_in_play(scores: Sequence[int | None], threshold: int) -> bool:
    """The upper bonus is neither made nor out of reach (five of each open face)."""
    upper = scores[:UPPER_BOXES]
    total = sum(s or 0 for s in upper)
    best = total + sum(5 * (i + 1) for i, s in enumerate(upper) if s is None)
    return total < threshold <= best


def choose_box_index(
    guide: Guide,
    options: Sequence[tuple[int, int]],
    scores: Sequence[int | None],
    threshold: int = 63,
) -> int:
    """The index into `options` ((box, box points) of each legal placement) the guide picks:
    the largest `box_value`, the first on a tie."""
    best, chosen = float("-inf"), 0
    for i, (box, points) in enumerate(options):
        value = box_value(guide, box, points, scores, threshold)
        if value > best + 1e-9:
            best, chosen = value, i
    return chosen


GUIDE_FILES: dict[str, str] = {"classic": "guide_classic.json"}
"""The derived guides shipped with the package, by preset."""


@functools.cache
def load_guide(name: str = "classic") -> Guide:
    """The shipped guide of a preset (`GUIDE_FILES`)."""
    text = resources.files("fivedice.strategy").joinpath(GUIDE_FILES[name]).read_text("utf-8")
    return Guide.from_data(json.loads(text))


def guide_for(rules: RuleSet) -> Guide | None:
    """The guide that plays these rules: the preset's own if one was derived, else the
    classic guide for any single-column card of the classic boxes; None otherwise (the
    guide level then plays like casual)."""
    from fivedice.core.rules import preset_name

    if rules.columns != 1 or tuple(box.key for box in rules.boxes) != BOX_KEYS:
        return None
    name = preset_name(rules)
    return load_guide(name if name in GUIDE_FILES else "classic")
