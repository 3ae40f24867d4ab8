"""The pages of rooms: the waiting room, claiming a seat (invitation link or room code),
devices, seeds, starting, and handing a seat whose player left to a CPU.

A room is made by the new-game form when a seat is *a friend* or *open* (pages.py). Its
waiting room (`/r/{code}`) lists the seats, who has joined and every seed given, live
(app.js listens to the room's event stream and reloads the list); the host sees each
friend's invitation link until it is used and starts the game. A browser gets only the
seats it plays: the host's own and pass-and-play seats, and for a friend the seat it
claimed: the first device to open an invitation claims its seat (the link gives nothing
after that), an open seat goes to the first who asks with the room code. The seat's holder
adds another device of theirs with a one-time device link. Who may do what is the service's
rights policy (`fivedice.service.rights`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from fivedice.core.errors import FivediceError
from fivedice.core.fairdice import DiceSeedError
from fivedice.core.names import MAX_NAME_LENGTH
from fivedice.service.rooms import FILL_LEVEL
from fivedice.store.browser_seats import session_key
from fivedice.store.rooms import OPEN, REMOTE_KINDS, SEAT_TAKEN, Room, RoomError
from fivedice.web.deps import GameId, Hub
from fivedice.web.guard import rotate_session
from fivedice.web.hub import GameHub, error_status
from fivedice.web.routers.pages import FRAGMENT_HEADER, Visitor, Who, device_list, render
from fivedice.web.wording import gettext_for
from fivedice.wording.text import error_text

router = APIRouter(include_in_schema=False)


HOST_LABELS = {"me": "host", "local": "hosts_device"}
"""The labels of the host's seats as another device shows them."""


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
    """The room seats this browser holds: the one it claimed (an invitation, an open seat
    or a device link), plus the host's own and pass-and-play seats."""
    if visitor.session is None:
        return set()
    seats = set()
    held = hub.rooms.holder_of(room, visitor.session)
    if held is not None:
        seats.add(held)
    if room.host_key == session_key(visitor.session):
        seats |= {s.seat for s in room.seats if s.kind in ("me", "local")}
    return seats


def _is_host(room: Room, visitor: Visitor) -> bool:
    return visitor.session is not None and room.host_key == session_key(visitor.session)


def room_context(request: Request, hub: GameHub, room: Room, visitor: Visitor) -> dict[str, Any]:
    is_host = _is_host(room, visitor)
    # Never from the Host header: the configured public URL, else relative (app.js shows
    # it whole, from the page's address).
    base = request.app.state.public_url or ""
    mine = _mine(hub, room, visitor)
    claimed = hub.rooms.holder_of(room, visitor.session) if visitor.session else None
    seats = []
    for seat in room.seats:
        entry: dict[str, Any] = {
            "seat": seat.seat, "kind": seat.kind, "name": seat.name, "level": seat.level,
            "joined": seat.joined, "mine": seat.seat in mine, "client_seed": seat.client_seed,
            # "Me" and "Someone at this device" are the host's words: another device reads
            # whose seats they are.
            "label": seat.kind if is_host else HOST_LABELS.get(seat.kind, seat.kind),
        }  # fmt: skip
        # The host sends each friend their invitation until a device claims the seat;
        # after that it gives nothing, so it is shown no more.
        if seat.kind == "friend" and is_host and not seat.joined:
            key = hub.invitation(room, seat.seat)
            entry["invite"] = f"{base}/r/{room.code}/invite/{seat.seat}?key={key}"
        seats.append(entry)
    waiting = [s for s in room.seats if s.kind in REMOTE_KINDS and not s.joined]
    return {
        "room": room,
        "code": room.code,
        "seats": seats,
        "is_host": is_host,
        "joined_any": any(s.kind in REMOTE_KINDS and s.joined for s in room.seats),
        "waiting_for": len(waiting),
        "open_seats": sum(1 for s in room.seats if s.kind == OPEN and not s.joined),
        "events": f"/api/rooms/{room.code}/events",
        "commitment": room.commitment if room.options.get("seed") is None else None,
        "seeds_taken": room.options.get("seed") is None and not room.started,
        "claimed": claimed,
        "devices": device_list(hub, room, claimed, visitor) if claimed is not None else [],
    }


def _member(hub: GameHub, room: Room, visitor: Visitor) -> bool:
    """Whether the visitor holds a seat of the room (so may be sent to its game)."""
    return bool(_mine(hub, room, visitor))


def _started_elsewhere(request: Request, visitor: Visitor) -> Response:
    """A started room seen by someone who holds none of its seats: nothing of the game."""
    return render(request, visitor, "message.html", status=409, message_key="room_started")


@router.get("/r/{code}", response_class=HTMLResponse)
def waiting_room(request: Request, code: str, hub: Hub, visitor: Who) -> Response:
    """Who has joined and their dice seeds (live), the invitations (host), the start
    buttons (host), and a seat holder's devices. A started room sends only the holders of
    its seats to the game; to anyone else its code reveals nothing."""
    try:
        room = hub.room(code)
    except RoomError as problem:
        return _problem(request, visitor, problem)
    if room.started and room.game_id is not None:
        if not _member(hub, room, visitor):
            return _started_elsewhere(request, visitor)
        return RedirectResponse(f"/g/{hub.public_id(room.game_id)}", status_code=303)
    context = room_context(request, hub, room, visitor)
    name = "room_seats.html" if request.headers.get(FRAGMENT_HEADER) else "room.html"
    return render(request, visitor, name, **context)


@router.get("/r/{code}/invite/{seat}", response_class=HTMLResponse)
def invitation(
    request: Request, code: str, seat: int, hub: Hub, visitor: Who, key: str = ""
) -> Response:
    """An invitation link: asks the friend's name, then claims the seat (a form: links
    are no clicks). Once a device claimed the seat, the link shows only that it is taken."""
    try:
        room = hub.room(code)
    except RoomError as problem:
        return _problem(request, visitor, problem)
    if hub.seat_of_invitation(room, key[:64]) != seat:
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    target = next(s for s in room.seats if s.seat == seat)
    held = hub.rooms.holder_of(room, visitor.session) if visitor.session else None
    if target.joined and held != seat:
        return _problem(request, visitor, RoomError(SEAT_TAKEN, name=target.name))
    return render(
        request, visitor, "join.html", code=room.code, seat=seat, key=key,
        seat_name=target.name, started=room.started,
        chosen_seed=room.options.get("seed") is not None, commitment=_commitment(room),
    )  # fmt: skip


def _commitment(room: Room) -> str | None:
    """The commitment a join form shows next to its seed field (None: no seed field).

    Why: a seed is worth something only if the server's was fixed before it was chosen, so
    the form shows the room's commitment (drawn with the room) before the friend types one.
    The form by room code knows no room yet: it takes no seed (the waiting room, which shows
    the commitment, has the seat's seed form).
    """
    return room.commitment if room.options.get("seed") is None else None


@router.get("/join", response_class=HTMLResponse)
def join_form(request: Request, visitor: Who, code: str = "") -> Response:
    """The "Join a game" form: a room code and a name (an open seat; the seed follows in
    the waiting room, next to the room's commitment)."""
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
    """Claims a seat: a friend's by invitation (`seat` and `key`; the first device only)
    or an open one by room code, with the player's own dice seed if they gave one."""
    if visitor.session is None:
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    try:
        room, _seat = hub.join_room(
            code, visitor.session, invitation=key or None, name=name.strip() or None,
            client_seed=client_seed,
        )  # fmt: skip
    except DiceSeedError as problem:  # the same form again, to fix the seed
        invited = int(seat) if key and seat.isascii() and seat.isdigit() else None
        try:
            commitment = _commitment(hub.room(code)) if invited is not None else None
        except FivediceError:
            commitment = None
        return render(
            request, visitor, "join.html", status=error_status(problem),
            code=code[:12], seat=invited, key=key if invited is not None else "",
            seat_name=name, error=_said(problem, visitor), client_seed=client_seed[:64],
            commitment=commitment,
        )  # fmt: skip
    except FivediceError as problem:
        if key:
            return _problem(request, visitor, problem)
        return render(
            request, visitor, "join.html", status=error_status(problem),
            code=code[:12], seat=None, key="", seat_name=name, error=_said(problem, visitor),
            client_seed=client_seed[:64],
        )  # fmt: skip
    rotate_session(request.scope)  # a seat was granted
    if room.started and room.game_id is not None:
        return RedirectResponse(f"/g/{hub.public_id(room.game_id)}", status_code=303)
    return RedirectResponse(f"/r/{room.code}", status_code=303)


@router.post("/r/{code}/devices", response_class=HTMLResponse)
def new_device(request: Request, code: str, hub: Hub, visitor: Who) -> Response:
    """A one-time link for another device of the seat's player (the holder asks; a link
    asked for before is void)."""
    try:
        room = hub.room(code)
        if visitor.session is None:
            return render(request, visitor, "message.html", status=403, message_key="not_found")
        _seat, device_code = hub.rooms.new_device_code(room, visitor.session)
    except FivediceError as problem:
        return _problem(request, visitor, problem)
    base = request.app.state.public_url or ""
    return render(
        request, visitor, "device.html", code=room.code, device_code=device_code,
        link=f"{base}/r/{room.code}/device?key={device_code}", adding=False,
    )  # fmt: skip


@router.get("/r/{code}/device", response_class=HTMLResponse)
def device_link(request: Request, code: str, hub: Hub, visitor: Who, key: str = "") -> Response:
    """A device link opened: a button that adds this device (a GET changes nothing)."""
    try:
        room = hub.room(code)
    except RoomError as problem:
        return _problem(request, visitor, problem)
    return render(
        request, visitor, "device.html", code=room.code, device_code=key[:64], adding=True
    )


@router.post("/r/{code}/device")
def add_device(
    request: Request,
    code: str,
    hub: Hub,
    visitor: Who,
    key: Annotated[str, Form(max_length=64)],
) -> Response:
    """Adds this device to the seat of a one-time device code (used up)."""
    if visitor.session is None:
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    try:
        room, _seat = hub.add_device(code, visitor.session, key)
    except FivediceError as problem:
        return _problem(request, visitor, problem)
    rotate_session(request.scope)  # a seat was granted
    if room.started and room.game_id is not None:
        return RedirectResponse(f"/g/{hub.public_id(room.game_id)}", status_code=303)
    return RedirectResponse(f"/r/{room.code}", status_code=303)


@router.post("/r/{code}/seed")
def set_seed(
    request: Request,
    code: str,
    hub: Hub,
    visitor: Who,
    seat: Annotated[int, Form(ge=0, le=7)],
    client_seed: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    """A seat's own dice seed, from its own device, before the start (all see it)."""
    try:
        room = hub.room(code)
        hub.set_client_seed(room, seat, client_seed, holds_seat=seat in _mine(hub, room, visitor))
    except FivediceError as problem:
        return _problem(request, visitor, problem)
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
        if not _is_host(room, visitor):
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
    level: Annotated[str, Form(max_length=20)] = FILL_LEVEL,
) -> Response:
    """The host hands a friend's seat (its player left) to a CPU, between that seat's
    turns (`Right.HAND_OVER`; a refusal is the app's message page)."""
    room = hub.rooms.of_game(game_id)
    if room is None or not _is_host(room, visitor):
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    friend = [s for s in room.seats if s.kind in REMOTE_KINDS and s.game_seat == seat]
    if not friend:
        return render(request, visitor, "message.html", status=403, message_key="not_found")
    held = hub.browser_seats.seats_in(visitor.session, game_id) if visitor.session else []
    try:
        hub.hand_to_cpu(game_id, seat, level, held=held, is_host=True)
    except FivediceError as problem:
        return _problem(request, visitor, problem)
    return RedirectResponse(f"/g/{public_id}", status_code=303)
