"""Tutorial progress: kept in its own table, kept after quitting, never counted as games."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from fivedice.core import Roll, Score
from fivedice.core.rules import RuleSet
from fivedice.service import GameService, LessonNotFoundError
from fivedice.store import Store, schema
from fivedice.store.tutorial_progress import ProgressError, TutorialStore
from fivedice.tutorial import LESSONS
from tests.unit.test_tutorial import expected_action

from .conftest import human_move, simple_cpu_factory


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
        TutorialStore(service.store).mark_lesson("upper", "half-done")
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
    assert line.startswith("Coach: ") and ("keep" in line or "score" in line)
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
