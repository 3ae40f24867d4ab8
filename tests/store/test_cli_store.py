"""The saved-game commands: games, play --resume, stats, highscores, export, replay."""

from __future__ import annotations

import json

import pytest

from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.store import Store
from tests.support.cli import run
from tests.support.players import play_out, simple_cpu_factory


def finished_solo_game(url: str, seed: int | None = 3, practice: bool = False) -> int:
    service = GameService(Store(url), cpu_factory=simple_cpu_factory)
    view = service.create_game(GameSettings((Seat("Ann"),)), seed=seed, practice=practice)
    play_out(service, view.game_id)
    return view.game_id


def test_games_json_lists_every_field(db_url):
    result = run(
        "play",
        "--plain",
        "--db",
        db_url,
        "--player",
        "Ann",
        "--seed",
        "4",
        input="roll\nscore chance\nroll\n",
    )
    assert result.exit_code == 0, result.output
    assert "every action is saved" in result.stdout
    listed = json.loads(run("games", "--db", db_url, "--json").stdout)
    assert len(listed) == 1
    game = listed[0]
    assert set(game) >= {"id", "started", "players", "rules", "status", "actions", "totals"}
    assert game["players"] == ["Ann"] and game["rules"] == "classic"
    assert game["status"] == "in_progress" and game["actions"] == 3
    assert len(game["totals"]) == 1 and game["totals"][0] > 0
    text = run("games", "--db", db_url).stdout
    assert "in progress" in text and "Ann" in text


def test_play_offers_and_resumes_the_latest_game(db_url):
    first = run("play", "--plain", "--db", db_url, "--seed", "8", input="roll\nhold 1\nquit\n")
    assert "Game 1 is saved" in first.stdout
    again = run("play", "--plain", "--db", db_url, "--seed", "8", input="")
    assert "unfinished" in again.stdout and "--resume" in again.stdout
    assert "Game 2: every action is saved" in again.stdout
    latest = run("play", "--plain", "--db", db_url, "--resume", input="")
    assert "Resuming game 2 after 0 actions" in latest.stdout
    resumed = run("play", "--plain", "--db", db_url, "--resume", "1", input="roll\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Resuming game 1 after 2 actions" in resumed.stdout
    assert "Roll 1 of 3: held " in resumed.stdout  # the held die is still held
    by_id = run("play", "--plain", "--db", db_url, "--resume", "1", input="")
    assert "after 3 actions" in by_id.stdout
    missing = run("play", "--plain", "--db", db_url, "--resume", "77")
    assert missing.exit_code == 2 and "no saved game 77" in missing.stderr
    run("abandon", "1", "--db", db_url)
    run("abandon", "2", "--db", db_url)
    nothing = run("play", "--plain", "--db", db_url, "--resume")
    assert nothing.exit_code == 2 and "no unfinished game" in nothing.stderr


def test_export_and_replay_round_trip(db_url, tmp_path):
    game_id = finished_solo_game(db_url)
    exported = run("export", str(game_id), "--db", db_url)
    assert exported.exit_code == 0
    assert exported.stdout.startswith("# fivedice game record 1")
    assert "1. Ann: roll -> " in exported.stdout and "status: finished" in exported.stdout
    path = tmp_path / "game.txt"
    path.write_text(exported.stdout)
    shown = run("replay", str(path))
    assert shown.exit_code == 0, shown.output
    assert "Game over." in shown.stdout and "The record is valid" in shown.stdout

    tampered = exported.stdout.replace("1. Ann: roll -> ", "1. Ann: roll -> 6 ", 1)
    path.write_text(tampered)
    bad = run("replay", str(path))
    assert bad.exit_code == 2 and "not a valid record" in bad.stderr
    assert "Traceback" not in bad.output
    path.write_text(exported.stdout.replace("totals: ", "totals: 1", 1))
    assert "totals" in run("replay", str(path)).stderr
    path.write_text("hello\n")
    assert "not a fivedice game record" in run("replay", str(path)).stderr


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_stats_and_highscores_json(db_url):
    totals = []
    for _ in range(3):
        game_id = finished_solo_game(db_url, None)  # seeded games are practice
        totals.append(json.loads(run("games", "--db", db_url, "--json").stdout)[0]["totals"][0])
        assert json.loads(run("games", "--db", db_url, "--json").stdout)[0]["id"] == game_id
    finished_solo_game(db_url, 4, practice=True)
    stats = json.loads(run("stats", "Ann", "--db", db_url, "--json").stdout)
    assert len(stats) == 1
    assert stats[0]["games"] == 3 and stats[0]["best"] == max(totals)
    assert stats[0]["average"] == pytest.approx(sum(totals) / 3, abs=0.01)
    scores = json.loads(run("highscores", "--db", db_url, "--json").stdout)
    assert [e["total"] for e in scores["classic"]] == sorted(totals, reverse=True)
    text = run("stats", "--db", db_url).stdout
    assert "Ann · Classic" in text and "average per box: Ones " in text
    assert "1." in run("highscores", "--db", db_url).stdout


def test_a_damaged_database_file_exits_cleanly(tmp_path):
    path = tmp_path / "notes.sqlite3"
    path.write_text("my shopping list\n")
    for args in (["games"], ["stats"], ["highscores"], ["play", "--plain"]):
        result = run(*args, "--db", f"sqlite:///{path}", input="")
        assert result.exit_code == 2, args
        assert "not a fivedice database" in result.stderr
        assert "Traceback" not in result.output
    assert path.read_text() == "my shopping list\n"


def test_the_database_comes_from_the_environment(monkeypatch, tmp_path):
    url = f"sqlite:///{tmp_path / 'env.sqlite3'}"
    monkeypatch.setenv("FIVEDICE_DATABASE_URL", url)
    run("play", "--plain", "--seed", "1", input="roll\n")
    assert json.loads(run("games", "--json").stdout)[0]["actions"] == 1
    assert json.loads(run("games", "--db", url, "--json").stdout)[0]["actions"] == 1


def test_an_unusable_url_is_a_clear_error():
    result = run("games", "--db", "nosuchdb://x")
    assert result.exit_code == 2 and "fivedice:" in result.stderr
