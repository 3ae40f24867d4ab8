"""Drills: positions from the player's own costliest decisions and the built-in ones, the
spaced-repetition schedule, bad answers, and that nothing reaches games or statistics."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from fivedice.core.errors import FivediceError
from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.service.drills import (
    AFTER_MISS,
    AFTER_RIGHT,
    BUILTIN,
    BUILTIN_PREFIX,
    MIN_LOSS,
    PER_GAME,
    Drill,
    Position,
    pick_next,
    reschedule,
)
from fivedice.service.games import GameService
from fivedice.store import schema
from fivedice.store.browser_seats import BrowserSeats, session_key
from fivedice.store.drills import DrillRow, DrillStore
from fivedice.strategy.hints import exact_hints
from tests.support.players import play_out, simple_cpu_factory

GAME_TABLES = (
    schema.games,
    schema.game_seats,
    schema.actions,
    schema.results,
    schema.profiles,
    schema.web_seats,
    schema.game_sessions,
)


def count_rows(service: GameService) -> dict[str, int]:
    with service.store.engine.connect() as connection:
        return {
            table.name: int(
                connection.execute(select(func.count()).select_from(table)).scalar_one()
            )
            for table in GAME_TABLES
        }


@pytest.fixture
def service() -> GameService:
    return GameService.open(None, cpu_factory=simple_cpu_factory)


def finished_game(service: GameService, seed: int = 5, rules: str = "classic") -> int:
    """A finished game of a human ("Ann", playing like the simple CPU) and a CPU."""
    settings = GameSettings(seats=(Seat("Ann"), Seat("CPU", "casual")), rules=find_ruleset(rules))
    view = service.create_game(settings, seed=seed)
    play_out(service, view.game_id)
    return view.game_id


def best_answer(service: GameService, drill: Drill) -> str:
    """The advisor's best move in the game's notation."""
    best = service.drill_options(drill.position)[0]
    if best.category is not None:
        return f"score {best.category.key}"
    return "hold " + " ".join(map(str, best.hold)) if best.hold else "roll"


def wrong_answer(service: GameService, drill: Drill) -> str:
    """A move that loses points (the worst one)."""
    worst = service.drill_options(drill.position)[-1]
    assert worst.loss > 0
    if worst.category is not None:
        return f"score {worst.category.key}"
    return "hold " + " ".join(map(str, worst.hold)) if worst.hold else "roll"


# -- the schedule, on its own ---------------------------------------------------------------


def row(
    key: str,
    *,
    rank: int = 0,
    loss: float | None = None,
    right: int = 0,
    answered: int = 0,
    due: int = 0,
) -> DrillRow:
    return DrillRow(key, "{}", rank, loss, None, right, answered, answered - right, due)


def test_a_miss_comes_back_after_three_other_answers_and_due_ones_come_before_new_ones():
    assert reschedule(row("a"), 5, right=False) == (0, 5 + AFTER_MISS)
    missed = row("a", answered=1, due=5 + AFTER_MISS)
    new = [row(f"n{i}", rank=1000 + i) for i in range(10)]
    shown = []
    clock = 5
    rows = [missed, *new]
    for _ in range(AFTER_MISS + 1):
        key = pick_next(rows, clock)
        shown.append(key)
        rows = [
            r if r.key != key else row(key, answered=1, right=1, due=clock + AFTER_RIGHT)
            for r in rows
        ]
        clock += 1
    assert shown == ["n0", "n1", "n2", "a"]  # three others, then the missed one


def test_mastered_positions_never_come_back_and_none_is_left_at_the_end():
    two = reschedule(row("a", answered=1, right=1), 9, right=True)
    assert two[0] == 2
    rows = [row("a", answered=2, right=2, due=0), row("b", answered=3, right=2, due=0)]
    assert pick_next(rows, 100) is None
    # A waiting position is shown even before it is due when nothing else is left.
    rows.append(row("c", answered=1, due=50))
    assert pick_next(rows, 10) == "c"
    assert pick_next(rows, 10, leave_out="c") == "c"  # the only one left


def test_new_positions_come_costliest_first_then_the_built_in_ones():
    rows = [
        row(BUILTIN_PREFIX + "x", rank=1000),
        row("cheap", loss=0.7),
        row("dear", loss=9.5),
        row("middle", loss=3.0),
    ]
    order = []
    while (key := pick_next(rows, 0)) is not None and len(order) < 4:
        order.append(key)
        rows = [r for r in rows if r.key != key]
    assert order == ["dear", "middle", "cheap", BUILTIN_PREFIX + "x"]


def test_a_position_survives_its_json_and_the_same_dice_in_another_order_are_one_drill():
    rules = find_ruleset("yatzy")
    from fivedice.core.card import Column

    column = Column.from_scores(rules, {"sixes": 18, "one_pair": 12})
    position = Position(rules, column, (3, 1, 4, 1, 5), 1)
    assert Position.from_json(position.to_json()) == position
    assert Position(rules, column, (1, 1, 3, 4, 5), 1).key == position.key
    assert Position(rules, column, (1, 1, 3, 4, 5), 0).key != position.key


# -- built-in positions ---------------------------------------------------------------------


@pytest.mark.parametrize("item", BUILTIN, ids=[item.name for item in BUILTIN])
def test_each_built_in_position_teaches_the_advisors_best_move(item, classic_table):
    position = item.position()
    options = exact_hints(classic_table, position.state())
    taught = next(option for option in options if option.notation == item.best)
    assert taught.loss < 1e-9, f"{item.name}: the advisor prefers {options[0].notation}"
    # A lesson needs a clear answer: every other move loses points, except keeping all the
    # dice, which is scoring the same dice one roll later.
    ties = [o for o in options if o.loss < 0.01 and o is not taught]
    assert all(o.keep is not None and len(o.keep) == len(position.dice) for o in ties)


# -- the service: answers, the schedule, the player's own games -----------------------------


@pytest.mark.tables
def test_a_missed_position_comes_back_and_one_answered_right_twice_does_not(service):
    first = service.drill_next()
    assert first is not None and first.key == BUILTIN_PREFIX + BUILTIN[0].name
    missed = service.drill_answer(first.key, wrong_answer(service, first))
    assert not missed.right and missed.loss > 0 and missed.comes_back_after == AFTER_MISS
    assert missed.best.notation == BUILTIN[0].best
    shown = []
    last = first.key
    for _ in range(AFTER_MISS):
        drill = service.drill_next(after=last)
        assert drill is not None
        shown.append(drill.key)
        service.drill_answer(drill.key, best_answer(service, drill))
        last = drill.key
    assert first.key not in shown
    assert service.drill_next(after=last).key == first.key  # it is due again
    right = service.drill_answer(first.key, best_answer(service, first))
    assert right.right and right.loss == 0 and right.comes_back_after == AFTER_RIGHT
    for _ in range(AFTER_RIGHT):
        drill = service.drill_next(after=first.key)
        assert drill.key != first.key
        service.drill_answer(drill.key, best_answer(service, drill))
    again = service.drill_next()
    assert again.key == first.key  # right once: it comes back once more
    done = service.drill_answer(first.key, best_answer(service, first))
    assert done.drill.mastered and done.comes_back_after is None
    # Answered right twice in a row: it never comes back, however long one practises.
    for _ in range(3 * len(BUILTIN)):
        drill = service.drill_next()
        if drill is None:
            break
        assert drill.key != first.key
        service.drill_answer(drill.key, best_answer(service, drill))
    assert service.drill_next() is None
    progress = service.drill_progress()
    assert progress.mastered == progress.total == len(BUILTIN)


@pytest.mark.tables
def test_the_progress_is_kept_for_the_next_session_and_per_owner(service):
    first = service.drill_next()
    service.drill_answer(first.key, wrong_answer(service, first))
    later = GameService.open(None, cpu_factory=simple_cpu_factory)  # the next session
    assert later.drill(first.key).times_missed == 1
    assert later.drill_progress().waiting == 1
    visitor = session_key("a browser")
    assert later.drill_progress(visitor).waiting == 0  # another player's progress
    assert later.drill_next(visitor).key == first.key  # ... starts from the beginning


@pytest.mark.tables
def test_positions_come_from_the_players_costliest_decisions_in_order(service):
    game_id = finished_game(service)
    from fivedice.service.review import replay_in_effect
    from fivedice.strategy.review import review_game

    states = replay_in_effect(service.store.load_game(game_id).states())
    ann = review_game(states).seats[0]  # as `fivedice review` judges (no winning chances)
    costly = sorted((d for d in ann.decisions if d.loss >= MIN_LOSS), key=lambda d: -d.loss)[
        :PER_GAME
    ]
    assert len(costly) == PER_GAME  # the simple 'human' makes mistakes enough
    shown = []
    for _ in range(PER_GAME):
        drill = service.drill_next(after=shown[-1] if shown else None)
        assert drill.game_id == game_id and not drill.title
        shown.append(drill.key)
        assert best_answer(service, drill)  # answered right: not due before the others
        service.drill_answer(drill.key, best_answer(service, drill))
    drills = [service.drill(key) for key in shown]
    assert [d.lost for d in drills] == pytest.approx([d.loss for d in costly])
    assert [sorted(d.position.dice) for d in drills] == [sorted(d.dice) for d in costly]
    assert [(d.turn, d.played) for d in drills] == [(d.turn, d.chosen.label) for d in costly]
    # The CPU's decisions are not the player's: only the built-in ones follow.
    assert service.drill_next(after=shown[-1]).key.startswith(BUILTIN_PREFIX)


@pytest.mark.tables
def test_drills_write_nothing_to_games_or_statistics(service):
    finished_game(service)
    before = count_rows(service)
    stats = service.stats()
    for _ in range(8):
        drill = service.drill_next()
        service.drill_answer(drill.key, wrong_answer(service, drill))
        with pytest.raises(FivediceError):
            service.drill_answer(drill.key, "score nothing-at-all")
    service.drill_reset()
    assert count_rows(service) == before
    assert service.stats() == stats


def test_bad_answers_get_a_clear_error_and_change_nothing(service):
    drill = service.drill_next()  # no games: the first built-in position, no solver needed
    before = DrillStore(service.store).book("")
    late = next(d for d in BUILTIN if d.rolls_left == 0 and d.scores)
    late_key = BUILTIN_PREFIX + late.name
    cases = {
        drill.key: {
            "hold 9": "there is no die 9",
            "hold 0": "there is no die 0",
            "score foo": "no box is called 'foo'",
            "score": "name a box to score",
            "fly away": "answer with the dice to hold",
            "": "answer with the dice to hold",
            "x" * 300: "answer with the dice to hold",
        },
        late_key: {
            "hold 1 2": "nothing to hold: score a box",
            "roll": "no rolls are left",
            "score yahtzee": "the Yahtzee box is already filled",
        },
    }
    for key, answers in cases.items():
        for answer, words in answers.items():
            with pytest.raises(FivediceError) as refused:
                service.drill_answer(key, answer)
            assert words in str(refused.value)
    with pytest.raises(FivediceError, match="there is no drill"):
        service.drill_answer("pos:nothing", "roll")
    assert DrillStore(service.store).book("") == before


@pytest.mark.slow  # a whole triple game played first
def test_several_column_games_give_no_drills(service):
    game_id = finished_game(service, rules="triple")
    assert service.load(game_id).is_over
    drill = service.drill_next()
    assert drill.key.startswith(BUILTIN_PREFIX)
    assert service.drill_progress().own == 0


def test_the_local_user_practises_human_seats_no_browser_holds(service):
    game_id = finished_game(service, seed=3)
    other = finished_game(service, seed=4)
    BrowserSeats(service.store).add("a browser", [(other, 0)])
    drills = DrillStore(service.store)
    assert drills.owned_seats("", 0) == [(game_id, 0)]  # not the CPU's seat, not the browser's
    assert drills.owned_seats(session_key("a browser"), 0) == [(other, 0)]
    assert drills.owned_seats(session_key("someone else"), 0) == []
    assert drills.owned_seats("", game_id) == []  # games already looked at are not again


@pytest.mark.tables
def test_the_same_position_met_in_two_games_is_one_drill(service):
    first = finished_game(service, seed=5)
    second = finished_game(service, seed=5)  # the same dice, the same choices
    assert service.load(first).state.cards == service.load(second).state.cards
    progress = service.drill_progress()
    assert progress.own == PER_GAME
    assert progress.total == PER_GAME + len(BUILTIN)


def test_a_damaged_game_gives_no_drills_and_practice_goes_on(service):
    from sqlalchemy import update

    game_id = finished_game(service, seed=6)
    with service.store.writing() as connection:  # a log edited by hand: no longer replays
        connection.execute(
            update(schema.actions)
            .where(schema.actions.c.game_id == game_id, schema.actions.c.seq == 3)
            .values(action="score nothing")
        )
    drill = service.drill_next()
    assert drill is not None and drill.key.startswith(BUILTIN_PREFIX)
    assert service.drill_progress().own == 0
