"""`fivedice holdem`: the odds, a simulation, the rules and a whole plain game."""

from __future__ import annotations

import json
from fractions import Fraction

from tests.support.cli import run


def test_odds_json_sums_to_one():
    result = run("holdem", "odds", "--json")
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)
    assert len(table) == 11
    assert sum(Fraction(row["seven_dice"]) for row in table.values()) == 1
    assert sum(Fraction(row["five_dice"]) for row in table.values()) == 1


def test_equity_at_the_river_is_exact_and_says_so():
    result = run("holdem", "odds", "--pocket", "6r 6b", "--board", "6w 6y 1r 2b 3w")
    assert result.exit_code == 0, result.output
    assert "Exact" in result.output


def test_simulate_json_has_an_interval():
    result = run("holdem", "simulate", "--bot", "master", "--vs", "station", "--hands", "4",
                 "--seed", "1", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    low, high = figures["interval"]
    assert low <= figures["chips_per_hand"] <= high and figures["hands"] == 4


def test_rules_say_which_are_ours():
    result = run("holdem", "rules")
    assert result.exit_code == 0 and "Ours, where the box is silent" in result.output


def test_a_whole_plain_game_to_a_winner(tmp_path):
    db = f"sqlite:///{tmp_path / 'holdem.sqlite3'}"
    result = run("holdem", "play", "--plain", "--cpu", "casual", "--dice-seed", "7", "--db", db,
                 input="help\ncoach\nfair\n" + "allin\n" * 400)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "wins the game." in result.output
    assert max(len(line) for line in result.output.splitlines()) < 200


def test_a_bad_part_is_refused():
    result = run("holdem", "poker")
    assert result.exit_code == 2


def test_a_plain_game_left_half_way_is_resumed(tmp_path):
    db = f"sqlite:///{tmp_path / 'holdem.sqlite3'}"
    first = run("holdem", "play", "--plain", "--cpu", "casual", "--dice-seed", "3", "--db", db,
                input="show\n")  # fmt: skip
    assert first.exit_code == 0 and "the game is kept" in first.output
    again = run("holdem", "play", "--plain", "--resume", "--db", db, input="allin\n" * 400)
    assert again.exit_code == 0, again.output
    assert "wins the game." in again.output and "Hand 1." in again.output


def test_fivedice_verify_checks_a_holdem_record(tmp_path):
    from fivedice.core.game import Seat
    from fivedice.core.holdem import HoldemRules
    from fivedice.service.holdem import HoldemService

    service = HoldemService()
    seats = (Seat("Ann", "casual"), Seat("Bob", "beginner"))
    game = service.new_game(seats, HoldemRules(starting_stack=40))
    service.run_cpus(game)
    record = tmp_path / "holdem.txt"
    record.write_text(service.export(game), encoding="utf-8")
    verified = run("verify", str(record))
    assert verified.exit_code == 0, verified.output
    text = record.read_text(encoding="utf-8")
    head, _, faces = text.partition("0 deal | ")
    record.write_text(head + "0 deal | " + ("1" if faces[0] != "1" else "2") + faces[1:])
    altered = run("verify", str(record))
    assert altered.exit_code == 1, altered.output
