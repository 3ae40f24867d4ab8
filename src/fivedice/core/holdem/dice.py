"""The coloured dice of Texas Hold'em Yahtzee and the bag they are drawn from.

A bag holds 20 dice, five of each colour (red, black, white, yellow). A die is drawn blind
(every die still in the bag equally likely) and then rolled. Both come from a `DiceSource`
(`fivedice.core.dice`): the roll is the next face; the draw is a uniform whole number below
the count of dice left, read from the next faces two at a time (36 outcomes, the top
``36 % left`` refused and drawn again, so every die left is exactly as likely). The dice of
the bag are in colour order (red, black, white, yellow), so the draw names a colour. With the
verifiable dice of `fivedice.core.fairdice` every draw and every roll is recomputed from the
seeds, like any roll of the score games.

A die is written as its face and the first letter of its colour: ``5r`` (red five), ``2b``
(black two), ``6w``, ``1y``.

>>> die = parse_die("5R")
>>> die, str(die)
(Die(face=5, colour=<Colour.RED: 'red'>), '5r')
>>> draw_die(full_bag(), ScriptedDice([1, 1, 4]))
(Die(face=4, colour=<Colour.RED: 'red'>), (4, 5, 5, 5))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from fivedice.core.dice import DiceSource, ScriptedDice
from fivedice.core.errors import N_, DiceError

__all__ = [
    "BAG_SIZE",
    "COLOURS",
    "DICE_PER_COLOUR",
    "Bag",
    "Colour",
    "DiceSource",
    "Die",
    "ScriptedDice",
    "bag_without",
    "dice_text",
    "draw_die",
    "full_bag",
    "parse_dice",
    "parse_die",
    "uniform_below",
]


class Colour(Enum):
    """The four colours of the dice, in the bag's order."""

    RED = "red"
    BLACK = "black"
    WHITE = "white"
    YELLOW = "yellow"

    @property
    def letter(self) -> str:
        return self.value[0]


COLOURS: tuple[Colour, ...] = tuple(Colour)
DICE_PER_COLOUR = 5
BAG_SIZE = DICE_PER_COLOUR * len(COLOURS)

Bag = tuple[int, ...]
"""The dice left in the bag: a count per colour, in `COLOURS` order."""


@dataclass(frozen=True)
class Die:
    """One coloured die showing a face."""

    face: int
    colour: Colour

    def __post_init__(self) -> None:
        if isinstance(self.face, bool) or self.face not in (1, 2, 3, 4, 5, 6):
            raise DiceError(N_("a die shows a face 1-6, not {face!r}"), face=self.face)

    def __str__(self) -> str:
        return f"{self.face}{self.colour.letter}"

    @property
    def sort_key(self) -> tuple[int, int]:
        """Face, then the colour's place in the bag: how dice are listed."""
        return self.face, COLOURS.index(self.colour)


_BY_LETTER = {colour.letter: colour for colour in COLOURS}


def parse_die(text: str) -> Die:
    """A die from its notation: a face 1-6 and a colour letter (r, b, w, y), any case.

    Raises:
        DiceError: not a die.
    """
    cleaned = text.strip().lower()
    if len(cleaned) != 2 or cleaned[0] not in "123456" or cleaned[1] not in _BY_LETTER:
        raise DiceError(
            N_("a die is a face 1-6 and a colour r, b, w or y (such as 5r), not {text!r}"),
            text=text,
        )
    return Die(int(cleaned[0]), _BY_LETTER[cleaned[1]])


def parse_dice(text: str) -> tuple[Die, ...]:
    """Dice from their notation, separated by spaces or commas ("5r 5b" or "5r,5b").

    Raises:
        DiceError: a word that is not a die.
    """
    return tuple(parse_die(word) for word in text.replace(",", " ").split())


def dice_text(dice: Iterable[Die]) -> str:
    """The dice in their notation, separated by spaces."""
    return " ".join(str(die) for die in dice)


def full_bag() -> Bag:
    return (DICE_PER_COLOUR,) * len(COLOURS)


def uniform_below(count: int, source: DiceSource) -> int:
    """A whole number 0 <= n < count, every one equally likely, from faces of `source`.

    Two faces make one of 36 outcomes; the top ``36 % count`` are refused and two more faces
    read, so no number is favoured.

    >>> uniform_below(20, ScriptedDice([6, 6, 1, 2]))  # 35 is refused (>= 20), then 1
    1
    """
    if not 1 <= count <= 36:
        raise DiceError(N_("a draw is from 1 to 36 dice, not {count}"), count=count)
    limit = 36 - 36 % count
    while True:
        first, second = source.roll(2)
        value = (first - 1) * 6 + (second - 1)
        if value < limit:
            return value % count


def draw_die(bag: Bag, source: DiceSource) -> tuple[Die, Bag]:
    """Draws one die blind from the bag and rolls it: the die and the bag left.

    Raises:
        DiceError: the bag is empty.
    """
    left = sum(bag)
    if left == 0:
        raise DiceError(N_("the bag is empty"))
    index = uniform_below(left, source)
    for position, count in enumerate(bag):
        if index < count:
            (face,) = source.roll(1)
            after = (*bag[:position], count - 1, *bag[position + 1 :])
            return Die(face, COLOURS[position]), after
        index -= count
    raise AssertionError("unreachable: the index is below the dice left")  # pragma: no cover


def bag_without(dice: Iterable[Die], bag: Bag | None = None) -> Bag:
    """The bag (default: full) with `dice` taken out.

    Raises:
        DiceError: more dice of a colour than the bag holds.
    """
    counts = list(full_bag() if bag is None else bag)
    for die in dice:
        position = COLOURS.index(die.colour)
        counts[position] -= 1
        if counts[position] < 0:
            raise DiceError(
                N_("the bag holds only {count} dice of each colour"), count=DICE_PER_COLOUR
            )
    return tuple(counts)
