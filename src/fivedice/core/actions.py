"""Player actions as small values with a text notation that round-trips.

Notation (positions count the dice from the left, 1 to 5; columns from 1):

=====================  ====================================================
``roll``               roll every die that is not held
``hold 1 3 5``         hold these dice (they are not rolled)
``release 2``          release held dice (they will be rolled again)
``score full_house``   fill a box of the (first) column with the dice
``score 2:chance``     fill a box of column 2 (several-column rule sets)
=====================  ====================================================

>>> parse_action("hold 1 3 5")
Hold(positions=(1, 3, 5))
>>> str(parse_action("score 2:chance"))
'score 2:chance'
>>> str(parse_action("SCORE Full-House"))
'score full_house'
"""

from __future__ import annotations

from dataclasses import dataclass

from fivedice.core.categories import Category
from fivedice.core.dice import DICE_COUNT
from fivedice.core.errors import N_, CardError, MalformedActionError


def _check_positions(positions: tuple[int, ...]) -> None:
    if not positions:
        raise MalformedActionError(N_("name at least one die by its position, 1 to 5"))
    for position in positions:
        if isinstance(position, bool) or not isinstance(position, int):
            raise MalformedActionError(
                N_("a die position is a number 1-5, not {position!r}"), position=position
            )
        if not 1 <= position <= DICE_COUNT:
            raise MalformedActionError(
                N_("there are dice 1 to {count}; there is no die {position}"),
                count=DICE_COUNT,
                position=position,
            )
    if len(set(positions)) != len(positions):
        raise MalformedActionError(
            N_("a die is named twice in {positions}"), positions=" ".join(map(str, positions))
        )
    if list(positions) != sorted(positions):
        raise MalformedActionError(N_("die positions are listed in increasing order"))


@dataclass(frozen=True)
class Roll:
    """Roll every die that is not held."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Hold:
    """Hold dice by position (1-5), sorted and distinct."""

    positions: tuple[int, ...]

    def __post_init__(self) -> None:
        _check_positions(self.positions)

    def __str__(self) -> str:
        return "hold " + " ".join(map(str, self.positions))


@dataclass(frozen=True)
class Release:
    """Release held dice by position (1-5), sorted and distinct."""

    positions: tuple[int, ...]

    def __post_init__(self) -> None:
        _check_positions(self.positions)

    def __str__(self) -> str:
        return "release " + " ".join(map(str, self.positions))


@dataclass(frozen=True)
class Score:
    """Fill a box with the current dice; `column` counts from 0 (shown from 1)."""

    category: Category
    column: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.column, bool) or not isinstance(self.column, int) or self.column < 0:
            raise MalformedActionError(
                N_("a column number counts from 1, not {column!r}"), column=self.column
            )

    def __str__(self) -> str:
        if self.column:
            return f"score {self.column + 1}:{self.category.key}"
        return f"score {self.category.key}"


Action = Roll | Hold | Release | Score


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


def parse_action(text: str) -> Action:
    """Reads an action from its notation (case and extra spaces ignored).

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
        return Hold(positions) if verb == "hold" else Release(positions)
    if verb == "score":
        if len(args) != 1:
            raise MalformedActionError(
                N_("'score' takes one box, e.g. 'score chance' or 'score 2:chance'")
            )
        column_text, sep, box = args[0].rpartition(":")
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
        return Score(category, column)
    raise MalformedActionError(
        N_(
            "unknown action {verb!r}; actions are: roll | hold 1 3 5 | release 2"
            " | score full_house | score 2:chance"
        ),
        verb=words[0],
    )


NOTATION_HELP = N_("actions are: roll | hold 1 3 5 | release 2 | score full_house | score 2:chance")
