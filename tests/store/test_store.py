"""Store and service round trips, run on SQLite and on PostgreSQL alike."""

from __future__ import annotations

import re
import threading

import pytest
from sqlalchemy import text

from fivedice.core.dice import ScriptedDice
from fivedice.core.errors import IllegalActionError, MalformedActionError
from fivedice.core.game import FirstPlayer, GameSettings, Seat, replay
from fivedice.core.rules import find_ruleset
from fivedice.service.games import GameService, NotCpuTurnError
from fivedice.store import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    DatabaseDamagedError,
    GameClosedError,
    GameDamagedError,
    GameNotFoundError,
    SchemaTooNewError,
    StaleVersionError,
    Store,
    StoreUnavailableError,
    dice_for,
    parse_record,
)
from tests.support.players import human_move, play_out, simple_cpu_factory

DATABASES = ("sqlite", "postgresql")  # the contract suite: both databases alike

SOLO = GameSettings((Seat("Ann"),))
DUEL = GameSettings((Seat("Ann"), Seat("CPU 1 (casual)", "casual")))


def newest_revisions(store: Store) -> tuple[str, ...]:
    from alembic.script import ScriptDirectory

    return tuple(ScriptDirectory.from_config(store._alembic_config()).get_heads())


@pytest.mark.empty_database
def test_migration_from_an_empty_database(db_url):
    store = Store(db_url)
    assert store.schema_version() == newest_revisions(store)
    with store.engine.connect() as connection:
        tables = {
            row[0]
            for row in connection.execute(
                text(
                    "SELECT name FROM sqlite_master WHERE type='table'"
                    if store.is_sqlite
                    else "SELECT tablename FROM pg_tables WHERE schemaname='public'"
                )
            )
        }
    assert {"games", "actions", "game_seats", "profiles", "results", "alembic_version"} <= tables
    assert "tutorial_progress" in tables
    store.close()
    again = Store(db_url)  # opening an up-to-date database changes nothing
    assert again.schema_version() == newest_revisions(again)
    again.close()


def test_a_newer_schema_is_refused(db_url):
    Store(db_url).close()
    store = Store(db_url, migrate=False)
    with store.engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999_' || version_num"))
    with pytest.raises(SchemaTooNewError, match="newer version of fivedice"):
        store.migrate()
    store.close()


@pytest.mark.empty_database
def test_a_foreign_database_is_refused_and_kept(db_url):
    store = Store(db_url, migrate=False)
    with store.engine.begin() as connection:
        connection.execute(text("CREATE TABLE invoices (id INTEGER PRIMARY KEY)"))
    with pytest.raises(DatabaseDamagedError, match="not a fivedice database"):
        store.migrate()
    with store.engine.connect() as connection:
        connection.execute(text("SELECT * FROM invoices"))  # still there
    store.close()


def test_full_game_round_trip_with_cpu(service, db_url):
    view = service.create_game(DUEL, seed=11)
    assert (view.version, view.status) == (0, IN_PROGRESS)
    final = play_out(service, view.game_id)
    assert final.status == FINISHED and final.state.is_match_over
    assert final.version == len(service.record(view.game_id).actions)

    fresh = GameService(Store(db_url), cpu_factory=simple_cpu_factory)
    loaded = fresh.load(view.game_id)
    assert loaded.state == final.state and loaded.version == final.version
    assert loaded.status == FINISHED

    record = fresh.record(view.game_id)
    rebuilt = replay(
        record.settings,
        [entry.action for entry in record.actions],
        ScriptedDice([d for entry in record.actions for d in entry.dice]),
    )
    assert rebuilt == final.state
    # Each action's dice are those of (seed, action number): no hidden generator state.
    for entry in record.actions:
        if entry.dice:
            assert entry.dice == dice_for(11, entry.seq).roll(len(entry.dice))

    parsed = parse_record(fresh.export(view.game_id))
    assert parsed.rebuild() == final.state
    assert parsed.totals == final.state.match_totals

    [summary] = fresh.list_games()
    assert summary.to_json() | {"started": None} == {
        "id": view.game_id,
        "started": None,
        "players": ["Ann", "CPU 1 (casual)"],
        "rules": "classic",
        "status": "finished",
        "actions": final.version,
        "totals": list(final.state.totals),
        "practice": True,  # the seed was chosen by the caller: a practice game
        "kind": "play",
        "dice_commitment": None,
        "server_seed": None,
        "damage": None,
    }
    with pytest.raises(GameClosedError):
        fresh.apply_action(view.game_id, "roll", final.version)


def test_resume_rolls_the_same_dice_as_an_uninterrupted_game(db_url, tmp_path):
    straight = GameService(Store(db_url), cpu_factory=simple_cpu_factory)
    one = straight.create_game(DUEL, seed=5)
    play_out(straight, one.game_id)

    interrupted = GameService(Store(db_url), cpu_factory=simple_cpu_factory)
    two = interrupted.create_game(DUEL, seed=5)
    played = 0
    while not interrupted.load(two.game_id).is_over:
        # A new service (a new process) for every few actions.
        interrupted = GameService(Store(db_url), cpu_factory=simple_cpu_factory)
        play_out(interrupted, two.game_id, limit=7)
        played += 7
    first, second = straight.record(one.game_id), interrupted.record(two.game_id)
    assert first.actions == second.actions
    assert played > 20


def test_double_submission_is_refused(service):
    view = service.create_game(SOLO, seed=1)
    after = service.apply_action(view.game_id, "roll", view.version)
    with pytest.raises(StaleVersionError) as caught:
        service.apply_action(view.game_id, "roll", view.version)  # the same click again
    assert caught.value.current == 1 and caught.value.expected == 0
    assert service.load(view.game_id).version == after.version == 1
    assert len(service.record(view.game_id).actions) == 1


def test_stale_version_from_a_second_window(db_url):
    first = GameService(Store(db_url))
    second = GameService(Store(db_url))
    view = first.create_game(SOLO, seed=2)
    seen = second.load(view.game_id)
    first.apply_action(view.game_id, "roll", 0)
    with pytest.raises(StaleVersionError):
        second.apply_action(view.game_id, "roll", seen.version)
    with pytest.raises(StaleVersionError):
        second.apply_action(view.game_id, "roll", 5)  # from the future
    reloaded = second.load(view.game_id)
    assert reloaded.version == 1
    second.apply_action(view.game_id, human_move(reloaded.state), reloaded.version)
    assert first.load(view.game_id).version == 2


def test_concurrent_submissions_apply_once(db_url):
    setup = GameService(Store(db_url))
    view = setup.create_game(SOLO, seed=3)
    outcomes: list[str] = []
    barrier = threading.Barrier(6)

    def submit():
        service = GameService(Store(db_url))
        service.load(view.game_id)
        barrier.wait()
        try:
            service.apply_action(view.game_id, "roll", 0)
            outcomes.append("applied")
        except StaleVersionError:
            outcomes.append("stale")

    threads = [threading.Thread(target=submit) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["applied"] + ["stale"] * 5
    assert len(setup.record(view.game_id).actions) == 1


def test_illegal_and_malformed_actions_write_nothing(service):
    view = service.create_game(SOLO, seed=4)
    with pytest.raises(IllegalActionError):
        service.apply_action(view.game_id, "score chance", 0)
    with pytest.raises(MalformedActionError):
        service.apply_action(view.game_id, "jump", 0)
    assert service.load(view.game_id).version == 0


def test_cpu_step_only_on_a_cpu_turn(service):
    view = service.create_game(DUEL, seed=6)
    with pytest.raises(NotCpuTurnError):
        service.cpu_step(view.game_id, 0)
    view = service.apply_action(view.game_id, "roll", 0)
    view = service.apply_action(view.game_id, "score chance", view.version)
    assert view.is_cpu_turn
    action, after = service.cpu_step(view.game_id, view.version)
    assert str(action) == "roll" and after.version == view.version + 1


def test_abandon(service):
    view = service.create_game(SOLO, seed=7)
    newer = service.create_game(SOLO, seed=8)
    assert service.latest_unfinished().game_id == newer.game_id
    service.abandon(newer.game_id)
    assert service.latest_unfinished().game_id == view.game_id
    assert service.load(newer.game_id).status == ABANDONED
    with pytest.raises(GameClosedError):
        service.apply_action(newer.game_id, "roll", 0)
    with pytest.raises(GameClosedError):
        service.abandon(newer.game_id)
    with pytest.raises(GameNotFoundError):
        service.abandon(999)
    with pytest.raises(GameNotFoundError):
        service.load(999)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_match_with_a_roll_off_round_trips(service):
    settings = GameSettings(
        (Seat("Ann"), Seat("Bob")),
        find_ruleset("triple"),
        FirstPlayer.HIGHEST_DIE,
        match_length=2,
    )
    view = service.create_game(settings)  # not seeded: seeded games are practice
    final = play_out(service, view.game_id)
    assert final.state.is_match_over and final.state.game_number == 2
    record = service.record(view.game_id)
    assert record.opening_dice  # the roll-off was saved
    assert parse_record(service.export(view.game_id)).rebuild() == final.state
    stats = {(s.profile, s.rules): s for s in service.stats()}
    assert stats[("Ann", "triple")].games == 2  # both games of the match count
    assert stats[("Ann", "triple")].multiplayer_games == 2


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_statistics_and_high_scores_match_the_games(service):
    totals = []
    for _ in range(12):
        view = service.create_game(SOLO)  # not seeded: seeded games are practice
        totals.append(play_out(service, view.game_id).state.totals[0])
    practice = service.create_game(SOLO, seed=99, practice=True)
    play_out(service, practice.game_id)
    duel = service.create_game(DUEL)
    duel_final = play_out(service, duel.game_id).state
    unfinished = service.create_game(SOLO, seed=101)
    play_out(service, unfinished.game_id, limit=5)

    [ann] = service.stats("ann")  # profile names ignore case
    everything = [*totals, duel_final.totals[0]]
    assert ann.games == 13
    assert ann.best == max(everything) and ann.worst == min(everything)
    assert ann.average == pytest.approx(sum(everything) / 13)
    assert sum(ann.distribution.values()) == 13
    assert ann.multiplayer_games == 1
    assert ann.wins == (1 if duel_final.ranks[0] == 1 else 0)
    assert 0 <= ann.upper_bonus_rate <= 1
    assert set(ann.box_averages) >= {"ones", "chance", "yahtzee"}

    scores = service.high_scores()
    assert list(scores) == ["classic"]
    assert [entry.total for entry in scores["classic"]] == sorted(totals, reverse=True)[:10]
    assert [entry.place for entry in scores["classic"]] == list(range(1, 11))
    assert service.stats("Nobody") == []


def test_profiles_are_shared_between_games(store, service):
    service.create_game(SOLO, seed=1)
    service.create_game(GameSettings((Seat("ANN"), Seat("Bob"))), seed=2)
    assert store.profile_names() == ["Ann", "Bob"]


def test_an_unreachable_server_is_a_retryable_error():
    with pytest.raises(StoreUnavailableError) as caught:
        Store("postgresql+psycopg://postgres@127.0.0.1:9/fivedice?connect_timeout=2")
    assert caught.value.retryable and "try again" in str(caught.value)


def test_a_log_that_does_not_replay_is_reported(service, store):
    view = service.create_game(SOLO, seed=5)
    view = service.apply_action(view.game_id, "roll", 0)
    with store.engine.begin() as connection:
        connection.execute(text("UPDATE actions SET dice = '66'"))  # two dice for a 5-dice roll
    with pytest.raises(GameDamagedError, match=f"game {view.game_id} is damaged: .*too few dice"):
        GameService(store).load(view.game_id)


def test_an_action_saved_on_sqlite_writes_its_dates_as_sqlalchemy_does(tmp_path):
    """The usual SQLite append runs on the driver connection: its dates must be the very text
    SQLAlchemy writes (the game's creation wrote them through SQLAlchemy), and read back."""
    store = Store(f"sqlite:///{tmp_path / 'dates.sqlite3'}")
    try:
        service = GameService(store)
        view = service.create_game(SOLO, seed=3)
        with store.engine.connect() as connection:
            created = connection.execute(text("SELECT created_at FROM games")).scalar_one()
        service.apply_action(view.game_id, "roll", view.version)
        with store.engine.connect() as connection:
            updated = connection.execute(text("SELECT updated_at FROM games")).scalar_one()
            logged = connection.execute(text("SELECT created_at FROM actions")).scalar_one()
        shape = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}")
        assert shape.fullmatch(created) and shape.fullmatch(updated) and shape.fullmatch(logged)
        assert created <= updated == logged
        assert service.load(view.game_id).version == 1
        assert len(service.record(view.game_id).actions) == 1
    finally:
        store.close()
