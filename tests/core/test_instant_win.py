"""A served Generala wins the game at once when others are at the table: the rule is data on
the box (`Box.served_wins`, given to the first all-same box by the served rule), the game
machine ends the game there and ranks that player first whatever the totals; alone, not
served, or in the Double Generala box it is just points. Records of such a game replay and
verify."""

from __future__ import annotations

import pytest

from fivedice.core.dice import ScriptedDice
from fivedice.core.errors import IllegalActionError
from fivedice.core.game import FirstPlayer, GameSettings, GameState, Seat, apply, new_game, rank
from fivedice.core.record import dice_for
from fivedice.core.rules import find_ruleset
from fivedice.core.verify import SignatureStatus, Verdict
from fivedice.service.games import GameService
from fivedice.service.records import check_record_text
from fivedice.store import Store
from fivedice.wording.game import state_lines
from tests.support.players import simple_cpu_factory

GENERALA = find_ruleset("generala")
TWO = (Seat("Ann"), Seat("Bob"))
ALL_SIXES = [6] * 5


def _play(settings: GameSettings, dice: list[int], actions: list[str]) -> GameState:
    source = ScriptedDice(dice)
    state = new_game(settings, source)
    for action in actions:
        state = apply(state, action, source)
    return state


def test_the_served_rule_marks_the_first_all_same_box_as_winning_at_once() -> None:
    assert [box.key for box in GENERALA.boxes if box.served_wins] == ["generala"]
    assert not any(box.served_wins for box in GENERALA.with_settings({"served_bonus": 0}).boxes)
    assert not any(box.served_wins for box in find_ruleset("classic").boxes)


def test_a_served_generala_ends_the_game_and_its_scorer_ranks_first() -> None:
    # Ann scores a full first; Bob 30 + 20 points, then Ann serves a Generala with 80.
    dice = [2, 2, 3, 3, 3, 4, 4, 4, 4, 1, *ALL_SIXES, 1, 2, 3, 4, 5]
    state = _play(
        GameSettings(TWO, GENERALA),
        dice,
        ["roll", "score full", "roll", "score fours", "roll", "score generala"],
    )
    assert state.is_game_over and state.is_match_over
    assert state.instant_winner == 0
    assert state.totals == (85, 16)  # the others' cards as they stand
    assert state.ranks == (1, 2)
    assert state.placements() == []
    with pytest.raises(IllegalActionError, match="over"):
        apply(state, "roll", ScriptedDice([1] * 5))
    lines = state_lines(state)
    assert "Game over." in lines and "1. Ann: 85" in lines


def test_the_winner_ranks_first_even_behind_on_points() -> None:
    assert rank([50, 60, 90], winner=0) == (1, 3, 2)
    assert rank([50, 90, 90], winner=0) == (1, 2, 2)


@pytest.mark.parametrize(
    ("seats", "rules", "dice", "actions"),
    [
        # Alone: a served Generala is worth its 50 points, the game goes on.
        ((Seat("Ann"),), GENERALA, ALL_SIXES, ["roll", "score generala"]),
        # Not served: made on the second roll.
        (TWO, GENERALA, [6, 6, 6, 6, 1, 6], ["roll", "hold 1 2 3 4", "roll", "score generala"]),
        # Without the served rule.
        (TWO, GENERALA.with_settings({"served_bonus": 0}), ALL_SIXES, ["roll", "score generala"]),
        # Served, but scored elsewhere.
        (TWO, GENERALA, ALL_SIXES, ["roll", "score sixes"]),
    ],
)
def test_a_generala_that_does_not_win_at_once_is_points(seats, rules, dice, actions) -> None:
    state = _play(GameSettings(seats, rules), dice, actions)
    assert not state.is_game_over and state.instant_winner is None


def test_a_served_double_generala_is_points() -> None:
    # Ann's Generala on her second roll (50), Bob's ones, then Ann serves five fives.
    dice = [6, 6, 6, 6, 1, 6, 1, 2, 3, 4, 6, *[5] * 5]
    state = _play(
        GameSettings(TWO, GENERALA),
        dice,
        ["roll", "hold 1 2 3 4", "roll", "score generala", "roll", "score ones", "roll"],
    )
    assert state.served and state.instant_winner is None
    state = apply(state, "score double_generala")
    assert state.instant_winner is None and not state.is_game_over
    assert state.totals == (150, 1)


def test_in_a_match_an_instant_win_ends_that_game_only() -> None:
    settings = GameSettings(TWO, GENERALA, FirstPlayer.FIRST_SEAT, match_length=2)
    state = _play(settings, [*ALL_SIXES], ["roll", "score generala"])
    assert state.game_number == 2 and not state.is_game_over
    assert state.finished_games[0].instant_winner == 0
    assert state.finished_games[0].totals == (50, 0)


def _first_roll(seed: int) -> tuple[int, ...]:
    return dice_for(seed, 1).roll(5)  # a seeded game's first action's dice


SERVED_SEED = next(s for s in range(100_000) if len(set(_first_roll(s))) == 1)
"""A seed whose first roll is five of a kind."""


def test_a_record_of_a_game_won_at_once_replays_and_verifies(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    service = GameService(store, cpu_factory=simple_cpu_factory)
    view = service.create_game(GameSettings(TWO, GENERALA), seed=SERVED_SEED)
    view = service.apply_action(view.game_id, "roll", view.version)
    assert len(set(view.state.dice)) == 1
    view = service.apply_action(view.game_id, "score generala", view.version)
    assert view.is_over and view.state.instant_winner == 0
    check = check_record_text(service.export(view.game_id))
    # Replayed to the same end, signed; a seed chosen by the client makes it practice.
    assert check.verdict is Verdict.PRACTICE and not check.problems
    assert check.signature.status is SignatureStatus.VALID
    assert service.load(view.game_id).state.ranks == (1, 2)
    store.close()
