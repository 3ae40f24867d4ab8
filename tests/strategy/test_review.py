"""The review of a finished game: judged against the advisor, shaped for JSON, refused early."""

from __future__ import annotations

import json

import pytest

from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.service.games import GameService, ReviewRefusedError
from fivedice.store import FINISHED
from fivedice.strategy.advisor import advise, expected_loss
from fivedice.strategy.cache import load_or_solve
from fivedice.strategy.hints import estimated_hints
from fivedice.strategy.review import OPTIMAL_TOLERANCE


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    path = tmp_path_factory.mktemp("review") / "games.sqlite3"
    service = GameService.open(f"sqlite:///{path}")
    yield service
    service.store.close()


def play_cpus(service, settings, seed):
    view = service.create_game(settings, seed=seed)
    while not view.is_over:
        _, view = service.cpu_step(view.game_id, view.version)
    return view


@pytest.fixture(scope="module")
def expert_game(service):
    return play_cpus(service, GameSettings(seats=(Seat("Ada", "expert"),)), seed=11)


def play_badly(service, seed):
    """A human who always holds die 1 and rolls twice, then scores the first legal box.

    Returns the game and, computed from the advisor as the game is played, the expected
    loss of each decision in order.
    """
    rules = find_ruleset("classic")
    table = load_or_solve(rules)
    view = service.create_game(GameSettings(seats=(Seat("Bea"),), rules=rules), seed=seed)
    losses = []

    def judge(state, chosen):
        column = state.cards[0].columns[0]
        options = advise(table, column, state.dice, state.rolls_left)
        losses.append(expected_loss(options, chosen))

    while not view.is_over:
        view = service.apply_action(view.game_id, "roll", view.version)
        view = service.apply_action(view.game_id, "hold 1", view.version)
        while view.state.rolls_left > 0:
            judge(view.state, view.state.turn.kept_values)
            view = service.apply_action(view.game_id, "roll", view.version)
        placement = view.state.placements()[0]
        judge(view.state, placement.category)
        view = service.apply_action(view.game_id, f"score {placement.category.key}", view.version)
    return view, losses


def test_an_expert_loses_nothing_on_any_decision(service, expert_game):
    review = service.review(expert_game.game_id)
    assert review.exact
    (seat,) = review.seats
    assert len(seat.decisions) >= 13  # at least one box a turn
    assert sum(d.kind == "box" for d in seat.decisions) == 13
    for decision in seat.decisions:
        assert decision.loss < OPTIMAL_TOLERANCE, decision
        assert decision.chosen == decision.best
    assert seat.total_loss < 13 * 3 * OPTIMAL_TOLERANCE
    assert seat.optimal_share == 1.0
    assert seat.costliest == ()


def test_the_expert_curve_starts_at_the_expectation_and_ends_at_the_score(service, expert_game):
    (seat,) = service.review(expert_game.game_id).seats
    table = load_or_solve(find_ruleset("classic"))
    assert [point.turn for point in seat.curve] == list(range(14))
    assert seat.curve[0].scored == 0
    assert seat.curve[0].expected_final == pytest.approx(table.expected_score, abs=1e-3)
    final = expert_game.state.totals[0]
    assert seat.curve[-1].scored == final
    assert seat.curve[-1].expected_final == pytest.approx(final)
    scored = [point.scored for point in seat.curve]
    assert scored == sorted(scored)
    # Points to come never go below zero: the forecast is at least what is on the card.
    assert all(p.expected_final >= p.scored - 1e-9 for p in seat.curve)
    assert all(point.win_chance is None for point in seat.curve)  # solo: no winning chances


def test_known_bad_moves_lose_exactly_what_the_advisor_says(service):
    view, losses = play_badly(service, seed=5)
    (seat,) = service.review(view.game_id).seats
    assert [decision.loss for decision in seat.decisions] == losses
    assert sum(loss > 0 for loss in losses) > 10  # the moves really are bad
    assert seat.total_loss == pytest.approx(sum(losses))
    optimal = sum(loss < OPTIMAL_TOLERANCE for loss in losses)
    assert seat.optimal_share == pytest.approx(optimal / len(losses))
    costliest = sorted(losses, reverse=True)[:3]
    assert [d.loss for d in seat.costliest] == costliest
    worst = seat.costliest[0]
    assert worst.best != worst.chosen
    assert worst.best_value - worst.chosen_value == pytest.approx(worst.loss)
    kinds = [d.kind for d in seat.decisions]
    assert kinds == ["keep", "keep", "box"] * 13


def test_json_has_the_documented_shape(service, expert_game):
    data = json.loads(json.dumps(service.review(expert_game.game_id).to_json()))
    assert data["game"] == expert_game.game_id
    assert data["rules"] == "classic"
    assert data["exact"] is True
    assert data["status"] == FINISHED
    (seat,) = data["seats"]
    for key in ("name", "total_loss", "optimal_share", "costliest", "decisions", "curve"):
        assert key in seat
    assert seat["name"] == "Ada"
    decision = seat["decisions"][0]
    assert {"turn", "dice", "rolls_left", "chosen", "best", "loss", "exact"} <= set(decision)
    assert decision["turn"] == 1 and len(decision["dice"]) == 5
    assert decision["chosen"].startswith(("keep ", "score "))
    point = seat["curve"][-1]
    keys = {"game", "turn", "expected_final", "scored", "win_chance", "win_chances"}
    assert set(point) == keys
    assert point["win_chance"] is None and point["win_chances"] is None  # solo: no chances


def test_several_columns_are_marked_as_estimates(service):
    rules = find_ruleset("triple")
    settings = GameSettings(seats=(Seat("Cy", "casual"), Seat("Di", "beginner")), rules=rules)
    view = play_cpus(service, settings, seed=3)
    review = service.review(view.game_id)
    assert not review.exact
    assert review.to_json()["exact"] is False
    for seat in review.seats:
        assert len(seat.curve) == 1 + 13 * 3
        assert seat.curve[-1].scored == view.state.totals[seat.seat]
        assert all(not decision.exact for decision in seat.decisions)
        boxes = [d for d in seat.decisions if d.kind == "box"]
        assert len(boxes) == 39
        assert all(d.chosen.label.startswith("score ") and ":" in d.chosen.label for d in boxes)
    # The beginner does not look ahead: the estimate finds losses.
    assert review.seats[1].total_loss > 0


def test_an_estimated_loss_is_the_several_column_hints_loss(service):
    rules = find_ruleset("triple")
    view = service.create_game(GameSettings(seats=(Seat("Ed"),), rules=rules), seed=9)
    view = service.apply_action(view.game_id, "roll", view.version)
    options = estimated_hints(view.state)
    worst = options[-1]
    assert worst.category is not None and worst.loss > 0
    action = f"score {worst.column + 1}:{worst.category.key}"
    view = service.apply_action(view.game_id, action, view.version)
    service.abandon(view.game_id)
    (seat,) = service.review(view.game_id).seats
    (decision,) = seat.decisions
    assert decision.loss == worst.loss
    assert decision.best.category is options[0].category or options[0].keep is not None


def test_a_game_in_progress_is_refused(service):
    view = service.create_game(GameSettings(seats=(Seat("Fay"), Seat("Gus", "expert"))), seed=1)
    view = service.apply_action(view.game_id, "roll", view.version)
    with pytest.raises(ReviewRefusedError, match="still in progress"):
        service.review(view.game_id)
    assert service.load(view.game_id).version == view.version  # nothing changed


def test_an_abandoned_game_can_be_reviewed(service):
    view = service.create_game(GameSettings(seats=(Seat("Hal"),)), seed=2)
    for action in ("roll", "hold 1 2", "roll"):
        view = service.apply_action(view.game_id, action, view.version)
    service.abandon(view.game_id)
    review = service.review(view.game_id)
    assert review.status == "abandoned"
    (seat,) = review.seats
    assert len(seat.decisions) == 1 and seat.decisions[0].kind == "keep"
    assert len(seat.curve) == 1  # no turn was finished


def test_a_match_curve_counts_the_whole_match(service):
    settings = GameSettings(seats=(Seat("Ivy", "casual"),), match_length=2)
    view = play_cpus(service, settings, seed=4)
    table = load_or_solve(find_ruleset("classic"))
    (seat,) = service.review(view.game_id).seats
    assert len(seat.curve) == 1 + 2 * 13
    assert seat.curve[0].expected_final == pytest.approx(2 * table.expected_score, abs=1e-3)
    assert [p.game for p in seat.curve].count(2) == 13
    assert seat.curve[-1].scored == view.state.match_totals[0]
    assert {d.game for d in seat.decisions} == {1, 2}


def test_winning_chances_have_a_place_on_every_curve_point(service, expert_game):
    from fivedice.strategy.review import with_win_chances

    review = service.review(expert_game.game_id)
    chances = [[i / 20 for i in range(len(seat.curve))] for seat in review.seats]
    filled = with_win_chances(review, chances)
    assert [p.win_chance for p in filled.seats[0].curve] == chances[0]
    assert filled.to_json()["seats"][0]["curve"][3]["win_chance"] == chances[0][3]
    assert review.seats[0].curve[3].win_chance is None  # the review itself is unchanged
    with pytest.raises(ValueError):
        with_win_chances(review, [[0.5]])  # one chance per curve point, no fewer


def test_each_curve_point_has_the_chances_of_the_position_after_that_turn(service):
    from fivedice.service.games import game_win_chances

    settings = GameSettings(seats=(Seat("Kim", "casual"), Seat("Lou", "expert")))
    view = play_cpus(service, settings, seed=9)
    review = service.review(view.game_id)
    expected: list[list[float]] = [[], []]  # every seat's chances, point after point
    before = None
    for entry, state in service.store.load_game(view.game_id).states():
        if entry is None:  # the new game: every seat's turn-0 point
            for chances in expected:
                chances += game_win_chances(state)
        elif entry.action.startswith("score"):  # the end of the turn of the seat that scored
            expected[before.current_seat] += game_win_chances(state)
        before = state
    for seat, seat_expected in zip(review.seats, expected, strict=True):
        got = [chance for p in seat.curve for chance in p.win_chances]
        assert len(seat.curve) == 14 and got == pytest.approx(seat_expected, abs=1e-12)
        assert [p.win_chance for p in seat.curve] == got[seat.seat :: 2]


def test_a_table_game_that_used_undo_is_reviewed_as_it_stands(service, classic_table):
    """The players took back a wrong entry and a wrong box: the review judges the game the
    card shows (every box once), never the undone entries."""
    from fivedice.service.settings import build_table_settings

    rules = find_ruleset("classic")
    view = service.create_game(build_table_settings(rules, ["Ann", "Bob"]))
    boxes = [box.key for box in rules.boxes]
    for turn, box in enumerate(boxes):
        for seat in range(2):
            dice = f"{turn % 6 + 1} {seat + 2} 3 4 5"
            view = service.apply_action(view.game_id, "dice 6 6 6 6 6", view.version)
            view = service.undo(view.game_id, view.version)  # the wrong dice typed
            view = service.apply_action(view.game_id, f"dice {dice}", view.version)
            if turn == 0:  # the wrong box, taken back by the player who chose it
                wrong = boxes[-1]
                view = service.apply_action(view.game_id, f"score {wrong}", view.version)
                view = service.undo(view.game_id, view.version)
            view = service.apply_action(view.game_id, f"score {box}", view.version)
    assert view.is_over
    review = service.review(view.game_id)
    for seat in review.seats:
        assert [d.kind for d in seat.decisions] == ["box"] * 13
        assert [d.chosen.category.key for d in seat.decisions] == boxes
        assert [d.turn for d in seat.decisions] == list(range(1, 14))
        assert seat.curve[-1].scored == view.state.totals[seat.seat]


def test_a_solo_game_that_used_undo_is_reviewed_without_the_undone_holds(service):
    view = service.create_game(GameSettings(seats=(Seat("Cal"),)), seed=4)
    while not view.is_over:
        view = service.apply_action(view.game_id, "roll", view.version)
        view = service.apply_action(view.game_id, "hold 1 2", view.version)
        view = service.undo(view.game_id, view.version)  # changed their mind
        placement = view.state.placements()[0]
        view = service.apply_action(view.game_id, f"score {placement.category.key}", view.version)
    (seat,) = service.review(view.game_id).seats
    assert [d.kind for d in seat.decisions] == ["box"] * 13
    assert seat.curve[-1].scored == view.state.totals[0]


def test_explained_reviews_say_why_the_best_beat_each_costly_choice(service):
    from fivedice.strategy.breakdown import component_keys
    from fivedice.wording.review import decision_line, review_lines

    view, losses = play_badly(service, seed=6)
    (plain,) = service.review(view.game_id).seats
    assert all(decision.reasons == () for decision in plain.decisions)  # not asked for
    review = service.review(view.game_id, explain=True)
    (seat,) = review.seats
    assert [decision.loss for decision in seat.decisions] == losses  # the same judgement
    keys = set(component_keys(find_ruleset("classic")))
    for decision in seat.decisions:
        if decision.is_optimal:
            assert decision.reasons == ()
            continue
        points = [p for _, p in decision.reasons]
        assert {key for key, _ in decision.reasons} <= keys and len(points) <= 4
        gains = [p for p in points if p > 0]
        assert points == sorted(gains, reverse=True) + sorted(p for p in points if p < 0)
        if decision.loss > 1.0:  # the best must gain somewhere what the choice lost
            assert gains and gains[0] >= decision.loss / len(keys)
    worst = seat.costliest[0]
    lines = review_lines(review, chart=False)
    at = lines.index("  " + decision_line(worst))
    assert lines[at + 1].strip().startswith("Why: +")
    assert review.to_json()["seats"][0]["decisions"][0].keys() >= {"reasons"}


@pytest.mark.slow  # (a whole CPU game of three columns, reviewed twice)
def test_explained_several_column_reviews_name_the_columns_of_their_reasons(service):
    from fivedice.wording.review import decision_line, decision_why, review_lines

    rules = find_ruleset("triple")
    view = play_cpus(service, GameSettings(seats=(Seat("Di", "beginner"),), rules=rules), seed=5)
    (plain,) = service.review(view.game_id).seats
    assert all(decision.reasons == () for decision in plain.decisions)  # not asked for
    review = service.review(view.game_id, explain=True)
    (seat,) = review.seats
    assert [d.loss for d in seat.decisions] == [d.loss for d in plain.decisions]  # same judge
    costly = [d for d in seat.decisions if not d.is_optimal]
    assert costly  # the beginner does not look ahead
    for decision in costly:
        assert decision.reasons and not decision.exact
        assert all(key.split(":")[0] in {"1", "2", "3"} for key, _ in decision.reasons)
    worst = seat.costliest[0]
    lines = review_lines(review, chart=False)
    at = lines.index("  " + decision_line(worst))
    assert lines[at + 1].strip() == decision_why(worst, rules)
    assert lines[at + 1].strip().startswith("Why (estimated): +")
    assert "(column " in lines[at + 1]
