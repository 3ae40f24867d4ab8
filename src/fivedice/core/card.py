"""Score cards: columns of the rule set's boxes, their bonuses and totals, and where a roll may go.

>>> from fivedice.core.rules import CLASSIC
>>> column = Column.empty().fill(CLASSIC, Category.YAHTZEE, (4, 4, 4, 4, 4))
>>> [(p.category.key, p.points) for p in column.placements(CLASSIC, (4, 4, 4, 4, 4))]
[('fours', 120)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from fivedice.core.boxes import CLASSIC_BOXES, CLASSIC_INDEX, KNOWN_BOXES, Box, score_box
from fivedice.core.categories import Category, box_phrase
from fivedice.core.dice import Roll
from fivedice.core.errors import N_, CardError, IllegalActionError, Phrase, Phrases
from fivedice.core.rules import BonusCondition, FillOrder, Joker, RuleSet
from fivedice.core.scoring import is_yahtzee, possible_scores, scoring_roll, scoring_rolls
from fivedice.core.wild import dice_text

_JOKER_WORDS = {
    Joker.FORCED: N_("forced"),
    Joker.FREE_CHOICE: N_("free choice"),
    Joker.NONE: N_("none"),
}
"""The joker rules as the new-game form names them, for error messages."""

UPPER_PAR_PER_FACE = 3  # "par": three of each face, which totals exactly 63


_CLASSIC_UPPER = tuple(range(6))


def par_per_face(rules: RuleSet) -> int:
    """Par: three of each face with five dice (63), four with six (84, Maxi Yatzy)."""
    return rules.dice - 2


@dataclass(frozen=True)
class Placement:
    """One legal way to place the current dice, and what it earns now.

    `points` = box score + upper bonus if this placement reaches the threshold + any
    extra-Yahtzee bonus, before the column multiplier.
    """

    column: int
    category: Category
    box_points: int
    upper_bonus: int
    yahtzee_bonus: int
    joker: bool

    @property
    def points(self) -> int:
        return self.box_points + self.upper_bonus + self.yahtzee_bonus


@dataclass(frozen=True)
class Column:
    """One column of a score card: its boxes' scores in card order (None = open) and the
    extra Yahtzees earned. `boxes` are the rule set's boxes (default: the classic thirteen),
    as the one known object of each key (`boxes.KNOWN_BOXES`): the rule set's own box carries
    the parameters that score (`RuleSet.box`)."""

    scores: tuple[int | None, ...] = (None,) * 13
    extra_yahtzees: int = 0
    boxes: tuple[Box, ...] = CLASSIC_BOXES
    par_per_face: int = UPPER_PAR_PER_FACE
    _positions: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)
    _upper: tuple[int, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        classic = self.boxes is CLASSIC_BOXES
        positions = CLASSIC_INDEX if classic else {b.key: i for i, b in enumerate(self.boxes)}
        upper = (
            _CLASSIC_UPPER if classic else tuple(i for i, b in enumerate(self.boxes) if b.is_upper)
        )
        object.__setattr__(self, "_positions", positions)
        object.__setattr__(self, "_upper", upper)
        if len(self.scores) != len(self.boxes):
            raise CardError(
                N_("a column has {count} boxes, not {found}"),
                count=len(self.boxes),
                found=len(self.scores),
            )
        if self.extra_yahtzees < 0:
            raise CardError(N_("the number of extra Yahtzees cannot be negative"))

    @classmethod
    def empty(cls, rules: RuleSet | None = None) -> Column:
        """An empty column of the rule set's boxes (default: the classic card)."""
        if rules is None or (rules.boxes == CLASSIC_BOXES and rules.dice == 5):
            return cls()
        # The known box objects of these keys (one object per key, so that `is` comparisons
        # of boxes hold); their parameters are the rule set's (`RuleSet.box`).
        boxes = tuple(KNOWN_BOXES[box.key] for box in rules.boxes)
        return cls((None,) * len(boxes), 0, boxes, par_per_face(rules))

    @classmethod
    def from_scores(
        cls, rules: RuleSet, scores: Mapping[str, int], extra_yahtzees: int = 0
    ) -> Column:
        """A column from recorded box scores by key, each checked to be a score the box can hold.

        Raises:
            CardError: an unknown box or a score that box cannot hold under these rules.
        """
        empty = cls.empty(rules)
        boxes: list[int | None] = [None] * len(empty.boxes)
        for key, score in scores.items():
            category = Category.parse(key, rules.boxes)
            if isinstance(score, bool) or not isinstance(score, int):
                raise CardError(
                    N_("the score of {box} must be an integer, not {score!r}"),
                    box=category.key,
                    score=score,
                )
            if score not in possible_scores(rules, category):
                raise CardError(
                    N_("{box} cannot hold {score} under these rules"), box=category.key, score=score
                )
            boxes[rules.box_index(category)] = score
        column = replace(empty, scores=tuple(boxes), extra_yahtzees=extra_yahtzees)
        if extra_yahtzees and not column.pays_yahtzee_bonus(rules):
            raise CardError(N_("extra Yahtzees need a filled Yahtzee box that earns the bonus"))
        return column

    @classmethod
    def from_dict(cls, rules: RuleSet, data: Mapping[str, object]) -> Column:
        """A column from the `--card` JSON object: box keys to scores, and optionally
        "extra_yahtzees" (the extra-Yahtzee bonuses earned), each checked as `from_scores` does.

        >>> from fivedice.core.rules import CLASSIC
        >>> column = Column.from_dict(CLASSIC, {"yahtzee": 50, "threes": 9})
        >>> column.upper_total, column.is_filled(Category.YAHTZEE)
        (9, True)

        Raises:
            CardError: an unknown box, a score that box cannot hold, or extra Yahtzees that
                are not a whole number or that the card cannot have earned.
        """
        scores = dict(data)
        extra = scores.pop("extra_yahtzees", 0)
        if isinstance(extra, bool) or not isinstance(extra, int):
            raise CardError(N_("extra_yahtzees must be a whole number, not {value!r}"), value=extra)
        return cls.from_scores(rules, scores, extra)  # type: ignore[arg-type]  # checked there

    def _index(self, category: Box) -> int:
        try:
            return self.boxes.index(category)
        except ValueError:
            raise CardError(N_("this card has no {box} box"), box=box_phrase(category)) from None

    def has_box(self, category: Box) -> bool:
        return category in self.boxes

    def score(self, category: Category) -> int | None:
        return self.scores[self._index(category)]

    def is_filled(self, category: Category) -> bool:
        return self.scores[self._index(category)] is not None

    @property
    def open_boxes(self) -> tuple[Category, ...]:
        return tuple(c for c, s in zip(self.boxes, self.scores, strict=True) if s is None)

    @property
    def is_complete(self) -> bool:
        return all(s is not None for s in self.scores)

    @property
    def boxes_filled(self) -> int:
        return sum(1 for s in self.scores if s is not None)

    @cached_property
    def upper_total(self) -> int:
        """The upper boxes' total (computed once per column: a column never changes)."""
        scores = self.scores
        return sum(scores[i] or 0 for i in self._upper)

    @cached_property
    def filled_mask(self) -> int:
        """Bit i set for each filled box i (card order): the strategy table's key of the
        column, computed once per column (the advisor asks for it on every query)."""
        return sum(1 << i for i, points in enumerate(self.scores) if points is not None)

    @property
    def lower_total(self) -> int:
        """The lower boxes, without the extra-Yahtzee bonus."""
        return sum(s or 0 for s in self.scores) - self.upper_total

    @property
    def upper_par(self) -> int:
        """Upper total against par (three of each filled face, four with six dice): +3 means
        three points ahead."""
        return sum(
            s - self.par_per_face * c.face
            for c, s in zip(self.boxes, self.scores, strict=True)
            if c.is_upper and s is not None
        )

    def upper_bonus(self, rules: RuleSet) -> int:
        return rules.upper_bonus_points(self.upper_total)

    def yahtzee_bonus_total(self, rules: RuleSet) -> int:
        return self.extra_yahtzees * rules.yahtzee_bonus_value

    def total(self, rules: RuleSet) -> int:
        """This column's points, bonuses included, before its multiplier."""
        return (
            self.upper_total
            + self.upper_bonus(rules)
            + self.lower_total
            + self.yahtzee_bonus_total(rules)
        )

    def pays_yahtzee_bonus(self, rules: RuleSet) -> bool:
        """Whether a further Yahtzee placed in this column earns the bonus."""
        yahtzee_box = rules.all_same_box
        if not rules.yahtzee_bonus or yahtzee_box is None:
            return False
        held = self.score(yahtzee_box)
        if held is None:
            return False
        return rules.yahtzee_bonus_condition is BonusCondition.BOX_FILLED or held > 0

    def allowed_boxes(self, rules: RuleSet) -> tuple[Category, ...]:
        """Open boxes the fill order and the upper-first option allow, before the joker."""
        open_boxes = self.open_boxes
        if rules.fill_order is FillOrder.FORCED:
            return open_boxes[:1]
        if rules.upper_first and any(c.is_upper for c in open_boxes):
            return tuple(c for c in open_boxes if c.is_upper)
        return open_boxes

    def legal_boxes(self, rules: RuleSet, dice: Sequence[int]) -> tuple[tuple[Category, bool], ...]:
        """Where the dice may go in this column, each with whether it scores as a joker."""
        roll = scoring_roll(rules, dice)
        allowed = self.allowed_boxes(rules)
        yahtzee_box = rules.all_same_box
        joker_applies = (
            yahtzee_box is not None
            and is_yahtzee(rules, roll)
            and self.is_filled(yahtzee_box)
            and rules.joker is not Joker.NONE
        )
        if not joker_applies:
            return tuple((c, False) for c in allowed)
        face_box = next((c for c in self.boxes if c.is_upper and c.face == roll[0]), None)
        face_open = face_box is not None and not self.is_filled(face_box)
        if rules.joker is Joker.FREE_CHOICE:
            return tuple((c, not face_open) for c in allowed)
        # Forced: the face's upper box if open, else an open lower box, else a 0 in an upper box.
        if face_open and face_box in allowed:
            return ((face_box, True),)
        lower = tuple((c, True) for c in allowed if not c.is_upper)
        return lower or tuple((c, True) for c in allowed)

    def placements(
        self, rules: RuleSet, dice: Sequence[int], column: int = 0, served: bool = False
    ) -> list[Placement]:
        """Every legal placement of the dice in this column with the points it earns now
        (`served`: the dice of the turn's first roll, which earn boxes their served points).

        A second all-same box (Double Generala) scores only while the first holds points."""
        roll = scoring_roll(rules, dice)
        bonus = (
            rules.yahtzee_bonus_value
            if (is_yahtzee(rules, roll) and self.pays_yahtzee_bonus(rules))
            else 0
        )
        result = []
        upper_total = self.upper_total
        first = rules.all_same_box
        first_holds = first is not None and bool(self.score(first))
        for category, joker in self.legal_boxes(rules, roll):
            box = rules.box(category)
            points = score_box(box, roll, joker, served) if first_holds or not box.second else 0
            gained = (
                rules.upper_bonus_points(upper_total + points)
                - rules.upper_bonus_points(upper_total)
                if category.is_upper
                else 0
            )
            result.append(
                Placement(
                    column=column,
                    category=category,
                    box_points=points,
                    upper_bonus=gained,
                    yahtzee_bonus=bonus,
                    joker=joker,
                )
            )
        return result

    def fill(
        self, rules: RuleSet, category: Category, dice: Sequence[int], served: bool = False
    ) -> Column:
        """This column with the dice placed in `category` (`served`: see `placements`).

        Raises:
            IllegalActionError: the box is filled or the rules do not allow it for these dice.
        """
        roll: Roll = scoring_roll(rules, dice)
        for placement in self.placements(rules, roll, served=served):
            if placement.category == category:
                return self._filled(placement)
        raise self.refusal(rules, category, roll)

    def points_placement(self, rules: RuleSet, category: Category, points: int) -> Placement:
        """The placement that `points` entered for `category` without dice stands for.

        Points are accepted when some roll could be placed in the box now with exactly that
        box score (upper-first, the joker and the filled boxes all judged as for dice). The
        extra-Yahtzee bonus is counted only when every such roll earns it (e.g. fours 20 in
        classic with 50 in the Yahtzee box: only 4-4-4-4-4 scores that, and it earns the
        bonus); when the points could also come from an ordinary roll no bonus is counted:
        enter the dice to have it counted. The upper bonus follows from the upper total.

        Raises:
            IllegalActionError: the box is filled or closed, or no roll gives those points.
        """
        by_points = _placements_by_points(self, rules).get(category, {})
        possible = set(by_points)
        matches = by_points.get(points, [])
        if not matches:
            if not possible:
                raise self.refusal(rules, category, scoring_rolls(rules)[0])
            raise IllegalActionError(
                N_("no roll scores {points} in {box} now; it can score {possible}"),
                points=points,
                box=box_phrase(category),
                possible=score_ranges(possible),
            )
        without_bonus = [placement for placement in matches if not placement.yahtzee_bonus]
        return without_bonus[0] if without_bonus else matches[0]

    def fill_points(self, rules: RuleSet, category: Category, points: int) -> Column:
        """This column with `points` entered in `category` (see `points_placement`)."""
        placement = self.points_placement(rules, category, points)
        return self._filled(placement)

    def _filled(self, placement: Placement) -> Column:
        scores = list(self.scores)
        scores[self._index(placement.category)] = placement.box_points
        extra = 1 if placement.yahtzee_bonus else 0
        return replace(self, scores=tuple(scores), extra_yahtzees=self.extra_yahtzees + extra)

    def why_not(self, rules: RuleSet, category: Category, roll: Roll) -> str:
        """Explains (in English) why the dice may not go in `category`."""
        return str(self.refusal(rules, category, roll))

    def refusal(self, rules: RuleSet, category: Category, roll: Roll) -> IllegalActionError:
        """The error that says why the dice may not go in `category`."""
        if not self.has_box(category):
            return IllegalActionError(
                N_("these rules have no {box} box; the boxes are {boxes}"),
                box=box_phrase(category),
                boxes=", ".join(box.key for box in self.boxes),
            )
        if self.is_filled(category):
            return IllegalActionError(
                N_("the {box} box is already filled (with {score})"),
                box=box_phrase(category),
                score=self.score(category),
            )
        if category not in self.allowed_boxes(rules):
            if rules.fill_order is FillOrder.FORCED:
                return IllegalActionError(
                    N_("the boxes are filled top to bottom (forced order): next is {next}"),
                    next=box_phrase(self.open_boxes[0]),
                )
            return IllegalActionError(
                N_("{box} is a lower box: fill every upper box first (upper-first rule)"),
                box=box_phrase(category),
            )
        return IllegalActionError(
            N_("the joker rule ({joker}) does not allow {box} for {dice}; allowed: {allowed}"),
            joker=Phrase(_JOKER_WORDS[rules.joker]),
            box=box_phrase(category),
            dice=dice_text(roll),
            allowed=Phrases(c.name for c, _ in self.legal_boxes(rules, roll)),
        )


@lru_cache(maxsize=64)
def _placements_by_points(
    column: Column, rules: RuleSet
) -> dict[Category, dict[int, list[Placement]]]:
    """Every placement some roll could make in the column now, by box and box score."""
    found: dict[Category, dict[int, list[Placement]]] = {}
    served = (False, True) if any(box.served for box in rules.boxes) else (False,)
    for roll in scoring_rolls(rules):
        for first_roll in served:
            for placement in column.placements(rules, roll, served=first_roll):
                by_points = found.setdefault(placement.category, {})
                by_points.setdefault(placement.box_points, []).append(placement)
    return found


def score_ranges(scores: set[int] | frozenset[int]) -> str:
    """Scores as short ranges: ``0, 5-30`` (runs of whole numbers joined by a dash).

    >>> score_ranges({0, 25})
    '0, 25'
    >>> score_ranges({0, 5, 6, 7, 8, 30})
    '0, 5-8, 30'
    """
    parts: list[str] = []
    ordered = sorted(scores)
    start = previous = ordered[0]
    for value in [*ordered[1:], None]:
        if value is not None and value == previous + 1:
            previous = value
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if value is not None:
            start = previous = value
    return ", ".join(parts)


@dataclass(frozen=True)
class ScoreCard:
    """A player's card: one or more columns."""

    columns: tuple[Column, ...] = (Column(),)

    @classmethod
    def empty(cls, rules: RuleSet) -> ScoreCard:
        return cls(tuple(Column.empty(rules) for _ in range(rules.columns)))

    def total(self, rules: RuleSet) -> int:
        """The grand total: every column's total times its multiplier."""
        self._check(rules)
        return sum(
            column.total(rules) * multiplier
            for column, multiplier in zip(self.columns, rules.column_multipliers, strict=True)
        )

    def column_totals(self, rules: RuleSet) -> tuple[int, ...]:
        """Each column's total with its multiplier applied."""
        return tuple(
            column.total(rules) * multiplier
            for column, multiplier in zip(self.columns, rules.column_multipliers, strict=True)
        )

    @property
    def is_complete(self) -> bool:
        return all(column.is_complete for column in self.columns)

    @property
    def boxes_filled(self) -> int:
        return sum(column.boxes_filled for column in self.columns)

    def placements(
        self, rules: RuleSet, dice: Sequence[int], served: bool = False
    ) -> list[Placement]:
        """Every legal placement of the dice, in every column, in score-card order
        (`served`: the dice of the turn's first roll, see `Column.placements`)."""
        self._check(rules)
        return [
            placement
            for index, column in enumerate(self.columns)
            for placement in column.placements(rules, dice, index, served)
        ]

    def fill(
        self,
        rules: RuleSet,
        column: int,
        category: Category,
        dice: Sequence[int],
        served: bool = False,
    ) -> ScoreCard:
        """The card with the dice placed in one box of one column (0-based)."""
        self._check(rules)
        self._check_column(column)
        columns = list(self.columns)
        columns[column] = columns[column].fill(rules, category, dice, served)
        return ScoreCard(tuple(columns))

    def fill_points(
        self, rules: RuleSet, column: int, category: Category, points: int
    ) -> ScoreCard:
        """The card with points entered without dice in one box of one column (0-based).

        Raises:
            IllegalActionError: see `Column.points_placement`.
        """
        self._check(rules)
        self._check_column(column)
        columns = list(self.columns)
        columns[column] = columns[column].fill_points(rules, category, points)
        return ScoreCard(tuple(columns))

    def _check_column(self, column: int) -> None:
        if not 0 <= column < len(self.columns):
            raise IllegalActionError(
                N_("there is no column {column}; this card has {count}"),
                column=column + 1,
                count=len(self.columns),
            )

    def _check(self, rules: RuleSet) -> None:
        if any(column.boxes != rules.boxes for column in self.columns):
            raise CardError(
                N_("this card has {count} boxes; the rules use {boxes}"),
                count=len(self.columns[0].boxes),
                boxes=len(rules.boxes),
            )
        if len(self.columns) != rules.columns:
            raise CardError(
                N_("this card has {count} columns; the rules use {columns}"),
                count=len(self.columns),
                columns=rules.columns,
            )
