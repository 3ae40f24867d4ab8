"""The seat rights policy (`seat_refusal`) over every combination of its facts, the facts a
game and its room give, and the room use cases that keep a seat its player's: the first
device claims it, a device code adds one more device once, a hand-over raises the seat's
generation."""

from __future__ import annotations

import itertools

import pytest

from fivedice.core.game import GameSettings, Seat, SettingsError
from fivedice.service.games import GameService
from fivedice.service.rights import (
    HAND_OVER_LEVELS,
    PERSON_KINDS,
    Right,
    SeatFacts,
    SeatRightError,
    seat_refusal,
)
from fivedice.service.rooms import RoomSeatSpec, RoomService
from fivedice.service.seats import game_facts, hand_to_cpu
from fivedice.store import GameClosedError, Store
from fivedice.store.rooms import RoomError
from fivedice.strategy.levels import LEVELS

KINDS = ("me", "local", "friend", "open", "cpu")
BOOLS = (False, True)
ASKED_LEVELS = (*LEVELS, None)


def _expected(right: Right, facts: SeatFacts) -> type[Exception] | None:
    """The rights as the issue states them, written out plainly (the oracle)."""
    person = facts.seat_kind in PERSON_KINDS
    if right is Right.SET_SEED:
        ok = not facts.started and person and facts.holds_seat
        return None if ok else SeatRightError
    if facts.over:
        return GameClosedError
    if right is Right.ABANDON:
        ok = facts.holds_seat and (facts.is_host or not facts.others_play)
        return None if ok else SeatRightError
    if not person:
        return SeatRightError
    if right is Right.ACT:
        return None if facts.holds_seat else SeatRightError
    if right is Right.LEAVE:
        if facts.is_host or not facts.holds_seat:
            return SeatRightError
    elif not facts.is_host or facts.mid_turn:
        return SeatRightError
    return None if facts.level in HAND_OVER_LEVELS else SettingsError


ALL_FACTS = [
    SeatFacts(host, holds, kind, others, started, over, mid, level)
    for host, holds, kind, others, started, over, mid, level in itertools.product(
        BOOLS, BOOLS, KINDS, BOOLS, BOOLS, BOOLS, BOOLS, ASKED_LEVELS
    )
]


@pytest.mark.parametrize("right", list(Right))
def test_every_combination_of_facts_gets_the_stated_right(right):
    assert len(ALL_FACTS) == 2 * 2 * 5 * 2 * 2 * 2 * 2 * (len(LEVELS) + 1)
    for facts in ALL_FACTS:
        refusal = seat_refusal(right, facts)
        expected = _expected(right, facts)
        if expected is None:
            assert refusal is None, (right, facts, refusal)
        else:
            assert type(refusal) is expected, (right, facts, refusal)
            assert str(refusal)  # a reason in words


def test_the_host_never_acts_in_a_friends_seat_it_does_not_hold():
    facts = SeatFacts(is_host=True, holds_seat=False, seat_kind="friend")
    assert isinstance(seat_refusal(Right.ACT, facts), SeatRightError)
    assert isinstance(seat_refusal(Right.SET_SEED, replace_started(facts)), SeatRightError)


def replace_started(facts: SeatFacts) -> SeatFacts:
    return SeatFacts(facts.is_host, facts.holds_seat, facts.seat_kind, started=False)


def test_master_is_the_one_level_a_seat_is_never_handed_to():
    assert set(LEVELS) - set(HAND_OVER_LEVELS) == {"master"}
    facts = SeatFacts(is_host=True, holds_seat=True, seat_kind="me", level="master")
    refused = seat_refusal(Right.HAND_OVER, facts)
    assert isinstance(refused, SettingsError) and "master" in str(refused)


@pytest.fixture
def service(tmp_path):
    service = GameService(Store(f"sqlite:///{tmp_path / 'rights.sqlite3'}"))
    yield service
    service.store.close()


def _started_room(service):
    """Ann (host, "ann"), Bob (friend, claimed by "bob") and Cy (open, by "cy"), started."""
    rooms = RoomService(service)
    room = rooms.create(
        [RoomSeatSpec("me", "Ann"), RoomSeatSpec("friend", "Bob"), RoomSeatSpec("open", "Cy")],
        host_session="ann",
        options={"rules": "classic", "seed": 3},
    )
    rooms.join(room, "bob", by_invitation=True, seat=1)
    joined, seat = rooms.join(room, "cy")
    assert seat == 2
    started, view = rooms.start(room.code, joined.version, fill_with_cpus=False)
    return rooms, started, view


def test_a_games_facts_say_who_hosts_who_holds_and_who_else_plays(service):
    _rooms, room, view = _started_room(service)
    host = game_facts(view, room, held=[0], is_host=True)
    assert host.is_host and host.holds_seat and host.others_play and host.seat_kind == "cpu"
    bob = game_facts(view, room, held=[1], is_host=False, seat=1, level="casual")
    assert (bob.seat_kind, bob.holds_seat, bob.is_host, bob.mid_turn) == (
        "friend",
        True,
        False,
        False,
    )
    assert game_facts(view, room, held=[0], is_host=True, seat=2).seat_kind == "open"
    # A game made without a room: whoever holds its seats made it, and nobody else plays.
    alone = service.create_game(GameSettings((Seat("Ann"), Seat("Dee"))), seed=1)
    facts = game_facts(alone, None, held=[0, 1], is_host=False)
    assert facts.is_host and not facts.others_play
    assert seat_refusal(Right.ABANDON, facts) is None


def test_a_friends_seat_is_claimed_by_the_first_device_only(service):
    rooms = RoomService(service)
    room = rooms.create(
        [RoomSeatSpec("me", "Ann"), RoomSeatSpec("friend", "Bob")],
        host_session="ann",
        options={"rules": "classic"},
    )
    with pytest.raises(RoomError, match="for a friend"):  # the host's own browser
        rooms.join(room, "ann", by_invitation=True, seat=1)
    with pytest.raises(RoomError, match="open to the room code"):  # no invitation
        rooms.join(room, "stranger")
    rooms.join(room, "bob", by_invitation=True, seat=1, client_seed="bob's")
    with pytest.raises(RoomError, match="is taken"):
        rooms.join(room, "forwarded", by_invitation=True, seat=1, client_seed="mine")
    again, seat = rooms.join(room, "bob", by_invitation=True, seat=1, name="Bobby")
    assert seat == 1 and again.seats[1].name == "Bobby" and again.seats[1].client_seed == "bob's"
    assert [key for _seat, key in rooms.claims(room.room_id)] == [
        key for key, _since in rooms.devices(room, 1)
    ]
    assert len(rooms.devices(room, 1)) == 1


def test_a_device_code_adds_one_device_once_and_a_newer_code_voids_the_older(service):
    rooms, room, _view = _started_room(service)
    with pytest.raises(RoomError, match="own device"):
        rooms.new_device_code(room, "stranger")
    seat, old_code = rooms.new_device_code(room, "bob")
    _seat, code = rooms.new_device_code(room, "bob")
    assert seat == 1
    with pytest.raises(RoomError, match="used already"):
        rooms.add_device(room, "phone", old_code)
    added, seat = rooms.add_device(room, "phone", code)
    assert seat == 1 and rooms.holder_of(added, "phone") == 1
    with pytest.raises(RoomError, match="used already"):
        rooms.add_device(room, "someone else", code)
    assert len(rooms.devices(room, 1)) == 2 and rooms.holder_of(room, "someone else") is None


def test_a_seed_is_set_by_the_seats_own_device_only_before_the_start(service):
    rooms = RoomService(service)
    room = rooms.create(
        [RoomSeatSpec("me", "Ann"), RoomSeatSpec("friend", "Bob")],
        host_session="ann",
        options={"rules": "classic"},
    )
    own = SeatFacts(is_host=False, holds_seat=True, seat_kind="friend", started=False)
    hosts = SeatFacts(is_host=True, holds_seat=False, seat_kind="friend", started=False)
    with pytest.raises(SeatRightError, match="own device"):
        rooms.set_client_seed(room, 1, "the host's", hosts)
    assert rooms.by_id(room.room_id).seats[1].client_seed == ""
    assert rooms.set_client_seed(room, 1, "bob's", own).seats[1].client_seed == "bob's"


def test_a_hand_over_raises_the_seats_generation_and_frees_it_between_turns_only(service):
    rooms, room, view = _started_room(service)
    assert rooms.generations(view.game_id) == {0: 0, 1: 0, 2: 0}
    service.apply_action(view.game_id, "roll", 0)
    with pytest.raises(SeatRightError, match="rolled in its turn"):
        hand_to_cpu(service, rooms, view.game_id, 0, "casual", held=[0], is_host=True)
    with pytest.raises(SeatRightError, match="only the host"):
        hand_to_cpu(service, rooms, view.game_id, 1, "casual", held=[0], is_host=False)
    with pytest.raises(SettingsError, match="one of these levels"):
        hand_to_cpu(service, rooms, view.game_id, 1, "master", held=[0], is_host=True)
    after = hand_to_cpu(service, rooms, view.game_id, 1, "casual", held=[0], is_host=True)
    assert after.state.seats[1].is_cpu
    assert rooms.generations(view.game_id) == {0: 0, 1: 1, 2: 0}
    assert rooms.devices(room, 1) == []  # nobody holds the seat any more
    # Cy (open seat) leaves: the host may not, the holder may.
    with pytest.raises(SeatRightError, match="host does not leave"):
        hand_to_cpu(service, rooms, view.game_id, 0, "casual", right=Right.LEAVE, held=[0])
    left = hand_to_cpu(
        service, rooms, view.game_id, 2, "casual", right=Right.LEAVE, held=[2], is_host=False
    )
    assert left.state.seats[2].is_cpu and rooms.generations(view.game_id)[2] == 1
