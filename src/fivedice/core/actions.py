"""Player actions as small values with a text notation that round-trips.

Notation (positions count the dice from the left, 1 to 5; columns from 1):

=====================  ====================================================
``roll``               roll every die that is not held
``hold 1 3 5``         hold these dice (they are not rolled)
``release 2``          release held dice (they will be rolled again)
``score full_house``   fill a box of the (first) column with the dice
``score 2:chance``     fill a box of column 2 (several-column rule sets)
=====================  ====================================================

Games at the table (real dice, the app keeps the card) have two more:

=======================  ==================================================
``dice 3 3 3 5 5``       the dice rolled at the table (also ``dice 33355``)
``score full_house 25``  points for a box, entered without dice
=======================  ==================================================

>>> parse_action("hold 1 3 5")
Hold(positions=(1, 3, 5))
>>> str(parse_action("score 2:chance"))
'score 2:chance'
>>> str(parse_action("SCORE Full-House"))
'score full_house'
>>> str(parse_action("dice 53335"))
'dice 3 3 3 5 5'
>>> parse_action("score 2:chance 17")
ScorePoints(category=<Box chance>, points=17, column=1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fivedice.core.categories import Category
from fivedice.core.dice import DICE_COUNT, MAX_DICE, parse_dice
from fivedice.core.errors import N_, CardError, DiceError, MalformedActionError


def _check_positions(positions: tuple[int, ...], dice: int = MAX_DICE) -> None:
    if not positions:
        raise MalformedActionError(N_("name at least one die by its position, 1 to 5"))
    for position in positions:
        if isinstance(position, bool) or not isinstance(position, int):
            raise MalformedActionError(
                N_("a die position is a number 1-5, not {position!r}"), position=position
            )
        if not 1 <= position <= dice:
            raise MalformedActionError(
                N_("there are dice 1 to {count}; there is no die {position}"),
                count=dice,
                position=position,
            )
    if len(set(positions)) != len(positions):
        raise MalformedActionError(
            N_("a die is named twice in {positions}"), positions=" ".join(map(str, positions))
        )
    if list(positions) != sorted(positions):
        raise MalformedActionError(N_("die positions are listed in increasing order"))


def _check_column(column: object) -> None:
    if isinstance(column, bool) or not isinstance(column, int) or column < 0:
        raise MalformedActionError(
            N_("a column number counts from 1, not {column!r}"), column=column
        )


@dataclass(frozen=True)
class Roll:
    """Roll every die that is not held."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class _DicePositions:
    """Dice named by position (1-5), sorted and distinct; `VERB` starts the notation."""

    VERB: ClassVar[str]
    positions: tuple[int, ...]

    def __post_init__(self) -> None:
        _check_positions(self.positions)

    def __str__(self) -> str:
        return f"{self.VERB} " + " ".join(map(str, self.positions))


@dataclass(frozen=True)
class Hold(_DicePositions):
    """Hold dice by position (1-5), sorted and distinct."""

    VERB: ClassVar[str] = "hold"


@dataclass(frozen=True)
class Release(_DicePositions):
    """Release held dice by position (1-5), sorted and distinct."""

    VERB: ClassVar[str] = "release"


@dataclass(frozen=True)
class Score:
    """Fill a box with the current dice; `column` counts from 0 (shown from 1)."""

    category: Category
    column: int = 0

    def __post_init__(self) -> None:
        _check_column(self.column)

    def __str__(self) -> str:
        if self.column:
            return f"score {self.column + 1}:{self.category.key}"
        return f"score {self.category.key}"


@dataclass(frozen=True)
class EnterDice:
    """The dice rolled at the table, entered by hand (games at the table only).

    The values are kept sorted: real dice have no positions. Entering dice again before
    scoring replaces them (a typo fixed).
    """

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        count = len(self.dice) if DICE_COUNT <= len(self.dice) <= MAX_DICE else DICE_COUNT
        try:
            roll = parse_dice("".join(str(value) for value in self.dice), count)
        except DiceError as error:
            raise MalformedActionError(error.template, **error.params) from None
        if roll != self.dice:
            raise MalformedActionError(N_("dice are listed in increasing order"))

    def __str__(self) -> str:
        return "dice " + " ".join(map(str, self.dice))


@dataclass(frozen=True)
class ScorePoints:
    """Points for a box entered without dice (games at the table only); `column` from 0.

    The core checks them: only points some roll could give that box now are accepted.
    """

    category: Category
    points: int
    column: int = 0

    def __post_init__(self) -> None:
        _check_column(self.column)
        if isinstance(self.points, bool) or not isinstance(self.points, int) or self.points < 0:
            raise MalformedActionError(
                N_("points are a whole number, 0 or more, not {points!r}"), points=self.points
            )

    def __str__(self) -> str:
        box = f"{self.column + 1}:{self.category.key}" if self.column else self.category.key
        return f"score {box} {self.points}"


Action = Roll | Hold | Release | Score | EnterDice | ScorePoints


def _is_number(text: str) -> bool:
    # ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
    return text.isascii() and text.isdigit()


def _parse_positions(words: list[str]) -> tuple[int, ...]:
    digits: list[str] = []
    for word in words:
        for part in word.replace(",", " ").split():
            if not _is_number(part):
                raise MalformedActionError(
                    N_("a die position is a number 1-5, not {position!r}"), position=part
                )
            digits.extend(part)  # "hold 135" is read as "hold 1 3 5"
    return tuple(sorted(int(d) for d in digits))


def _parse_box(text: str) -> tuple[Category, int]:
    """A box as ``full_house`` or ``2:full_house``: the category and the column (from 0)."""
    column_text, sep, box = text.rpartition(":")
    column = 0
    if sep:
        if not _is_number(column_text) or int(column_text) < 1:
            raise MalformedActionError(
                N_("a column number counts from 1, not {column!r}"), column=column_text
            )
        column = int(column_text) - 1
    try:
        category = Category.parse(box)
    except CardError as error:
        raise MalformedActionError(error.template, **error.params) from None
    return category, column


def parse_action(text: str, dice: int | None = DICE_COUNT) -> Action:
    """Reads an action from its notation (case and extra spaces ignored).

    `dice` is the number of dice of the rules in force (5; 6 in Maxi Yatzy): die positions
    and entered dice are checked against it. None: any number fivedice plays (5 or 6), for
    notation read back from a log whose game checks it when it is applied.

    Raises:
        MalformedActionError: the text is not an action; the message shows the notation.
    """
    words = text.strip().split()
    if not words:
        raise MalformedActionError(
            N_(
                "empty action; actions are: roll | hold 1 3 5 | release 2 | score full_house"
                " | score 2:chance"
            )
        )
    verb, args = words[0].lower(), words[1:]
    if verb == "roll":
        if args:
            raise MalformedActionError(
                N_("'roll' takes nothing after it, got {extra!r}"), extra=" ".join(args)
            )
        return Roll()
    if verb in ("hold", "release"):
        positions = _parse_positions(args)
        _check_positions(positions, MAX_DICE if dice is None else dice)
        return Hold(positions) if verb == "hold" else Release(positions)
    if verb == "dice":
        if dice is None:
            count = sum(1 for c in " ".join(args) if c.isdigit())
            dice = count if DICE_COUNT <= count <= MAX_DICE else DICE_COUNT
        try:
            return EnterDice(parse_dice(" ".join(args), dice))
        except DiceError as error:
            raise MalformedActionError(error.template, **error.params) from None
    if verb == "score":
        if len(args) == 2:
            if not _is_number(args[1]) or len(args[1]) > 9:
                raise MalformedActionError(
                    N_("points are a whole number, 0 or more, not {points!r}"), points=args[1]
                )
            category, column = _parse_box(args[0])
            return ScorePoints(category, int(args[1]), column)
        if len(args) != 1:
            raise MalformedActionError(
                N_(
                    "'score' takes one box, e.g. 'score chance' or 'score 2:chance',"
                    " and at the table optionally the points: 'score full_house 25'"
                )
            )
        category, column = _parse_box(args[0])
        return Score(category, column)
    raise MalformedActionError(
        N_(
            "unknown action {verb!r}; actions are: roll | hold 1 3 5 | release 2"
            " | score full_house | score 2:chance"
        ),
        verb=words[0],
    )


TABLE_NOTATION_HELP = N_(
    "at the table: dice 3 3 3 5 5 (or dice 33355) | score full_house | score full_house 25 | undo"
)
