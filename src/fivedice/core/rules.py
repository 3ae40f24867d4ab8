"""The rule set: every option of the rule book in one immutable value, and the preset registry.

>>> rules = find_ruleset("classic")
>>> rules.joker, rules.yahtzee_bonus_value
(<Joker.FORCED: 'forced'>, 100)
>>> find_ruleset("triple").column_multipliers
(1, 2, 3)
>>> find_ruleset("classic", {"joker": "free_choice"}) == find_ruleset("free-choice")
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any

from fivedice.core.boxes import (
    BIG_STRAIGHT,
    CASTLE,
    CHANCE,
    CHOICE,
    DOUBLE_GENERALA,
    ESCALERA,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL,
    FULL_HOUSE,
    FULL_HOUSE_SAME_COLOUR,
    FULL_STRAIGHT,
    GENERALA,
    KISMET,
    LARGE_STRAIGHT,
    LITTLE_STRAIGHT,
    MAXI_YATZY,
    ONE_PAIR,
    POKER,
    SMALL_STRAIGHT,
    THREE_OF_A_KIND,
    THREE_PAIRS,
    TOWER,
    TWO_PAIRS,
    TWO_PAIRS_SAME_COLOUR,
    UPPER_BOXES,
    YACHT,
    YAHTZEE,
    YATZY,
    Box,
    BoxKind,
)
from fivedice.core.errors import N_, CardError, Phrase, RuleSetError

MAX_UPPER_TOTAL = 105  # five sixes + five fives + ... + five ones
MAX_DICE = 6
MAX_FIXED_SCORE = 10_000
MAX_ROLLS = 100
MAX_COLUMNS = 20


class OfAKindScoring(Enum):
    """How three and four of a kind score."""

    ALL_DICE = "all_dice"  # the sum of all five dice
    MATCHING_DICE = "matching_dice"  # 3 × face or 4 × face


class Straights(Enum):
    """Which dice make a straight."""

    RUNS = "runs"  # four (small) or five (large) consecutive faces anywhere among the dice
    FIXED = "fixed"  # small is exactly 1-2-3-4-5, large exactly 2-3-4-5-6


class BonusCondition(Enum):
    """When a further five of a kind earns the extra-Yahtzee bonus."""

    BOX_SCORED = "box_scored"  # the Yahtzee box holds its full score
    BOX_FILLED = "box_filled"  # the Yahtzee box is filled, even with 0


class Family(Enum):
    """Which boxes the card has and how many dice are rolled (the rest are options)."""

    YAHTZEE = "yahtzee"  # 5 dice, the 13 boxes of Yahtzee (Kniffel, Classic Five)
    YATZY = "yatzy"  # 5 dice, the 15 boxes of Scandinavian Yatzy
    MAXI_YATZY = "maxi_yatzy"  # 6 dice, the 20 boxes of Maxi Yatzy
    YACHT = "yacht"  # 5 dice, the 12 boxes of The Yacht Game (1938)
    YACHT_DICE = "yacht_dice"  # 5 dice, the 12 boxes of Yacht Dice (51 Worldwide Games)
    GENERALA = "generala"  # 5 dice, the 11 boxes of Generala
    KISMET = "kismet"  # 5 dice, the 15 boxes of Kismet (as GNOME Tali scores it)


class FillOrder(Enum):
    """In which order the boxes may be filled."""

    FREE = "free"  # any open box
    FORCED = "forced"  # top to bottom, in card order ("tvungen")


class Joker(Enum):
    """Where a five of a kind may go once the Yahtzee box is filled."""

    FORCED = "forced"
    FREE_CHOICE = "free_choice"
    NONE = "none"


@dataclass(frozen=True)
class RuleSet:
    """Every scoring option of RULES.md. Construction validates every value.

    The number of columns is `len(column_multipliers)`; `columns` is a read-only view of it.
    """

    rolls_per_turn: int = 3
    upper_bonus: bool = True
    upper_bonus_threshold: int = 63
    upper_bonus_value: int = 35
    full_house: int = 25
    small_straight: int = 30
    large_straight: int = 40
    yahtzee: int = 50
    of_a_kind_scores: OfAKindScoring = OfAKindScoring.ALL_DICE
    five_of_a_kind_is_full_house: bool = False
    straights: Straights = Straights.RUNS
    yahtzee_bonus: bool = True
    yahtzee_bonus_value: int = 100
    yahtzee_bonus_condition: BonusCondition = BonusCondition.BOX_SCORED
    joker: Joker = Joker.FORCED
    upper_first: bool = False
    family: Family = Family.YAHTZEE
    four_of_a_kind_is_two_pairs: bool = False
    fill_order: FillOrder = FillOrder.FREE
    extra_turn_on_yahtzee: bool = False
    saved_rolls: bool = False
    upper_bonus_tiers: tuple[int, ...] = ()
    served_bonus: int = 0
    ones_in_straights: bool = False
    wild_die: bool = False
    column_multipliers: tuple[int, ...] = (1,)

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            _check_field(field.name, value)
        _check_combination(self)

    def __hash__(self) -> int:
        # Rule sets key every cache (boxes, scores, tables): the hash of their 23 options is
        # worked out once. (Defined here, so the dataclass keeps it.)
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[str, object]:
        # The cached hash stays behind: string hashes differ from process to process.
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    @property
    def dice(self) -> int:
        """How many dice are rolled (5; 6 in Maxi Yatzy)."""
        return 6 if self.family is Family.MAXI_YATZY else 5

    @property
    def boxes(self) -> tuple[Box, ...]:
        """The boxes of one column in card order, with this rule set's parameters."""
        return _family_boxes(self)

    @property
    def bonus_tiers(self) -> tuple[tuple[int, int], ...]:
        """The upper bonus as (threshold, points) tiers, lowest first: the bonus is the points
        of the highest tier reached (one tier unless `upper_bonus_tiers` adds some: Kismet's
        35 at 63, 55 at 71, 75 at 78). Empty without an upper bonus."""
        if not self.upper_bonus:
            return ()
        more = self.upper_bonus_tiers
        return (
            (self.upper_bonus_threshold, self.upper_bonus_value),
            *zip(more[::2], more[1::2], strict=True),
        )

    def upper_bonus_points(self, upper_total: int) -> int:
        """The upper bonus an upper total earns (the highest tier reached, or 0).

        >>> kismet = RuleSet.preset("kismet")
        >>> [kismet.upper_bonus_points(t) for t in (62, 63, 71, 77, 78)]
        [0, 35, 55, 55, 75]
        """
        points = 0
        for threshold, value in self.bonus_tiers:
            if upper_total >= threshold:
                points = value
        return points

    @property
    def upper_bonus_cap(self) -> int:
        """The upper total beyond which the bonus cannot change (the top tier; 0 without)."""
        tiers = self.bonus_tiers
        return tiers[-1][0] if tiers else 0

    @property
    def upper_boxes(self) -> tuple[Box, ...]:
        return tuple(box for box in self.boxes if box.is_upper)

    @property
    def all_same_box(self) -> Box | None:
        """The box for dice all of one face (Yahtzee, Yatzy, Maxi Yatzy), if the card has one:
        the extra-Yahtzee bonus, the joker and the extra turn are judged by it."""
        return next((box for box in self.boxes if box.kind is BoxKind.ALL_SAME), None)

    @property
    def arms_second_box(self) -> bool:
        """Whether a second all-same box (Double Generala) scores only while the first holds
        points: the first box's score arms it, as it arms the extra-Yahtzee bonus."""
        return any(box.second for box in self.boxes)

    def box(self, key: str | Box) -> Box:
        """This rule set's box with that key (its parameters are the ones that score).

        Raises:
            CardError: the card of these rules has no such box.
        """
        wanted = key.key if isinstance(key, Box) else key
        boxes, index = _boxes_and_index(self)
        found = index.get(wanted)
        if found is not None:
            return boxes[found]
        raise CardError(
            N_("these rules have no {box} box; the boxes are {boxes}"),
            box=Phrase(key.name) if isinstance(key, Box) else key,
            boxes=", ".join(box.key for box in self.boxes),
        )

    def box_index(self, key: str | Box) -> int:
        """The position of a box on this rule set's card (0-based).

        Raises:
            CardError: the card of these rules has no such box.
        """
        return self.boxes.index(self.box(key))

    def has_box(self, key: str | Box) -> bool:
        wanted = key.key if isinstance(key, Box) else key
        return wanted in _box_index(self)

    @property
    def columns(self) -> int:
        return len(self.column_multipliers)

    @property
    def is_single_column(self) -> bool:
        return self.columns == 1

    @property
    def turns(self) -> int:
        """Turns each player takes in a game: one for every box of every column."""
        return len(self.boxes) * self.columns

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some options changed (validated like any rule set)."""
        return dataclasses.replace(self, **changes)

    def with_settings(self, settings: Mapping[str, object]) -> RuleSet:
        """A copy with options given by name, values as text or as Python values.

        `columns=N` alone gives N columns with multiplier 1; `column_multipliers=1,2,3`
        sets both. Unknown names and unreadable values raise RuleSetError.
        """
        changes: dict[str, Any] = {}
        for name, raw in settings.items():
            key = name.strip().replace("-", "_")
            if key == "columns":
                count = _parse_int(key, raw)
                if not 1 <= count <= MAX_COLUMNS:
                    raise RuleSetError(
                        N_("Columns must be from 1 to {most}, not {count}"),
                        most=MAX_COLUMNS,
                        count=count,
                    )
                changes.setdefault("column_multipliers", (1,) * count)
                changes["_columns"] = count
            elif key in OPTION_NAMES:
                changes[key] = parse_option(key, raw)
            else:
                raise RuleSetError(
                    N_("unknown rule option {name!r}; the options are {options}"),
                    name=name,
                    options=", ".join(SETTING_NAMES),
                )
        count = changes.pop("_columns", None)
        if count is not None and len(changes["column_multipliers"]) != count:
            raise RuleSetError(
                N_("columns={count} but column_multipliers has {found} values"),
                count=count,
                found=len(changes["column_multipliers"]),
            )
        return self.replace(**changes)

    def settings(self) -> dict[str, object]:
        """Every option as a JSON-friendly value, by option name (the inverse of with_settings).

        The options added with boxes as data (`LATER_OPTIONS`) appear only when they differ
        from their defaults, so that the settings of every older rule set (saved games, cache
        keys, `rules_key` hashes, `fivedice rules --json`) stay exactly what they were.
        """
        result: dict[str, object] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name in LATER_OPTIONS and value == field.default:
                continue
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            result[field.name] = value
        return result

    def all_settings(self) -> dict[str, object]:
        """Every option, the later ones too even at their defaults (for forms that edit them)."""
        result: dict[str, object] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            result[field.name] = (
                value.value
                if isinstance(value, Enum)
                else list(value)
                if isinstance(value, tuple)
                else value
            )
        return result

    def changed_settings(self, base: RuleSet | None = None) -> dict[str, object]:
        """The options that differ from `base` (default: the classic rules)."""
        reference = (base or RuleSet()).settings()
        defaults = RuleSet().settings()
        return {
            k: v
            for k, v in self.settings().items()
            if reference.get(k, defaults.get(k, _DEFAULTS.get(k))) != v
        }

    @classmethod
    def preset(cls, name: str = "classic", **options: object) -> RuleSet:
        """A preset's rules, with options changed by keyword as `--set KEY=VALUE` names them.

        Values may be text as on the command line ("free_choice", "on", "1,2,3") or Python
        values (`Joker.FREE_CHOICE`, True, (1, 2, 3)); the public API's way to name rules.

        >>> RuleSet.preset("classic", joker="free_choice") == RuleSet.preset("free-choice")
        True
        >>> RuleSet.preset("classic", yahtzee_bonus=False, columns=3).columns
        3

        Raises:
            RuleSetError: an unknown preset or option, or a value the option cannot take.
        """
        return find_ruleset(name, options)


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RuleSet))
LATER_OPTIONS: frozenset[str] = frozenset(
    {
        "family",
        "four_of_a_kind_is_two_pairs",
        "fill_order",
        "extra_turn_on_yahtzee",
        "saved_rolls",
        "upper_bonus_tiers",
        "served_bonus",
        "ones_in_straights",
        "wild_die",
    }
)
"""Options added after the first release: `RuleSet.settings` lists them only when changed."""
_DEFAULTS: dict[str, object] = {
    f.name: (f.default.value if isinstance(f.default, Enum) else f.default)
    for f in dataclasses.fields(RuleSet)
}
SETTING_NAMES: tuple[str, ...] = (*OPTION_NAMES[:-1], "columns", "column_multipliers")

OPTION_LABELS: dict[str, str] = {
    "rolls_per_turn": N_("Rolls per turn"),
    "upper_bonus": N_("Upper bonus"),
    "upper_bonus_threshold": N_("Upper bonus threshold"),
    "upper_bonus_value": N_("Upper bonus points"),
    "full_house": N_("Full house points"),
    "small_straight": N_("Small straight points"),
    "large_straight": N_("Large straight points"),
    "yahtzee": N_("Yahtzee points"),
    "of_a_kind_scores": N_("Three/four of a kind score"),
    "five_of_a_kind_is_full_house": N_("Five of a kind is a full house"),
    "straights": N_("Straights"),
    "yahtzee_bonus": N_("Extra-Yahtzee bonus"),
    "yahtzee_bonus_value": N_("Extra-Yahtzee bonus points"),
    "yahtzee_bonus_condition": N_("Extra-Yahtzee bonus needs"),
    "joker": N_("Joker"),
    "upper_first": N_("Upper boxes first"),
    "family": N_("Boxes and dice"),
    "four_of_a_kind_is_two_pairs": N_("Four of a kind is two pairs"),
    "fill_order": N_("Fill order"),
    "extra_turn_on_yahtzee": N_("Extra turn on a Yahtzee"),
    "saved_rolls": N_("Unused rolls are saved"),
    "upper_bonus_tiers": N_("Further upper bonus tiers"),
    "served_bonus": N_("Served bonus points"),
    "ones_in_straights": N_("A 1 may stand for a 2 or a 6 in a straight"),
    "wild_die": N_("Wild die"),
    "columns": N_("Columns"),
    "column_multipliers": N_("Column multipliers"),
}
"""Each option's name as players see it (the web form's labels): errors name an option so,
translated, never by its key."""


def _option(name: str) -> str:
    """The option's name for an error message (a `Phrase`, so it is translated with it)."""
    label = OPTION_LABELS.get(name)
    return Phrase(label) if label is not None else name


_ENUMS: dict[str, type[Enum]] = {
    "of_a_kind_scores": OfAKindScoring,
    "straights": Straights,
    "yahtzee_bonus_condition": BonusCondition,
    "joker": Joker,
    "family": Family,
    "fill_order": FillOrder,
}
_BOOLS = {
    "upper_bonus",
    "five_of_a_kind_is_full_house",
    "yahtzee_bonus",
    "upper_first",
    "four_of_a_kind_is_two_pairs",
    "extra_turn_on_yahtzee",
    "saved_rolls",
    "ones_in_straights",
    "wild_die",
}
_TUPLES = {"column_multipliers", "upper_bonus_tiers"}


def _check_field(name: str, value: object) -> None:
    if name in _ENUMS:
        if not isinstance(value, _ENUMS[name]):
            raise RuleSetError(
                N_("{name} must be a {kind}, not {value!r}"),
                name=_option(name),
                kind=_ENUMS[name].__name__,
                value=value,
            )
    elif name in _BOOLS:
        if not isinstance(value, bool):
            raise RuleSetError(
                N_("{name} must be on or off, not {value!r}"), name=_option(name), value=value
            )
    elif name == "upper_bonus_tiers":
        if (
            not isinstance(value, tuple)
            or len(value) % 2
            or len(value) > 2 * MAX_TIERS
            or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value)
        ):
            raise RuleSetError(
                N_(
                    "Further upper bonus tiers are pairs of a threshold and its points,"
                    " e.g. 71,55,78,75; not {value!r}"
                ),
                value=value,
            )
    elif name == "column_multipliers":
        if not isinstance(value, tuple) or not 1 <= len(value) <= MAX_COLUMNS:
            raise RuleSetError(
                N_("Column multipliers must list 1 to {most} integers"), most=MAX_COLUMNS
            )
        for m in value:
            if isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= 100:
                raise RuleSetError(
                    N_("A column multiplier is an integer 1-100, not {value!r}"), value=m
                )
    else:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleSetError(
                N_("{name} must be an integer, not {value!r}"), name=_option(name), value=value
            )
        low, high = {
            "rolls_per_turn": (1, MAX_ROLLS),
            "upper_bonus_threshold": (1, MAX_UPPER_TOTAL * MAX_DICE // 5),
        }.get(name, (0, MAX_FIXED_SCORE))
        if not low <= value <= high:
            template = (
                N_(
                    "{name} must be from {low} to {high}, not {value}"
                    " (the upper boxes total at most 105)"
                )
                if name == "upper_bonus_threshold"
                else N_("{name} must be from {low} to {high}, not {value}")
            )
            raise RuleSetError(template, name=_option(name), low=low, high=high, value=value)


def _check_combination(rules: RuleSet) -> None:
    """Options that depend on each other: the threshold on the dice, options on the boxes."""
    most = 21 * rules.dice
    if rules.upper_bonus_threshold > most:
        template = (
            N_(
                "{name} must be from {low} to {high}, not {value}"
                " (the upper boxes total at most 105)"
            )
            if most == MAX_UPPER_TOTAL
            else N_(
                "{name} must be from {low} to {high}, not {value}"
                " (with six dice the upper boxes total at most 126)"
            )
        )
        raise RuleSetError(
            template,
            name=_option("upper_bonus_threshold"),
            low=1,
            high=most,
            value=rules.upper_bonus_threshold,
        )
    if rules.family is not Family.YAHTZEE and rules.full_house != _DEFAULT_FULL_HOUSE:
        raise RuleSetError(
            N_("{name} does not apply to these boxes: their full houses score the sum of the dice"),
            name=_option("full_house"),
        )
    thresholds = [threshold for threshold, _ in rules.bonus_tiers]
    if thresholds[1:] and (thresholds != sorted(set(thresholds)) or thresholds[-1] > most):
        raise RuleSetError(
            N_(
                "the thresholds of the upper bonus tiers must rise above {name}"
                " and stay at most {most}"
            ),
            name=_option("upper_bonus_threshold"),
            most=most,
        )
    if rules.four_of_a_kind_is_two_pairs and rules.family not in _PAIRS_FAMILIES:
        raise RuleSetError(
            N_("{name} needs a card with a two-pairs box (family yatzy or maxi_yatzy)"),
            name=_option("four_of_a_kind_is_two_pairs"),
        )


_DEFAULT_FULL_HOUSE = 25
MAX_TIERS = 8


def _classic_boxes(rules: RuleSet) -> tuple[Box, ...]:
    matching = rules.of_a_kind_scores is OfAKindScoring.MATCHING_DICE
    fixed = rules.straights is Straights.FIXED
    return (
        *UPPER_BOXES,
        dataclasses.replace(THREE_OF_A_KIND, matching=matching),
        dataclasses.replace(FOUR_OF_A_KIND, matching=matching),
        dataclasses.replace(
            FULL_HOUSE, points=rules.full_house, loose=rules.five_of_a_kind_is_full_house
        ),
        _straight(SMALL_STRAIGHT, rules.small_straight, (1, 2, 3, 4, 5) if fixed else ()),
        _straight(LARGE_STRAIGHT, rules.large_straight, (2, 3, 4, 5, 6) if fixed else ()),
        dataclasses.replace(YAHTZEE, points=rules.yahtzee),
        CHANCE,
    )


def _straight(box: Box, points: int, faces: tuple[int, ...]) -> Box:
    return dataclasses.replace(box, points=points, faces=faces, size=0 if faces else box.size)


def _yatzy_boxes(rules: RuleSet) -> tuple[Box, ...]:
    matching = rules.of_a_kind_scores is OfAKindScoring.MATCHING_DICE
    fixed = rules.straights is Straights.FIXED
    loose_pairs = rules.four_of_a_kind_is_two_pairs
    loose_house = rules.five_of_a_kind_is_full_house
    maxi = rules.family is Family.MAXI_YATZY
    of_a_kind = (THREE_OF_A_KIND, FOUR_OF_A_KIND, *((FIVE_OF_A_KIND,) if maxi else ()))
    pairs = (ONE_PAIR, TWO_PAIRS, *((THREE_PAIRS,) if maxi else ()))
    houses = (FULL_HOUSE, *((CASTLE, TOWER) if maxi else ()))
    return (
        *UPPER_BOXES,
        *(dataclasses.replace(box, loose=loose_pairs) for box in pairs),
        *(dataclasses.replace(box, matching=matching) for box in of_a_kind),
        _straight(SMALL_STRAIGHT, rules.small_straight, (1, 2, 3, 4, 5) if fixed else ()),
        _straight(LARGE_STRAIGHT, rules.large_straight, (2, 3, 4, 5, 6) if fixed else ()),
        *((FULL_STRAIGHT,) if maxi else ()),
        *(dataclasses.replace(box, points=None, loose=loose_house) for box in houses),
        CHANCE,
        dataclasses.replace(MAXI_YATZY if maxi else YATZY, points=rules.yahtzee),
    )


def _yacht_boxes(rules: RuleSet) -> tuple[Box, ...]:
    """The Yacht Game (1938): full house and four of a kind score dice sums, no bonus."""
    matching = rules.of_a_kind_scores is OfAKindScoring.MATCHING_DICE
    fixed = rules.straights is Straights.FIXED
    return (
        *UPPER_BOXES,
        dataclasses.replace(FULL_HOUSE, points=None, loose=rules.five_of_a_kind_is_full_house),
        dataclasses.replace(FOUR_OF_A_KIND, matching=matching),
        _straight(LITTLE_STRAIGHT, rules.small_straight, (1, 2, 3, 4, 5) if fixed else ()),
        _straight(BIG_STRAIGHT, rules.large_straight, (2, 3, 4, 5, 6) if fixed else ()),
        CHOICE,
        dataclasses.replace(YACHT, points=rules.yahtzee),
    )


def _yacht_dice_boxes(rules: RuleSet) -> tuple[Box, ...]:
    """Yacht Dice (Nintendo's 51 Worldwide Games): Choice first, full house scores the sum."""
    matching = rules.of_a_kind_scores is OfAKindScoring.MATCHING_DICE
    fixed = rules.straights is Straights.FIXED
    return (
        *UPPER_BOXES,
        CHOICE,
        dataclasses.replace(FOUR_OF_A_KIND, matching=matching),
        dataclasses.replace(FULL_HOUSE, points=None, loose=rules.five_of_a_kind_is_full_house),
        _straight(SMALL_STRAIGHT, rules.small_straight, (1, 2, 3, 4, 5) if fixed else ()),
        _straight(LARGE_STRAIGHT, rules.large_straight, (2, 3, 4, 5, 6) if fixed else ()),
        dataclasses.replace(YACHT, points=rules.yahtzee),
    )


def _generala_boxes(rules: RuleSet) -> tuple[Box, ...]:
    """Generala: Escalera, Full, Póker, Generala and Double Generala."""
    return (
        *UPPER_BOXES,
        ESCALERA,
        dataclasses.replace(FULL, loose=rules.five_of_a_kind_is_full_house),
        POKER,
        dataclasses.replace(GENERALA, points=rules.yahtzee),
        DOUBLE_GENERALA,
    )


def _kismet_boxes(rules: RuleSet) -> tuple[Box, ...]:
    """Kismet as GNOME Tali scores it (src/yahtzee.c): sums plus constants, colours."""
    return (
        *UPPER_BOXES,
        TWO_PAIRS_SAME_COLOUR,
        THREE_OF_A_KIND,
        dataclasses.replace(FULL_HOUSE, points=None, loose=True, extra=15),
        FULL_HOUSE_SAME_COLOUR,
        FLUSH,
        dataclasses.replace(LARGE_STRAIGHT, points=rules.large_straight),
        dataclasses.replace(FOUR_OF_A_KIND, extra=25),
        KISMET,
        CHANCE,
    )


_HANDS = (BoxKind.OF_A_KIND, BoxKind.FULL_HOUSE, BoxKind.STRAIGHT)
"""The boxes a served hand earns the served bonus in (`RuleSet.served_bonus`)."""


def _with_options(rules: RuleSet, boxes: tuple[Box, ...]) -> tuple[Box, ...]:
    """The options that apply to the boxes of every family: the served bonus of the hands
    and, with it, the served all-dice-the-same hand that wins the game at once (the first
    all-same box: Generala), the 1 standing for a 2 or a 6 in the straights."""
    if not rules.served_bonus and not rules.ones_in_straights:
        return boxes
    first_same = next((box for box in boxes if box.kind is BoxKind.ALL_SAME), None)
    return tuple(
        dataclasses.replace(
            box,
            served=rules.served_bonus if box.kind in _HANDS else 0,
            stand_ins=(2, 6) if rules.ones_in_straights and box.kind is BoxKind.STRAIGHT else (),
            served_wins=bool(rules.served_bonus) and box is first_same,
        )
        for box in boxes
    )


def _family_boxes(rules: RuleSet) -> tuple[Box, ...]:
    return _boxes_and_index(rules)[0]


def _box_index(rules: RuleSet) -> dict[str, int]:
    return _boxes_and_index(rules)[1]


@lru_cache(maxsize=256)
def _boxes_and_index(rules: RuleSet) -> tuple[tuple[Box, ...], dict[str, int]]:
    boxes = _with_options(rules, _BUILDERS[rules.family](rules))
    return boxes, {box.key: i for i, box in enumerate(boxes)}


_BUILDERS = {
    Family.YAHTZEE: _classic_boxes,
    Family.YATZY: _yatzy_boxes,
    Family.MAXI_YATZY: _yatzy_boxes,
    Family.YACHT: _yacht_boxes,
    Family.YACHT_DICE: _yacht_dice_boxes,
    Family.GENERALA: _generala_boxes,
    Family.KISMET: _kismet_boxes,
}
_PAIRS_FAMILIES = (Family.YATZY, Family.MAXI_YATZY)


_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


def _parse_int(name: str, raw: object) -> int:
    if isinstance(raw, bool):
        raise RuleSetError(
            N_("{name} must be an integer, not {value!r}"), name=_option(name), value=raw
        )
    if isinstance(raw, int):
        return raw
    try:
        return int(str(raw).strip())
    except ValueError:
        raise RuleSetError(
            N_("{name} must be an integer, not {value!r}"), name=_option(name), value=raw
        ) from None


def parse_option(name: str, raw: object) -> Any:
    """Reads one option's value from text (or passes a Python value through, checked)."""
    if name in _ENUMS:
        enum = _ENUMS[name]
        if isinstance(raw, enum):
            return raw
        text = str(raw).strip().lower().replace("-", "_")
        try:
            return enum(text)
        except ValueError:
            allowed = ", ".join(e.value for e in enum)
            raise RuleSetError(
                N_("{name} must be one of {allowed}, not {value!r}"),
                name=_option(name),
                allowed=allowed,
                value=raw,
            ) from None
    if name in _BOOLS:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise RuleSetError(
            N_("{name} must be on or off, not {value!r}"), name=_option(name), value=raw
        )
    if name in _TUPLES:
        if name == "upper_bonus_tiers" and str(raw).strip().lower() in ("", "none", "off"):
            return ()
        items = raw if isinstance(raw, list | tuple) else str(raw).replace(" ", "").split(",")
        return tuple(_parse_int(name, item) for item in items)
    return _parse_int(name, raw)


def parse_settings(pairs: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Reads `KEY=VALUE` strings (the CLI's --set) into a mapping."""
    settings: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise RuleSetError(
                N_("a setting is written KEY=VALUE, e.g. joker=free_choice; got {pair!r}"),
                pair=pair,
            )
        settings[key.strip()] = value.strip()
    return settings


@dataclass(frozen=True)
class Preset:
    """A named rule set."""

    name: str
    description: str
    rules: RuleSet
    aliases: tuple[str, ...] = ()
    optimum: float | None = None
    """The expected score of optimal solitaire play (fivedice's exact solver), where the
    rules text quotes it (None: not quoted there)."""


CLASSIC = RuleSet()

YATZY_RULES = RuleSet(
    family=Family.YATZY,
    upper_bonus_value=50,
    small_straight=15,
    large_straight=20,
    of_a_kind_scores=OfAKindScoring.MATCHING_DICE,
    straights=Straights.FIXED,
    yahtzee_bonus=False,
    joker=Joker.NONE,
)
"""Scandinavian Yatzy (Larsson & Sjöberg's rules; optimum 248.4399894)."""

MAXI_YATZY_RULES = YATZY_RULES.replace(
    family=Family.MAXI_YATZY,
    upper_bonus_threshold=84,
    upper_bonus_value=100,
    yahtzee=100,
    saved_rolls=True,
)
"""Maxi Yatzy: six dice, 20 boxes, and rolls not used in a turn saved for later turns."""

YACHT_RULES = RuleSet(
    family=Family.YACHT,
    upper_bonus=False,
    small_straight=30,
    large_straight=30,
    of_a_kind_scores=OfAKindScoring.MATCHING_DICE,
    straights=Straights.FIXED,
    yahtzee_bonus=False,
    joker=Joker.NONE,
)
"""The Yacht Game (1938) as commonly published: 12 boxes, no bonus."""

YACHT_DICE_RULES = RuleSet(
    family=Family.YACHT_DICE,
    small_straight=15,
    large_straight=30,
    five_of_a_kind_is_full_house=True,
    yahtzee_bonus=False,
    joker=Joker.NONE,
)
"""Yacht Dice as in Nintendo's Clubhouse Games: 51 Worldwide Classics."""

GENERALA_RULES = RuleSet(
    family=Family.GENERALA,
    upper_bonus=False,
    yahtzee_bonus=False,
    joker=Joker.NONE,
    served_bonus=5,
    ones_in_straights=True,
)
"""Generala: served hands +5, a 1 may stand for a 2 or a 6 in the Escalera."""

KISMET_RULES = RuleSet(
    family=Family.KISMET,
    upper_bonus_tiers=(71, 55, 78, 75),
    yahtzee_bonus=False,
    joker=Joker.NONE,
)
"""Kismet as GNOME Tali scores it: bonus 35 at 63, 55 at 71, 75 at 78."""

PRESETS: tuple[Preset, ...] = (
    Preset(
        "classic",
        "Official rules: extra-Yahtzee bonus 100, forced joker",
        CLASSIC,
        ("official", "hasbro", "yahtzee"),
    ),
    Preset(
        "free-choice",
        "Classic with the free-choice joker (Verhoeff's rules)",
        CLASSIC.replace(joker=Joker.FREE_CHOICE),
        ("free_choice", "verhoeff"),
    ),
    Preset(
        "simple",
        "No extra-Yahtzee bonus and no joker",
        CLASSIC.replace(yahtzee_bonus=False, joker=Joker.NONE),
        ("basic",),
    ),
    Preset(
        "classic-five",
        "Classic Five: no bonus, no joker, fixed straights",
        CLASSIC.replace(yahtzee_bonus=False, joker=Joker.NONE, straights=Straights.FIXED),
        ("classic_five",),
    ),
    Preset(
        "triple",
        "Triple Yahtzee: three columns counting 1x, 2x and 3x",
        CLASSIC.replace(column_multipliers=(1, 2, 3)),
        ("triple-yahtzee",),
    ),
    Preset(
        "yatzy",
        "Scandinavian: 15 boxes, pairs, straights 15 and 20, bonus 50 at 63",
        YATZY_RULES,
        ("scandinavian", "yatzy-scandinavian"),
    ),
    Preset(
        "maxi-yatzy",
        "six dice, 20 boxes, bonus 100 at 84, unused rolls saved",
        MAXI_YATZY_RULES,
        ("maxi_yatzy", "maxi"),
    ),
    Preset(
        "yacht",
        "The Yacht Game (1938): 12 boxes, full house and four of a kind score sums, no bonus",
        YACHT_RULES,
        ("yacht-1938",),
        166.955068,
    ),
    Preset(
        "yacht-dice",
        "Yacht Dice (51 Worldwide Games): 12 boxes, bonus 35 at 63, straights 15 and 30",
        YACHT_DICE_RULES,
        ("yacht_dice", "51-worldwide-games"),
        191.774369,
    ),
    Preset(
        "generala",
        "Generala: 11 boxes, served hands +5, Generala 50, Double Generala 100",
        GENERALA_RULES,
    ),
    Preset(
        "kismet",
        "Kismet (as GNOME Tali): colours of pips, bonus 35/55/75 at 63/71/78",
        KISMET_RULES,
        optimum=322.188666,
    ),
)

_PRESET_INDEX: dict[str, Preset] = {
    key: preset for preset in PRESETS for key in (preset.name, *preset.aliases)
}


def find_preset(name: str) -> Preset:
    """Finds a preset by name or alias, ignoring case.

    Raises:
        RuleSetError: no such preset.
    """
    preset = _PRESET_INDEX.get(name.strip().lower())
    if preset is None:
        names = ", ".join(p.name for p in PRESETS)
        raise RuleSetError(
            N_("no rule preset is called {name!r}; the presets are {presets}"),
            name=name,
            presets=names,
        )
    return preset


def find_ruleset(name: str = "classic", settings: Mapping[str, object] | None = None) -> RuleSet:
    """The rule set of a preset, with optional option overrides by name."""
    rules = find_preset(name).rules
    return rules.with_settings(settings) if settings else rules


def preset_name(rules: RuleSet) -> str | None:
    """The name of the preset these rules are exactly, or None."""
    for preset in PRESETS:
        if preset.rules == rules:
            return preset.name
    return None


def nearest_preset(rules: RuleSet) -> Preset:
    """The preset these rules are, else the one they differ from in the fewest options.

    A form opened on `--rules kismet --set wild_die=on` shows Kismet, not the first preset:

    >>> nearest_preset(find_ruleset("kismet", {"wild_die": True})).name
    'kismet'
    """
    wanted = rules.all_settings()

    def differences(preset: Preset) -> int:
        settings = preset.rules.all_settings()
        return sum(1 for key, value in wanted.items() if settings.get(key) != value)

    return min(PRESETS, key=differences)
