"""Why one option beats another, in words: the boxes and bonuses that make the difference,
and each box's chance this turn.

The numbers are the exact breakdowns the service hands out with a hint (`Hint.parts`,
`Hint.chances`; `fivedice.strategy.breakdown`); which components make the difference is the
strategy layer's (`Hint.reasons`); this module only words them:

    keep 2 3 4 rather than keep 6 6: +6.2 in Small straight, +4.1 in Large straight;
    −3.0 in Sixes, −2.1 in Upper bonus
    Chances this turn: Small straight 52%, Large straight 31%
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fivedice.core.errors import N_
from fivedice.core.rules import RuleSet
from fivedice.i18n import _, formats
from fivedice.wording.boxes import CARD_LABELS, box_name, card_label
from fivedice.wording.coach import choice_text

if TYPE_CHECKING:
    from fivedice.strategy.hints import Hint, Reason

__all__ = [
    "NO_EXACT_BREAKDOWN",
    "REASONS_PREPARED",
    "chance_text",
    "component_name",
    "difference_lines",
    "reason_text",
    "why_lines",
    "why_short",
    "why_text",
]

NO_EXACT_BREAKDOWN = N_(
    "no exact breakdown with several columns: the coach's values there are estimates"
)
"""Said instead of reasons where there is no exact breakdown (several columns)."""
REASONS_PREPARED = N_("the reasons are being prepared; ask again in a moment")
"""Said by a page that does not wait for the breakdown of new rules."""
CHANCES = 3
"""How many boxes a chance line names (the likeliest)."""


def component_name(rules: RuleSet, key: str) -> str:
    """A breakdown's component in words: a box's name, "Upper bonus" or "Yahtzee bonus"."""
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
    if not items:
        return _("{better} rather than {other}: about the same in every box").format(**names)
    return _("{better} rather than {other}: {reasons}").format(
        **names, reasons=reason_text(rules, items)
    )


def chance_text(rules: RuleSet, hint: Hint, limit: int = CHANCES) -> str | None:
    """The likeliest boxes a keep scores this turn: "Chances this turn: Large straight 31%,
    Chance 20%"; None for a box, or a hint without its breakdown."""
    if not hint.chances:
        return None
    items = [
        _("{box} {chance}").format(box=component_name(rules, key), chance=formats.percent(chance))
        for key, chance in hint.chances[:limit]
    ]
    return _("Chances this turn: {chances}").format(chances=_(", ").join(items))


def why_short(rules: RuleSet, options: Sequence[Hint]) -> str | None:
    """The reasons in one line under a hint: the best option against the next, without
    naming them ("Why: +0.6 in Upper bonus, +0.5 in Yahtzee; −0.2 in Fives"); None without a
    breakdown or a difference worth saying."""
    if len(options) < 2:
        return None
    items = options[0].reasons(options[1])
    if not items:
        return None
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
    then the best option's chances this turn. Empty when there is nothing to compare, or no
    exact breakdown (several columns say so)."""
    if not options:
        return []
    best = options[0]
    if best.estimate:
        return [_(NO_EXACT_BREAKDOWN)]
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
