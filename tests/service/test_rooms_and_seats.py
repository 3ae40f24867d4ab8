"""Rooms and seats as service use cases: the pure policies, and the service's own names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fivedice.core.game import GameSettings, Seat, SettingsError
from fivedice.service.games import GameService
from fivedice.service.rooms import FILL_LEVEL, RoomSeatSpec, RoomService, room_start
from fivedice.service.seats import NotYourTurnError, hand_over_refusal, hand_to_cpu, turn_refusal
from fivedice.store import GameClosedError, Store
from fivedice.store.rooms import Room, RoomError, RoomSeat

SRC = Path(__file__).resolve().parents[2] / "src" / "fivedice"


def _room(*seats: RoomSeat, status: str = "waiting") -> Room:
    return Room(1, "ABCDEF", "host", status, {"rules": "classic"}, 3, None, seats)


def test_a_room_start_plays_joined_seats_and_fills_the_others_with_casual_cpus():
    room = _room(
        RoomSeat(0, "me", "Ann", None, True, None, "ann-seed"),
        RoomSeat(1, "friend", "Bob", None, False, None),
        RoomSeat(2, "cpu", "Cy", "strong", True, None),
        RoomSeat(3, "friend", "Dee", None, True, None, "dee-seed"),
    )
    start = room_start(room, fill_with_cpus=True)
    assert [(p.name, p.level) for p in start.players] == [
        ("Ann", None), ("Bob", FILL_LEVEL), ("Cy", "strong"), ("Dee", None),
    ]  # fmt: skip
    assert start.client_seeds == ("ann-seed", "", "", "dee-seed")
    assert start.game_seats == {0: 0, 1: 1, 2: 2, 3: 3}
    assert start.cpus == {1: FILL_LEVEL}
    assert start.host_seats == (0,)


def test_a_room_start_without_filling_leaves_unjoined_seats_out():
    room = _room(
        RoomSeat(0, "me", "Ann", None, True, None),
        RoomSeat(1, "friend", "Bob", None, False, None),
        RoomSeat(2, "friend", "Dee", None, True, None),
    )
    start = room_start(room, fill_with_cpus=False)
    assert [p.name for p in start.players] == ["Ann", "Dee"]
    assert start.game_seats == {0: 0, 1: None, 2: 1} and start.cpus == {}


@pytest.mark.parametrize(
    ("room", "message"),
    [
        (_room(RoomSeat(0, "me", "Ann", None, True, None), status="started"), "started already"),
        (
            _room(RoomSeat(0, "cpu", "Cy", "casual", True, None),
                  RoomSeat(1, "friend", "Bob", None, False, None)),
            "nobody has joined yet",
        ),
    ],
)  # fmt: skip
def test_a_room_that_cannot_start_says_why(room, message):
    with pytest.raises(RoomError, match=message):
        room_start(room, fill_with_cpus=True)


def test_only_a_persons_seat_of_a_game_in_progress_is_handed_to_a_cpu(tmp_path):
    service = GameService(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"))
    view = service.create_game(GameSettings((Seat("Ann"), Seat("Cy", "casual"))), seed=1)
    assert hand_over_refusal(view, 0) is None
    for seat in (1, 2, -1):  # a CPU's seat, and seats the game does not have
        assert isinstance(hand_over_refusal(view, seat), SettingsError)
    after = hand_to_cpu(service, RoomService(service), view.game_id, 0, "beginner", held=(0,))
    assert after.state.seats[0].cpu_level == "beginner"  # read again: the seats changed
    service.abandon(view.game_id)
    assert isinstance(hand_over_refusal(service.load(view.game_id), 0), GameClosedError)
    with pytest.raises(SettingsError, match="a CPU level is one of"):
        hand_to_cpu(service, RoomService(service), view.game_id, 0, "god")
    service.store.close()


def test_only_the_seat_to_move_may_act_and_nobody_once_the_game_is_over(tmp_path):
    service = GameService(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"))
    view = service.create_game(GameSettings((Seat("Ann"), Seat("Cy", "casual"))), seed=1)
    assert turn_refusal(view, 0) is None
    refused = turn_refusal(view, 1)
    assert isinstance(refused, NotYourTurnError)
    assert str(refused) == "it is Ann's turn, not Cy's (seat 1)"
    service.abandon(view.game_id)
    assert isinstance(turn_refusal(service.load(view.game_id), 0), GameClosedError)
    service.store.close()


def test_a_room_join_by_a_wrong_invitation_is_refused_and_takes_no_seat(tmp_path):
    service = GameService(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"))
    rooms = RoomService(service)
    room = rooms.create(
        [RoomSeatSpec("me", "Ann"), RoomSeatSpec("open", "Bob")],
        host_session="host",
        options={"rules": "classic"},
    )
    with pytest.raises(RoomError, match="not one of this game's"):
        rooms.join(room, "visitor", by_invitation=True, seat=None)
    assert rooms.claims(room.room_id) == []
    joined, seat = rooms.join(room, "visitor", name="Bea")
    assert seat == 1 and joined.seats[1].name == "Bea" and joined.seats[1].joined
    service.store.close()


def test_nothing_outside_the_service_touches_its_private_names():
    """Front ends use the service's public names only (`forget`, a constructor's
    `solve_wait`), never its internals or settings changed behind its back."""
    private_use = re.compile(r"\bservice\._[a-z]|\bservice\.solve_wait\s*=")
    offenders = [
        f"{path.relative_to(SRC)}:{number}"
        for path in SRC.rglob("*.py")
        if "service" not in path.relative_to(SRC).parts[:1]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if private_use.search(line)
    ]
    assert offenders == []
