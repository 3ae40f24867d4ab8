"""Boxes as data: each box of a score card is a scoring kind with its parameters.

A rule set names its boxes (`RuleSet.boxes`, in card order); scoring, legality, the card and
every front end read that list, so a new family of the game (Scandinavian Yatzy, Maxi Yatzy)
is a new list of boxes, not new code. `score_box` is the one scoring function.

>>> score_box(FULL_HOUSE, (3, 3, 3, 5, 5))
25
>>> score_box(Box("two_pairs", BoxKind.PAIRS, "Two pairs", size=2), (2, 2, 5, 5, 6))
14
>>> score_box(Box("castle", BoxKind.FULL_HOUSE, "Castle", shape=(3, 3)), (2, 2, 2, 6, 6, 6))
24
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from itertools import combinations, combinations_with_replacement
from typing import ClassVar

from fivedice.core.errors import N_, CardError, Phrase
from fivedice.core.wild import has_wild, substitutions, yahtzee_face


class BoxKind(Enum):
    """How a box scores; its parameters are fields of `Box`."""

    UPPER = "upper"  # face: the sum of the dice showing it
    OF_A_KIND = "of_a_kind"  # size dice of one face: all dice, or (matching) size × face
    PAIRS = "pairs"  # size pairs of different faces: the sum of those dice
    STRAIGHT = "straight"  # a run of `size` faces anywhere, or exactly `faces`: points or sum
    FULL_HOUSE = "full_house"  # shape (3, 2), (3, 3), (4, 2) of two faces: points or sum
    ALL_SAME = "all_same"  # every die the same face (Yahtzee, Yatzy, Maxi Yatzy): points
    CHANCE = "chance"  # any dice: the sum
    FLUSH = "flush"  # every die of one colour of pips (Kismet: PIP_COLOURS): points


PIP_COLOURS: dict[int, int] = {1: 0, 6: 0, 2: 1, 5: 1, 3: 2, 4: 2}
"""The colour of each face's pips where the rules colour them (Kismet, as GNOME Tali scores
it): 1 and 6 black (0), 2 and 5 red (1), 3 and 4 green (2); opposite faces share a colour."""


class _BoxType(type):
    """Iterating `Box` (or `Category`) gives the classic thirteen, as the old Enum did."""

    def __iter__(cls) -> Iterator[Box]:
        return iter(CLASSIC_BOXES)

    def __len__(cls) -> int:
        return len(CLASSIC_BOXES)


@dataclass(frozen=True, eq=False)
class Box(metaclass=_BoxType):
    """One box of a score card.

    A box is identified by its `key` (the notation: ``score full_house``, JSON keys, saves);
    two boxes with the same key are equal whatever their parameters, because a rule set holds
    one box per key and its own box decides the scoring (`RuleSet.box`). The classic boxes are
    class constants (`Box.FULL_HOUSE`), also importable as `Category` (the old name).

    Attributes:
        key: the box's key.
        kind: how it scores.
        name: its English name as on the card (translated by `fivedice.wording.text.box_name`).
        face: UPPER: the face counted.
        size: OF_A_KIND: how many equal dice; PAIRS: how many pairs; STRAIGHT: the run
            length (0 with fixed `faces`); ALL_SAME: the number of dice.
        faces: STRAIGHT: the exact faces it needs (empty: a run of `size` anywhere).
        shape: FULL_HOUSE: the dice of each of its two faces, e.g. (3, 2).
        points: fixed points; None scores the sum of the dice the box uses.
        matching: OF_A_KIND: only the matching dice count (else all dice).
        loose: PAIRS: four equal dice count as two pairs; FULL_HOUSE: dice all of one face
            count (five of a kind is a full house).
        extra: points added to a made box that scores a sum (Kismet: full house = the sum
            + 15); ALL_SAME with `points` None scores the sum + extra.
        same_colour: PAIRS, FULL_HOUSE: the faces must share a colour (`PIP_COLOURS`).
        served: points added when the box is made on the first roll of the turn (Generala).
        stand_ins: STRAIGHT: faces a 1 may stand for to complete it (Generala: 2 or 6).
        second: ALL_SAME: a second all-same box (Double Generala), which scores only while
            the card's first all-same box holds its points (`Column.placements`).
        served_wins: made on the first roll of the turn and scored here, it wins the game at
            once when others are at the table (Generala's served Generala: `core.game`);
            alone, and for the solver's expected score, it is worth its points.
    """

    key: str
    kind: BoxKind = field(default=BoxKind.CHANCE, compare=False)
    name: str = field(default="", compare=False)
    face: int = field(default=0, compare=False)
    size: int = field(default=0, compare=False)
    faces: tuple[int, ...] = field(default=(), compare=False)
    shape: tuple[int, ...] = field(default=(), compare=False)
    points: int | None = field(default=None, compare=False)
    matching: bool = field(default=False, compare=False)
    loose: bool = field(default=False, compare=False)
    extra: int = field(default=0, compare=False)
    same_colour: bool = field(default=False, compare=False)
    served: int = field(default=0, compare=False)
    stand_ins: tuple[int, ...] = field(default=(), compare=False)
    second: bool = field(default=False, compare=False)
    served_wins: bool = field(default=False, compare=False)

    ONES: ClassVar[Box]
    TWOS: ClassVar[Box]
    THREES: ClassVar[Box]
    FOURS: ClassVar[Box]
    FIVES: ClassVar[Box]
    SIXES: ClassVar[Box]
    THREE_OF_A_KIND: ClassVar[Box]
    FOUR_OF_A_KIND: ClassVar[Box]
    FULL_HOUSE: ClassVar[Box]
    SMALL_STRAIGHT: ClassVar[Box]
    LARGE_STRAIGHT: ClassVar[Box]
    YAHTZEE: ClassVar[Box]
    CHANCE: ClassVar[Box]

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Box):
            return self.key == other.key
        return NotImplemented

    def __post_init__(self) -> None:
        if not self.name:  # Box("full_house"): the known box of that key, as Enum lookup was
            known = KNOWN_BOXES.get(self.key) if isinstance(self.key, str) else None
            if known is None:
                raise CardError(
                    N_("no box is called {text!r}; the boxes are {boxes}"),
                    text=self.key,
                    boxes=", ".join(CLASSIC_INDEX),
                )
            for name in _PARAMETERS:
                object.__setattr__(self, name, getattr(known, name))

    @property
    def value(self) -> str:
        """The key (what `Category.value` was when the boxes were an Enum)."""
        return self.key

    @property
    def is_upper(self) -> bool:
        return self.kind is BoxKind.UPPER

    @property
    def index(self) -> int:
        """Position on the classic thirteen-box card (the classic strategy tables' bit).

        Raises:
            CardError: the box is not one of the classic thirteen.
        """
        try:
            return CLASSIC_INDEX[self.key]
        except KeyError:
            raise CardError(
                N_("{box} is not a box of the classic card"), box=Phrase(self.name)
            ) from None

    @classmethod
    def parse(cls, text: str, boxes: Sequence[Box] | None = None) -> Box:
        """Finds a box by its key ("full_house"); dashes and spaces also work, any case.

        Args:
            text: the key.
            boxes: the boxes to look in (a rule set's); default: every box fivedice knows.

        Raises:
            CardError: no box has that name.
        """
        key = text.strip().lower().replace("-", "_").replace(" ", "_")
        pool = KNOWN_BOXES if boxes is None else {box.key: box for box in boxes}
        found = pool.get(key)
        if found is None:
            known = ", ".join(pool) if boxes is not None else ", ".join(CLASSIC_INDEX)
            raise CardError(
                N_("no box is called {text!r}; the boxes are {boxes}"), text=text, boxes=known
            )
        return found

    def __repr__(self) -> str:
        return f"<Box {self.key}>"


_PARAMETERS = (
    "kind", "name", "face", "size", "faces", "shape", "points", "matching", "loose", "extra",
    "same_colour", "served", "stand_ins", "second", "served_wins",
)  # fmt: skip


def _upper(key: str, name: str, face: int) -> Box:
    return Box(key, BoxKind.UPPER, name, face=face)


UPPER_BOXES: tuple[Box, ...] = (
    _upper("ones", N_("Ones"), 1),
    _upper("twos", N_("Twos"), 2),
    _upper("threes", N_("Threes"), 3),
    _upper("fours", N_("Fours"), 4),
    _upper("fives", N_("Fives"), 5),
    _upper("sixes", N_("Sixes"), 6),
)
ONES, TWOS, THREES, FOURS, FIVES, SIXES = UPPER_BOXES
THREE_OF_A_KIND = Box("three_of_a_kind", BoxKind.OF_A_KIND, N_("Three of a kind"), size=3)
FOUR_OF_A_KIND = Box("four_of_a_kind", BoxKind.OF_A_KIND, N_("Four of a kind"), size=4)
FULL_HOUSE = Box("full_house", BoxKind.FULL_HOUSE, N_("Full house"), shape=(3, 2), points=25)
SMALL_STRAIGHT = Box("small_straight", BoxKind.STRAIGHT, N_("Small straight"), size=4, points=30)
LARGE_STRAIGHT = Box("large_straight", BoxKind.STRAIGHT, N_("Large straight"), size=5, points=40)
YAHTZEE = Box("yahtzee", BoxKind.ALL_SAME, N_("Yahtzee"), size=5, points=50)
CHANCE = Box("chance", BoxKind.CHANCE, N_("Chance"))

CLASSIC_BOXES: tuple[Box, ...] = (
    *UPPER_BOXES,
    THREE_OF_A_KIND,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    SMALL_STRAIGHT,
    LARGE_STRAIGHT,
    YAHTZEE,
    CHANCE,
)
"""The thirteen boxes of Yahtzee with the classic parameters, in card order."""

CLASSIC_INDEX: dict[str, int] = {box.key: i for i, box in enumerate(CLASSIC_BOXES)}

for _box in CLASSIC_BOXES:
    setattr(Box, _box.key.upper(), _box)

# The boxes of the other families (their parameters are set by the rule set's options).
ONE_PAIR = Box("one_pair", BoxKind.PAIRS, N_("One pair"), size=1)
TWO_PAIRS = Box("two_pairs", BoxKind.PAIRS, N_("Two pairs"), size=2)
THREE_PAIRS = Box("three_pairs", BoxKind.PAIRS, N_("Three pairs"), size=3)
FIVE_OF_A_KIND = Box("five_of_a_kind", BoxKind.OF_A_KIND, N_("Five of a kind"), size=5)
FULL_STRAIGHT = Box(
    "full_straight", BoxKind.STRAIGHT, N_("Full straight"), faces=(1, 2, 3, 4, 5, 6), points=21
)
CASTLE = Box("castle", BoxKind.FULL_HOUSE, N_("Castle"), shape=(3, 3))
TOWER = Box("tower", BoxKind.FULL_HOUSE, N_("Tower"), shape=(4, 2))
YATZY = Box("yatzy", BoxKind.ALL_SAME, N_("Yatzy"), size=5, points=50)
MAXI_YATZY = Box("maxi_yatzy", BoxKind.ALL_SAME, N_("Maxi Yatzy"), size=6, points=100)
# Yacht (1938) and Yacht Dice (Nintendo's 51 Worldwide Games).
LITTLE_STRAIGHT = Box(
    "little_straight", BoxKind.STRAIGHT, N_("Little straight"), faces=(1, 2, 3, 4, 5), points=30
)
BIG_STRAIGHT = Box(
    "big_straight", BoxKind.STRAIGHT, N_("Big straight"), faces=(2, 3, 4, 5, 6), points=30
)
CHOICE = Box("choice", BoxKind.CHANCE, N_("Choice"))
YACHT = Box("yacht", BoxKind.ALL_SAME, N_("Yacht"), size=5, points=50)
# Generala.
ESCALERA = Box("escalera", BoxKind.STRAIGHT, N_("Escalera"), size=5, points=20)
FULL = Box("full", BoxKind.FULL_HOUSE, N_("Full"), shape=(3, 2), points=30)
POKER = Box("poker", BoxKind.OF_A_KIND, N_("Poker"), size=4, points=40)
GENERALA = Box("generala", BoxKind.ALL_SAME, N_("Generala"), size=5, points=50)
DOUBLE_GENERALA = Box(
    "double_generala", BoxKind.ALL_SAME, N_("Double Generala"), size=5, points=100, second=True
)
# Kismet (as GNOME Tali scores it: src/yahtzee.c).
TWO_PAIRS_SAME_COLOUR = Box(
    "two_pairs_same_colour",
    BoxKind.PAIRS,
    N_("Two pairs same colour"),
    size=2,
    loose=True,
    same_colour=True,
)
FULL_HOUSE_SAME_COLOUR = Box(
    "full_house_same_colour",
    BoxKind.FULL_HOUSE,
    N_("Full house same colour"),
    shape=(3, 2),
    loose=True,
    same_colour=True,
    extra=20,
)
FLUSH = Box("flush", BoxKind.FLUSH, N_("Flush"), points=35)
KISMET = Box("kismet", BoxKind.ALL_SAME, N_("Kismet"), size=5, extra=50)

KNOWN_BOXES: dict[str, Box] = {
    box.key: box
    for box in (
        *CLASSIC_BOXES,
        ONE_PAIR,
        TWO_PAIRS,
        THREE_PAIRS,
        FIVE_OF_A_KIND,
        FULL_STRAIGHT,
        CASTLE,
        TOWER,
        YATZY,
        MAXI_YATZY,
        LITTLE_STRAIGHT,
        BIG_STRAIGHT,
        CHOICE,
        YACHT,
        ESCALERA,
        FULL,
        POKER,
        GENERALA,
        DOUBLE_GENERALA,
        TWO_PAIRS_SAME_COLOUR,
        FULL_HOUSE_SAME_COLOUR,
        FLUSH,
        KISMET,
    )
}
"""Every box key some family uses: actions are parsed against it before a rule set is known."""


def _highest_of_a_kind(counts: Counter[int], size: int) -> int:
    """The highest face with at least `size` dice, or 0."""
    return max((face for face, count in counts.items() if count >= size), default=0)


def _pairs(box: Box, counts: Counter[int]) -> list[int]:
    """The faces of the pairs available, highest first (a face twice if `loose` allows)."""
    found: list[int] = []
    for face in sorted(counts, reverse=True):
        available = counts[face] // 2
        found.extend([face] * (available if box.loose else min(1, available)))
    return found


def _one_colour(faces: Sequence[int]) -> bool:
    """The faces all share one colour of pips (`PIP_COLOURS`)."""
    return len({PIP_COLOURS[face] for face in faces}) <= 1


def _pairs_made(box: Box, counts: Counter[int]) -> bool:
    """The dice hold the box's pairs (of one colour, when the box asks for it)."""
    pairs = _pairs(box, counts)
    if not box.same_colour:
        return len(pairs) >= box.size
    return any(_one_colour(chosen) for chosen in combinations(pairs, box.size))


def _straight_faces(box: Box, faces: set[int], ones: int = 0) -> tuple[int, ...] | None:
    """The faces of the (highest) straight the dice make for this box, or None; with
    `stand_ins` each of the `ones` dice showing 1 may also stand for one of those faces."""
    if box.stand_ins and ones:
        others = faces - {1}
        best: tuple[int, ...] | None = None
        for shown in combinations_with_replacement((1, *box.stand_ins), ones):
            run = _straight_faces(replace(box, stand_ins=()), others | set(shown))
            if run is not None and (best is None or run > best):
                best = run
        return best
    if box.faces:
        return box.faces if set(box.faces) <= faces else None
    for low in range(7 - box.size, 0, -1):
        run = tuple(range(low, low + box.size))
        if set(run) <= faces:
            return run
    return None


def _full_house(box: Box, counts: Counter[int]) -> int | None:
    """The sum of the dice of the best full house of the box's shape, or None."""
    first, second = box.shape
    best: int | None = None
    for a in counts:
        for b in counts:
            if a != b and counts[a] >= first and counts[b] >= second:
                if box.same_colour and not _one_colour((a, b)):
                    continue
                best = max(best or 0, first * a + second * b)
    if best is None and box.loose:
        face = _highest_of_a_kind(counts, first + second)
        if face:
            best = (first + second) * face
    return best


def score_box(box: Box, dice: Sequence[int], joker: bool = False, served: bool = False) -> int:
    """Points the dice score in the box, before any bonus.

    With `joker=True` (dice all of one face placed as a joker) a box whose pattern the dice
    do not make counts as made: fixed points, or the sum of the dice the box would use.
    With `served=True` (the dice of the turn's first roll) a made box earns its `served`
    points too.

    A roll with the wild die (`fivedice.core.wild`, the die coded 7-12) scores the best of the
    plain rolls its ★ may stand for, in this box (the served points, once, on top).
    """
    if type(dice) is not tuple:
        points = _box_points(box, dice, joker)
    else:  # (a roll: its points in this very box are computed once)
        key = (id(box), dice, joker)
        kept = _kept_points.get(key)
        if kept is not None and kept[0] is box:
            points = kept[1]
        else:
            points = _box_points(box, dice, joker)
            if len(_kept_points) >= BOX_POINTS_KEPT:
                _kept_points.clear()
            _kept_points[key] = (box, points)
    return points + box.served if served and points > 0 else points


BOX_POINTS_KEPT = 65_536
"""(box, roll, joker) whose points `score_box` keeps (a few MB at most). Keyed by the box
object: two boxes with one key are equal (`Box.__eq__`) but may score differently."""
_kept_points: dict[tuple[int, tuple[int, ...], bool], tuple[Box, int]] = {}


def _box_points(box: Box, dice: Sequence[int], joker: bool) -> int:
    """`score_box` without the served points."""
    if has_wild(dice):
        return max(_box_points(box, sub, joker) for sub in substitutions(tuple(sorted(dice))))
    kind = box.kind
    if kind is BoxKind.UPPER:
        return box.face * sum(1 for d in dice if d == box.face)
    if kind is BoxKind.CHANCE:
        return sum(dice)
    counts = Counter(dice)
    if kind is BoxKind.OF_A_KIND:
        face = _highest_of_a_kind(counts, box.size)
        if not face:
            return 0
        if box.points is not None:
            return box.points
        return box.size * face if box.matching else sum(dice) + box.extra
    if kind is BoxKind.ALL_SAME:
        if len(counts) != 1 or len(dice) < box.size:
            return 0
        return box.points if box.points is not None else sum(dice) + box.extra
    if kind is BoxKind.FLUSH:
        return (box.points or 0) if _one_colour(list(counts)) else 0
    joker_face = dice[0] if joker and dice else 0
    if kind is BoxKind.PAIRS:
        if box.same_colour:  # the sum of all the dice (Kismet)
            return sum(dice) + box.extra if _pairs_made(box, counts) else 0
        pairs = _pairs(box, counts)
        if len(pairs) >= box.size:
            return 2 * sum(pairs[: box.size])
        return 2 * box.size * joker_face
    if kind is BoxKind.STRAIGHT:
        run = _straight_faces(box, set(dice), counts[1])
        if run is None:
            if not joker:
                return 0
            run = box.faces or tuple(range(7 - box.size, 7))
        return box.points if box.points is not None else sum(run)
    # Full house, castle, tower.
    made = _full_house(box, counts)
    if made is None:
        if not joker:
            return 0
        made = sum(box.shape) * joker_face
    return box.points if box.points is not None else made + box.extra


def all_same(dice: Sequence[int]) -> bool:
    """Every die shows the same face (a Yahtzee with this many dice; the wild die's ★ stands
    for any face)."""
    if has_wild(dice):
        return yahtzee_face(tuple(sorted(dice))) > 0
    return len(dice) > 0 and len(set(dice)) == 1
