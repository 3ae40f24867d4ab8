"""What a browser session holds moves as one: seats, rooms it hosts, room seats it claimed and
tutorial progress go to a new session id in one transaction (a rotated or upgraded session),
and the old id holds nothing afterwards."""

from __future__ import annotations

from fivedice.core.game import GameSettings, Seat
from fivedice.store import schema
from fivedice.store.browser_seats import BrowserSeats, session_key
from fivedice.store.rooms import Rooms
from fivedice.store.tutorial_progress import DONE, TutorialStore


def test_everything_a_session_holds_moves_to_the_new_id_and_the_old_holds_nothing(service, store):
    seats = BrowserSeats(store)
    first = service.create_game(GameSettings((Seat("Ann"), Seat("Bob"))), seed=1).game_id
    second = service.create_game(GameSettings((Seat("Ann"),)), seed=2).game_id
    seats.add("old", [(first, 0), (first, 1), (second, 0)])
    seats.add("new", [(first, 1)])  # held by both: kept once
    room = Rooms(store).create(
        session_key("old"), {}, [("me", "Ann", None, ""), ("friend", "Bob", None, "")]
    )
    with store.writing() as db:
        db.execute(
            schema.room_claims.insert().values(
                room_id=room.room_id, seat=1, session_key=session_key("old")
            )
        )
    progress = TutorialStore(store)
    progress.mark_lesson(session_key("old"), "rolling", DONE)
    progress.mark_lesson(session_key("old"), "scoring", DONE)
    progress.mark_lesson(session_key("new"), "scoring", DONE)
    assert seats.holds_anything("old") and not seats.holds_anything("nobody")

    seats.move_all("old", "new")

    assert not seats.holds_anything("old")
    assert seats.seats_in("new", first) == [0, 1] and seats.seats_in("new", second) == [0]
    assert seats.games("old") == []
    assert Rooms(store).by_id(room.room_id).host_key == session_key("new")
    assert Rooms(store).claims(room.room_id) == [(1, session_key("new"))]
    assert set(progress.tutorial_progress(session_key("new"))) == {"rolling", "scoring"}
    assert progress.tutorial_progress(session_key("old")) == {}


def test_moving_a_session_that_holds_nothing_changes_nothing(service, store):
    seats = BrowserSeats(store)
    game = service.create_game(GameSettings((Seat("Ann"),)), seed=1).game_id
    seats.add("new", [(game, 0)])
    seats.move_all("nobody", "new")
    seats.move_all("new", "new")  # onto itself: nothing to do
    assert seats.seats_in("new", game) == [0]
