"""Tutorial progress: kept in its own table, kept after quitting, never counted as games."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, text

from fivedice.core import Roll, Score
from fivedice.core.rules import RuleSet
from fivedice.service.games import GameService, LessonNotFoundError
from fivedice.service.tutorial import LESSONS
from fivedice.store import DatabaseDamagedError, Store, schema
from fivedice.store.browser_seats import session_key
from fivedice.store.tutorial_progress import ProgressError, TutorialStore
from tests.support.players import human_move, simple_cpu_factory
from tests.support.tutorial import expected_action


def finish(service: GameService, key: str, **start):
    run = service.tutorial_start(key, RuleSet(), **start)
    while not run.finished:
        action = human_move(run.state) if run.lesson.guided else expected_action(run)
        run = service.tutorial_act(run, str(action))
    return run


def count_rows(store: Store, table) -> int:
    with store.engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(table)).scalar_one())


@pytest.fixture
def quiet_coach(monkeypatch):
    """The guided game's coach without the solver (its own test uses the real one)."""
    monkeypatch.setattr(GameService, "tutorial_coach", lambda self, state: [])


def test_progress_is_kept_after_quitting_and_never_counted_as_games(db_url, quiet_coach):
    store = Store(db_url)
    service = GameService(store, cpu_factory=simple_cpu_factory)
    assert service.tutorial_progress() == {}
    for lesson in LESSONS:
        done = finish(service, lesson.key, seed=11)
        assert done.finished
    service.tutorial_skip("rolling")  # a skip never undoes a lesson done
    finish(service, "scoring")  # a replay counts again
    store.close()

    again = GameService(Store(db_url), cpu_factory=simple_cpu_factory)  # a new process
    progress = again.tutorial_progress()
    assert set(progress) == {lesson.key for lesson in LESSONS}
    assert {p.status for p in progress.values()} == {"done"}
    assert progress["scoring"].times_done == 2 and progress["zero"].times_done == 1
    # Nothing of the tutorial is a game: no games, results, statistics or high scores.
    assert again.list_games() == []
    assert again.stats() == []
    assert again.high_scores() == {}
    for table in (schema.games, schema.actions, schema.results, schema.profiles):
        assert count_rows(again.store, table) == 0
    assert count_rows(again.store, schema.tutorial_progress) == len(LESSONS)
    again.tutorial_reset()
    assert again.tutorial_progress() == {}
    again.store.close()


def test_skipping_and_unknown_lessons(db_url):
    service = GameService(Store(db_url))
    assert service.tutorial_skip("upper").status == "skipped"
    assert service.tutorial_progress()["upper"].times_done == 0
    with pytest.raises(LessonNotFoundError, match="no lesson 'nope'"):
        service.tutorial_skip("nope")
    with pytest.raises(LessonNotFoundError):
        service.tutorial_start("nope")
    with pytest.raises(ProgressError):
        TutorialStore(service.store).mark_lesson("", "upper", "half-done")
    assert set(service.tutorial_progress()) == {"upper"}
    service.store.close()


def test_the_guided_game_is_real_and_the_coach_comments(tmp_path):
    """A whole game against the beginner CPU, with the real coach (the solver's table)."""
    service = GameService.open(f"sqlite:///{tmp_path / 'guided.sqlite3'}")
    run = service.tutorial_start("guided", seed=5)
    assert run.state.seats[1].cpu_level == "beginner"
    assert "roll" in service.tutorial_coach_line(run)
    run = service.tutorial_act(run, Roll())
    line = service.tutorial_coach_line(run)
    assert line.startswith("Coach: ") and ("hold dice" in line or "score" in line)
    assert "keep" not in line  # the dice by their positions, never faces and positions
    best = service.tutorial_coach(run.state)[0]
    comments = []
    while not run.finished:
        state = run.state
        action = human_move(state)
        if state.dice is not None and state.rolls_left == 0:
            action = Score(best.category) if best.category else action
        run = service.tutorial_act(run, action)
        comments.extend(run.feedback.lines)
        if not run.finished and run.state.dice is not None:
            best = service.tutorial_coach(run.state)[0]
    assert any("The coach" in line for line in comments)
    assert any(line.startswith("Beginner CPU scores") for line in comments)
    assert comments[-1].startswith("The game is over")
    assert all(card.is_complete for card in run.state.cards)
    assert service.tutorial_progress()["guided"].status == "done"
    assert service.list_games() == [] and service.stats() == []
    service.store.close()


def test_each_owner_has_its_own_progress(db_url):
    """The local user ("") and two browser sessions: marks and resets stay with their owner."""
    service = GameService(Store(db_url))
    ann, bob = session_key("a" * 43), session_key("b" * 43)
    service.tutorial_mark_done("upper", ann)
    service.tutorial_mark_done("upper", ann)
    service.tutorial_skip("upper", bob)  # bob's skip is not undone by ann's lesson done
    service.tutorial_skip("lower")
    assert {k: (p.status, p.times_done) for k, p in service.tutorial_progress(ann).items()} == {
        "upper": ("done", 2)
    }
    assert {k: p.status for k, p in service.tutorial_progress(bob).items()} == {"upper": "skipped"}
    assert set(service.tutorial_progress()) == {"lower"}
    assert service.tutorial_progress(session_key("c" * 43)) == {}
    service.tutorial_reset(ann)
    assert service.tutorial_progress(ann) == {}
    assert set(service.tutorial_progress(bob)) == {"upper"}
    assert set(service.tutorial_progress()) == {"lower"}
    service.tutorial_reset()
    assert service.tutorial_progress() == {} and set(service.tutorial_progress(bob)) == {"upper"}
    # A web visitor without a session (owner None) plays a lesson through; nothing is saved.
    run = service.tutorial_start("rolling", RuleSet(), seed=3)
    while not run.finished:
        run = service.tutorial_act(run, str(expected_action(run)), None)
    assert count_rows(service.store, schema.tutorial_progress) == 1  # only bob's skip
    service.store.close()


@pytest.mark.parametrize(
    ("column", "value", "named"),
    [
        ("updated_at", "'yesterday'", "tutorial_progress.updated_at is not a date and time"),
        ("times_done", "'twice'", "tutorial_progress.times_done is not a whole number"),
        ("status", "'half'", "a lesson is done or skipped, not 'half'"),
    ],
)
def test_a_damaged_row_is_named_and_left_as_it_is(tmp_path, column, value, named):
    """SQLite keeps any text in any column: a row edited by hand is reported, as the other
    damaged rows of the store are, and neither a read nor a write changes it."""
    service = GameService(Store(f"sqlite:///{tmp_path / 'progress.sqlite3'}"))
    bob = session_key("b" * 43)
    service.tutorial_mark_done("upper")
    service.tutorial_mark_done("upper", bob)
    with service.store.engine.begin() as connection:
        connection.execute(
            text(f"UPDATE tutorial_progress SET {column} = {value} WHERE owner = ''")
        )
        before = connection.execute(text("SELECT * FROM tutorial_progress ORDER BY 1")).all()
    with pytest.raises(DatabaseDamagedError, match=named):
        service.tutorial_progress()
    with pytest.raises(DatabaseDamagedError, match=named):
        service.tutorial_skip("upper")
    with service.store.engine.connect() as connection:
        after = connection.execute(text("SELECT * FROM tutorial_progress ORDER BY 1")).all()
    assert after == before
    assert service.tutorial_progress(bob)["upper"].times_done == 1  # other owners are fine
    service.store.close()
