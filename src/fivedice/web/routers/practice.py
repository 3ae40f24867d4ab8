"""The Practice page: drills from the visitor's own costliest decisions (the games their
browser session played) and classic teaching positions, one puzzle at a time.

`GET /practice` shows the position due now (`?after=KEY`: not the one just answered, unless
it is the only one left); the puzzle is one form, without JavaScript: tick the dice to keep
and press Roll, or press the points beside an open box to score there, as in a game.
`POST /practice/answer` (CSRF-protected as every form) sends the answer to the service in
the game's notation and shows the verdict (best move, the points lost, the options ranked,
when the position comes back); a bad answer shows the puzzle again with the reason, and
changes nothing. Progress is kept under the key of the visitor's browser session (the
SHA-256 of its cookie), as the tutorial's; nothing here writes a game or a statistic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from fivedice.core.card import ScoreCard
from fivedice.core.errors import N_, FivediceError
from fivedice.i18n import _
from fivedice.service.drills import Drill, DrillResult
from fivedice.store.browser_seats import session_key
from fivedice.web.deps import Hub
from fivedice.web.routers.pages import Visitor, Who, render
from fivedice.web.wording import gettext_for, in_language
from fivedice.wording.boxes import (
    par_label,
    total_label,
    upper_bonus_label,
    upper_total_label,
    yahtzee_bonus_label,
)
from fivedice.wording.drills import (
    all_mastered_text,
    drill_heading,
    exact_note,
    practice_title,
    progress_text,
    question_text,
    result_lines,
)
from fivedice.wording.rules import rules_title
from fivedice.wording.text import box_name, error_text, refused_text

router = APIRouter(include_in_schema=False)

MAX_KEY = 60
"""The longest drill key (the store's column)."""


def practice_texts(_: Callable[[str], str]) -> dict[str, str]:
    """The words of the Practice page, translated by `_`."""
    return {
        "roll": _("Roll"),
        "your_card": _("Your card"),
        "die_label": _("Die {position}: {value}"),
        "score_in": _("Score in"),
        "how": _("Tick the dice to keep and press Roll, or press the points beside a box."),
        "next": _("Next position"),
        "another": _("Another position"),
        "learn": _("Learn by playing"),
    }


def owner_of(visitor: Visitor) -> str | None:
    """Whose drills the visitor practises: their browser session's key (never the cookie),
    or None without a session."""
    return session_key(visitor.session) if visitor.session else None


def _puzzle(drill: Drill) -> dict[str, Any]:
    """What the puzzle shows, in the current language (called under `in_language`)."""
    position = drill.position
    rules = position.rules
    state = position.state()
    previews = {p.category: p.points for p in state.placements()}
    column = position.column
    rows: list[dict[str, Any]] = []
    last_upper = [box for box in column.boxes if box.is_upper][-1]
    for category in column.boxes:
        preview = previews.get(category)
        rows.append(
            {
                "name": box_name(category),
                "score": column.score(category),
                "preview": preview,
                "answer": f"score {category.key}" if preview is not None else "",
                "key": category.key,
                "upper_end": category is last_upper,
            }
        )
        if category is last_upper:
            rows += [
                {"sum": upper_total_label(), "value": str(column.upper_total)},
                {"sum": par_label(), "value": f"{column.upper_par:+d}"},
                {"sum": upper_bonus_label(), "value": str(column.upper_bonus(rules))},
            ]
    sums = [
        (yahtzee_bonus_label(), str(column.yahtzee_bonus_total(rules))),
        (total_label(), str(ScoreCard((column,)).total(rules))),
    ]
    return {
        "key": drill.key,
        "heading": drill_heading(drill),
        "rules": _("Rules: {rules}").format(rules=rules_title(rules)),
        "question": question_text(position),
        "dice": list(enumerate(position.dice, start=1)),
        "can_keep": position.rolls_left > 0,
        "rows": rows,
        "sums": sums,
    }


def _page(
    request: Request,
    visitor: Visitor,
    *,
    drill: Drill | None,
    progress: str,
    result: DrillResult | None = None,
    error: str = "",
    status: int = 200,
) -> HTMLResponse:
    language = visitor.language
    context: dict[str, Any] = {
        "pt": practice_texts(gettext_for(language)),
        "title": in_language(language, practice_title),
        "note": in_language(language, exact_note),
        "progress": progress,
        "puzzle": in_language(language, _puzzle, drill) if drill is not None else None,
        "done": in_language(language, all_mastered_text) if drill is None else "",
        "verdict": in_language(language, result_lines, result) if result is not None else [],
        "right": bool(result and result.right),
        "error": error,
    }
    return render(request, visitor, "practice.html", status, **context)


def _no_session(request: Request, visitor: Visitor) -> HTMLResponse:
    message = gettext_for(visitor.language)(N_("your browser has no session here; reload the page"))
    return render(request, visitor, "message.html", 403, message=message)


@router.get("/practice", response_class=HTMLResponse)
def practice_page(request: Request, hub: Hub, visitor: Who, after: str = "") -> Response:
    """The position due now, as a puzzle (or that every position is mastered)."""
    owner = owner_of(visitor)
    if owner is None:
        return _no_session(request, visitor)
    language = visitor.language
    try:
        drill = in_language(language, hub.service.drill_next, owner, after=after[:MAX_KEY] or None)
        progress = in_language(language, progress_text, hub.service.drill_progress(owner))
    except FivediceError as problem:
        message = error_text(problem, gettext_for(language))
        return render(request, visitor, "message.html", 503, message=message)
    return _page(request, visitor, drill=drill, progress=progress)


@router.post("/practice/answer", response_class=HTMLResponse)
def practice_answer(
    request: Request,
    hub: Hub,
    visitor: Who,
    key: str = Form("", max_length=MAX_KEY),
    answer: str = Form("", max_length=100),
    hold: list[str] = Form([]),  # noqa: B008  (FastAPI reads a repeated field this way)
) -> Response:
    """Judges an answer: a box (`answer` = "score KEY"), or the dice ticked and Roll (`answer`
    = "roll", `hold` = the positions). A bad one shows the puzzle again with the reason."""
    owner = owner_of(visitor)
    if owner is None:
        return _no_session(request, visitor)
    language = visitor.language
    text = answer.strip()
    if text == "roll" and hold:  # the ticked dice: their positions, checked by the service
        text = "hold " + " ".join(sorted(set(hold))[:6])
    service = hub.service
    try:
        drill = service.drill(key, owner)
    except FivediceError as problem:
        message = error_text(problem, gettext_for(language))
        return render(request, visitor, "message.html", 404, message=message)
    try:
        # The reasons only if the breakdown is at hand (it is prepared meanwhile), as hints.
        result = in_language(language, service.drill_answer, key, text, owner, explain=None)
    except FivediceError as problem:
        reason = in_language(language, refused_text, error_text(problem, gettext_for(language)))
        progress = in_language(language, progress_text, service.drill_progress(owner))
        return _page(request, visitor, drill=drill, progress=progress, error=reason, status=400)
    progress = in_language(language, progress_text, service.drill_progress(owner))
    return _page(request, visitor, drill=result.drill, progress=progress, result=result)
