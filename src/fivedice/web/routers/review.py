"""The review page of a finished game: every decision against the best one, and a chart.

`/g/{public_id}/review` shows what the service's `review` returns (this module computes
nothing about the game): per seat the points lost, the share of best decisions, the
costliest decisions, a chart of the expected final score against the points scored (an SVG
from matplotlib, see `review_chart`; with several seats a panel of the chances of winning
below), and every decision in a table. Anyone who may watch the game may read its review,
but only once it is over (finished or abandoned): a review of a game in progress would
coach one seat against the others.

The resume page links here for the visitor's finished games (`pages.finished_games`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from fivedice.i18n import formats
from fivedice.service.errors import TablesPreparingError
from fivedice.service.games import HintsUnavailableError, ReviewRefusedError
from fivedice.store import GameNotFoundError
from fivedice.web.deps import Hub
from fivedice.web.hub import UnknownGameError
from fivedice.web.review_chart import chart_size, chart_svg, data_url
from fivedice.web.routers.pages import RETRY_SECONDS, Who, render
from fivedice.web.wording import gettext_for, in_language, texts
from fivedice.wording.progress import build_progress_text
from fivedice.wording.review import (
    chance_label,
    chance_series,
    chart_labels,
    chart_x,
    choice_words,
    decision_line,
    decision_why,
    exactness_note,
    goal_summary,
    percent,
    points,
    review_headline,
    seat_title,
)
from fivedice.wording.text import error_text

if TYPE_CHECKING:
    from fivedice.core.rules import RuleSet
    from fivedice.service.games import GameReview, SeatReview

router = APIRouter(include_in_schema=False)


def page_words(_: Any) -> dict[str, str]:
    """The review page's own words (`_` is the request's gettext)."""
    return {
        "title": _("Review of the game"),
        "costliest": _("Costliest decisions"),
        "all_best": _("Every decision was the best one."),
        "judge_winning": _("Judge against the score that would have won"),
        "judge_points": _("Judge by points only"),
        "chart": _("Expected final score and points scored after each turn"),
        "chart_chances": _(
            "Expected final score and points scored after each turn, and below them the "
            "chances of winning at those moments"
        ),
        "chances_alt": _("Chance of winning: {start} at the start, {final} after the last turn."),
        "chart_alt": _(
            "Chart: {name} was expected to score {start} at the start and scored {final}."
        ),
        "decisions": _("Every decision ({count})"),
        "turn": _("Turn"),
        "game": _("Game"),
        "dice": _("Dice"),
        "rolls_left": _("Rolls left"),
        "chosen": _("Chosen"),
        "best": _("Best option"),
        "lost": _("Points lost"),
        "back": _("Back to the game"),
        "refused": _("This game cannot be reviewed: {reason}"),
    }


def _seat_context(
    seat: SeatReview, exact: bool, match: bool, level_names: dict[str, str], rules: RuleSet
) -> dict[str, Any]:
    """One seat's words and numbers, in the current (process) language."""
    rows = [
        {
            "game": decision.game,
            "turn": decision.turn,
            "dice": " ".join(map(str, decision.dice)),
            "rolls_left": decision.rolls_left,
            "chosen": choice_words(decision.chosen),
            "best": "" if decision.is_optimal else choice_words(decision.best),
            "lost": "" if decision.is_optimal else points(decision.loss, decision.exact),
            "optimal": decision.is_optimal,
        }
        for decision in seat.decisions
    ]
    return {
        "seat": seat.seat,
        "title": seat_title(seat, level_names),
        "name": seat.name,
        "headline": review_headline(seat),
        "costliest": [
            {"line": decision_line(decision, match), "why": decision_why(decision, rules)}
            for decision in seat.costliest
        ],
        "goal_lines": goal_summary(seat),
        "rows": rows,
        "labels": chart_labels(),
        "chance_label": chance_label(),
    }


def _review_context(review: GameReview, level_names: dict[str, str]) -> dict[str, Any]:
    match = any(d.game > 1 for seat in review.seats for d in seat.decisions)
    return {
        "note": exactness_note(review),
        "match": match,
        "seats": [
            _seat_context(seat, review.exact, match, level_names, review.rules)
            for seat in review.seats
        ],
    }


def _chart(
    seat: SeatReview,
    labels: tuple[str, str, str],
    chances: list[tuple[str, list[float]]],
    chances_label: str,
    seats: list[int],
) -> str:
    xs = chart_x(seat.curve)
    curve = seat.curve
    starts = [xs[i - 1] for i in range(1, len(curve)) if curve[i].game != curve[i - 1].game]
    svg = chart_svg(
        xs,
        [point.expected_final for point in seat.curve],
        [point.scored for point in seat.curve],
        labels,
        starts,
        chances,
        chances_label,
        seats,
    )
    return data_url(svg)


@router.get("/g/{public_id}/review", response_class=HTMLResponse)
def review_page(
    request: Request, public_id: str, hub: Hub, visitor: Who, winning: int = 0
) -> Response:
    """The review of a finished (or abandoned) game (`winning=1`: each decision judged
    against the score that would have won it too)."""
    gettext = gettext_for(visitor.language)
    words = page_words(gettext)
    try:
        game_id = hub.game_id(public_id)
        review = hub.service.review(game_id, explain=None, against_winning_total=bool(winning))
    except (UnknownGameError, GameNotFoundError):
        return render(request, visitor, "message.html", status=404, message_key="not_found")
    except (ReviewRefusedError, HintsUnavailableError) as error:
        reason = error_text(error, gettext)
        preparing = isinstance(error, TablesPreparingError)
        if preparing:  # the goal tables are being built: how far, and the page asks again
            progress = hub.service.build_progress(game_id, goal=True)
            if progress is not None:
                reason += " " + in_language(visitor.language, build_progress_text, progress)
        return render(
            request, visitor, "review.html", status=202 if preparing else 409, words=words,
            pid=public_id, refused=words["refused"].format(reason=reason), review=None,
            winning=bool(winning), retry=RETRY_SECONDS if preparing else None,
        )  # fmt: skip
    t = texts(gettext)
    level_names = {seat.cpu_level: t.get(seat.cpu_level, seat.cpu_level)
                   for seat in review.seats if seat.cpu_level}  # fmt: skip
    context = in_language(visitor.language, _review_context, review, level_names)
    for seat, seat_context in zip(review.seats, context["seats"], strict=True):
        curve = seat.curve
        chances = chance_series(review, seat)
        # (chance_series' order: this seat, then the others; each line in its seat's colour)
        order = [seat.seat] + [other.seat for other in review.seats if other.seat != seat.seat]
        seat_context["chart"] = (
            _chart(seat, seat_context["labels"], chances, seat_context["chance_label"], order)
            if len(curve) > 1
            else None
        )
        width, height = chart_size(bool(chances))
        seat_context["chart_size"] = (round(width * 100), round(height * 100))
        seat_context["chart_caption"] = words["chart_chances" if chances else "chart"]
        seat_context["chart_alt"] = words["chart_alt"].format(
            name=seat.name,
            start=formats.number(curve[0].expected_final, 0, visitor.language),
            final=curve[-1].scored,
        )
        if chances:
            seat_context["chart_alt"] += " " + words["chances_alt"].format(
                start=percent(chances[0][1][0]), final=percent(chances[0][1][-1])
            )
    return render(
        request, visitor, "review.html", words=words, pid=public_id, refused=None,
        winning=bool(winning),
        review=review, players=", ".join(seat.name for seat in review.seats), **context,
    )  # fmt: skip
