"""The tutorial pages ("Learn by playing"): the lesson list with progress, and a lesson.

`GET /tutorial` lists the lessons with their state; `GET /tutorial/{lesson}` shows the lesson
the visitor's browser session is playing (starting it if there is none); every action is a
form post (`/act`, `/restart`, `/skip`) answered by a redirect, so the pages work without
JavaScript. A lesson in play lives in this server's memory, keyed by the browser session
(a restart of the server starts it again); only the progress is saved, in its own table,
under the key of the visitor's browser session (a visitor without a session saves nothing),
so one visitor's progress never shows for another.
Words come from `tutorial_texts` and from the engine, rendered in the visitor's language.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from fivedice.core.actions import Hold, Release, Roll, Score
from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import legal_actions
from fivedice.core.rules import PRESETS, RuleSet, find_ruleset
from fivedice.service.tutorial import (
    LESSONS,
    Lesson,
    NextMove,
    TutorialRun,
    find_lesson,
    instruction,
    next_move,
)
from fivedice.service.tutorial.progress import lesson_state, lessons_done
from fivedice.store.browser_seats import session_key
from fivedice.web.deps import Hub
from fivedice.web.routers.pages import Visitor, Who, preset_choices, render
from fivedice.web.wording import gettext_for, in_language, ngettext_for
from fivedice.wording.lessons import (
    MoveWords,
    lesson_move_text,
    lesson_state_label,
    lessons_done_text,
)
from fivedice.wording.text import box_name, error_text

router = APIRouter(include_in_schema=False)
MAX_RUNS = 2000
"""Lessons in play kept in memory (the least recently used are dropped)."""


TAP_TO_HOLD = N_("Tap or click dice {positions} to hold them, then Roll.")
TAP_TO_RELEASE = N_("Tap or click dice {positions} to release them.")
TAP_TO_ROLL = N_("Tap or click Roll.")
TAP_TO_SCORE = N_("Tap or click the {points} beside {box} on your card.")


TAPS = MoveWords(TAP_TO_HOLD, TAP_TO_RELEASE, TAP_TO_SCORE, TAP_TO_ROLL, separator=", ")
"""A lesson's move with this page's taps and clicks: the dice by the positions shown on
them, the Roll button, a box's points on the card."""


def move_taps_text(move: NextMove | None) -> str:
    """The step's move with this page's taps and clicks ("" when there is no move to make),
    in the current language (called under `in_language`)."""
    return lesson_move_text(move, TAPS)


def tutorial_texts(_: Callable[[str], str]) -> dict[str, str]:
    """The words of the tutorial pages, translated by `_`."""
    return {
        "learn": _("Learn by playing"),
        "learn_intro": _(
            "Short lessons with set dice teach the game step by step; the last one is a whole"
            " game against a beginner CPU with the coach on. Nothing here counts in your"
            " statistics."
        ),
        "play": _("Play"),
        "replay": _("Replay"),
        "skip": _("Skip"),
        "restart": _("Restart"),
        "lessons": _("All lessons"),
        "next_lesson": _("Next lesson"),
        "lesson_done": _("Lesson done!"),
        "rules_for": _("Rules for the lessons"),
        "choose": _("Choose"),
        "score_in": _("Score in"),
        "step_of": _("Step {number} of {count}"),
        "roll": _("Roll"),
        "your_card": _("Your card"),
        "die_label": _("Die {position}: {value}"),
        "held": _("held"),
    }


class Runs:
    """The lessons in play, by (browser session, lesson key); safe across threads."""

    def __init__(self) -> None:
        self._runs: OrderedDict[tuple[str, str], tuple[TutorialRun, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, session: str, key: str) -> tuple[TutorialRun, str] | None:
        with self._lock:
            found = self._runs.get((session, key))
            if found is not None:
                self._runs.move_to_end((session, key))
            return found

    def put(self, session: str, run: TutorialRun, preset: str) -> None:
        with self._lock:
            self._runs[(session, run.lesson.key)] = (run, preset)
            self._runs.move_to_end((session, run.lesson.key))
            while len(self._runs) > MAX_RUNS:
                self._runs.popitem(last=False)


def runs_of(request: Request) -> Runs:
    state = request.app.state
    runs = getattr(state, "tutorial_runs", None)
    if runs is None:
        runs = state.tutorial_runs = Runs()
    assert isinstance(runs, Runs)
    return runs


def owner_of(visitor: Visitor) -> str | None:
    """Whose tutorial progress the visitor sees and makes: their browser session's key (the
    SHA-256 of the cookie, never the cookie), or None without a session (nothing is saved)."""
    return session_key(visitor.session) if visitor.session else None


def _preset(name: str | None) -> tuple[str, RuleSet]:
    """A known preset and its rules (an unknown name falls back to classic)."""
    for preset in PRESETS:
        if preset.name == name:
            return preset.name, find_ruleset(preset.name)
    return "classic", find_ruleset("classic")


def _lesson_or_404(request: Request, visitor: Visitor, key: str) -> Lesson | Response:
    lesson = find_lesson(key)
    if lesson is None:
        t = gettext_for(visitor.language)
        message = t("There is no lesson {name!r}.").format(name=key[:40])
        return render(request, visitor, "message.html", 404, message=message)
    return lesson


@router.get("/tutorial", response_class=HTMLResponse)
def tutorial_page(request: Request, hub: Hub, visitor: Who, preset: str = "classic") -> Response:
    """The lessons with their state, and the rules the lessons follow."""
    chosen, _rules = _preset(preset)
    t = tutorial_texts(gettext_for(visitor.language))
    error = ""
    try:
        owner = owner_of(visitor)
        progress = hub.service.tutorial_progress(owner) if owner is not None else {}
    except FivediceError as problem:
        progress, error = {}, error_text(problem, gettext_for(visitor.language))
    gettext = gettext_for(visitor.language)
    lessons = []
    for number, lesson in enumerate(LESSONS, start=1):
        state = lesson_state(progress, lesson)
        lessons.append(
            {
                "number": number,
                "key": lesson.key,
                "title": gettext(lesson.title),
                "summary": gettext(lesson.summary),
                "state": state,
                "state_text": lesson_state_label(state, gettext),
            }
        )
    done_text = lessons_done_text(lessons_done(progress), len(LESSONS), ngettext_for(gettext))
    return render(
        request,
        visitor,
        "tutorial.html",
        tt=t,
        lessons=lessons,
        done_text=done_text,
        presets=preset_choices(visitor.language),
        preset=chosen,
        error=error,
    )


def _lesson_context(run: TutorialRun, t: dict[str, str]) -> dict[str, Any]:
    """What the lesson page shows, in the current language (called under `in_language`)."""
    from fivedice.core.categories import CATEGORIES, UPPER

    state = run.state
    seat = 0 if run.finished or run.lesson.guided else state.current_seat
    human_turn = not run.finished and not state.seats[state.current_seat].is_cpu
    # What the player may do is what the rules allow (`legal_actions`), nothing re-derived.
    legal = set(legal_actions(state)) if human_turn else set()
    dice = []
    for position in range(1, 6):
        value = state.dice[position - 1] if state.dice else 0
        held = bool(state.dice) and state.turn.held[position - 1]
        label = t["die_label"].format(position=position, value=value or "–")
        dice.append(
            {
                "position": position,
                "value": value,
                "held": held,
                "action": f"{'release' if held else 'hold'} {position}",
                "label": label + (f" ({t['held']})" if held else ""),
                "enabled": (Release if held else Hold)((position,)) in legal,
            }
        )
    from fivedice.wording.text import (
        par_label,
        total_label,
        upper_bonus_label,
        upper_total_label,
        yahtzee_bonus_label,
    )

    previews = {p.category: p for p in state.placements() if Score(p.category, p.column) in legal}
    column = state.cards[seat].columns[0]
    rules = state.rules
    rows: list[dict[str, Any]] = []
    for category in CATEGORIES:
        placement = previews.get(category)
        rows.append(
            {
                "name": box_name(category),
                "score": column.score(category),
                "preview": placement.points if placement else None,
                "action": f"score {category.key}" if placement else "",
                "upper_end": category is UPPER[-1],
            }
        )
        if category is UPPER[-1]:  # the upper sums under the upper boxes, as on every card
            rows += [
                {"sum": upper_total_label(), "value": str(column.upper_total)},
                {"sum": par_label(), "value": f"{column.upper_par:+d}"},
                {"sum": upper_bonus_label(), "value": str(column.upper_bonus(rules))},
            ]
    sums = [
        (yahtzee_bonus_label(), str(column.yahtzee_bonus_total(rules))),
        (total_label(), str(state.cards[seat].total(rules))),
    ]
    from fivedice.i18n import _

    return {
        "title": _(run.lesson.title),
        "say": instruction(run),
        "how": move_taps_text(next_move(run)),
        "feedback": list(run.feedback.lines) if run.feedback else [],
        "accepted": bool(run.feedback and run.feedback.applied),
        "finished": run.finished,
        "dice": dice,
        "can_roll": Roll() in legal,
        "rows": rows,
        "sums": sums,
        "others": [
            _("{name}: {total}").format(name=s.name, total=total)
            for s, total in zip(state.seats, state.totals, strict=True)
        ]
        if len(state.seats) > 1
        else [],
        "step": (
            t["step_of"].format(number=run.step_index + 1, count=len(run.lesson.steps))
            if not run.lesson.guided and not run.finished
            else ""
        ),
    }


@router.get("/tutorial/{key}", response_class=HTMLResponse)
def lesson_page(request: Request, key: str, hub: Hub, visitor: Who) -> Response:
    """The lesson the visitor is playing (a new one when there is none)."""
    lesson = _lesson_or_404(request, visitor, key)
    if not isinstance(lesson, Lesson):
        return lesson
    runs = runs_of(request)
    found = runs.get(visitor.session, lesson.key) if visitor.session else None
    if found is None:
        preset, rules = _preset(request.query_params.get("preset"))
        run = in_language(visitor.language, hub.service.tutorial_start, lesson.key, rules)
        if visitor.session:
            runs.put(visitor.session, run, preset)
    else:
        run, preset = found
    t = tutorial_texts(gettext_for(visitor.language))
    view = in_language(visitor.language, _lesson_context, run, t)
    view["coach"] = in_language(visitor.language, hub.service.tutorial_coach_line, run)
    index = LESSONS.index(lesson)
    following = LESSONS[index + 1].key if index + 1 < len(LESSONS) else None
    return render(
        request,
        visitor,
        "tutorial_lesson.html",
        tt=t,
        key=lesson.key,
        lesson=view,
        preset=preset,
        following=following,
    )


def _back(key: str) -> RedirectResponse:
    return RedirectResponse(f"/tutorial/{key}", status_code=303)


@router.post("/tutorial/{key}/act")
def lesson_act(
    request: Request, key: str, hub: Hub, visitor: Who, action: str = Form("", max_length=60)
) -> Response:
    """Sends one action of the lesson; the page then shows what happened."""
    lesson = _lesson_or_404(request, visitor, key)
    if not isinstance(lesson, Lesson):
        return lesson
    runs = runs_of(request)
    found = runs.get(visitor.session, lesson.key) if visitor.session else None
    if found is None or visitor.session is None:
        return _back(lesson.key)  # the lesson was forgotten (server restart): start it again
    run, preset = found
    try:
        after = in_language(
            visitor.language, hub.service.tutorial_act, run, action, owner_of(visitor)
        )
    except FivediceError as problem:
        from fivedice.service.tutorial.engine import Feedback

        said = error_text(problem, gettext_for(visitor.language))
        after = TutorialRun(
            run.lesson, run.state, run.step_index, run.seed, run.version, Feedback(False, (said,))
        )
    runs.put(visitor.session, after, preset)
    return _back(lesson.key)


@router.post("/tutorial/{key}/restart")
def lesson_restart(
    request: Request, key: str, hub: Hub, visitor: Who, preset: str = Form("classic")
) -> Response:
    """Starts the lesson again from its first step (replay)."""
    lesson = _lesson_or_404(request, visitor, key)
    if not isinstance(lesson, Lesson):
        return lesson
    chosen, rules = _preset(preset)
    if visitor.session:
        run = in_language(visitor.language, hub.service.tutorial_start, lesson.key, rules)
        runs_of(request).put(visitor.session, run, chosen)
    return _back(lesson.key)


@router.post("/tutorial/{key}/skip")
def lesson_skip(request: Request, key: str, hub: Hub, visitor: Who) -> Response:
    """Marks the lesson skipped and goes back to the list."""
    lesson = _lesson_or_404(request, visitor, key)
    if not isinstance(lesson, Lesson):
        return lesson
    owner = owner_of(visitor)
    try:
        if owner is not None:  # without a session there is no progress to keep
            hub.service.tutorial_skip(lesson.key, owner)
    except FivediceError as problem:
        message = error_text(problem, gettext_for(visitor.language))
        return render(request, visitor, "message.html", 503, message=message)
    return RedirectResponse("/tutorial", status_code=303)
