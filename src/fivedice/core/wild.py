"""The wild die (`wild_die=on`): one die of its own colour whose 1 face shows a star (★).

Our own design (no published numeric rule exists): when a roll is scored, the ★ counts as
whichever face 1-6 gives the most points in the box chosen (in Ones it is a 1); it may complete
a Yahtzee, a straight or a full house, and a Yahtzee made with it is a Yahtzee for the box, the
extra-Yahtzee bonus and the joker. Showing 2-6 the wild die is an ordinary die.

Position: the wild die is always the last die of the turn (die 5, or 6 with six dice); it is
held by its position like any other (`hold 5`) and the game record writes it in its place, so a
record's dice are those of the game without the option.

A *roll* with the wild die codes the wild die's face f as `f + WILD` (7-12): the regular dice
and the wild one then stay apart in one sorted tuple, the coded wild die last, which is what
scoring (`score_box`), the card and the exact solver (whose states and keeps tell the wild die
from the others: keeping a regular 3 or the wild 3 is not the same) read.

>>> roll = wild_roll((4, 4, 2, 4, 1))  # dice in position order, the wild die last: ★
>>> roll
(2, 4, 4, 4, 7)
>>> substitutions(roll)[:2]
((1, 2, 4, 4, 4), (2, 2, 4, 4, 4))
>>> yahtzee_face(wild_roll((3, 3, 3, 3, 1)))
3
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache, lru_cache

from fivedice.core.errors import N_, DiceError

WILD = 6
"""A wild die showing face f is coded f + WILD in a roll."""
STAR = 1
"""The wild die's face that shows the star."""
STAR_CODE = STAR + WILD

Roll = tuple[int, ...]


def is_wild_code(value: int) -> bool:
    """The value codes the wild die (7-12)."""
    return value > WILD


def has_wild(dice: Sequence[int]) -> bool:
    """The dice hold the coded wild die (in a sorted roll: last)."""
    return any(value > WILD for value in dice)


def face_of(value: int) -> int:
    """The face a die shows (the wild die's ★ is its face 1)."""
    return value - WILD if value > WILD else value


def wild_roll(dice: Sequence[int], count: int = 5) -> Roll:
    """The roll of `count` dice with the wild die coded apart.

    `dice` are the dice in position order, the wild die last (faces 1-6), or a roll already
    coded (exactly one value 7-12, in any order).

    Raises:
        DiceError: not `count` faces, or more than one wild die.
    """
    values = tuple(dice)
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 2 * WILD:
            raise DiceError(N_("a die shows 1 to 6, not {value!r}"), value=value)
    if len(values) != count:
        raise DiceError(
            N_("a roll has {count} dice, not {found}: {dice}"),
            count=count,
            found=len(values),
            dice=values,
        )
    coded = sum(1 for value in values if value > WILD)
    if coded == 0:
        return (*sorted(values[:-1]), values[-1] + WILD)
    if coded > 1:
        raise DiceError(
            N_("a roll has one wild die, not {found}: {dice}"), found=coded, dice=values
        )
    return tuple(sorted(values))


@lru_cache(maxsize=4096)
def substitutions(roll: Roll) -> tuple[Roll, ...]:
    """The plain rolls (faces 1-6, sorted) a coded roll may score as: the ★ as each face 1-6,
    or the wild die's own face. A roll without the wild die is its own only one."""
    if not has_wild(roll):
        return (roll,)
    regular, wild = roll[:-1], roll[-1] - WILD
    faces = range(1, 7) if wild == STAR else (wild,)
    return tuple(tuple(sorted((*regular, face))) for face in faces)


def yahtzee_face(roll: Roll) -> int:
    """The face of the Yahtzee the roll makes (all dice one face, the ★ standing for any),
    or 0."""
    return next((sub[0] for sub in substitutions(roll) if len(set(sub)) == 1), 0)


@cache
def wild_rolls(count: int = 5) -> tuple[Roll, ...]:
    """Every distinct coded roll of `count` dice, the last one wild, sorted (6 × 126 = 756 for
    five dice)."""
    return tuple(
        sorted(
            (*regular, face + WILD)
            for regular in itertools.combinations_with_replacement(range(1, 7), count - 1)
            for face in range(1, 7)
        )
    )


def plain_faces(dice: Sequence[int]) -> Roll:
    """The faces shown, the wild die's ★ as 1 (for words and pictures of the dice)."""
    return tuple(face_of(value) for value in dice)


def dice_text(dice: Sequence[int]) -> str:
    """The dice as digits, the wild die's ★ as ★ ("4444★")."""
    return "".join("★" if value == STAR_CODE else str(face_of(value)) for value in dice)


def die_token(value: int) -> str:
    """A die of a roll or keep in short text, the wild die in braces: "4", "{★}", "{4}"."""
    if not is_wild_code(value):
        return str(value)
    return "{" + ("★" if value == STAR_CODE else str(face_of(value))) + "}"
