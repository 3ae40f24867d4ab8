"""The review summaries' table: kept per game and seat, replaced (never doubled), read with
their player and rules, only for games that statistics count; missing ones are found."""

from __future__ import annotations

import pytest
from sqlalchemy import delete, update

from fivedice.core.game import GameSettings, Seat
from fivedice.store import DatabaseDamagedError, schema
from fivedice.store.review_summaries import ReviewSummaries
from tests.support.players import played_games

METHOD = 1


def figures(loss: float, decisions: int = 39) -> dict[str, float | int | bool]:
    counts = dict.fromkeys(schema.SUMMARY_COUNTS, 0)
    losses = dict.fromkeys(schema.SUMMARY_LOSSES, 0.0)
    return {"exact": True, **counts, **losses, "decisions": decisions, "loss": loss}


@pytest.fixture
def games(service, monkeypatch):
    """Two finished games that count (Ann alone; Ann and a CPU), a practice game, and none of
    them summarised yet (as games finished before summaries were kept)."""
    import fivedice.strategy.cache as cache

    monkeypatch.setattr(cache, "load_cached", lambda rules, **_: None)  # no review at the end
    (solo,) = played_games(service, GameSettings(seats=(Seat("Ann"),)))
    (duel,) = played_games(service, GameSettings(seats=(Seat("Ann"), Seat("Cy", "casual"))))
    practice = service.create_game(GameSettings(seats=(Seat("Ann"),)), seed=3)
    with service.store.writing() as connection:  # (none were made: no table at hand)
        connection.execute(delete(schema.review_summaries))
    return solo, duel, practice.game_id


def test_missing_summaries_are_found_and_saved_ones_are_read_back(service, games):
    solo, duel, _practice = games
    summaries = ReviewSummaries(service.store)
    assert summaries.unsummarized(METHOD) == [solo, duel]
    summaries.save(solo, METHOD, {0: figures(12.5)})
    summaries.save(duel, METHOD, {0: figures(30.0)})
    assert summaries.unsummarized(METHOD) == []
    assert summaries.unsummarized(METHOD + 1) == [solo, duel]  # another method: missing
    rows = summaries.summaries(METHOD)
    assert [(row.game_id, row.seat, row.profile, row.rules) for row in rows] == [
        (solo, 0, "Ann", "classic"),
        (duel, 0, "Ann", "classic"),
    ]
    assert rows[0].figures == figures(12.5)
    assert summaries.summaries(METHOD, "ann") == rows  # names match ignoring case
    assert summaries.summaries(METHOD, "Bob") == []


def test_a_summary_saved_again_replaces_the_first(service, games):
    solo, _duel, _practice = games
    summaries = ReviewSummaries(service.store)
    summaries.save(solo, METHOD, {0: figures(12.5)})
    summaries.save(solo, METHOD, {0: figures(7.0)})
    (row,) = summaries.summaries(METHOD)
    assert row.figures["loss"] == 7.0


def test_a_damaged_summary_is_named_not_a_traceback(service, games):
    solo, _duel, _practice = games
    summaries = ReviewSummaries(service.store)
    summaries.save(solo, METHOD, {0: figures(12.5)})
    if service.store.is_sqlite:  # (PostgreSQL keeps its columns' types)
        with service.store.writing() as connection:
            connection.execute(update(schema.review_summaries).values(decisions="many"))
        with pytest.raises(DatabaseDamagedError, match=r"review_summaries\.decisions"):
            summaries.summaries(METHOD)
