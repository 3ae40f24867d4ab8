"""A game review in words and as a text chart: shared by `fivedice review` and the terminal app.

Renders the `GameReview` the service returns (`GameService.review`); computes nothing of its
own. Text goes through gettext in the current language (the web pages call these through
`in_language`). The chart is drawn by plotext (a small terminal plotting library, imported
only when a chart is drawn).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from fivedice.i18n import _, formats, ngettext
from fivedice.wording.coach import ROLL_ALL_AGAIN
from fivedice.wording.reasons import WHY_ESTIMATED, reason_text
from fivedice.wording.rules import rules_title
from fivedice.wording.text import box_name, list_text

if TYPE_CHECKING:
    from fivedice.core.rules import RuleSet
    from fivedice.service.games import (
        CurvePoint,
        Decision,
        GameReview,
        Proficiency,
        SeatReview,
        SkillStats,
        SkillTrend,
    )
    from fivedice.strategy.review import Choice, GoalVerdict

_PLOT_LOCK = threading.Lock()  # plotext draws on one figure per process


def choice_words(choice: Choice) -> str:
    """An option in words: "keep 6 6", "roll all the dice again", "score Sixes (column 2)"."""
    if choice.category is not None:
        if choice.several_columns:
            return _("score {box} in column {column}").format(
                box=box_name(choice.category), column=choice.column + 1
            )
        return _("score {box}").format(box=box_name(choice.category))
    if not choice.keep:
        return _(ROLL_ALL_AGAIN)
    return _("keep {dice}").format(dice=" ".join(map(str, choice.keep)))


def points(value: float, exact: bool) -> str:
    """Expected points with two decimals; "≈" in front of an estimate."""
    return ("" if exact else "≈") + formats.number(value, 2)


def review_title(review: GameReview) -> str:
    """ "Review of game 12 · Classic" """
    rules = rules_title(review.rules)
    return _("Review of game {game} · {rules}").format(game=review.game_id, rules=rules)


def exactness_note(review: GameReview) -> str:
    """Says whether the values are exact or estimates, and what they are."""
    if review.exact:
        return _("Values are exact: expected points under optimal play, from the solved rules.")
    return _(
        "Values are estimates (≈): with several columns there is no exact solution; each "
        "column is valued by its optimal one-column values times its multiplier."
    )


def seat_title(seat: SeatReview, level_names: dict[str, str] | None = None) -> str:
    """The seat's name, with its CPU level."""
    if seat.cpu_level is None:
        return seat.name
    level = (level_names or {}).get(seat.cpu_level, seat.cpu_level)
    return _("{name} (CPU, {level})").format(name=seat.name, level=level)


def seat_summary(seat: SeatReview, exact: bool) -> str:
    """ "Expected points lost: 12.40 · optimal decisions: 30 of 36 (83%)" """
    if seat.optimal_share is None:
        return _("No decisions to review.")
    optimal = sum(decision.is_optimal for decision in seat.decisions)
    return _(
        "Expected points lost: {loss} · optimal decisions: {optimal} of {count} ({share})"
    ).format(
        loss=points(seat.total_loss, exact),
        optimal=optimal,
        count=len(seat.decisions),
        share=formats.percent(seat.optimal_share),
    )


def proficiency_headline(proficiency: Proficiency) -> str:
    """Verhoeff's measure, the headline of a review: "Loss per decision: 0.42 points (39
    decisions, 31 optimal)"; an estimate (several columns) says so."""
    per = proficiency.loss_per_decision
    if per is None:
        return _("Loss per decision: no decisions to judge.")
    count, optimal = proficiency.decisions, proficiency.optimal
    if proficiency.exact:
        line = ngettext(
            "Loss per decision: {loss} points ({count} decision, {optimal} optimal)",
            "Loss per decision: {loss} points ({count} decisions, {optimal} optimal)",
            count,
        )
    else:
        line = ngettext(
            "Loss per decision: ≈{loss} points, an estimate (several columns; {count} "
            "decision, {optimal} optimal)",
            "Loss per decision: ≈{loss} points, an estimate (several columns; {count} "
            "decisions, {optimal} optimal)",
            count,
        )
    return line.format(loss=formats.number(per, 2), count=count, optimal=optimal)


def _per_decision(value: float | None, exact: bool) -> str:
    return "–" if value is None else points(value, exact)


def proficiency_split(proficiency: Proficiency) -> str:
    """Where the points went: "Per decision: keeps 0.30 · box choices 0.55 · early game
    0.35 · late game 0.50" (early: the first half of a game's turns)."""
    exact = proficiency.exact
    return _(
        "Per decision: keeps {keeps} · box choices {boxes} · early game {early} · late game {late}"
    ).format(
        keeps=_per_decision(proficiency.keep_loss_per_decision, exact),
        boxes=_per_decision(proficiency.box_loss_per_decision, exact),
        early=_per_decision(proficiency.early_loss_per_decision, exact),
        late=_per_decision(proficiency.late_loss_per_decision, exact),
    )


def proficiency_runs(proficiency: Proficiency) -> str:
    """ "Optimal decisions: 79% · longest run of optimal decisions: 41" """
    share = proficiency.optimal_share
    return _("Optimal decisions: {share} · longest run of optimal decisions: {run}").format(
        share="–" if share is None else formats.percent(share), run=proficiency.longest_run
    )


def longest_run_line(proficiency: Proficiency) -> str:
    """ "Longest run of optimal decisions: 12" """
    return _("Longest run of optimal decisions: {run}").format(run=proficiency.longest_run)


def review_headline(seat: SeatReview) -> list[str]:
    """The head of a seat's review: the loss per decision, then the points lost and the
    share of optimal decisions, where the points went, and the longest optimal run."""
    if not seat.decisions:
        return [proficiency_headline(seat.proficiency)]
    return [
        proficiency_headline(seat.proficiency),
        seat_summary(seat, seat.proficiency.exact),
        proficiency_split(seat.proficiency),
        longest_run_line(seat.proficiency),
    ]


def phase_note() -> str:
    """What early and late mean."""
    return _("Early game: the first half of a game's turns; late game: the second half.")


def trend_line(trend: SkillTrend | None, exact: bool) -> str:
    """ "Trend: 0.38 per decision in the last 10 games, 0.47 in the 10 before (better)" """
    if trend is None:
        return _("Trend: after two games.")
    if abs(trend.change) < 0.005:
        verdict = _("about the same")
    elif trend.change < 0:
        verdict = _("better")
    else:
        verdict = _("worse")
    recent, earlier = points(trend.recent, exact), points(trend.earlier, exact)
    if trend.window == 1:
        return _(
            "Trend: {recent} per decision in the last game, {earlier} in the one before ({verdict})"
        ).format(recent=recent, earlier=earlier, verdict=verdict)
    return ngettext(
        "Trend: {recent} per decision in the last {count} game, {earlier} in the {count} "
        "before ({verdict})",
        "Trend: {recent} per decision in the last {count} games, {earlier} in the {count} "
        "before ({verdict})",
        trend.window,
    ).format(recent=recent, earlier=earlier, count=trend.window, verdict=verdict)


def skill_heading() -> str:
    """The heading of the statistics' skill part."""
    return _("Skill: points lost per decision against optimal play")


def skill_title(skill: SkillStats) -> str:
    """ "Skill over 12 games" (with "estimates" for several columns)."""
    count = len(skill.games)
    if skill.exact:
        return ngettext("Skill over {count} game", "Skill over {count} games", count).format(
            count=count
        )
    return ngettext(
        "Skill over {count} game (estimates: several columns)",
        "Skill over {count} games (estimates: several columns)",
        count,
    ).format(count=count)


def skill_lines(skill: SkillStats) -> list[str]:
    """A player's skill under one set of rules, in lines (without the chart)."""
    return [
        skill_title(skill),
        proficiency_headline(skill.overall),
        trend_line(skill.trend, skill.exact),
        proficiency_runs(skill.overall),
        proficiency_split(skill.overall),
    ]


def skill_chart_labels() -> tuple[str, str]:
    """The skill chart's axes: the games, and the loss per decision."""
    return _("games played"), _("points lost per decision")


def text_skill_chart(
    skill: SkillStats, width: int = 76, height: int = 10, color: bool = False
) -> str | None:
    """The loss per decision game by game as a text chart (None: fewer than two games)."""
    values = [
        game.proficiency.loss_per_decision
        for game in skill.games
        if game.proficiency.loss_per_decision is not None
    ]
    if len(values) < 2:
        return None
    games_label, loss_label = skill_chart_labels()
    xs = list(range(1, len(values) + 1))
    top = max(values)
    step = next(s for s in (0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0) if top / s <= 5)
    ticks = [step * index for index in range(int(top / step) + 2)]
    lines = _plot(xs, [(values, "•")], ticks, (max(width, 30), max(height, 6)), color, games_label)
    return "\n".join([*lines, "    • " + loss_label])


def when_words(decision: Decision, match: bool) -> str:
    """ "turn 5, 1 roll left" (with the game of a match)."""
    if decision.rolls_left == 1:
        rolls = _("1 roll left")
    else:
        rolls = ngettext("{count} roll left", "{count} rolls left", decision.rolls_left).format(
            count=decision.rolls_left
        )
    turn = _("turn {turn}").format(turn=decision.turn)
    if match:
        turn = _("game {game}, turn {turn}").format(game=decision.game, turn=decision.turn)
    return list_text([turn, rolls])


def decision_line(decision: Decision, match: bool = False) -> str:
    """One decision in a sentence: when, the dice, what was done, the best, the cost."""
    dice = " ".join(map(str, decision.dice))
    chosen = choice_words(decision.chosen)
    if decision.is_optimal:
        verdict = _("best choice")
    else:
        verdict = _("best: {best}, lost {loss}").format(
            best=choice_words(decision.best), loss=points(decision.loss, decision.exact)
        )
    line = _("{when} · dice {dice} · {chosen} · {verdict}").format(
        when=when_words(decision, match), dice=dice, chosen=chosen, verdict=verdict
    )
    if decision.goal is not None:
        line += " · " + goal_verdict(decision.goal)
    return line


def goal_verdict(verdict: GoalVerdict) -> str:
    """A decision against the winning total: "for 246: 23% (best: keep 6 6, 31%)"."""
    if verdict.chance_lost < 0.005:  # below what a whole percent shows
        return _("for {total}: {chance}, the best").format(
            total=verdict.goal, chance=percent(verdict.chosen_chance)
        )
    return _("for {total}: {chance} (best: {best}, {best_chance})").format(
        total=verdict.goal,
        chance=percent(verdict.chosen_chance),
        best=choice_words(verdict.best),
        best_chance=percent(verdict.best_chance),
    )


def goal_summary(seat: SeatReview) -> list[str]:
    """The seat's decisions against the score that would have won (the review's option):
    the goal, the chance at the start, and the decisions that gave up the most of it."""
    judged = [d for d in seat.decisions if d.goal is not None]
    if not judged:
        return []
    first = judged[0].goal
    assert first is not None
    lines = [
        _("Against {total}, the score that would have won: chance at the first decision {chance}.")
        .format(total=first.goal, chance=percent(first.best_chance))
    ]  # fmt: skip
    costly = sorted(
        (d for d in judged if d.goal is not None and d.goal.chance_lost >= 0.005),
        key=lambda d: -(d.goal.chance_lost if d.goal else 0.0),
    )[:3]
    if costly:
        lines.append(_("Decisions that gave up the most of that chance:"))
        lines += [f"  {decision_line(d)}" for d in costly]
    return lines


def chart_labels() -> tuple[str, str, str]:
    """The chart's words: the two series and the x axis."""
    return _("expected final score"), _("points scored"), _("turns played")


def chance_label() -> str:
    """The name of the chances panel's axis."""
    return _("chance of winning")


def chance_series(review: GameReview, seat: SeatReview) -> list[tuple[str, list[float]]]:
    """Every seat's chance of winning at each of this seat's curve points, this seat first.

    Empty when the curve has no chances (a solo game). Each point holds every seat's chance
    at that same moment, so the lines of one chart always sum to 1 point by point.
    """
    if not seat.curve or any(point.win_chances is None for point in seat.curve):
        return []
    order = [seat.seat] + [other.seat for other in review.seats if other.seat != seat.seat]
    return [
        (review.seats[index].name, [(point.win_chances or ())[index] for point in seat.curve])
        for index in order
    ]


def percent(chance: float, language: str | None = None) -> str:
    """A chance in whole percent, never rounded to a certainty it is not: "<1%", ">99%"
    (`language`: as that language writes it; default the current one)."""
    if 0 < chance < 0.005:
        return "<" + formats.percent(0.01, language)
    if 0.995 <= chance < 1:
        return ">" + formats.percent(0.99, language)
    return formats.percent(chance, language)


def chances_line(seat: SeatReview, exact: bool = True) -> str | None:
    """ "Chance of winning, at the start and after each turn: 50% · 1: 54% · ..." (None solo)."""
    curve = seat.curve
    if not curve or any(point.win_chance is None for point in curve):
        return None
    match = any(point.game > 1 for point in curve)
    steps = []
    for point in curve:
        chance = ("" if exact else "≈") + percent(point.win_chance or 0.0)
        if point.turn == 0:
            steps.append(chance)
        elif match:
            steps.append(f"{point.game}.{point.turn}: {chance}")
        else:
            steps.append(f"{point.turn}: {chance}")
    return _("Chance of winning, at the start and after each turn: {steps}").format(
        steps=" · ".join(steps)
    )


def chart_x(curve: tuple[CurvePoint, ...]) -> list[int]:
    """The x position of each curve point: turns played, counted over the whole match."""
    xs: list[int] = []
    offset = 0
    for index, point in enumerate(curve):
        if index and point.game != curve[index - 1].game:
            offset = xs[-1]
        xs.append(offset + point.turn)
    return xs


def text_chart(seat: SeatReview, width: int = 76, height: int = 14, color: bool = False) -> str:
    """The seat's expected final score and points scored, turn by turn, as a text chart.

    `color=True` keeps plotext's ANSI colours (for a terminal that shows them).
    """
    curve = seat.curve
    expected_label, scored_label, _turns = chart_labels()
    expected = [p.expected_final for p in curve]
    scored = [p.scored for p in curve]
    top = max([*expected, *scored, 1.0])
    series: list[tuple[Sequence[float], str]] = [(expected, "•"), (scored, "+")]
    lines = _plot(
        chart_x(curve), series, _round_ticks(top), (max(width, 30), max(height, 8)), color
    )
    legend = f"    • {expected_label}   + {scored_label}"  # under the plot, past the y ticks
    return "\n".join([*lines, legend])


def text_chance_chart(
    seat: SeatReview, width: int = 76, height: int = 11, color: bool = False
) -> str | None:
    """The seat's chance of winning (0-100 %) turn by turn as a small text chart (None solo)."""
    curve = seat.curve
    if len(curve) < 2 or any(point.win_chance is None for point in curve):
        return None
    chances = [100 * (point.win_chance or 0.0) for point in curve]
    lines = _plot(
        chart_x(curve), [(chances, "•")], [0, 50, 100], (max(width, 30), max(height, 6)), color
    )
    legend = "    • " + _("{name}: chance of winning (%)").format(name=seat.name)
    return "\n".join([*lines, legend])


def _plot(
    xs: list[int],
    series: list[tuple[Sequence[float], str]],
    y_ticks: Sequence[float],
    size: tuple[int, int],
    color: bool,
    x_label: str | None = None,
) -> list[str]:
    """The lines of a plotext chart of each (values, marker) series over the turns `xs`
    (`x_label`: the x axis' name, default the turns played)."""
    import plotext

    turns_label = x_label or chart_labels()[2]
    with _PLOT_LOCK:
        figure = plotext.figure
        figure.clear()
        figure.plot_size(*size)
        figure.theme("default" if color else "colorless")
        signals = [figure.signal(xs, values, marker=marker) for values, marker in series]
        for signal in signals:
            figure.draw(signal.lines())
        last = xs[-1] if xs else 0
        first = xs[0] if xs else 0
        figure.ruler("x").ticks(list(range(first, last + 1, max(1, (last - first + 12) // 13))))
        figure.ruler("y").ticks(list(y_ticks))
        figure.label(turns_label, "x")
        rendered = figure.build().string(colorless=not color)
    return [line.rstrip() for line in rendered.splitlines()]


def _round_ticks(top: float) -> list[int]:
    """Four to eight round tick values from 0 to above `top`."""
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000):
        if top / step <= 7:
            break
    return list(range(0, int(top) + step, step))


def decision_why(decision: Decision, rules: RuleSet) -> str | None:
    """Why the best option beat the one chosen, box by box ("Why: +3.1 in Sixes; −1.2 in
    Chance"; several columns: "Why (estimated): +4.2 in Yahtzee (column 3)"); None for a
    best choice or a decision without reasons (not at hand, or Maxi Yatzy)."""
    if decision.is_optimal or not decision.reasons:
        return None
    if not decision.exact:
        return _(WHY_ESTIMATED).format(reasons=reason_text(rules, decision.reasons))
    return _("Why: {reasons}").format(reasons=reason_text(rules, decision.reasons))


def review_lines(review: GameReview, chart_width: int = 76, chart: bool = True) -> list[str]:
    """The whole review as lines of text (`fivedice review`)."""
    match = any(d.game > 1 for seat in review.seats for d in seat.decisions)
    lines = [review_title(review), exactness_note(review)]
    for seat in review.seats:
        lines += ["", f"== {seat_title(seat)} ==", *review_headline(seat)]
        costliest = seat.costliest
        if costliest:
            lines.append(_("Costliest decisions:"))
            for decision in costliest:
                lines.append(f"  {decision_line(decision, match)}")
                why = decision_why(decision, review.rules)
                if why is not None:
                    lines.append(f"    {why}")
        if chart and len(seat.curve) > 1:
            lines.append("")
            lines.append(text_chart(seat, chart_width))
            chance_chart = text_chance_chart(seat, chart_width)
            if chance_chart is not None:
                lines += ["", chance_chart]
        lines += goal_summary(seat)
        chances = chances_line(seat, review.exact)
        if chances is not None:
            lines += ["", chances]
        if seat.decisions:
            lines.append("")
            lines.append(_("Every decision:"))
            lines += [f"  {decision_line(d, match)}" for d in seat.decisions]
    return lines
