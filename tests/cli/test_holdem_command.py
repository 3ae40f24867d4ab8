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


def finished_game(db: str) -> int:
    """A verifiable game kept at `db`, played to its end: the person all-in every turn
    against one CPU, with small stacks so that it ends in a few hands."""
    from fivedice.core.game import Seat
    from fivedice.core.holdem import HoldemRules
    from fivedice.service.holdem import HoldemService

    service = HoldemService.open(db)
    seats = [Seat("Ann"), Seat("Cy", "casual")]
    game = service.new_game(seats, HoldemRules(starting_stack=40))
    for _turn in range(200):
        service.run_cpus(game)
        view = service.view(game, 0)
        if view.winner is not None:
            return game
        service.act(game, 0, "allin" if "allin" in view.legal else "call")
    raise AssertionError("the game did not end")


def assert_clean_refusal(result, *words: str) -> None:
    """Refused with status 2 and a message naming what was wrong, never a traceback."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output, result.output


def test_games_and_stats_with_nothing_kept_say_so(tmp_path):
    db = f"sqlite:///{tmp_path / 'holdem.sqlite3'}"
    games = run("holdem", "games", "--db", db)
    assert games.exit_code == 0 and "No Texas Hold'em Yahtzee games" in games.output
    stats = run("holdem", "stats", "--db", db)
    assert stats.exit_code == 0 and "No finished Texas Hold'em Yahtzee games" in stats.output
    assert json.loads(run("holdem", "games", "--json", "--db", db).output) == []


def test_games_stats_export_and_review_of_a_finished_game(tmp_path):
    from fivedice.service.holdem import HoldemService

    db = f"sqlite:///{tmp_path / 'holdem.sqlite3'}"
    game = finished_game(db)
    summary = HoldemService.open(db).games()[0]
    assert summary.game_id == game and summary.winner is not None

    games = run("holdem", "games", "--db", db)
    assert games.exit_code == 0, games.output
    assert f"Game {game} (finished)" in games.output
    assert f"{summary.winner} wins the game." in games.output
    listed = json.loads(run("holdem", "games", "--json", "--db", db).output)
    assert [row["game_id"] for row in listed] == [game]
    assert sum(listed[0]["stacks"]) == 80  # every chip still at the table

    stats = json.loads(run("holdem", "stats", "--json", "--db", db).output)
    assert [row["name"] for row in stats] == ["Ann"]  # the CPU is left out
    assert stats[0]["played"] == 1 and stats[0]["won"] == (summary.winner == "Ann")
    said = run("holdem", "stats", "--db", db)
    assert f"Ann: played 1, won {stats[0]['won']}, hands {stats[0]['hands']}." in said.output

    # The record exported verifies, as any game's does.
    exported = run("holdem", "export", str(game), "--db", db)
    assert exported.exit_code == 0, exported.output
    record = tmp_path / "holdem.txt"
    record.write_text(exported.output, encoding="utf-8")
    assert run("verify", str(record)).exit_code == 0

    # The review: one line per decision, each with the equity of that moment.
    reviewed = json.loads(run("holdem", "review", str(game), "--json", "--db", db).output)
    decisions = HoldemService.open(db).review(game, samples=200)
    assert [row["action"] for row in reviewed] == [line.action for line in decisions]
    for row in reviewed:
        equity = row["equity"]
        assert abs(equity["win"] + equity["tie"] + equity["lose"] - 1) < 1e-9
        assert 0 <= equity["share"] <= 1
    words = run("holdem", "review", str(game), "--db", db)
    assert words.exit_code == 0, words.output
    lines = words.output.splitlines()
    assert len(lines) == len(reviewed)
    assert all("Share of the pot" in line and "strongest CPU would" in line for line in lines)
    assert lines[0].startswith("Hand 1, before the flop:")


def test_bad_game_ids_are_refused_cleanly(tmp_path):
    db = f"sqlite:///{tmp_path / 'holdem.sqlite3'}"
    assert_clean_refusal(run("holdem", "export", "abc", "--db", db), "no saved game abc")
    assert_clean_refusal(run("holdem", "export", "0", "--db", db), "no saved game 0")
    assert_clean_refusal(run("holdem", "review", "999", "--db", db), "no game 999")
    assert_clean_refusal(run("holdem", "export", "999", "--db", db), "no game 999")
    assert_clean_refusal(run("holdem", "review", "--db", db), "needs the game's id")
    assert_clean_refusal(run("holdem", "stats", "3", "--db", db), "takes no GAME")


def test_a_game_in_progress_is_not_reviewed(tmp_path):
    from fivedice.core.game import Seat
    from fivedice.service.holdem import HoldemService

    db = f"sqlite:///{tmp_path / 'holdem.sqlite3'}"
    game = HoldemService.open(db).new_game([Seat("Ann"), Seat("Cy", "casual")])
    assert_clean_refusal(run("holdem", "review", str(game), "--db", db), "once it is over")
    listed = run("holdem", "games", "--db", db)
    assert f"Game {game} (in progress), hand 1" in listed.output
