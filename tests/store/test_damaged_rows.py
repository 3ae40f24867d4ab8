"""Hand-damaged rows: a clear error naming the game and what is
damaged, in every command, never a traceback or a loop; the other games stay usable; and
nothing is written, so the damaged row is left exactly as it is."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import create_engine, event, text

from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.store import GameDamagedError, Store
from tests.support.cli import run as run_command
from tests.support.players import play_out, simple_cpu_factory

DUEL = GameSettings((Seat("Ann"), Seat("CPU 1 (casual)", "casual")))


def run(*args: str, input: str | None = None):
    result = run_command(*args, input=input)
    assert "Traceback" not in result.output, result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result


def three_games(url: str) -> tuple[int, int, int]:
    """A finished solo game, the game to damage (3 actions, a CPU seat) and another one."""
    service = GameService(Store(url), cpu_factory=simple_cpu_factory)
    solo = service.create_game(GameSettings((Seat("Ann"),)))  # unseeded: counts in stats
    play_out(service, solo.game_id)
    damaged = service.create_game(DUEL, seed=5)
    play_out(service, damaged.game_id, limit=3)
    other = service.create_game(DUEL, seed=6)
    play_out(service, other.game_id, limit=2)
    service.store.close()
    return solo.game_id, damaged.game_id, other.game_id


def execute(url: str, statement: str) -> None:
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text(statement))
    engine.dispose()


def snapshot(url: str) -> list[list[tuple[object, ...]]]:
    engine = create_engine(url)
    with engine.connect() as connection:
        tables = [
            connection.execute(text(f"SELECT * FROM {table} ORDER BY 1, 2")).all()
            for table in ("games", "game_seats", "actions", "results", "profiles")
        ]
    engine.dispose()
    return [[tuple(row) for row in rows] for rows in tables]


# (statement with {id}, what the message names, what `games` says when it sees it without a
# replay, None when only a replay finds it; "" for the same)
DAMAGE = {
    "totals-not-json": (
        "UPDATE games SET totals_json = 'nope' WHERE id = {id}",
        "games.totals_json",
        "",
    ),
    "totals-short": (
        "UPDATE games SET totals_json = '[0]' WHERE id = {id}",
        "games.totals_json",
        "",
    ),
    "totals-wrong": (
        "UPDATE games SET totals_json = '[7, 0]' WHERE id = {id}",
        "the totals are (7, 0)",
        None,
    ),
    "first-player": (
        "UPDATE games SET first_player = 'bogus' WHERE id = {id}",
        "games.first_player 'bogus'",
        "",
    ),
    "status": ("UPDATE games SET status = 'weird' WHERE id = {id}", "games.status 'weird'", ""),
    "rules-not-json": (
        "UPDATE games SET rules_json = '{{' WHERE id = {id}",
        "games.rules_json",
        "",
    ),
    "rules-invalid": (
        "UPDATE games SET rules_json = '{{\"rolls_per_turn\": 0}}' WHERE id = {id}",
        "games.rules_json",
        "",
    ),
    "opening-dice": (
        "UPDATE games SET opening_dice = '7x' WHERE id = {id}",
        "games.opening_dice",
        "",
    ),
    "action-text": (
        "UPDATE actions SET action = 'jump' WHERE game_id = {id} AND seq = 2",
        "actions.action where seq=2",
        None,
    ),
    "action-dice": (
        "UPDATE actions SET dice = '12x45' WHERE game_id = {id} AND seq = 1",
        "actions.dice where seq=1",
        None,
    ),
    "dice-mismatch": (
        "UPDATE actions SET dice = '1' WHERE game_id = {id} AND seq = 1",
        "too few dice",
        None,
    ),
    "action-missing": (
        "DELETE FROM actions WHERE game_id = {id} AND seq = 2",
        "no row for seq=2",
        "the actions table holds 2 actions for it, but games.version is 3",
    ),
    "seat-missing": (
        "DELETE FROM game_seats WHERE game_id = {id} AND seat = 1",
        "game_seats has no row for seat=1",
        "",
    ),
    "seat-name": (
        "UPDATE game_seats SET name = 'a' || char(10) || 'b' WHERE game_id = {id} AND seat = 0",
        "game_seats.name where seat=0",
        "",
    ),
    "cpu-level": (
        "UPDATE game_seats SET cpu_level = 'god' WHERE game_id = {id} AND seat = 1",
        "not 'god'",
        "",
    ),
}


def sql_for(url: str, statement: str) -> str:
    # PostgreSQL spells char(10) chr(10).
    return statement.replace("char(10)", "chr(10)") if url.startswith("postgresql") else statement


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("case", list(DAMAGE))
def test_a_damaged_game_is_named_and_left_as_it_is(db_url, case):
    statement, what, listed = DAMAGE[case]
    solo, damaged, other = three_games(db_url)
    execute(db_url, sql_for(db_url, statement.format(id=damaged)))
    before = snapshot(db_url)
    named = f"game {damaged} is damaged"

    listing = run("games", "--db", db_url)
    assert listing.exit_code == 0, listing.output
    lines = listing.stdout.splitlines()
    assert any(line.split()[0] == str(other) for line in lines)  # the others are listed
    assert any(line.split()[0] == str(solo) and "finished" in line for line in lines)
    if listed is not None:
        listed = listed or what
        assert named in listing.stdout and listed in listing.stdout
        [entry] = [
            g
            for g in json.loads(run("games", "--db", db_url, "--json").stdout)
            if g["id"] == damaged
        ]
        assert entry["status"] == "damaged" and listed in entry["damage"]

    exported = run("export", str(damaged), "--db", db_url)
    assert exported.exit_code == 2 and named in exported.stderr and what in exported.stderr
    assert "left as it is" in exported.stderr and exported.stdout == ""

    resumed = run("play", "--plain", "--resume", str(damaged), "--db", db_url, input="roll\n")
    assert resumed.exit_code == 2 and named in resumed.stderr and what in resumed.stderr

    service = GameService(Store(db_url), cpu_factory=simple_cpu_factory)
    with pytest.raises(GameDamagedError) as caught:
        service.load(damaged)
    assert caught.value.game_id == damaged
    with pytest.raises(GameDamagedError):
        service.cpu_step(damaged, 3)
    with pytest.raises(GameDamagedError):
        service.apply_action(damaged, "roll", 3)
    # The other games still play, export and count.
    play_out(service, other, limit=2)
    assert run("export", str(solo), "--db", db_url).exit_code == 0
    assert run("stats", "--db", db_url).exit_code == 0
    service.store.close()

    after = snapshot(db_url)
    assert after[0][damaged - 1] == before[0][damaged - 1]  # the damaged game's row
    for table in (1, 2):  # its seats and actions
        assert [r for r in after[table] if r[0] == damaged] == [
            r for r in before[table] if r[0] == damaged
        ]
    assert "already weird" not in exported.output + resumed.output


def test_abandoning_a_game_of_unknown_status_names_the_damage(db_url):
    _, damaged, _ = three_games(db_url)
    execute(db_url, f"UPDATE games SET status = 'weird' WHERE id = {damaged}")
    result = run("abandon", str(damaged), "--db", db_url)
    assert result.exit_code == 2
    assert f"game {damaged} is damaged: games.status 'weird'" in result.stderr
    assert "already weird" not in result.stderr
    assert snapshot(db_url)[0][damaged - 1][3] == "weird"


def test_resuming_the_latest_game_when_it_is_damaged_is_a_clear_error(db_url):
    _, _, other = three_games(db_url)
    execute(db_url, f"UPDATE games SET totals_json = 'nope' WHERE id = {other}")
    result = run("play", "--plain", "--resume", "--db", db_url, input="roll\n")
    assert result.exit_code == 2 and f"game {other} is damaged" in result.stderr


@pytest.mark.parametrize(
    "statement, what",
    [
        ("UPDATE results SET boxes_json = 'nope'", "results.boxes_json"),
        ("UPDATE results SET boxes_json = '{{\"ones\": [1]}}'", "results.boxes_json"),
    ],
)
def test_damaged_results_are_named_by_stats_and_highscores(db_url, statement, what):
    solo, _, _ = three_games(db_url)
    execute(db_url, statement)
    before = snapshot(db_url)
    for command in ("stats", "highscores"):
        for extra in ([], ["--json"]):
            result = run(command, "--db", db_url, *extra)
            assert result.exit_code == 2, result.output
            assert f"game {solo} is damaged: {what}" in result.stderr
    assert snapshot(db_url) == before


def test_a_game_with_an_unknown_cpu_level_stops_cleanly_in_the_plain_game(db_url):
    # A hand-edited level used to fail at every CPU step (the web page
    # retried for ever); now the game is refused when it is opened, before any step.
    _, damaged, _ = three_games(db_url)
    execute(db_url, f"UPDATE game_seats SET cpu_level = 'god' WHERE game_id = {damaged}")
    result = run("play", "--plain", "--resume", str(damaged), "--db", db_url, input="roll\n" * 50)
    assert result.exit_code == 2
    from fivedice.strategy.levels import LEVELS

    assert f"a CPU level is one of {', '.join(LEVELS)}, not 'god'" in result.stderr
    assert result.stdout.count("Not saved") == 0


def test_sqlite_values_of_the_wrong_type_are_named(tmp_path):
    # SQLite keeps text typed into an INTEGER column; PostgreSQL refuses it on the way in.
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    _, damaged, other = three_games(url)
    execute(url, f"UPDATE games SET version = 'three' WHERE id = {damaged}")
    execute(url, f"UPDATE games SET seed = 'x' WHERE id = {other}")
    execute(url, "UPDATE games SET created_at = 'yesterday' WHERE id = 1")
    execute(url, "UPDATE results SET finished_at = 'soon'")
    listing = run("games", "--db", url)
    assert (
        f"game {damaged} is damaged: games.version is not a whole number: 'three'" in listing.stdout
    )
    exported = run("export", str(other), "--db", url)
    assert exported.exit_code == 2
    assert f"game {other} is damaged: games.seed is not a whole number: 'x'" in exported.stderr
    assert (
        "game 1 is damaged: games.created_at is not a date and time: 'yesterday'" in listing.stdout
    )
    assert len(listing.stdout.splitlines()) == 3 + 2  # every game, two marked damaged
    stats = run("stats", "--db", url)
    assert stats.exit_code == 2
    assert "game 1 is damaged: results.finished_at where game_number=1" in stats.stderr


def test_an_action_saved_while_a_game_is_read_never_makes_it_look_damaged(db_url):
    # The game row is read first, then its seats and actions: an action saved in between
    # must not make its version and its log disagree (on PostgreSQL: one snapshot per read).
    service = GameService(Store(db_url), cpu_factory=simple_cpu_factory)
    writer = GameService(Store(db_url), cpu_factory=simple_cpu_factory)
    game_id = service.create_game(GameSettings((Seat("Ann"),)), seed=1).game_id
    service.apply_action(game_id, "roll", 0)
    moves = iter(["hold 1", "hold 2", "hold 3"])
    saved = []

    @event.listens_for(service.store.engine, "after_cursor_execute")
    def save_one_in_between(connection, cursor, statement, *args):
        if "FROM games" in statement and "UPDATE" not in statement and len(saved) < 3:
            saved.append(writer.apply_action(game_id, next(moves), len(saved) + 1).version)

    loaded = service.load(game_id)
    assert saved and loaded.version in (1, *saved)
    [summary] = service.list_games()
    assert summary.damage is None and len(saved) == 2
    assert service.export(game_id)
    assert len(saved) == 3
    event.remove(service.store.engine, "after_cursor_execute", save_one_in_between)
    assert service.load(game_id).version == 4
