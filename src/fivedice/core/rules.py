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
from typing import Any

from fivedice.core.errors import N_, Phrase, RuleSetError

MAX_UPPER_TOTAL = 105  # five sixes + five fives + ... + five ones
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
    column_multipliers: tuple[int, ...] = (1,)

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            _check_field(field.name, value)

    @property
    def columns(self) -> int:
        return len(self.column_multipliers)

    @property
    def is_single_column(self) -> bool:
        return self.columns == 1

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
        """Every option as a JSON-friendly value, by option name (the inverse of with_settings)."""
        result: dict[str, object] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            result[field.name] = value
        return result

    def changed_settings(self, base: RuleSet | None = None) -> dict[str, object]:
        """The options that differ from `base` (default: the classic rules)."""
        reference = (base or RuleSet()).settings()
        return {k: v for k, v in self.settings().items() if reference[k] != v}

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
}
_BOOLS = {"upper_bonus", "five_of_a_kind_is_full_house", "yahtzee_bonus", "upper_first"}


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
            "upper_bonus_threshold": (1, MAX_UPPER_TOTAL),
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
    if name == "column_multipliers":
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


CLASSIC = RuleSet()

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
