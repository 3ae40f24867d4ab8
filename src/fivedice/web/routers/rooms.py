"""The pages of rooms: the waiting room, joining (invitation link or room code), starting,
and handing a seat whose player left to a CPU.

A room is made by the new-game form when a seat is *a friend* (pages.py). Its waiting room
(`/r/{code}`) lists the seats and who has joined, live (app.js listens to the room's event
stream and reloads the list); the host sees each friend's invitation link and starts the
game. A browser gets only the seats it plays: the host's own and pass-and-play seats, and
for a friend the seat of the invitation they opened (or the first free seat, by code).
Opening an invitation on a second device *shares* the seat: both devices may play it.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from fivedice.core.errors import FivediceError
from fivedice.core.fairdice import DiceSeedError
from fivedice.core.names import MAX_NAME_LENGTH
from fivedice.store.browser_seats import session_key
from fivedice.store.rooms import Room, RoomError
from fivedice.web.deps import GameId, Hub
from fivedice.web.hub import GameHub, error_status
from fivedice.web.routers.pages import FRAGMENT_HEADER, Visitor, Who, render
from fivedice.web.wording import gettext_for
from fivedice.wording.text import error_text

router = APIRouter(include_in_schema=False)


def _said(problem: FivediceError, visitor: Visitor) -> str:
    return error_text(problem, gettext_for(visitor.language))


def _problem(request: Request, visitor: Visitor, problem: FivediceError) -> Response:
    status = (
        404
        if isinstance(problem, RoomError) and "code" in problem.params
        else (error_status(problem))
    )
    return render(request, visitor, "message.html", status=status, message=_said(problem, visitor))


def _mine(hub: GameHub, room: Room, visitor: Visitor) -> set[int]:
    """The room seats this browser joined (claims), plus the host's own."""
    if visitor.session is None:
        return set()
    key = session_key(visitor.session)
    seats = {seat for seat, holder in hub.rooms.claims(room.room_id) if holder == key}
    if room.host_key == key:
        seats |= {s.seat for s in room.seats if s.kind in ("me", "local")}
    return seats


def room_context(request: Request, hub: GameHub, room: Room, visitor: Visitor) -> dict[str, Any]:
    is_host = visitor.session is not None and room.host_key == session_key(visitor.session)
    # Never from the Host header: the configured public URL, else relative (app.js shows
    # it whole, from the page's address).
    base = request.app.state.public_url or ""
    mine = _mine(hub, room, visitor)
    seats = []
    for seat in room.seats:
        entry: dict[str, Any] = {
            "seat": seat.seat, "kind": seat.kind, "name": seat.name, "level": seat.level,
            "joined": seat.joined, "mine": seat.seat in mine,
        }  # fmt: skip
        if seat.kind == "friend" and (is_host or seat.seat in mine):
            key = hub.invitation(room, seat.seat)
            entry["invite"] = f"{base}/r/{room.code}/invite/{seat.seat}?key={key}"
        seats.append(entry)
    waiting = [s for s in room.seats if s.kind == "friend" and not s.joined]
    return {
        "room": room,
        "code": room.code,
        "seats": seats,
        "is_host": is_host,
        "joined_any": any(s.kind == "friend" and s.joined for s in room.seats),
        "waiting_for": len(waiting),
        "events": f"/api/rooms/{room.code}/events",
        "commitment": room.commitment if room.options.get("seed") is None else None,
    }


@router.get("/r/{code}", response_class=HTMLResponse)
def waiting_room(request: Request, code: str, hub: Hub, visitor: Who) -> Response:
    """Who has joined (live), the invitations (host) and the start buttons (host)."""
    try:
        room = hub.room(code)
    except RoomError as problem:
        return _problem(request, visitor, problem)
    if room.started and room.game_id is not None:
        return RedirectResponse(f"/g/{hub.public_id(room.game_id)}", status_code=303)
    context = room_context(request, hub, room, visitor)
    name = "room_seats.html" if request.headers.get(FRAGMENT_HEADER) else "room.html"
    return render(request, visitor, name, **context)


@router.get("/r/{code}/invite/{seat}", response_class=HTMLResponse)
def invitation(
    request: Request, code: str, seat: int, hub: Hub, visitor: Who, key: str = ""
) -> Response:
    """An invitation link: asks the friend's name, then joins (a form: links are no clicks)."""
    try:
        room = hub.room(code)
    except RoomError as problem:
        return _problem(request, visitor, problem)
    if hub.seat_of_invitation(room, key[:64]) != seat:
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    name = next(s.name for s in room.seats if s.seat == seat)
    return render(
        request, visitor, "join.html", code=room.code, seat=seat, key=key, seat_name=name,
        started=room.started, chosen_seed=room.options.get("seed") is not None,
    )  # fmt: skip


@router.get("/join", response_class=HTMLResponse)
def join_form(request: Request, visitor: Who, code: str = "") -> Response:
    """The "Join a game" form: a room code and a name."""
    return render(request, visitor, "join.html", code=code[:12], seat=None, key="", seat_name="")


@router.post("/join")
def join(
    request: Request,
    hub: Hub,
    visitor: Who,
    code: Annotated[str, Form(max_length=40)],
    name: Annotated[str, Form(max_length=MAX_NAME_LENGTH)] = "",
    seat: Annotated[str, Form(max_length=4)] = "",
    key: Annotated[str, Form(max_length=64)] = "",
    client_seed: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    """Joins a seat: by invitation (`seat` and `key`) or by room code (the first free seat),
    with the friend's own dice seed if they gave one."""
    if visitor.session is None:
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    try:
        room, _seat = hub.join_room(
            code, visitor.session, invitation=key or None, name=name.strip() or None,
            client_seed=client_seed,
        )  # fmt: skip
    except DiceSeedError as problem:  # the same form again, to fix the seed
        invited = int(seat) if key and seat.isascii() and seat.isdigit() else None
        return render(
            request, visitor, "join.html", status=error_status(problem),
            code=code[:12], seat=invited, key=key if invited is not None else "",
            seat_name=name, error=_said(problem, visitor), client_seed=client_seed[:64],
        )  # fmt: skip
    except FivediceError as problem:
        if key:
            return _problem(request, visitor, problem)
        return render(
            request, visitor, "join.html", status=error_status(problem),
            code=code[:12], seat=None, key="", seat_name=name, error=_said(problem, visitor),
            client_seed=client_seed[:64],
        )  # fmt: skip
    if room.started and room.game_id is not None:
        return RedirectResponse(f"/g/{hub.public_id(room.game_id)}", status_code=303)
    return RedirectResponse(f"/r/{room.code}", status_code=303)


@router.post("/r/{code}/start")
def start(
    request: Request,
    code: str,
    hub: Hub,
    visitor: Who,
    version: Annotated[int, Form(ge=0, le=10**9)],
    fill: Annotated[str, Form(max_length=2)] = "",
) -> Response:
    """The host starts the game (seats nobody joined: CPUs with `fill`, else left out)."""
    try:
        room = hub.room(code)
        if visitor.session is None or room.host_key != session_key(visitor.session):
            return render(request, visitor, "message.html", status=403, message_key="not_found")
        _room, view = hub.start_room(code, version, fill_with_cpus=fill == "1")
    except FivediceError as problem:
        return _problem(request, visitor, problem)
    return RedirectResponse(f"/g/{hub.public_id(view.game_id)}", status_code=303)


@router.post("/g/{public_id}/handover")
def handover(
    request: Request,
    public_id: str,
    game_id: GameId,
    hub: Hub,
    visitor: Who,
    seat: Annotated[int, Form(ge=0, le=7)],
) -> Response:
    """The host hands a friend's seat (its player left) to a casual CPU (a refusal is the
    app's message page)."""
    room = hub.rooms.of_game(game_id)
    if room is None or visitor.session is None or room.host_key != session_key(visitor.session):
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    friend = [s for s in room.seats if s.kind == "friend" and s.game_seat == seat]
    if not friend:
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    hub.hand_to_cpu(game_id, seat)
    return RedirectResponse(f"/g/{public_id}", status_code=303)
