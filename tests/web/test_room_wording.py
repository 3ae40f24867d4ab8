"""The waiting room tells each device the truth: what its code does (a friend named on a seat
joins by their own link, the code takes an open seat, and only when there is one), and whose
seats are whose from this device's side ("Me" is the host's word, read on the host's device
only)."""

from __future__ import annotations

import re

from tests.web.support import another_browser, invitations, open_room


def seat_of(page: str, number: int) -> str:
    """The text of one seat's line in the waiting room, tags dropped."""
    found = re.search(rf'id="seat-{number}">(.*?)</li>', page, re.S)
    assert found, number
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_the_code_note_says_what_the_code_takes(client, app):
    links_only = client.get(open_room(client)).text  # Ann here, Bob invited: no open seat
    assert "this game has no open seat" in links_only and "anyone takes" not in links_only
    with_open = client.get(open_room(client, kind2="open", name2="")).text
    assert "anyone takes an open seat" in with_open and "no open seat" not in with_open


def test_a_friend_typing_the_code_is_sent_to_their_link(client, app):
    room = open_room(client, kind2="open", name2="")
    with another_browser(app) as bob:
        refused = bob.post("/join", data={"code": room[3:], "name": "Bob"})
        assert refused.status_code == 409
        assert "kept for the invitation link" in refused.text
        # Another name takes the open seat; Bob's seat still waits for his link.
        joined = bob.post("/join", data={"code": room[3:], "name": "Rob"}, follow_redirects=False)
        assert joined.status_code == 303
    seats = app.state.hub.room(room[3:]).seats
    assert [(s.name, s.joined) for s in seats] == [("Ann", True), ("Bob", False), ("Rob", True)]


def test_each_device_reads_the_seats_from_its_own_side(client, app):
    room = open_room(client)
    host_page = client.get(room).text
    assert "Me" in seat_of(host_page, 0) and "you" in seat_of(host_page, 0)
    (invite,) = invitations(host_page)
    seat, key = re.search(r"/invite/(\d+)\?key=(\w+)", invite).groups()
    with another_browser(app) as bob:
        bob.post("/join", data={"code": room[3:], "seat": seat, "key": key, "name": "Bob"})
        page = bob.get(room).text
        ann, bob_seat = seat_of(page, 0), seat_of(page, 1)
        assert "The host" in ann and "Me" not in ann and "you" not in ann
        assert "you" in bob_seat
    host_again = client.get(room).text
    assert "Me" in seat_of(host_again, 0) and "you" not in seat_of(host_again, 1)
