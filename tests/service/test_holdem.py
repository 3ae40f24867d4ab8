"""The Hold'em service: whole games with CPUs, hidden pocket dice, records that verify."""

from __future__ import annotations

import pytest

from fivedice.core.errors import IllegalActionError, MalformedActionError
from fivedice.core.game import Seat
from fivedice.core.holdem import HoldemRules
from fivedice.core.verify import Verdict
from fivedice.service.errors import ReviewRefusedError
from fivedice.service.holdem import HoldemService
from fivedice.service.records import check_record_text

SEATS = (Seat("Ann"), Seat("Bot", "casual"), Seat("Max", "master"))


def pockets_seen(text: str, pockets: list[str]) -> list[str]:
    return [die for die in pockets if die in text]


@pytest.mark.slow  # (CPU equity at every decision: `make test`, not the fast lane)
def test_a_whole_game_to_a_winner_with_verifiable_dice():
    service = HoldemService()
    seats = (Seat("Ann"), Seat("Bot", "casual"), Seat("Max", "strong"))
    game = service.new_game(seats, HoldemRules(starting_stack=100))
    total = 300
    for _ in range(3000):
        service.run_cpus(game)
        view = service.view(game, 0)
        if view.winner is not None:
            break
        assert view.my_turn
        service.act(game, 0, "allin" if "allin" in view.legal else "call")
        assert sum(s.stack + s.committed for s in service.view(game, None).seats) == total
    view = service.view(game, None)
    assert view.winner is not None
    check = check_record_text(service.export(game))
    assert check.verdict is Verdict.VERIFIED, check.problems
    review = service.review(game, samples=100)
    assert review and all(0 <= line.equity.share <= 1 for line in review)
    (ann,) = [row for row in service.stats() if row.name == "Ann"]
    assert ann.played == 1


def test_no_view_shows_another_seats_pocket_dice_before_the_showdown():
    service = HoldemService()
    game = service.new_game(SEATS, HoldemRules())
    service.run_cpus(game)
    spectator = service.view(game, None)
    assert all(seat.pocket is None for seat in spectator.seats)
    mine = service.view(game, 0)
    assert mine.seats[0].pocket is not None
    assert mine.seats[1].pocket is None and mine.seats[2].pocket is None
    # The record of a game in progress names no die at all.
    assert "|" not in service.export(game).split("\n\n", 1)[1].split("signature:")[0]


def test_a_changed_die_in_an_exported_record_is_caught():
    service = HoldemService(sign=False)
    game = service.new_game(
        (Seat("Ann", "casual"), Seat("Bob", "casual")), HoldemRules(starting_stack=40)
    )
    service.run_cpus(game)
    text = service.export(game)
    assert check_record_text(text).verdict is Verdict.UNSIGNED  # the dice hold, unsigned
    head, _, faces = text.partition("0 deal | ")
    changed = head + "0 deal | " + ("1" if faces[0] != "1" else "2") + faces[1:]
    assert check_record_text(changed).verdict is Verdict.ALTERED


def test_bad_actions_change_nothing():
    service = HoldemService()
    game = service.new_game((Seat("Ann"), Seat("Bob")), HoldemRules())
    before = service.export(game)
    to_act = service.view(game, None).to_act
    other = 1 - (to_act or 0)
    with pytest.raises(IllegalActionError):
        service.act(game, other, "check")
    with pytest.raises(MalformedActionError):
        service.act(game, to_act, "jump")
    with pytest.raises(IllegalActionError):
        service.act(game, to_act, "bet 1")
    assert service.export(game) == before
    with pytest.raises(ReviewRefusedError):
        service.review(game)


def test_the_coach_gives_equity_pot_odds_and_an_action():
    service = HoldemService()
    game = service.new_game((Seat("Ann"), Seat("Bob", "casual")), HoldemRules(), seed=3)
    service.run_cpus(game)
    advice = service.coach(game, 0)
    assert advice.equity is not None and 0 <= advice.equity.share <= 1
    assert str(advice.action) in service.view(game, 0).legal or str(advice.action).split()[0] in (
        "bet",
        "raise",
    )
