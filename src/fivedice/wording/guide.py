"""The strategy guide in words: every rule of a derived guide as a sentence a player can
follow, in the current language.

The guide itself is data (`strategy.guide.Guide.as_data()`, which the service hands over):
which rules, in what order, with what numbers. Here are only the templates: one phrase per
test a keep rule can make (`CONDITION_PHRASES`, filled in with its numbers), one per keep
(`ACTION_PHRASES`), and the sentences of the box rules, so every rule reads naturally in
every language.

>>> rule = {"action": "high5", "when": [["small_run", 1, 2], ["turn", 13, 13]], "worth": 1.5}
>>> rule_sentence(rule)
'If you hold at most 2 of the four faces of a small straight, it is turn 13: keep every 5 and 6.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fivedice.core.categories import CATEGORIES
from fivedice.core.errors import N_
from fivedice.i18n import _, current_language
from fivedice.i18n.formats import number
from fivedice.wording.lists import list_text

__all__ = [
    "ACTION_PHRASES",
    "CONDITION_PHRASES",
    "GuideLine",
    "GuideText",
    "condition_phrase",
    "guide_text",
    "rule_sentence",
]

# For a numeric feature: (exactly n, n or more, at most n, from low to high).
CONDITION_PHRASES: dict[str, tuple[str, str, str, str]] = {
    "of_a_kind": (
        N_("you have exactly {n} of a kind"),
        N_("you have {n} or more of a kind"),
        N_("you have at most {n} of a kind"),
        N_("you have {low} to {high} of a kind"),
    ),
    "face": (
        N_("your most common face is {n}"),
        N_("your most common face is {n} or higher"),
        N_("your most common face is {n} or lower"),
        N_("your most common face is {low} to {high}"),
    ),
    "second": (
        N_("another face shows {n} times"),
        N_("another face shows at least {n} times"),
        N_("no other face shows more than {n} times"),
        N_("another face shows {low} to {high} times"),
    ),
    "small_run": (
        N_("you hold {n} of the four faces of a small straight"),
        N_("you hold at least {n} of the four faces of a small straight"),
        N_("you hold at most {n} of the four faces of a small straight"),
        N_("you hold {low} to {high} of the four faces of a small straight"),
    ),
    "large_run": (
        N_("you hold {n} of the five faces of a large straight"),
        N_("you hold at least {n} of the five faces of a large straight"),
        N_("you hold at most {n} of the five faces of a large straight"),
        N_("you hold {low} to {high} of the five faces of a large straight"),
    ),
    "rolls_left": (
        N_("{n} rolls are left"),
        N_("{n} or more rolls are left"),
        N_("at most {n} rolls are left"),
        N_("{low} to {high} rolls are left"),
    ),
    "turn": (
        N_("it is turn {n}"),
        N_("it is turn {n} or later"),
        N_("it is turn {n} or earlier"),
        N_("it is turn {low} to {high}"),
    ),
    "upper_margin": (
        N_("your upper section stands at {n} against par"),
        N_("your upper section stands at {n} or better against par"),
        N_("your upper section stands at {n} or worse against par"),
        N_("your upper section stands between {low} and {high} against par"),
    ),
    "sum": (
        N_("the dice add up to {n}"),
        N_("the dice add up to {n} or more"),
        N_("the dice add up to {n} or less"),
        N_("the dice add up to {low} to {high}"),
    ),
}
"""How a keep rule's test of a numeric feature reads, by feature (`strategy.guide.FEATURES`)."""

# Special cases that read better than the general phrase: (feature, low, high) -> phrase.
SPECIAL_PHRASES: dict[tuple[str, int, int], str] = {
    ("of_a_kind", 1, 1): N_("no two dice match"),
    ("second", 1, 1): N_("no other face repeats"),
    ("second", 2, 2): N_("another face makes a pair"),
    ("rolls_left", 1, 1): N_("it is your last reroll"),
    ("rolls_left", 2, 2): N_("it is your first reroll"),
    ("of_a_kind", 5, 5): N_("you have five of a kind"),
}

# For a yes/no feature: (when it holds, when it does not).
BOOLEAN_PHRASES: dict[str, tuple[str, str]] = {
    "face_upper_open": (
        N_("the upper box of your most common face is open"),
        N_("the upper box of your most common face is filled"),
    ),
    "yahtzee_scored": (
        N_("your Yahtzee box holds 50"),
        N_("your Yahtzee box does not hold 50"),
    ),
}
BOX_OPEN = N_("{box} is open")
BOX_FILLED = N_("{box} is filled")
BOX_FEATURES = {
    f"{key}_open": key
    for key in (
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "yahtzee",
        "chance",
    )
}
SIGNED = {"upper_margin"}

ACTION_PHRASES: dict[str, str] = {
    "all": N_("keep all five and score"),
    "most": N_("keep the dice of your most common face (the higher face on a tie)"),
    "most_upper": N_(
        "keep the dice of your most common face whose upper box is still open (if there is "
        "none, of your most common face)"
    ),
    "small_draw": N_(
        "keep one die of each face of the small straight you hold most faces of (on a tie: "
        "2-3-4-5, then 3-4-5-6)"
    ),
    "large_draw": N_(
        "keep one die of each face of the large straight you hold most faces of (on a tie: "
        "2-3-4-5-6)"
    ),
    "house": N_(
        "keep up to three dice of your most common face and, if another face makes a pair, "
        "two of it (toward a full house)"
    ),
    "most_high4": N_("keep your most common face and every other 4, 5 and 6"),
    "most_high5": N_("keep your most common face and every other 5 and 6"),
    "high4": N_("keep every 4, 5 and 6"),
    "high5": N_("keep every 5 and 6"),
    "nothing": N_("reroll all five dice"),
}
"""How each keep of a rule (`strategy.guide.ACTIONS`) reads."""

FEATURE_LIMITS: dict[str, tuple[int, int]] = {
    "of_a_kind": (1, 5),
    "face": (1, 6),
    "second": (0, 2),
    "small_run": (1, 4),
    "large_run": (1, 5),
    "rolls_left": (1, 2),
    "turn": (1, 13),
    "upper_margin": (-15, 15),
    "sum": (5, 30),
}
"""Each numeric feature's whole range: a test that reaches an end says only the other end."""


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("−" + str(-value) if value < 0 else "0")


def condition_phrase(feature: str, low: int, high: int) -> str:
    """One test of a keep rule in words.

    >>> condition_phrase("of_a_kind", 3, 5)
    'you have 3 or more of a kind'
    >>> condition_phrase("small_straight_open", 1, 1)
    'Small straight is open'
    """
    if feature in BOX_FEATURES:
        category = next(c for c in CATEGORIES if c.key == BOX_FEATURES[feature])
        return _(BOX_OPEN if low >= 1 else BOX_FILLED).format(box=_(category.name))
    if feature in BOOLEAN_PHRASES:
        yes, no = BOOLEAN_PHRASES[feature]
        return _(yes if low >= 1 else no)
    special = SPECIAL_PHRASES.get((feature, low, high))
    if special is not None:
        return _(special)
    exact, at_least, at_most, between = CONDITION_PHRASES[feature]
    bottom, top = FEATURE_LIMITS[feature]
    show: Callable[[int], str] = _signed if feature in SIGNED else str
    if low == high:
        return _(exact).format(n=show(low))
    if high >= top:
        return _(at_least).format(n=show(low))
    if low <= bottom:
        return _(at_most).format(n=show(high))
    return _(between).format(low=show(low), high=show(high))


def rule_sentence(rule: Mapping[str, Any]) -> str:
    """A keep rule (as `strategy.guide.KeepRule.as_data()` gives it) as one sentence."""
    action = _(ACTION_PHRASES[str(rule["action"])])
    conditions = [condition_phrase(str(f), int(low), int(high)) for f, low, high in rule["when"]]
    if not conditions:
        return _("Always: {action}.").format(action=action)
    return _("If {conditions}: {action}.").format(conditions=list_text(conditions), action=action)


@dataclass(frozen=True)
class GuideLine:
    """One numbered rule: its sentence, what a game loses without it (None: not measured on
    its own) and that worth in words ("worth 1.2 points a game"; "" when not measured), both
    in the language the guide was put into words in."""

    number: int
    text: str
    worth: float | None = None
    worth_label: str = ""
    items: tuple[str, ...] = ()
    """Lines that belong to the rule, unnumbered, shown under it (the pars of rule 1)."""

    def worth_text(self) -> str:
        """The worth in words, in the guide's language ("" when not measured)."""
        return self.worth_label


def _line(
    position: int, text: str, worth: float | None = None, items: Sequence[str] = ()
) -> GuideLine:
    """A numbered rule with its worth put into words in the current language."""
    label = ""
    if worth is not None:
        label = _("worth {points} points a game").format(
            points=number(worth, 1, current_language())
        )
    return GuideLine(position, text, worth, label, tuple(items))


@dataclass(frozen=True)
class GuideText:
    """The whole guide in words, in the current language, ready for any front end."""

    title: str
    summary: str
    worth_note: str
    box_heading: str
    box_lines: tuple[GuideLine, ...]
    keep_heading: str
    keep_intro: str
    keep_lines: tuple[GuideLine, ...]

    @property
    def rule_count(self) -> int:
        return len(self.box_lines) + len(self.keep_lines)

    def as_text(self) -> str:
        """The guide as plain text (the command line's)."""
        lines = [self.title, "", self.summary, self.worth_note, "", self.box_heading]
        for section in (self.box_lines, None, self.keep_lines):
            if section is None:
                lines += ["", self.keep_heading, self.keep_intro]
                continue
            for line in section:
                worth = line.worth_text()
                lines.append(f"{line.number:2}. {line.text}" + (f" ({worth})" if worth else ""))
                lines += [f"      {item}" for item in line.items]
        return "\n".join(lines) + "\n"


def guide_text(data: Mapping[str, Any], optimum: float | None = None) -> GuideText:
    """The guide (`strategy.guide.Guide.as_data()`) in words, in the current language.

    Args:
        data: the derived guide.
        optimum: optimal play's mean score under the guide's rules, if known.
    """
    language = current_language()
    box = data["box"]
    pars: Mapping[str, float] = box["pars"]
    # The pars belong to rule 1: listed under it, not numbered as rules of their own.
    par_items = [
        _("{box}: par {par}").format(
            box=_(category.name), par=number(pars[category.key], 1, language)
        )
        for category in CATEGORIES
        if category.key in pars
    ]
    box_lines = [
        _line(
            1,
            _(
                "Score where your points minus the box's par are highest (a box you scratch "
                "counts 0 points). The pars:"
            ),
            float(box["worth"]),
            par_items,
        )
    ]
    box_lines.append(
        _line(
            len(box_lines) + 1,
            _(
                "In the upper section, while the bonus is neither made nor out of reach, count "
                "each point above three of the face {weight} times extra, and each point below "
                "it as much against."
            ).format(weight=number(float(box["upper_weight"]), 1, language)),
            float(box["upper_worth"]),
        )
    )
    start = len(box_lines)
    keep_rules: Sequence[Mapping[str, Any]] = data["keep"]
    keep_lines = [
        _line(start + i + 1, rule_sentence(rule), float(rule["worth"]))
        for i, rule in enumerate(keep_rules)
    ]
    keep_lines.append(
        _line(
            start + len(keep_lines) + 1,
            _("Otherwise: {action}.").format(action=_(ACTION_PHRASES["most"])),
        )
    )
    mean = number(float(data["mean"]), 1, language)
    games = number(int(data["games"]), 0, language)
    if optimum is None:
        summary = _(
            "Derived by the program from the solver's decisions. The guide level plays exactly "
            "these rules and averages {mean} points over {games} games."
        ).format(mean=mean, games=games)
    else:
        summary = _(
            "Derived by the program from the solver's decisions. The guide level plays exactly "
            "these rules and averages {mean} points over {games} games (optimal play: "
            "{optimum})."
        ).format(mean=mean, games=games, optimum=number(optimum, 1, language))
    return GuideText(
        title=_("Strategy guide"),
        summary=summary,
        worth_note=_("A rule's worth is the points a game loses, on average, without it."),
        box_heading=_("Where to score"),
        box_lines=tuple(box_lines),
        keep_heading=_("What to keep"),
        keep_intro=_("Before each reroll, go down this list: the first rule that fits decides."),
        keep_lines=tuple(keep_lines),
    )
