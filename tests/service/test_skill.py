"""Each player's skill over their games: the loss per decision of every finished game,
stored per game and seat when it finishes, reused (also after a restart), made lazily for
games finished before, and exact figures kept apart from estimated ones."""

from __future__ import annotations

import pytest
from sqlalchemy import delete, select

from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.service.games import GameService
from fivedice.store import schema
from fivedice.store.review_summaries import ReviewSummaries
from fivedice.strategy.advisor import advise, expected_loss
from fivedice.strategy.cache import load_or_solve
from fivedice.strategy.review import PROFICIENCY_METHOD

pytestmark = pytest.mark.tables  # the reviews need solved tables


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def service(url):
    service = GameService.open(url)
    yield service
    service.store.close()


def play(service, seats, rules="classic", *, judge=True, practice=False):
    """A game (not practice: its dice are not chosen) where each human holds die 1, rolls
    to the end and scores the first box they may; CPU seats play their level.

    Returns the game and the loss of each human decision, from the advisor, in order
    (one column only; with `judge` False, none).
    """
    ruleset = find_ruleset(rules)
    table = load_or_solve(ruleset) if judge else None
    settings = GameSettings(seats=tuple(seats), rules=ruleset)
    view = service.create_game(settings, practice=practice)
    losses: list[float] = []

    def note(state, chosen):
        if table is not None:
            options = advise(table, state.cards[0].columns[0], state.dice, state.rolls_left)
            losses.append(expected_loss(options, chosen))

    while not view.is_over:
        if view.is_cpu_turn:
            _, view = service.cpu_step(view.game_id, view.version)
            continue
        view = service.apply_action(view.game_id, "roll", view.version)
        view = service.apply_action(view.game_id, "hold 1", view.version)
        while view.state.rolls_left > 0:
            note(view.state, view.state.turn.kept_values)
            view = service.apply_action(view.game_id, "roll", view.version)
        placement = view.state.placements()[0]
        note(view.state, placement.category)
        if ruleset.columns > 1:
            action = f"score {placement.column + 1}:{placement.category.key}"
        else:
            action = f"score {placement.category.key}"
        view = service.apply_action(view.game_id, action, view.version)
    return view, losses


def stored(service):
    return ReviewSummaries(service.store).summaries(PROFICIENCY_METHOD)


def test_a_games_proficiency_is_the_mean_of_its_decisions_losses(service):
    view, losses = play(service, [Seat("Bea")])
    (seat,) = service.review(view.game_id).seats
    assert seat.proficiency.decisions == len(losses) == 39
    assert seat.proficiency.loss_per_decision == pytest.approx(sum(losses) / len(losses))
    assert seat.proficiency.loss_per_decision == pytest.approx(seat.total_loss / 39)
    assert seat.proficiency.optimal == sum(loss < 1e-9 for loss in losses)
    data = service.review(view.game_id).to_json()["seats"][0]["proficiency"]
    assert data["loss_per_decision"] == pytest.approx(sum(losses) / len(losses))
    assert data["keeps"]["decisions"] == 26 and data["boxes"]["decisions"] == 13


def test_a_finished_game_stores_each_humans_summary(service):
    view, losses = play(service, [Seat("Bea"), Seat("Cpu", "expert")])
    (row,) = stored(service)  # the human's; the CPU seat has no profile
    assert (row.game_id, row.seat, row.profile, row.rules) == (view.game_id, 0, "Bea", "classic")
    assert row.figures["decisions"] == len(losses)
    assert row.figures["loss"] == pytest.approx(sum(losses))


def test_statistics_reuse_stored_summaries_and_they_survive_a_restart(url, monkeypatch):
    service = GameService.open(url)
    play(service, [Seat("Bea")])
    view, losses = play(service, [Seat("Bea")])
    first = service.skill("Bea")
    service.store.close()

    def no_review(*_args, **_kwargs):
        raise AssertionError("a stored summary was reviewed again")

    monkeypatch.setattr(GameService, "_review", no_review)
    again = GameService.open(url)  # a new process, as far as the service knows
    (entry,) = again.skill("Bea")
    assert entry == first[0]
    assert len(entry.games) == 2 and entry.games[-1].game_id == view.game_id
    assert entry.games[-1].proficiency.loss == pytest.approx(sum(losses))
    assert entry.trend is not None and entry.trend.window == 1
    again.store.close()


def test_older_finished_games_get_their_summary_when_statistics_need_it(service):
    view, losses = play(service, [Seat("Bea")])
    with service.store.writing() as connection:  # as a game finished before summaries were kept
        connection.execute(delete(schema.review_summaries))
    summaries = ReviewSummaries(service.store)
    assert summaries.unsummarized(PROFICIENCY_METHOD) == [view.game_id]
    (entry,) = service.skill()
    assert entry.overall.loss == pytest.approx(sum(losses))
    assert summaries.unsummarized(PROFICIENCY_METHOD) == []
    with service.store.writing() as connection:
        count = len(connection.execute(select(schema.review_summaries)).all())
    assert count == 1


def test_practice_games_and_cpu_only_games_have_no_summary(service):
    play(service, [Seat("Bea")], practice=True, judge=False)
    play(service, [Seat("Ada", "casual"), Seat("Cy", "beginner")], judge=False)
    assert stored(service) == []
    assert service.skill() == []
    assert ReviewSummaries(service.store).unsummarized(PROFICIENCY_METHOD) == []


def test_estimated_rules_are_kept_apart_from_exact_ones(service):
    play(service, [Seat("Bea")])
    play(service, [Seat("Bea")], rules="triple", judge=False)
    found = {entry.rules: entry for entry in service.skill("Bea")}
    assert set(found) == {"classic", "triple"}
    assert found["classic"].exact and found["classic"].overall.exact
    assert not found["triple"].exact and not found["triple"].overall.exact
    assert found["classic"].overall.decisions == 39
    assert found["triple"].overall.decisions == 3 * 39
    # The triple game's review says its figures are estimates.
    (triple_game,) = found["triple"].games
    (seat,) = service.review(triple_game.game_id).seats
    assert seat.proficiency == triple_game.proficiency


def test_the_move_that_ends_a_game_never_waits_for_a_solve(service, monkeypatch):
    import fivedice.strategy.cache as cache

    monkeypatch.setattr(cache, "load_cached", lambda rules, **_: None)  # no table solved yet
    view, losses = play(service, [Seat("Bea")])
    assert stored(service) == []  # not summarised at the end: that would have solved
    (entry,) = service.skill()  # the statistics make it (they may solve)
    assert entry.games[0].game_id == view.game_id
    assert entry.overall.loss == pytest.approx(sum(losses))


def test_a_game_no_review_handles_is_stored_as_nothing_to_judge(service):
    from tests.support.players import played_games

    (game_id,) = played_games(
        service, GameSettings(seats=(Seat("Bea"),), rules=find_ruleset("maxi-yatzy"))
    )
    (row,) = stored(service)  # tried once, never again
    assert row.game_id == game_id and row.figures["decisions"] == 0
    assert ReviewSummaries(service.store).unsummarized(PROFICIENCY_METHOD) == []
    assert service.skill() == []  # and not shown as a game with no decisions
