"""The browser pages: new game, the game, rules, statistics, high scores, resume.

Pages are rendered on the server from the same data as the API. A visitor acts only in
games whose seats their browser session holds (kept on the server under the `fd_session`
cookie, see guard.py; a seat is added when they start a game or join a room, rooms.py).
Forms work without JavaScript (post, then redirect); `app.js` sends the same forms with
`fetch` and swaps in the re-rendered board, and listens to the game's event stream (api.py)
to fetch the board again whenever another seat or a CPU (played by the server, driver.py)
moved. Every form carries ``{{ csrf_field() }}``; `PageGuard` refuses a post without it.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Collection
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from fivedice.core.actions import parse_action
from fivedice.core.boxes import KNOWN_BOXES
from fivedice.core.categories import UPPER
from fivedice.core.errors import N_, FivediceError
from fivedice.core.fairdice import Commitment, CommitmentHandleError, commitment_of
from fivedice.core.game import FirstPlayer, GameState
from fivedice.core.names import MAX_NAME_LENGTH
from fivedice.core.record import UNDO
from fivedice.core.rules import OPTION_NAMES, PRESETS, Family, RuleSet, find_ruleset, preset_name
from fivedice.i18n import LANGUAGES, formats
from fivedice.service.coach import (
    GOAL_TABLES_PREPARING,
    build_progress,
    chances_offered,
    goal_offered,
)
from fivedice.service.creation import PlayerSpec
from fivedice.service.errors import SolveNotAllowedError, SolverBusyError, TablesPreparingError
from fivedice.service.games import GameView, HintsUnavailableError, game_win_chances, goal_total
from fivedice.service.review import review_offered
from fivedice.service.rights import HAND_OVER_LEVELS, Right, SeatRightError
from fivedice.service.rooms import RoomSeatSpec
from fivedice.service.settings import DEFAULT_LEVEL, LEVELS, zero_score_to_confirm
from fivedice.store import FINISHED, IN_PROGRESS, CommitmentUsedError, GameClosedError, StoreError
from fivedice.store.browser_seats import session_key
from fivedice.store.rooms import REMOTE_KINDS
from fivedice.web.deps import Hub, game_of
from fivedice.web.guard import LANG_COOKIE, csrf_field_html, rotate_session, session_of
from fivedice.web.hub import (
    MAX_SEED,
    GameHub,
    SeatError,
    error_status,
    hint_data,
)
from fivedice.web.moves import moves_since, recent_moves
from fivedice.web.rates import client_of
from fivedice.web.skill_view import skill_heading, skill_section
from fivedice.web.wording import gettext_for, in_language, pick_language, texts
from fivedice.wording.game import instant_win_line
from fivedice.wording.goal import goal_value_text
from fivedice.wording.progress import build_progress_text
from fivedice.wording.reasons import (
    REASONS_PREPARED,
    difference_lines,
    has_no_breakdown,
    why_lines,
)
from fivedice.wording.shares import whole_percents
from fivedice.wording.text import (
    box_name,
    cpu_name,
    describe_rules,
    error_text,
    first_player_name,
    move_sentence,
    player_name,
    preset_title,
)
from fivedice.wording.wild import die_text, wild_die_words

LEGACY_SEATS_COOKIE = "fd_seats"  # seat tokens in a cookie, before sessions: read once
COACH_COOKIE = "fd_coach"
GOAL_COOKIE = "fd_goal"  # "<public id> <goal>": the coach's goal for one game of this browser
MAX_GOAL = 80  # characters of a goal ("beat" and a player's name at most)
CHANCES_COOKIE = "fd_chances"  # "0": the winning-chances bar is switched off
MAX_LEGACY_SEATS = 8  # seats a game may have (the API's limit), for reading old cookies
FORM_SEATS = 4
FRAGMENT_HEADER = "x-fivedice-fragment"
YEAR = 365 * 24 * 3600

templates = Jinja2Templates(directory=str(Path(__file__).parent.parent / "templates"))
router = APIRouter(include_in_schema=False)


@pass_context
def csrf_field(context: Context) -> Markup:
    """``{{ csrf_field() }}``: the hidden CSRF field every form that posts must carry."""
    return csrf_field_html(context["request"].scope)


@pass_context
def csrf_token(context: Context) -> str:
    """``{{ csrf_token() }}``: the token itself (base.html gives it to app.js in a meta tag)."""
    return str((context["request"].scope.get("state") or {}).get("csrf", ""))


templates.env.globals["csrf_field"] = csrf_field
templates.env.globals["csrf_token"] = csrf_token


@pass_context
def _number_filter(context: Context, value: float, digits: int = 0) -> str:
    return formats.number(value, digits, context.get("lang"))


@pass_context
def _percent_filter(context: Context, rate: float) -> str:
    return formats.percent(rate, context.get("lang"))


@pass_context
def _day_filter(context: Context, value: str) -> str:
    return formats.day(value, context.get("lang")) if value else ""


# Figures and dates as the visitor's language writes them: `{{ r.average|number(1) }}`.
@pass_context
def _chance_filter(context: Context, chance: float) -> str:
    return goal_value_text(chance, context.get("lang"))


templates.env.filters.update(
    number=_number_filter, percent=_percent_filter, day=_day_filter, chance=_chance_filter
)


@dataclass(frozen=True)
class Visitor:
    """Who is asking: their language, coach preference and browser session (or None), and
    whether they want the winning-chances bar."""

    language: str
    session: str | None
    coach: bool
    chances: bool = True
    goal: str = ""
    """`GOAL_COOKIE`'s value: the game it is for, a space, the goal ("" for none)."""

    def goal_for(self, public_id: str) -> str | None:
        """The goal this browser set for the game, or None."""
        game, _sep, goal = self.goal.partition(" ")
        return goal or None if game == public_id else None


def visitor_of(request: Request, hub: Hub) -> Visitor:
    language = pick_language(
        request.cookies.get(LANG_COOKIE), request.headers.get("accept-language")
    )
    visitor = Visitor(
        language,
        session_of(request.scope),
        request.cookies.get(COACH_COOKIE) == "1",
        request.cookies.get(CHANCES_COOKIE) != "0",
        (request.cookies.get(GOAL_COOKIE) or "")[: 2 * MAX_GOAL],
    )
    legacy = request.cookies.get(LEGACY_SEATS_COOKIE)
    if legacy and visitor.session and request.method in ("GET", "HEAD"):
        if _import_legacy_seats(hub, visitor.session, legacy):
            rotate_session(request.scope)  # seats were granted: not to an id someone planted
        request.state.drop_legacy_seats = True  # PageGuard deletes the old cookie
    return visitor


def _import_legacy_seats(hub: GameHub, session: str, cookie: str) -> bool:
    """Moves the seats of an old `fd_seats` cookie (public id:token|...) into the session;
    whether any was."""
    found = []
    for entry in cookie.split("|")[:200]:
        public_id, _sep, token = entry.partition(":")
        game_id = hub.signer.game_id(public_id)
        if game_id is None:
            continue
        with contextlib.suppress(FivediceError):  # (a seat handed on since: refused)
            seat = hub.signer.seat_of(game_id, token, MAX_LEGACY_SEATS, hub.generations(game_id))
            if seat is not None:
                found.append((game_id, seat))
    if not found:
        return False
    with contextlib.suppress(FivediceError):  # database busy: the page still shows
        hub.browser_seats.add(session, found)
        return True
    return False


Who = Annotated[Visitor, Depends(visitor_of)]


def remember_seats(hub: GameHub, visitor: Visitor, game_id: int, seats: list[int]) -> None:
    """Adds seats to the visitor's session; the seats it held already stay."""
    if visitor.session is None:  # PageGuard makes a session before any form is shown
        raise SeatError(N_("your browser has no session here; reload the page"), 403)
    hub.browser_seats.add(visitor.session, [(game_id, seat) for seat in seats])


def render(
    request: Request, visitor: Visitor, name: str, status: int = 200, **context: Any
) -> HTMLResponse:
    """A page in the visitor's language."""
    gettext = gettext_for(visitor.language)
    context.update(
        t=texts(gettext),
        lang=visitor.language,
        languages=LANGUAGES,
        cpu_delay=getattr(request.app.state, "cpu_delay_ms", 700),
        here=quote(request.url.path + (f"?{request.url.query}" if request.url.query else "")),
        max_name_length=MAX_NAME_LENGTH,
        default_level=DEFAULT_LEVEL.value,
    )
    return templates.TemplateResponse(request, name, context, status_code=status)


def box_names(language: str) -> dict[str, str]:
    return in_language(language, lambda: {key: box_name(c) for key, c in KNOWN_BOXES.items()})


# -- the game ----------------------------------------------------------------------------


def my_seats(hub: GameHub, view: GameView, visitor: Visitor) -> dict[int, str]:
    """Seat -> token, for the seats of this game the visitor holds."""
    if visitor.session is None:
        return {}
    return {
        seat: hub.seat_token(view.game_id, seat)
        for seat in hub.browser_seats.seats_in(visitor.session, view.game_id)
        if seat < len(view.state.seats)
    }


def acting_token(hub: GameHub, view: GameView, visitor: Visitor) -> str | None:
    """The seat token a form of the visitor acts with: the seat to move if the visitor holds
    it, else any of theirs (the service says why that seat may not act), else None."""
    mine = my_seats(hub, view, visitor)
    token = mine.get(view.state.current_seat) if not view.is_over else None
    return token or next(iter(mine.values()), None)


def board_context(
    hub: GameHub,
    view: GameView,
    visitor: Visitor,
    *,
    show_hint: bool = False,
    error: str | None = None,
    last_cpu: str | None = None,
    cpu_failed: bool = False,
    seen: int | None = None,
    confirm_zero: str | None = None,
) -> dict[str, Any]:
    """Everything game.html and board.html need, computed on the server.

    `cpu_failed`: the last CPU step was refused for a reason other than a stale version;
    the page then stops stepping the CPU by itself (a button still offers a retry).
    `seen`: the version the page showed before; the moves since then are announced.
    `confirm_zero`: a score action that would put 0 in a box, to be confirmed first.
    """
    gettext = gettext_for(visitor.language)
    t = texts(gettext)
    data = hub.data(view)
    state = view.state
    mine = my_seats(hub, view, visitor)
    over = view.is_over
    mover = None if over else state.current_seat
    can_act = mover is not None and mover in mine and not view.is_cpu_turn
    # CPU seats are played by the server (driver.py); pages only watch them move.
    can_step_cpu = view.is_cpu_turn
    names = box_names(visitor.language)
    multipliers = state.rules.column_multipliers
    several = state.rules.columns > 1
    legal = {(p["column"], p["box"]): p for p in data["placements"]}
    zero_box = None  # the box of `confirm_zero`, when it is this visitor's to score
    rows = []
    for category in state.cards[0].columns[0].boxes:
        cells = []
        for player in data["players"]:
            for column in player["card"]["columns"]:
                score = column["boxes"][category.key]
                cell: dict[str, Any] = {"score": score, "state": "filled"}
                if score is None:
                    placement = legal.get((column["column"], category.key))
                    if player["seat"] != mover or state.dice is None:
                        cell["state"] = "open"
                    elif placement is None:
                        cell["state"] = "unavailable"
                    else:
                        multiplier = multipliers[column["column"] - 1]
                        cell.update(
                            state="legal",
                            points=placement["points"],
                            multiplier=multiplier,
                            worth=placement["points"] * multiplier,
                            column=column["column"],
                            action=(
                                f"score {column['column']}:{category.key}"
                                if several
                                else f"score {category.key}"
                            ),
                            mine=can_act,
                        )
                        cell["label"] = _cell_label(t, names[category.key], cell, several)
                        if can_act and confirm_zero and cell["action"] == confirm_zero.strip():
                            zero_box = names[category.key]
                cells.append(cell)
        rows.append({"key": category.key, "name": names[category.key], "cells": cells})
    hint: list[dict[str, Any]] | None = None
    hint_error = None
    hint_waiting: str | None = None  # a table being built: how far; the page asks again
    hint_why: list[str] = []
    hint_more: list[str] = []
    goal = visitor.goal_for(hub.public_id(view.game_id))
    if can_act and state.dice is not None and (show_hint or visitor.coach):
        try:
            _view, hints = hub.hints(view.game_id, mine[mover], goal)  # type: ignore[index]
            hint = [hint_data(option) for option in hints[:5]]
            # The reasons: one line (the best against the next) and its chances; the
            # differences box by box on request (a <details>). None for a goal's chances.
            if goal is not None and hints and hints[0].goal is None:
                # The goal's table is being built: the normal advice meanwhile.
                hint_waiting = _waiting_text(visitor, state.rules, GOAL_TABLES_PREPARING, True)
            if not hints or hints[0].goal is None:
                hint_why = in_language(visitor.language, why_lines, state.rules, hints)
                if hints and hints[0].parts is None and not has_no_breakdown(state.rules):
                    hint_why = []  # the breakdown is being prepared
                    hint_waiting = hint_waiting or _waiting_text(
                        visitor, state.rules, REASONS_PREPARED, False
                    )
                if len(hints) > 1:
                    hint_more = in_language(
                        visitor.language, difference_lines, state.rules, hints[0], hints[1], True
                    )
            for option in hint:
                if option["kind"] == "score" and option["column"] and state.rules.columns > 1:
                    option["text"] = t["score_box_in_column"].format(
                        box=names[option["box"]], column=option["column"]
                    )
                elif option["kind"] == "score":
                    option["text"] = t["score_box"].format(box=names[option["box"]])
                elif option["keep"]:
                    kept = " ".join(map(die_text, option["keep"]))  # the wild die in braces
                    option["text"] = t["keep_dice"].format(dice=kept)
                else:
                    option["text"] = t["reroll_all"]
        except (HintsUnavailableError, SeatError, SolverBusyError, SolveNotAllowedError) as problem:
            hint_error = error_text(problem, gettext)
            if isinstance(problem, SolverBusyError | TablesPreparingError):
                hint_waiting = _waiting_text(visitor, state.rules, None, goal is not None)
    dice = []
    for index in range(state.rules.dice):
        value = state.dice[index] if state.dice is not None and not over else None
        held = state.turn.held[index]
        position = index + 1
        wild = state.rules.wild_die and position == state.rules.dice
        said = (
            value
            if value is None or not wild
            else in_language(visitor.language, wild_die_words, value)
        )
        if value is None:
            label = t["die_unrolled"].format(position=position)
        elif held:
            label = t["die_held"].format(position=position, value=said)
        else:
            label = t["die_label"].format(position=position, value=said)
        toggle = f"release {position}" if held else f"hold {position}"
        dice.append(
            {
                "position": position,
                "value": value,
                "held": held,
                "wild": wild,
                "label": label,
                "action": toggle,
                "enabled": can_act and value is not None and toggle in data["legal_actions"],
            }
        )
    standings = sorted(data["players"], key=lambda p: (p["rank"], p["seat"]))
    mover_name = state.seats[mover].name if mover is not None else ""
    me = seat_of_visitor(state, mine)
    your_turn = can_act and mover == me
    heading = t["your_turn"] if your_turn else t["whose_turn"].format(name=mover_name)
    if over:
        heading, banner_rest = end_banner(t, standings, me, aborted=view.status == "abandoned")
        won = in_language(visitor.language, instant_win_line, state)
        if won:  # a served Generala: why the winner may have fewer points
            banner_rest = f"{won} · {banner_rest}" if banner_rest else won
    else:
        banner_rest = ""
    log = recent_moves(hub.service, view.game_id, view.version, visitor.language)
    if last_cpu is None:
        last_cpu = last_cpu_move(hub, view, visitor.language)
    moves = []
    if seen is not None:
        moves = in_language(
            visitor.language, moves_since, hub.service, view.game_id, seen, view.version
        )
    told = [*moves] if moves else ([last_cpu] if last_cpu else [])
    if error:
        told.append(t["error"].format(message=error))
    if over or mover is not None:
        told.append(heading)
    if banner_rest:  # (the standings after the winner)
        told.append(banner_rest)
    announce = " ".join(sentence.rstrip(".") + "." for sentence in told)
    zero: dict[str, str] | None = None
    if zero_box is not None and confirm_zero:
        zero = {"action": confirm_zero.strip(), "question": t["confirm_zero"].format(box=zero_box)}
        announce = zero["question"]
    return {
        "game": data,
        "pid": data["id"],
        "heading": heading,
        "banner_rest": banner_rest,
        "your_turn": your_turn,
        "me": me,
        # The tab says when this device has a move to make (a hot-seat device: always).
        "page_title": (
            t["tab_your_move"].format(heading=heading)
            if can_act
            else "fivedice — " + ", ".join(seat.name for seat in state.seats)
        ),
        "focus_box": _box_to_focus(state, rows, hint, can_act),
        "can_undo": bool(mine) and not view.is_over and _undo_offered(hub, view, mine),
        "log": log,
        "rows": rows,
        "upper_count": len(UPPER),
        "turns": len(state.rules.boxes) * state.rules.columns,
        # The extra-Yahtzee row: always on the Yahtzee card, elsewhere only when it is paid.
        "show_yahtzee_bonus": state.rules.yahtzee_bonus or state.rules.family is Family.YAHTZEE,
        "dice": dice,
        "can_act": can_act,
        "can_roll": can_act and "roll" in data["legal_actions"],
        "can_step_cpu": can_step_cpu,
        "auto_cpu": can_step_cpu and not cpu_failed,
        "mover": mover,
        "mover_name": mover_name,
        "mine": sorted(mine),
        "tokens": mine,
        "watching": not mine,
        "over": over,
        "hint": hint,
        "hint_error": hint_error,
        "hint_waiting": hint_waiting,
        "retry_seconds": RETRY_SECONDS,
        "goal": goal,
        "goal_offered": goal_offered(state.rules),
        "review_offered": review_offered(state.rules),
        "goal_heading": (
            t["goal_heading"].format(total=hint[0]["goal"]) if hint and hint[0]["goal"] else None
        ),
        "hint_why": hint_why,
        "hint_more": hint_more,
        "coach": visitor.coach,
        "error": error,
        "announce": announce,
        "moves": moves[-4:],
        "zero": zero,
        "last_cpu": last_cpu,
        "standings": standings,
        "multi_column": several,
        "level_names": {level: t[level] for level in LEVELS},
        **chances_context(view, visitor),
    }


def seat_of_visitor(state: GameState, mine: dict[int, str]) -> int | None:
    """The seat this device plays as "you": its one human seat. None for a spectator, and
    for a device that several people share (two human seats: the board names each one)."""
    humans = [seat for seat in mine if not state.seats[seat].is_cpu]
    return humans[0] if len(humans) == 1 else None


def end_banner(
    t: dict[str, str], standings: list[dict[str, Any]], me: int | None, *, aborted: bool
) -> tuple[str, str]:
    """The heading of a game that is over, and the standings after it: ("Ann wins with 243",
    "Bob 198 · CPU 3 150"); a tie names every winner; a solo game says the score. Totals are
    the match's (one game: the game's)."""
    if aborted:
        return t["game_abandoned"], ""
    first = standings[0]
    points = first["match_total"]
    if len(standings) == 1:
        return t["solo_over"].format(name=first["name"], points=points), ""
    winners = [p for p in standings if p["rank"] == 1]
    rest = " · ".join(f"{p['name']} {p['match_total']}" for p in standings if p["rank"] != 1)
    if len(winners) > 1:
        names = ", ".join(p["name"] for p in winners)
        return t["tie_win"].format(names=names, points=points), rest
    if first["seat"] == me:
        return t["you_win"].format(points=points), rest
    return t["wins_with"].format(name=first["name"], points=points), rest


def _box_to_focus(
    state: GameState, rows: list[dict[str, Any]], hint: list[dict[str, Any]] | None, mine: bool
) -> str | None:
    """The score action whose box takes the focus after the last roll of a turn: the
    coach's best when it is a score, else the first open box of the card (no more rolls,
    so a box is the only thing left to choose)."""
    if not mine or state.dice is None or state.rolls_left > 0:
        return None
    legal = [cell["action"] for row in rows for cell in row["cells"] if cell["state"] == "legal"]
    if hint and hint[0]["kind"] == "score":
        best = hint[0]
        column = f"{best['column']}:" if best["column"] and state.rules.columns > 1 else ""
        action = f"score {column}{best['box']}"
        if action in legal:
            return action
    return legal[0] if legal else None


def _undo_offered(hub: GameHub, view: GameView, mine: Collection[int]) -> bool:
    """Whether the board offers Undo: in solo and practice games when `undo_refusal` allows
    the visitor (holding the seats `mine`) to take back the last action now (the terminal
    app's policy; the log is read only for such games)."""
    if len(view.state.seats) > 1 and not view.practice:
        return False
    try:
        return hub.service.can_undo(view.game_id, by_seats=set(mine)) is None
    except (FivediceError, StoreError):
        return False


def chances_context(view: GameView, visitor: Visitor) -> dict[str, Any]:
    """The winning-chances bar (`_chances.html`): each seat's chance, or none to show."""
    state = view.state
    # A rule set seen for the first time has its tables prepared in the background: the bar
    # appears on a later page.
    chances = game_win_chances(state, wait=False) if visitor.chances else None
    bar = []
    start = 0.0
    percents = whole_percents(chances or ())  # (33 + 33 + 33 would show 99 %)
    for seat, chance in enumerate(chances or ()):
        bar.append(
            {
                "seat": seat,
                "name": state.seats[seat].name,
                "percent": percents[seat],
                "x": round(100 * start, 3),
                "width": round(100 * chance, 3),
            }
        )
        start += chance
    return {
        "chances_shown": chances_offered(state),
        "chances_on": visitor.chances,
        "chances": bar,
        "chances_estimate": chances is not None and state.rules.columns > 1,
    }


def _cell_label(t: dict[str, str], box: str, cell: dict[str, Any], several: bool) -> str:
    """A score button's accessible name: the box, the points, and on a several-column card
    the column, its multiplier and what the box is worth there."""
    if not several:
        return t["score_for"].format(box=box, points=cell["points"])
    return t["score_for_column"].format(
        box=box,
        points=cell["points"],
        column=cell["column"],
        multiplier=cell["multiplier"],
        worth=cell["worth"],
    )


def last_cpu_move(hub: GameHub, view: GameView, language: str) -> str | None:
    """The game's last move if a CPU made it, in words as every front end says it ("CPU 2
    rolls 3 3 5 6 6", "CPU 2 scores 25 in Full house"); None for any other last action.

    Replays the saved log (a few hundred actions at most); a log that cannot be read gives
    None: the page still shows the game, just without this sentence.
    """
    if view.version == 0 or not any(seat.is_cpu for seat in view.state.seats):
        return None  # (no CPU: no need to read the log)
    try:
        record = hub.service.record(view.game_id)
        steps = list(itertools.islice(reversed(list(record.states())), 2))
    except (FivediceError, StoreError):
        return None
    if len(steps) < 2:
        return None
    (entry, after), (_previous, before) = steps
    if entry is None or entry.action == UNDO or not before.seats[entry.seat].is_cpu:
        return None
    try:
        action = parse_action(entry.action, None)
    except FivediceError:
        return None
    name = before.seats[entry.seat].name
    return in_language(language, move_sentence, name, action, before, after)


def preset_choices(language: str) -> list[tuple[str, str]]:
    """Each rule preset as (key, the name players see in `language`): forms send the key."""
    return in_language(language, lambda: [(p.name, preset_title(p.name)) for p in PRESETS])


@router.get("/g/{public_id}", response_class=HTMLResponse)
def game_page(
    request: Request,
    public_id: str,
    hub: Hub,
    visitor: Who,
    hint: int = 0,
    seen: int | None = None,
) -> Response:
    """The game: dice, score card, and what the visitor may do now (`seen`: the version the
    page showed before, so that the moves since are announced)."""
    view = game_of(public_id, hub)
    if view.state.settings.is_table:  # real dice: the score keeper's page (web/table.py)
        return RedirectResponse(f"/t/{public_id}", status_code=303)
    context = board_context(hub, view, visitor, show_hint=bool(hint), seen=seen)
    if request.headers.get(FRAGMENT_HEADER):
        return render(request, visitor, "board.html", **context)
    return render(request, visitor, "game.html", **host_context(hub, view, visitor), **context)


RETRY_SECONDS = 5
"""How soon a page whose coach waits for a table asks again by itself (`data-retry`)."""


def _waiting_text(visitor: Visitor, rules: RuleSet, fallback: str | None, goal: bool) -> str:
    """What a coach panel says while a table it needs is built: how far the build is and
    the time left (`build_progress_text`), else `fallback`; the page asks again by itself."""
    progress = build_progress(rules, goal=goal)
    if progress is not None:
        return in_language(visitor.language, build_progress_text, progress)
    return gettext_for(visitor.language)(fallback) if fallback else ""


def host_context(hub: GameHub, view: GameView, visitor: Visitor) -> dict[str, Any]:
    """What a room's game shows under the board: the host's seats to hand to a CPU (those
    `seat_refusal` allows now), or a friend's "leave" and their devices."""
    none: dict[str, Any] = {"handover": [], "leave": None, "hand_over_levels": HAND_OVER_LEVELS}
    if visitor.session is None or view.is_over:
        return none
    room = hub.rooms.of_game(view.game_id)
    if room is None:
        return none
    held = hub.browser_seats.seats_in(visitor.session, view.game_id)
    is_host = room.host_key == session_key(visitor.session)
    context = {**none, "room_code": room.code}
    if is_host:
        context["handover"] = [
            {"seat": s.game_seat, "name": s.name}
            for s in room.seats
            if s.kind in REMOTE_KINDS
            and s.game_seat is not None
            and not view.state.seats[s.game_seat].is_cpu
        ]
        return context
    mine = [s for s in room.seats if s.game_seat is not None and s.game_seat in held]
    if mine:
        context["leave"] = {"seat": mine[0].game_seat, "name": mine[0].name}
        context["devices"] = device_list(hub, room, mine[0].seat, visitor)
    return context


def device_list(hub: GameHub, room: Any, seat: int, visitor: Visitor) -> list[dict[str, Any]]:
    """The devices that hold a room seat, for its holder's page (this one marked)."""
    here = session_key(visitor.session) if visitor.session else ""
    return [
        {
            "number": number,
            "this": key == here,
            "since": formats.moment(since, visitor.language) if since is not None else "",
        }
        for number, (key, since) in enumerate(hub.rooms.devices(room, seat), start=1)
    ]


def _after_post(
    request: Request,
    hub: GameHub,
    visitor: Visitor,
    public_id: str,
    view: GameView | None,
    *,
    error: str | None = None,
    status: int = 200,
    last_cpu: str | None = None,
    cpu_failed: bool = False,
    seen: int | None = None,
    confirm_zero: str | None = None,
) -> Response:
    if request.headers.get(FRAGMENT_HEADER):
        if view is None:
            view = game_of(public_id, hub)
        context = board_context(
            hub, view, visitor, error=error, last_cpu=last_cpu, cpu_failed=cpu_failed,
            seen=seen, confirm_zero=confirm_zero,
        )  # fmt: skip
        return render(request, visitor, "board.html", status=status, **context)
    if error is None and confirm_zero is None:
        where = f"?seen={seen}" if seen is not None else ""
        return RedirectResponse(f"/g/{public_id}{where}", status_code=303)
    view = view or game_of(public_id, hub)
    context = board_context(
        hub, view, visitor, error=error, cpu_failed=cpu_failed, confirm_zero=confirm_zero
    )
    return render(request, visitor, "game.html", status=status, handover=[], leave=None, **context)


def said(problem: BaseException, visitor: Visitor) -> str:
    """A refusal's message in the visitor's language."""
    return error_text(problem, gettext_for(visitor.language))


@router.post("/g/{public_id}/act")
def act(
    request: Request,
    public_id: str,
    hub: Hub,
    visitor: Who,
    action: Annotated[str, Form(max_length=60)],
    version: Annotated[int, Form(ge=0)],
    confirm_zero: Annotated[str, Form(max_length=1)] = "",
) -> Response:
    """A seat's action from a form (the visitor's seat cookie is the token).

    A score that would put 0 in a box is not applied at once: the board asks first, as the
    terminal app does, and its "Yes" button sends the action again with `confirm_zero=1`.
    """
    view = game_of(public_id, hub)
    token = acting_token(hub, view, visitor)
    if confirm_zero != "1" and token is not None and _scores_zero(view, action, version):
        return _after_post(request, hub, visitor, public_id, view, confirm_zero=action.strip())
    try:
        after = hub.act(view.game_id, token, action, version)
    except FivediceError as problem:
        return _refused(request, hub, visitor, public_id, problem)
    return _after_post(request, hub, visitor, public_id, after, seen=version)


@router.post("/g/{public_id}/undo")
def undo(
    request: Request,
    public_id: str,
    hub: Hub,
    visitor: Who,
    version: Annotated[int, Form(ge=0)],
) -> Response:
    """Takes back the visitor's last action in a solo or practice game, as the terminal
    app's undo: `undo_refusal` decides (only an action of a seat this browser holds), and a
    refusal is shown with its reason."""
    view = game_of(public_id, hub)
    try:
        after = hub.undo(view.game_id, list(my_seats(hub, view, visitor).values()), version)
    except FivediceError as problem:
        return _refused(request, hub, visitor, public_id, problem)
    return _after_post(request, hub, visitor, public_id, after, seen=version)


def _scores_zero(view: GameView, action: str, version: int) -> bool:
    """Whether `action` is a legal score of 0 in the game as shown (`version`)."""
    if view.is_over or view.version != version:
        return False  # the service refuses it with the reason
    return zero_score_to_confirm(view.state, action) is not None


def _refused(
    request: Request,
    hub: GameHub,
    visitor: Visitor,
    public_id: str,
    problem: FivediceError,
    *,
    cpu_failed: bool = False,
) -> Response:
    """The board again with the reason a form's action was refused (nothing changed).

    Most often a 409 means a second window acted first (a stale version).
    """
    # A page has no bearer token to ask for: holding no seat is 403, not 401.
    status = 403 if isinstance(problem, SeatError) else error_status(problem)
    error = said(problem, visitor)
    headers = {"Retry-After": "5"} if status == 503 else {}
    try:
        response = _after_post(
            request, hub, visitor, public_id, None, error=error, status=status,
            cpu_failed=cpu_failed,
        )  # fmt: skip
    except FivediceError:  # the game cannot even be read now (database down): say why
        response = render(request, visitor, "message.html", status=status, message=error)
    response.headers.update(headers)
    return response


def _preference_changed(
    request: Request, public_id: str, hub: GameHub, changed: Visitor, cookie: str, on: bool
) -> Response:
    """The board as the `changed` visitor sees it (or back to the game page without
    scripts), keeping the preference `on` or off in this browser's `cookie`."""
    if request.headers.get(FRAGMENT_HEADER):
        view = game_of(public_id, hub)
        response: Response = render(
            request, changed, "board.html", **board_context(hub, view, changed)
        )
    else:
        response = RedirectResponse(f"/g/{public_id}", status_code=303)
    response.set_cookie(cookie, "1" if on else "0", max_age=YEAR, samesite="lax")
    return response


@router.post("/g/{public_id}/coach")
def toggle_coach(request: Request, public_id: str, hub: Hub, visitor: Who) -> Response:
    """Coach mode on or off (a preference of this browser): shows the best options each time."""
    changed = replace(visitor, coach=not visitor.coach)
    return _preference_changed(request, public_id, hub, changed, COACH_COOKIE, changed.coach)


@router.post("/g/{public_id}/goal")
def set_goal(
    request: Request,
    public_id: str,
    hub: Hub,
    visitor: Who,
    goal: Annotated[str, Form(max_length=MAX_GOAL)] = "",
) -> Response:
    """The coach's goal for this game ("300", "beat 245", "beat Ann"; empty: none), kept in
    this browser: the hints then rank the options by their chance of reaching it. A goal that
    is not one is refused, with the board as it was."""
    view = game_of(public_id, hub)
    goal = " ".join(goal.split())
    if goal:
        try:
            goal_total(view.state, goal)
        except FivediceError as problem:
            message = error_text(problem, gettext_for(visitor.language))
            if request.headers.get(FRAGMENT_HEADER):
                return render(
                    request, visitor, "board.html", status=422,
                    **board_context(hub, view, visitor, error=message),
                )  # fmt: skip
            return render(request, visitor, "message.html", status=422, message=message)
    changed = replace(visitor, goal=f"{public_id} {goal}" if goal else "")
    if request.headers.get(FRAGMENT_HEADER):
        response: Response = render(
            request, changed, "board.html", **board_context(hub, view, changed, show_hint=True)
        )
    else:
        response = RedirectResponse(f"/g/{public_id}?hint=1", status_code=303)
    if goal:
        response.set_cookie(GOAL_COOKIE, changed.goal, max_age=YEAR, samesite="lax")
    else:
        response.delete_cookie(GOAL_COOKIE)
    return response


@router.post("/g/{public_id}/chances")
def toggle_chances(request: Request, public_id: str, hub: Hub, visitor: Who) -> Response:
    """The winning-chances bar on or off (a preference of this browser; on by default)."""
    changed = replace(visitor, chances=not visitor.chances)
    return _preference_changed(request, public_id, hub, changed, CHANCES_COOKIE, changed.chances)


@router.get("/g/{public_id}/join", response_class=HTMLResponse)
def join_question(
    request: Request,
    public_id: str,
    hub: Hub,
    visitor: Who,
    seat: int,
    token: Annotated[str, Query(max_length=128)],
) -> Response:
    """A seat token link (as API clients hand out): whose seat it is, and a button that
    joins. The link itself changes nothing, so another site linking here (or loading it in
    an image) cannot add a seat to a visitor's list."""
    view = game_of(public_id, hub)
    if hub.seat_of(view, token) != seat:
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    return render(
        request, visitor, "join_seat.html", public_id=public_id, seat=seat, token=token,
        seat_name=view.state.seats[seat].name,
    )  # fmt: skip


@router.post("/g/{public_id}/join")
def join(
    request: Request,
    public_id: str,
    hub: Hub,
    visitor: Who,
    seat: Annotated[int, Form(ge=0)],
    token: Annotated[str, Form(max_length=128)],
) -> Response:
    """The join page's button: checks the seat token, adds the seat to this browser's
    session and gives the browser a new session id (a seat was granted)."""
    view = game_of(public_id, hub)
    if hub.seat_of(view, token) != seat:
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    remember_seats(hub, visitor, view.game_id, [seat])
    rotate_session(request.scope)
    return RedirectResponse(f"/g/{public_id}", status_code=303)


def _abandon_refusal(hub: GameHub, view: GameView, visitor: Visitor) -> FivediceError | None:
    """Why the visitor may not abandon this game (`Right.ABANDON`): in a game others play,
    only the room's host abandons; the others leave."""
    held = hub.browser_seats.seats_in(visitor.session, view.game_id) if visitor.session else []
    room = hub.rooms.of_game(view.game_id)
    is_host = (
        room is not None
        and visitor.session is not None
        and room.host_key == session_key(visitor.session)
    )
    return hub.abandon_refusal(view, held=held, is_host=is_host)


@router.get("/g/{public_id}/abandon", response_class=HTMLResponse)
def abandon_question(request: Request, public_id: str, hub: Hub, visitor: Who) -> Response:
    """Asks before abandoning: which game it is (date, rules, players), and yes or no. In
    a game others play, someone other than the host is offered to leave instead."""
    view = game_of(public_id, hub)
    game = next((g for g in _unfinished(hub, visitor) if g["pid"] == public_id), None)
    if game is None:  # not this visitor's, or not unfinished
        return RedirectResponse("/resume", status_code=303)
    refusal = _abandon_refusal(hub, view, visitor)
    leave = None
    if refusal is not None and visitor.session is not None:
        held = hub.browser_seats.seats_in(visitor.session, view.game_id)
        leave = {"seat": held[0]} if held else None
    return render(
        request, visitor, "abandon.html", game=game, leave=leave,
        refused=said(refusal, visitor) if refusal is not None else None,
    )  # fmt: skip


@router.post("/g/{public_id}/abandon")
def abandon(request: Request, public_id: str, hub: Hub, visitor: Who) -> Response:
    """Abandons one of the visitor's unfinished games, for everyone in it: the visitor's
    own game, or one they host (`Right.ABANDON`); in a game others play, the others leave."""
    view = game_of(public_id, hub)
    if not my_seats(hub, view, visitor):
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    if not view.is_over:
        refusal = _abandon_refusal(hub, view, visitor)
        if isinstance(refusal, SeatRightError):
            return render(request, visitor, "message.html", status=403,
                          message=said(refusal, visitor))  # fmt: skip
        with contextlib.suppress(GameClosedError):  # (it ended meanwhile: nothing to do)
            hub.abandon(view.game_id)
    return RedirectResponse("/resume", status_code=303)


@router.post("/g/{public_id}/leave")
def leave(
    request: Request,
    public_id: str,
    hub: Hub,
    visitor: Who,
    seat: Annotated[int, Form(ge=0, le=7)],
) -> Response:
    """A player who is not the host leaves a game others play: a casual CPU plays their
    seat from now on (`Right.LEAVE`), and their old seat token is refused."""
    view = game_of(public_id, hub)
    held = hub.browser_seats.seats_in(visitor.session, view.game_id) if visitor.session else []
    room = hub.rooms.of_game(view.game_id)
    is_host = room is not None and room.host_key == session_key(visitor.session or "")
    if room is None or seat not in held:
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    try:
        hub.hand_to_cpu(
            view.game_id, seat, DEFAULT_LEVEL.value, right=Right.LEAVE, held=held,
            is_host=is_host,
        )  # fmt: skip
    except FivediceError as problem:
        status = 403 if isinstance(problem, SeatRightError) else error_status(problem)
        return render(request, visitor, "message.html", status=status,
                      message=said(problem, visitor))  # fmt: skip
    return RedirectResponse(f"/g/{public_id}", status_code=303)


@router.get("/g/{public_id}/rules", response_class=HTMLResponse)
def game_rules(request: Request, public_id: str, hub: Hub, visitor: Who) -> Response:
    """The rules of one game, in words generated from its rule set."""
    view = game_of(public_id, hub)
    return _rules_page(request, visitor, view.state.rules, None, public_id)


# -- the other pages ---------------------------------------------------------------------


def _form_defaults() -> dict[str, Any]:
    return {
        "seats": [
            {"name": "", "kind": "me" if i == 0 else ("cpu" if i == 1 else "none")}
            for i in range(FORM_SEATS)
        ],
        "preset": "classic",
        "first_player": "first_seat",
        "match_length": 1,
        "seed": "",
        "client_seed": "",
        "practice": False,
        "options": {},
    }


def new_game_context(visitor: Visitor) -> dict[str, Any]:
    defaults = RuleSet().all_settings()
    options = []
    for name in OPTION_NAMES:
        value = defaults[name]
        if isinstance(value, bool):
            kind, choices = "choice", ["on", "off"]
        elif isinstance(value, list):
            kind, choices = "text", []
        elif isinstance(value, str):
            kind = "choice"
            choices = {
                "of_a_kind_scores": ["all_dice", "matching_dice"],
                "straights": ["runs", "fixed"],
                "yahtzee_bonus_condition": ["box_scored", "box_filled"],
                "joker": ["forced", "free_choice", "none"],
                "family": [family.value for family in Family],
                "fill_order": ["free", "forced"],
            }[name]
        else:
            kind, choices = "number", []
        options.append({"name": name, "kind": kind, "choices": choices})
    return {
        "presets": preset_choices(visitor.language),
        "levels": LEVELS,
        "first_players": [
            (mode.value, in_language(visitor.language, first_player_name, mode))
            for mode in FirstPlayer
        ],
        "options": options,
    }


@router.get("/", response_class=HTMLResponse)
def index(request: Request, hub: Hub, visitor: Who) -> Response:
    """The new-game form, and the visitor's unfinished games. The form carries a commitment
    drawn now, shown next to the seed field: the server's seed is fixed before the visitor
    chooses theirs (a reload draws another; each makes one game)."""
    return render(
        request,
        visitor,
        "index.html",
        form=_form_defaults(),
        commitment=hub.commitments.draw(),
        unfinished=_unfinished(hub, visitor, 5),
        **new_game_context(visitor),
    )


def _form_commitment(
    hub: GameHub, handle: str, problem: FivediceError, values: dict[str, Any]
) -> tuple[Commitment, str | None]:
    """The commitment a refused new-game form is shown again with, and the `texts` key of
    what to say instead of the problem's own words (None: say the problem).

    The posted one while it can still make a game (the visitor's seed, chosen after it, stays
    in the form); else a new one, and the seed field is emptied: a seed the server already
    knows must not meet a commitment drawn after it, so the visitor chooses again.
    """
    if not isinstance(problem, CommitmentUsedError | CommitmentHandleError):
        try:
            seed = hub.commitments.server_seed(handle)
        except CommitmentHandleError:
            values["client_seed"] = ""
            return hub.commitments.draw(), None
        return Commitment(handle, commitment_of(seed), 0), None
    values["client_seed"] = ""
    used = isinstance(problem, CommitmentUsedError)
    return hub.commitments.draw(), "commitment_used" if used else "commitment_stale"


@router.post("/games")
async def create_game(request: Request, hub: Hub, visitor: Who) -> Response:
    """Starts a game from the form; the visitor gets every human seat's token."""
    form = await request.form()

    def field(name: str) -> str:
        value = form.get(name, "")
        return value.strip()[:100] if isinstance(value, str) else ""

    values = _form_defaults()
    my_seed = field("client_seed")[:64]  # the visitor's own dice seed, for the "me" seat
    # The commitment drawn when the form was shown (see `index`).
    handle = field("commitment_handle")
    players: list[PlayerSpec] = []
    client_seeds: list[str] = []  # per player, in seat order
    room_seats: list[RoomSeatSpec] = []
    for index in range(FORM_SEATS):
        kind = field(f"kind{index}") or "none"
        name = field(f"name{index}")
        level = field(f"level{index}") or DEFAULT_LEVEL.value
        if kind == "human":  # the form before rooms: the first person is "me"
            kind = "local" if any(s.kind == "me" for s in room_seats) else "me"
        values["seats"][index] = {"name": name, "kind": kind, "level": level}
        if kind in ("me", "friend", "open", "local"):
            default = in_language(visitor.language, player_name, index + 1)
            seat_seed = my_seed if kind == "me" else ""
            players.append(PlayerSpec(name or default))
            client_seeds.append(seat_seed)
            room_seats.append(RoomSeatSpec(kind, name or default, None, seat_seed))
        elif kind == "cpu":
            default = in_language(visitor.language, cpu_name, index + 1)
            players.append(PlayerSpec(name or default, level))
            client_seeds.append("")
            room_seats.append(RoomSeatSpec(kind, name or default, level))
    settings = {name: field(f"opt_{name}") for name in OPTION_NAMES if field(f"opt_{name}") != ""}
    values.update(
        preset=field("preset") or "classic",
        first_player=field("first_player") or "first_seat",
        match_length=field("match_length") or "1",
        seed=field("seed"),
        client_seed=my_seed,
        practice=bool(field("practice")),
        options=settings,
    )
    try:
        if not players:
            raise FivediceError(N_("choose at least one player"))
        seed_text = values["seed"]
        if seed_text and not (
            seed_text.isascii() and seed_text.isdigit() and int(seed_text) <= MAX_SEED
        ):
            raise FivediceError(N_("a seed is a whole number from 0, not {seed!r}"), seed=seed_text)
        match_text = str(values["match_length"])
        if not (match_text.isascii() and match_text.isdigit()):
            raise FivediceError(
                N_("the match length is a whole number, not {length!r}"), length=match_text
            )
        options = {
            "rules": values["preset"],
            "settings": dict(settings),
            "first_player": values["first_player"],
            "match_length": int(match_text),
            "seed": int(seed_text) if seed_text else None,
            "practice": values["practice"],
        }
        if any(seat.kind in REMOTE_KINDS for seat in room_seats):  # a room: it waits for them
            if visitor.session is None:
                raise SeatError(N_("your browser has no session here; reload the page"), 403)
            room = await run_in_threadpool(
                partial(
                    hub.create_room,
                    room_seats,
                    host_session=visitor.session,
                    options=options,
                    # The form's commitment, shown before the host chose a seed: the room's.
                    handle=(handle or None) if options["seed"] is None else None,
                )
            )
            rotate_session(request.scope)  # the host's seats were granted
            return RedirectResponse(f"/r/{room.code}", status_code=303)
        view = await _in_thread(
            hub.create,
            players,
            **options,
            client_seeds=client_seeds,
            # A chosen seed rolls known dice: nothing to commit to, the form's handle unused.
            handle=(handle or None) if options["seed"] is None else None,
            client=client_of(request.scope),
        )
    except FivediceError as problem:
        commitment, note = _form_commitment(hub, handle, problem, values)
        t = texts(gettext_for(visitor.language))
        return render(
            request,
            visitor,
            "index.html",
            status=error_status(problem) if note == "commitment_used" else 422,
            form=values,
            commitment=commitment,
            error=t[note] if note else said(problem, visitor),
            unfinished=_unfinished(hub, visitor, 5),
            **new_game_context(visitor),
        )
    public_id = hub.public_id(view.game_id)
    seats = [seat["seat"] for seat in hub.seat_tokens(view)]
    await run_in_threadpool(remember_seats, hub, visitor, view.game_id, seats)
    rotate_session(request.scope)  # seats were granted: a new session id
    return RedirectResponse(f"/g/{public_id}", status_code=303)


async def _in_thread(function: Any, *args: Any, **kwargs: Any) -> GameView:
    view: GameView = await run_in_threadpool(function, *args, **kwargs)
    return view


def _preset_words(rules: RuleSet, language: str) -> str:
    """The preset the rules are, as players of `language` call it ("custom" if none)."""
    name = preset_name(rules)
    if name is None:
        return gettext_for(language)("custom")
    return in_language(language, preset_title, name)


def _unfinished(hub: GameHub, visitor: Visitor, limit: int | None = None) -> list[dict[str, Any]]:
    """The visitor's games still in progress (those whose seats they hold), newest first."""
    if visitor.session is None:
        return []
    found: list[dict[str, Any]] = []
    summaries = None
    for game_id in hub.browser_seats.games(visitor.session, IN_PROGRESS):
        if limit is not None and len(found) >= limit:
            break
        if summaries is None:  # when (and under which rules) each game started
            summaries = {g.game_id: g for g in hub.service.list_games(IN_PROGRESS)}
        try:
            view = hub.load(game_id)
        except FivediceError:
            continue
        public_id = hub.public_id(game_id)
        if view.status != IN_PROGRESS:
            continue
        state = view.state
        summary = summaries.get(game_id)
        found.append(
            {
                "pid": public_id,
                "started": formats.moment(summary.started, visitor.language) if summary else "",
                "rules": _preset_words(state.rules, visitor.language),
                "players": [seat.name for seat in state.seats],
                "totals": list(state.match_totals),
                "game_number": state.game_number,
                "match_length": state.settings.match_length,
                "turn": state.turn_number,
                "turns": len(state.rules.boxes) * state.rules.columns,
                "table": state.settings.is_table,
            }
        )
    return found


@router.get("/resume", response_class=HTMLResponse)
def resume(request: Request, hub: Hub, visitor: Who) -> Response:
    """Every unfinished game of this browser, to continue or abandon."""
    return render(
        request,
        visitor,
        "resume.html",
        unfinished=_unfinished(hub, visitor),
        finished=finished_games(hub, visitor),
    )


def finished_games(hub: GameHub, visitor: Visitor, limit: int = 20) -> list[dict[str, Any]]:
    """The visitor's finished games (those whose seats they hold), newest first: each links to
    its review (web/review.py). Abandoned games are left out (they are not offered here at
    all); their reviews are still at their address and in `fivedice review`."""
    if visitor.session is None:
        return []
    found: list[dict[str, Any]] = []
    for game_id in hub.browser_seats.games(visitor.session, FINISHED):
        if len(found) >= limit:
            break
        try:
            view = hub.load(game_id)
        except FivediceError:
            continue
        if view.status != FINISHED:
            continue
        found.append(
            {
                "pid": hub.public_id(game_id),
                "players": [seat.name for seat in view.state.seats],
                "totals": list(view.state.match_totals),
                "status": view.status,
                "review_offered": review_offered(view.state.rules),
            }
        )
    return found


def _rules_page(
    request: Request,
    visitor: Visitor,
    rules: RuleSet,
    preset: str | None,
    public_id: str | None,
) -> HTMLResponse:
    lines = in_language(visitor.language, describe_rules, rules)
    return render(
        request,
        visitor,
        "rules.html",
        lines=lines,
        preset=preset,
        pid=public_id,
        presets=preset_choices(visitor.language),
        preset_label=in_language(visitor.language, preset_title, preset) if preset else "",
    )


@router.get("/rules", response_class=HTMLResponse)
def rules_page(request: Request, visitor: Who, preset: str = "classic") -> Response:
    """A preset's rules in words (generated from the rule set, never written twice)."""
    try:
        rules = find_ruleset(preset)
    except FivediceError:
        preset, rules = "classic", RuleSet()
    return _rules_page(request, visitor, rules, preset, None)


@router.get("/stats", response_class=HTMLResponse)
def stats_page(request: Request, hub: Hub, visitor: Who) -> Response:
    """Statistics per player and rule preset (finished, non-practice games)."""
    rows = [
        {**entry.to_json(), "rules": in_language(visitor.language, preset_title, entry.rules)}
        for entry in hub.service.stats()
    ]
    skills = [skill_section(skill, visitor.language) for skill in hub.service.skill()]
    return render(
        request, visitor, "stats.html", rows=rows, skills=skills,
        skill_heading=in_language(visitor.language, skill_heading),
    )  # fmt: skip


@router.get("/highscores", response_class=HTMLResponse)
def high_scores_page(request: Request, hub: Hub, visitor: Who) -> Response:
    """The ten best solo games per rule preset whose dice the app rolled; games at the table
    (dice typed in) on a board of their own, marked so."""

    def board(typed: bool) -> dict[str, list[dict[str, Any]]]:
        return {
            in_language(visitor.language, preset_title, preset): [e.to_json() for e in entries]
            for preset, entries in hub.service.high_scores(typed=typed).items()
        }

    return render(request, visitor, "highscores.html", lists=board(False), typed_lists=board(True))


@router.get("/lang/{code}")
def switch_language(code: str, next: str = "/") -> Response:
    """The language switcher: remembers the choice in a cookie and goes back."""
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    if code in LANGUAGES:
        response.set_cookie(LANG_COOKIE, code, max_age=YEAR, samesite="lax")
    return response
