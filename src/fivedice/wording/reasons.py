"""Why one option beats another, in words: the boxes and bonuses that make the difference,
and each box's chance this turn.

The numbers are the exact breakdowns the service hands out with a hint (`Hint.parts`,
`Hint.chances`; `fivedice.strategy.breakdown`); which components make the difference is the
strategy layer's (`Hint.reasons`); this module only words them:

    keep 2 3 4 rather than keep 6 6: +6.2 in Small straight, +4.1 in Large straight;
    −3.0 in Sixes, −2.1 in Upper bonus
    Chances this turn: Small straight 52%, Large straight 31%

Under several columns the numbers split the coach's estimates (`Hint.estimate`) per column,
keyed "3:yahtzee" (`fivedice.strategy.column_breakdown`): the words name the column ("+4.2 in
Yahtzee (column 3)") and say that they are estimated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fivedice.core.errors import N_
from fivedice.core.rules import Family, RuleSet
from fivedice.i18n import _, formats
from fivedice.wording.boxes import CARD_LABELS, box_name, card_label
from fivedice.wording.coach import choice_text

if TYPE_CHECKING:
    from fivedice.strategy.hints import Hint, Reason

__all__ = [
    "ESTIMATED",
    "NO_BREAKDOWN",
    "NO_BREAKDOWN_EXACT",
    "REASONS_PREPARED",
    "WHY_ESTIMATED",
    "chance_text",
    "component_name",
    "difference_lines",
    "has_no_breakdown",
    "reason_text",
    "why_lines",
    "why_short",
    "why_text",
]

NO_BREAKDOWN = N_("no breakdown for these rules: the coach's values here are estimates")
NO_BREAKDOWN_EXACT = N_(
    "no breakdown for these rules: the coach's values are exact, but its table is too large "
    "to split box by box"
)
"""Said instead of reasons where the estimates have no breakdown at all (Maxi Yatzy's saved
rolls: its CPU's values are not the solver's)."""
IN_COLUMN = N_("{component} (column {column})")
"""A component of one column of several: "Yahtzee (column 3)"."""
ESTIMATED = N_("{text} (estimated)")
"""A line of reasons that splits an estimate (several columns)."""
WHY_ESTIMATED = N_("Why (estimated): {reasons}")
"""`why_short` for an estimate."""
REASONS_PREPARED = N_("the reasons are being prepared; ask again in a moment")
"""Said by a page that does not wait for the breakdown of new rules."""
CHANCES = 3
"""How many boxes a chance line names (the likeliest)."""


def has_no_breakdown(rules: RuleSet) -> bool:
    """Whether the coach's values under these rules have no breakdown at all: Maxi Yatzy
    (`strategy.limits.has_layer_tables`): with saved rolls its values are rules of thumb,
    without them exact, but from a compact table that has no breakdown."""
    return rules.family is Family.MAXI_YATZY


def component_name(rules: RuleSet, key: str) -> str:
    """A breakdown's component in words: a box's name, "Upper bonus" or "Yahtzee bonus";
    with its column where there are several ("3:yahtzee": "Yahtzee (column 3)")."""
    column, colon, rest = key.partition(":")
    if colon:
        return _(IN_COLUMN).format(component=component_name(rules, rest), column=column)
    if key in CARD_LABELS:
        return card_label(key)
    return box_name(rules.box(key))


def signed(points: float) -> str:
    """Points with their sign, one decimal: "+6.2", "−3.0" (a true minus sign)."""
    text = formats.number(abs(points), 1)
    return ("+" if points >= 0 else "\u2212") + text


def reason_text(rules: RuleSet, items: Sequence[Reason]) -> str:
    """Signed differences in words: "+6.2 in Small straight, +4.1 in Large straight;
    −3.0 in Sixes" (gains, then losses)."""
    words = [
        [
            _("{points} in {component}").format(
                points=signed(points), component=component_name(rules, key)
            )
            for key, points in items
            if (points > 0) == gain
        ]
        for gain in (True, False)
    ]
    return _("; ").join(_(", ").join(group) for group in words if group)


def why_text(rules: RuleSet, better: Hint, other: Hint) -> str | None:
    """Why `better` beats `other`, in one line ("keep 2 3 4 rather than keep 6 6: +6.2 in
    Small straight, …"); None when the hints carry no breakdown."""
    if better.parts is None or other.parts is None:
        return None
    items = better.reasons(other)
    names = {
        "better": choice_text(better.keep, better.category, better.column),
        "other": choice_text(other.keep, other.category, other.column),
    }
    if not items:  # no box differs by 0.1: say what does (the sum of the small ones), or a tie
        total = better.value - other.value
        if round(total, 1) == 0:  # (shown with one decimal: 0.0)
            line = _("{better} or {other}: worth the same, box by box").format(**names)
        else:
            line = _("{better} rather than {other}: {points} in all, spread thinly over many boxes")
            line = line.format(**names, points=signed(total))
    else:
        line = _("{better} rather than {other}: {reasons}").format(
            **names, reasons=reason_text(rules, items)
        )
    return _estimated(line, better)


def _estimated(text: str, hint: Hint) -> str:
    """`text`, said to be estimated when the hint is an estimate."""
    return _(ESTIMATED).format(text=text) if hint.estimate else text


def chance_text(rules: RuleSet, hint: Hint, limit: int = CHANCES) -> str | None:
    """The likeliest boxes a keep scores this turn: "Chances this turn: Large straight 31%,
    Chance 20%"; None for a box, or a hint without its breakdown."""
    if not hint.chances:
        return None
    items = [
        _("{box} {chance}").format(box=component_name(rules, key), chance=formats.percent(chance))
        for key, chance in hint.chances[:limit]
    ]
    line = _("Chances this turn: {chances}").format(chances=_(", ").join(items))
    return _estimated(line, hint)


def why_short(rules: RuleSet, options: Sequence[Hint]) -> str | None:
    """The reasons in one line under a hint: the best option against the next, without
    naming them ("Why: +0.6 in Upper bonus, +0.5 in Yahtzee; −0.2 in Fives"); None without a
    breakdown or a difference worth saying."""
    if len(options) < 2:
        return None
    items = options[0].reasons(options[1])
    if not items:
        return None
    if options[0].estimate:
        return _(WHY_ESTIMATED).format(reasons=reason_text(rules, items))
    return _("Why: {reasons}").format(reasons=reason_text(rules, items))


def difference_lines(rules: RuleSet, better: Hint, other: Hint, every: bool = False) -> list[str]:
    """The reasons one a line, for a narrow panel: "  +6.2 Small straight", "  −3.0 Sixes";
    `every`: every component that differs (by 0.05 or more), not only the largest few."""
    count = len(better.parts or ()) if every else None
    return [
        f"{signed(points):>6} {component_name(rules, key)}"
        for key, points in better.reasons(other, count)
    ]


def why_lines(rules: RuleSet, options: Sequence[Hint], chosen: Hint | None = None) -> list[str]:
    """The reasons at a decision: the best option against `chosen` (default: the next best),
    then the best option's chances this turn (estimated ones say so). Empty when there is
    nothing to compare or the breakdown is not at hand; Maxi Yatzy, which has none, says so
    (estimates with saved rolls, exact values without)."""
    if not options:
        return []
    best = options[0]
    if best.parts is None and has_no_breakdown(rules):
        return [_(NO_BREAKDOWN if rules.saved_rolls else NO_BREAKDOWN_EXACT)]
    other = chosen if chosen is not None else (options[1] if len(options) > 1 else None)
    lines = []
    if other is not None and other is not best:
        line = why_text(rules, best, other)
        if line is not None:
            lines.append(line)
    chances = chance_text(rules, best)
    if chances is not None:
        lines.append(chances)
    return lines
