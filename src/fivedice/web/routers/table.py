""" "At the table": the score keeper for real dice in the browser, made for one phone.

The players roll their own dice and pass the phone round: the player to move types (or taps)
the five dice, the heading then asks for a box and the page lists every box they may go in
with the points (bonuses and joker included, from the core), and a tap scores it; a box that
would get 0 is asked about first (`zero_score_to_confirm`, as in every front end). Points may
also be entered without dice, and `undo` takes back the last entry. A line says what the last
entry wrote on the card (or what an undo took back), and the game's printable sheet is a
link away. The browser that starts the game holds every seat. Every form posts the same
action notation as the other front ends, through the hub and service.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from fivedice.core.actions import parse_action
from fivedice.core.dice import parse_dice
from fivedice.core.errors import FivediceError
from fivedice.core.game import FirstPlayer
from fivedice.core.rules import find_ruleset
from fivedice.i18n import formats
from fivedice.service.games import GameView
from fivedice.service.settings import build_table_settings, zero_score_to_confirm
from fivedice.service.table import last_entry
from fivedice.web.deps import Hub, game_of
from fivedice.web.guard import rotate_session
from fivedice.web.hub import GameHub, error_status
from fivedice.web.routers.pages import (
    Visitor,
    Who,
    acting_token,
    box_names,
    my_seats,
    preset_choices,
    remember_seats,
    render,
    said,
)
from fivedice.web.wording import gettext_for, in_language
from fivedice.wording.coach import choice_text
from fivedice.wording.game import placement_notes
from fivedice.wording.reasons import why_lines
from fivedice.wording.table import last_entry_text, zero_question

router = APIRouter(include_in_schema=False)

TABLE_SEATS = 6
COACH_OPTIONS = 6


def table_texts(_: Callable[[str], str]) -> dict[str, str]:
    """The words of the table pages, translated by `_` (extracted by Babel under that name)."""
    return {
        "at_table_intro": _(
            "Play with real dice and let this phone keep the score: each player types what"
            " they rolled and picks a box."
        ),
        "players_in_order": _("Players, in order of play"),
        "player_n": _("Player {number}"),
        "who_starts": _("Who starts"),
        "first_listed": _("The first player listed"),
        "start_table": _("Start keeping score"),
        "your_dice": _("{name}, what did you roll?"),
        "pick_box_for": _("{name}, pick a box"),
        "change_dice": _("Change the dice"),
        "printable_sheet": _("Printable sheet"),
        "dice_label": _("Five dice, e.g. 33355"),
        "enter_dice": _("Enter dice"),
        "dice_entered": _("Dice: {dice}"),
        "pick_box": _("Pick a box"),
        "or_points": _("Or enter points without dice"),
        "box": _("Box"),
        "points": _("Points"),
        "enter_points": _("Enter points"),
        "undo": _("Undo last entry"),
        "coach": _("Coach"),
        "coach_dice": _("Dice for the coach"),
        "rolls_left": _("Rolls left"),
        "ask_coach": _("Rank the options"),
        "card": _("Score card"),
        "tap_face": _("Tap the faces"),
        "clear_dice": _("Clear"),
        "game_over_table": _("Game over. Final standings:"),
        "to_move": _("to move"),
        "to_come": _("{value} points to come"),
    }


def _first_players(visitor: Visitor) -> list[tuple[str, str]]:
    from fivedice.wording.text import first_player_name

    return [
        (mode.value, in_language(visitor.language, first_player_name, mode))
        for mode in FirstPlayer
        if mode is not FirstPlayer.FIRST_SEAT
    ]


def _form_context(visitor: Visitor, values: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "tt": table_texts(gettext_for(visitor.language)),
        "form": values or {"names": [""] * TABLE_SEATS, "preset": "classic", "first": ""},
        "presets": preset_choices(visitor.language),
        "first_modes": _first_players(visitor),
        "seat_count": TABLE_SEATS,
    }


@router.get("/table", response_class=HTMLResponse)
def new_table_game(request: Request, visitor: Who) -> Response:
    """The form of a game at the table: names in order of play, rules, who starts."""
    return render(request, visitor, "table_new.html", **_form_context(visitor))


@router.post("/table")
async def create_table_game(request: Request, hub: Hub, visitor: Who) -> Response:
    """Starts a game at the table; this browser holds every seat (one phone for all)."""
    form = await request.form()

    def field(name: str) -> str:
        value = form.get(name, "")
        return value.strip()[:100] if isinstance(value, str) else ""

    names = [field(f"name{index}") for index in range(TABLE_SEATS)]
    values = {
        "names": names,
        "preset": field("preset") or "classic",
        "first": field("first"),
        "practice": bool(field("practice")),
    }
    try:
        players = [name for name in names if name]
        rules = find_ruleset(str(values["preset"]))
        first = str(values["first"])
        if first.isascii() and first.isdigit():  # a seat number from the form: that player starts
            index = int(first)
            first = players[index] if index < len(players) else ""
        settings = build_table_settings(rules, players, first)
        view: GameView = await run_in_threadpool(
            hub.service.create_game, settings, practice=bool(values["practice"])
        )
    except FivediceError as problem:
        return render(
            request,
            visitor,
            "table_new.html",
            status=422,
            error=said(problem, visitor),
            **_form_context(visitor, values),
        )
    seats = list(range(len(view.state.seats)))
    await run_in_threadpool(remember_seats, hub, visitor, view.game_id, seats)
    rotate_session(request.scope)  # seats were granted: a new session id
    return RedirectResponse(f"/t/{hub.public_id(view.game_id)}", status_code=303)


def _coach(
    hub: GameHub, view: GameView, visitor: Visitor, dice_text: str, rolls: int
) -> tuple[list[dict[str, Any]] | None, str | None]:
    """The coach's best options for typed dice and rolls left (through the service); the
    first carries the reasons (`why`: the best against the next, and its chances)."""
    try:
        dice = parse_dice(dice_text) if dice_text.strip() else None
        options = hub.service.hint(view.game_id, dice, rolls, explain=None)
    except FivediceError as problem:
        return None, said(problem, visitor)
    why = in_language(visitor.language, why_lines, view.state.rules, options)
    shown: list[dict[str, Any]] = []
    for option in options[:COACH_OPTIONS]:
        words = in_language(
            visitor.language, choice_text, option.keep, option.category, option.column
        )
        shown.append(
            {
                "text": words,
                "value": ("≈" if option.estimate else "")
                + formats.number(option.value, 1, visitor.language),
                # (a tie with the best, "0.0" at one decimal, says no loss: not "−0.0")
                "loss": formats.number(option.loss, 1, visitor.language)
                if round(option.loss, 1) > 0
                else None,
                "why": why if not shown else [],
            }
        )
    return shown, None


def table_context(
    hub: GameHub,
    view: GameView,
    visitor: Visitor,
    *,
    error: str | None = None,
    coach_dice: str | None = None,
    coach_rolls: int | None = None,
    zero_box: str | None = None,
) -> dict[str, Any]:
    """Everything table.html shows: the turn, the dice, the boxes with points, the cards.

    `zero_box`: the box (as posted) of a score of 0 to be confirmed first.
    """
    state = view.state
    rules = state.rules
    names = box_names(visitor.language)
    mine = my_seats(hub, view, visitor)
    over = view.is_over
    mover = None if over else state.current_seat
    can_act = mover is not None and mover in mine
    multi = rules.columns > 1
    placements = []
    for placement in state.placements() if can_act else []:
        key = placement.category.key
        if multi:
            key = f"{placement.column + 1}:{key}"
        notes = in_language(visitor.language, placement_notes, placement)
        label = names[placement.category.key]
        if multi:
            label = f"{label} ({placement.column + 1})"
        placements.append({"key": key, "name": label, "points": placement.points, "notes": notes})
    open_boxes = []
    if can_act and mover is not None:
        for index, column in enumerate(state.cards[mover].columns):
            for category in column.allowed_boxes(rules):
                key = f"{index + 1}:{category.key}" if multi else category.key
                label = names[category.key] + (f" ({index + 1})" if multi else "")
                open_boxes.append({"key": key, "name": label})
    rows = []
    for category in state.cards[0].columns[0].boxes:
        cells = []
        for seat in range(len(state.seats)):
            for column in state.cards[seat].columns:
                cells.append(column.score(category))
        rows.append({"name": names[category.key], "cells": cells, "upper": category.is_upper})
    sums = {
        "upper": [c.upper_total for card in state.cards for c in card.columns],
        "bonus": [c.upper_bonus(rules) for card in state.cards for c in card.columns],
        "extra": [c.yahtzee_bonus_total(rules) for card in state.cards for c in card.columns],
    }
    players = [
        {
            "name": seat.name,
            "total": state.totals[index],
            "rank": state.ranks[index],
            "columns": rules.columns,
            "moving": index == mover,
        }
        for index, seat in enumerate(state.seats)
    ]
    coach = coach_error = None
    if can_act and coach_dice is not None:
        coach, coach_error = _coach(hub, view, visitor, coach_dice, coach_rolls or 0)
    undo_refusal = (
        hub.service.can_undo(view.game_id, by_seats=set(mine)) if mine and not over else None
    )
    entered = " ".join(map(str, state.dice)) if state.dice is not None else ""
    last = in_language(
        visitor.language, last_entry_text, last_entry(hub.service.record(view.game_id))
    )
    zero = None
    if can_act and zero_box is not None:
        scratch = zero_score_to_confirm(state, f"score {zero_box}")
        if scratch is not None:
            where = scratch.column if multi else None
            question = in_language(visitor.language, zero_question, scratch.category, where)
            zero = {"box": zero_box, "question": question}
    return {
        "tt": table_texts(gettext_for(visitor.language)),
        "pid": hub.public_id(view.game_id),
        "version": view.version,
        "over": over,
        "can_act": can_act,
        "mover_name": state.seats[mover].name if mover is not None else "",
        "turn": None if over else state.turn_number,
        "turns": len(rules.boxes) * rules.columns,
        "dice": list(state.dice) if state.dice is not None and not over else None,
        "entered": entered,
        "placements": placements,
        "open_boxes": open_boxes,
        "rows": rows,
        "sums": sums,
        "players": players,
        "standings": sorted(players, key=lambda p: p["rank"]),
        "can_undo": bool(mine) and not over and undo_refusal is None,
        "rolls_choices": list(range(rules.rolls_per_turn)),
        "coach": coach,
        "coach_error": coach_error,
        "coach_dice": coach_dice if coach_dice is not None else entered.replace(" ", ""),
        "coach_rolls": coach_rolls or 0,
        "error": error,
        "last_entry": last,
        "zero": zero,
    }


@router.get("/t/{public_id}", response_class=HTMLResponse)
def table_page(
    request: Request,
    public_id: str,
    hub: Hub,
    visitor: Who,
    coach: int = 0,
    cdice: str = "",
    rolls: int = 0,
) -> Response:
    """The game at the table: whose turn, the dice entry, the boxes, every card."""
    view = game_of(public_id, hub)
    if not view.state.settings.is_table:
        return RedirectResponse(f"/g/{public_id}", status_code=303)
    context = table_context(
        hub, view, visitor, coach_dice=cdice[:20] if coach else None, coach_rolls=rolls
    )
    return render(request, visitor, "table.html", **context)


def _refused(
    request: Request, hub: GameHub, visitor: Visitor, public_id: str, problem: FivediceError
) -> Response:
    view = game_of(public_id, hub)
    context = table_context(hub, view, visitor, error=said(problem, visitor))
    return render(request, visitor, "table.html", status=error_status(problem), **context)


def _act(
    request: Request, hub: GameHub, visitor: Visitor, public_id: str, action: str, version: int
) -> Response:
    view = game_of(public_id, hub)
    token = acting_token(hub, view, visitor)
    try:
        hub.act(view.game_id, token, action, version)
    except FivediceError as problem:
        return _refused(request, hub, visitor, public_id, problem)
    return RedirectResponse(f"/t/{public_id}", status_code=303)


@router.post("/t/{public_id}/dice")
def enter_dice(
    request: Request,
    public_id: str,
    hub: Hub,
    visitor: Who,
    dice: Annotated[str, Form(max_length=20)],
    version: Annotated[int, Form(ge=0)],
) -> Response:
    """The dice the player to move rolled (they replace any entered before)."""
    try:
        action = str(parse_action(f"dice {dice}", None))
    except FivediceError as problem:
        return _refused(request, hub, visitor, public_id, problem)
    return _act(request, hub, visitor, public_id, action, version)


@router.post("/t/{public_id}/score")
def score(
    request: Request,
    public_id: str,
    hub: Hub,
    visitor: Who,
    box: Annotated[str, Form(max_length=30)],
    version: Annotated[int, Form(ge=0)],
    points: Annotated[str, Form(max_length=6)] = "",
    confirm_zero: Annotated[str, Form(max_length=1)] = "",
) -> Response:
    """A box for the entered dice, or points for a box without dice (checked by the core).

    A box that the dice would give 0 is not scored at once: the page asks first, and its
    "Yes" button posts the box again with `confirm_zero=1` (points typed as 0 are meant).
    """
    action = f"score {box.strip()}"
    if points.strip():
        action += f" {points.strip()}"
    elif confirm_zero != "1":
        view = game_of(public_id, hub)
        mine = my_seats(hub, view, visitor)
        asks = view.version == version and not view.is_over and view.state.current_seat in mine
        if asks and zero_score_to_confirm(view.state, action) is not None:
            context = table_context(hub, view, visitor, zero_box=box.strip())
            return render(request, visitor, "table.html", **context)
    return _act(request, hub, visitor, public_id, action, version)


@router.post("/t/{public_id}/undo")
def undo(
    request: Request,
    public_id: str,
    hub: Hub,
    visitor: Who,
    version: Annotated[int, Form(ge=0)],
) -> Response:
    """Takes back the last entry in effect (the log keeps both), if this browser entered it."""
    view = game_of(public_id, hub)
    try:
        hub.undo(view.game_id, list(my_seats(hub, view, visitor).values()), version)
    except FivediceError as problem:
        return _refused(request, hub, visitor, public_id, problem)
    return RedirectResponse(f"/t/{public_id}", status_code=303)
