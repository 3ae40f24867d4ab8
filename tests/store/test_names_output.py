"""Player names in output: listings, statistics and high scores never print
a forged line or a terminal escape, even from a database edited by hand; an exported record
cannot be forged by a name, and every allowed name round-trips through export and replay."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.store import Store, parse_record
from tests.support.cli import run as run_command
from tests.support.players import play_out, simple_cpu_factory

DATABASES = ("postgresql",)  # the server's column limits and refused characters

runner = CliRunner()
FORGED = 'A\nseed: 9\nseat: "E"\x00\x1b]0;pw\x07\x1b[31m\u2028R!\x85\u202e'  # 37 characters


def run(*args: str):
    # color=True: output as to a terminal (click strips some escapes from pipes, not all).
    result = run_command(*args, color=True)
    assert result.exit_code == 0, result.output
    return result.stdout


def hand_edit(url: str, statement: str, **params: object) -> None:
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text(statement), params)
    engine.dispose()


def assert_safe(output: str, lines: int) -> None:
    assert output.count("\n") == lines, output
    for char in "\x00\x1b\x07\x85\u2028\u202e\r":
        assert char not in output, repr(output)
    assert not any(line.startswith(("seed:", "seat:", "R!")) for line in output.splitlines())


def test_hand_edited_names_never_forge_lines_or_terminal_escapes(db_url):
    # PostgreSQL text cannot hold NUL at all (so no name with one is ever stored there).
    forged = FORGED.replace("\x00", "") if db_url.startswith("postgresql") else FORGED
    service = GameService(Store(db_url), cpu_factory=simple_cpu_factory)
    # Unseeded: a seeded game is practice, and this one must count in stats and high scores.
    game_id = service.create_game(GameSettings((Seat("Ann"),))).game_id
    play_out(service, game_id)
    service.store.close()
    assert_safe(run("games", "--db", db_url), lines=1)
    lines_of_stats = run("stats", "--db", db_url).count("\n")
    hand_edit(db_url, "UPDATE game_seats SET name = :name", name=forged)
    hand_edit(db_url, "UPDATE profiles SET name = :name", name=forged)
    hand_edit(db_url, "UPDATE games SET rules_key = :name", name="x\nseed: 1\x1b[2J")

    listing = run("games", "--db", db_url)
    assert_safe(listing, lines=2)  # the game, and the line saying what is damaged
    assert 'A\\nseed: 9\\nseat: "E"' in listing and "\\x1b]0;pw\\x07" in listing
    assert f"game {game_id} is damaged" in listing
    assert_safe(run("stats", "--db", db_url), lines=lines_of_stats)
    scores = run("highscores", "--db", db_url)
    assert_safe(scores, lines=2)
    assert "A\\nseed: 9" in scores and "\\x1b]0;pw\\x07\\x1b[31m\\u2028R!" in scores
    # JSON keeps the stored text exactly, escaped by JSON itself.
    found = {}
    for command in ("games", "stats", "highscores"):
        output = run(command, "--db", db_url, "--json")
        assert_safe(output, lines=1)
        found[command] = json.loads(output)
    assert found["games"][0]["players"] == [forged]
    assert found["stats"][0]["profile"] == forged
    assert [entry["player"] for entry in found["highscores"]["x\nseed: 1\x1b[2J"]] == [forged]


NAMES = (
    "Ann: roll -> 6 6",
    '"Quoted" Bob',
    "back\\slash",
    "#hash",
    "12. Twelve",
    "Jörg Müller",
    "👨\u200d👩\u200d👧 family",
    "❤\ufe0f heart",
    "山田\u3000太郎",
    "b -> 6 score chance",
    'Eve" cpu=expert',
)


def test_every_allowed_name_round_trips_through_export_and_replay(db_url, tmp_path):
    settings = GameSettings(tuple(Seat(name) for name in NAMES))
    service = GameService(Store(db_url), cpu_factory=simple_cpu_factory)
    game_id = service.create_game(settings, seed=9).game_id
    view = play_out(service, game_id, limit=6 * len(NAMES))
    exported = service.export(game_id)
    lines = exported.split("\n")
    assert len(lines) == len(exported.splitlines()) + 1  # no other line breaks in it
    assert all(line.isprintable() for line in lines), exported
    seat_lines = [line for line in lines if line.startswith("seat: ")]
    assert len(seat_lines) == len(NAMES)

    record = parse_record(exported)
    assert record.settings == settings
    assert record.actions == service.record(game_id).actions  # every action on its seat
    assert record.rebuild() == view.state

    path = tmp_path / "game.txt"
    path.write_text(exported, encoding="utf-8")
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert "The record is valid" in replayed.stdout


@pytest.mark.parametrize(
    "line",
    [
        'seat: "Eve\\u2028seed: 99"',
        'seat: "Eve\\u001b[31m"',
        'seat: "Eve\\nfirst_player: highest_die"',
    ],
)
def test_a_record_cannot_smuggle_a_refused_name(tmp_path, line):
    service = GameService(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"))
    game_id = service.create_game(GameSettings((Seat("Ann"),)), seed=1).game_id
    exported = service.export(game_id).replace('seat: "Ann"', line)
    with pytest.raises(ValueError, match="control characters, line breaks"):
        parse_record(exported)


def test_the_longest_names_fit_the_database(db_url):
    # 40 characters, and a name whose case-folded key ("ss" for "ß") is 40 characters long.
    service = GameService(Store(db_url), cpu_factory=simple_cpu_factory)
    settings = GameSettings((Seat("x" * 40), Seat("ß" * 20)))
    game_id = service.create_game(settings).game_id  # unseeded: counts in the statistics
    play_out(service, game_id)
    assert {entry.profile for entry in service.stats()} == {"x" * 40, "ß" * 20}
