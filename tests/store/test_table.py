"""The score keeper for real dice: `fivedice table --plain`, saved, listed and counted."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import text

from fivedice.core.categories import Category
from fivedice.core.game import GameKind
from fivedice.core.rules import CLASSIC
from fivedice.plain.table import parse_coach_request
from fivedice.service.games import GameService, HintsUnavailableError
from fivedice.service.settings import build_table_settings
from fivedice.store import Store, parse_record
from tests.support.cli import run

# Ann: the upper boxes total exactly 63 (bonus 35); a Yahtzee, then a joker of sixes in the
# large straight (40 + 100); two entries by points. Bob: no bonus, two scratches.
ANN = [
    "dice 2 2 2 2 2\nscore yahtzee",
    "dice 1 1 1 2 3\nscore ones",
    "dice 22245\nscore twos",
    "dice 33346\nscore threes",
    "dice 44412\nscore fours",
    "dice 55513\nscore fives",
    "dice 66612\nscore sixes",
    "dice 66666\nscore large_straight",
    "dice 33355\nscore full_house",
    "score small_straight 30",
    "dice 44456\nscore three_of_a_kind",
    "dice 11112\nscore four_of_a_kind",
    "score chance 22",
]
BOB = [
    "score ones 2",
    "score twos 4",
    "dice 33311\ndice 33122\nscore threes",  # the second entry replaces the first
    "score fours 8",
    "score fives 10",
    "score sixes 12",
    "dice 12346\nscore three_of_a_kind\ny",  # a 0 is asked about first
    "dice 12346\nscore four_of_a_kind\nn\nscore four_of_a_kind\ny",  # no, then yes
    "dice 22255\nscore full_house",
    "score small_straight 30",
    "score large_straight 0",
    "score yahtzee 0",
    "score chance 20",
]
ANN_TOTAL = 63 + 35 + (50 + 40 + 25 + 30 + 23 + 6 + 22) + 100
BOB_TOTAL = (2 + 4 + 6 + 8 + 10 + 12) + (25 + 30 + 20)


def whole_game() -> str:
    return "".join(f"{ann}\n{bob}\n" for ann, bob in zip(ANN, BOB, strict=True))


def test_a_whole_two_player_table_game(db_url):
    result = run(
        "table", "--plain", "--db", db_url, "--player", "Ann", "--player", "Bob",
        input=whole_game(),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Game 1 at the table" in out
    # The joker: only the lower boxes, each with the extra-Yahtzee bonus, marked.
    assert "Large straight 140 (Yahtzee bonus +100, joker)" in out
    assert "Sixes 53 (upper bonus +35)" in out  # 18 in the box, 35 bonus
    # 63 + 35 + 50 + 40 + 100: each score says what it wrote, bonuses included
    assert "Ann: 40 in Large straight, +100 extra-Yahtzee bonus (total 288)" in out
    assert "Bob: 0 in Three of a kind (total 42)" in out
    assert out.count("Four of a kind would score 0. Score it anyway? [y/N] ") == 2
    assert out.count("Not scored.") == 1
    assert f"1. Ann: {ANN_TOTAL}" in out and f"2. Bob: {BOB_TOTAL}" in out
    listed = json.loads(run("games", "--db", db_url, "--json").stdout)
    assert listed[0]["kind"] == "table" and listed[0]["status"] == "finished"
    assert listed[0]["totals"] == [ANN_TOTAL, BOB_TOTAL]
    assert "(at the table)" in run("games", "--db", db_url).stdout
    service = GameService(Store(db_url))
    view = service.load(listed[0]["id"])
    card = view.state.cards[0].columns[0]
    assert card.upper_total == 63 and card.upper_bonus(CLASSIC) == 35
    assert card.extra_yahtzees == 1 and view.state.ranks == (1, 2)
    assert view.state.cards[1].columns[0].score(Category.THREES) == 6  # replaced: not 9
    stats = {entry.profile: entry for entry in service.stats()}
    assert stats["Ann"].games == 1 and stats["Ann"].wins == 1 and stats["Ann"].best == ANN_TOTAL
    assert stats["Bob"].wins == 0 and stats["Bob"].upper_bonus_rate == 0
    # The record says it is a table game, and replays.
    record = parse_record(service.export(view.game_id))
    assert record.settings.kind is GameKind.TABLE and record.rebuild().totals == view.state.totals


def test_impossible_entries_are_refused_and_change_nothing(db_url):
    entries = [
        "score chance 22",
        "score full_house 30",
        "roll",
        "hold 1 2",
        "dice 1 2 3 4",
        "dice 7 1 1 1 1",
        "score chance",
        "score house 25",
        "score chance 22",
    ]
    result = run(
        "table", "--plain", "--db", db_url, "--player", "Ann", "--player", "Bob",
        input="\n".join(entries) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Not allowed: no roll scores 30 in Full house now; it can score 0, 25" in out
    assert "Not allowed: at the table you roll your own dice" in out
    assert "Not allowed: a roll has 5 dice; '1 2 3 4' has 4" in out
    assert "Not allowed: a die shows 1 to 6, not 7" in out
    assert "Not allowed: enter the dice first" in out
    assert "Not allowed: the Chance box is already filled (with 22)" not in out  # Bob's turn
    assert "Not allowed: no box is called 'house'" in out
    service = GameService(Store(db_url))
    view = service.load(1)
    # Two accepted entries only: Ann's chance 22 and Bob's chance 22.
    assert view.version == 2 and view.state.totals == (22, 22)
    assert [entry.action for entry in service.record(1).actions] == [
        "score chance 22",
        "score chance 22",
    ]


def test_table_games_resume_and_are_kept_apart_from_played_games(db_url):
    first = run(
        "table", "--plain", "--db", db_url, "--player", "Ann", "--player", "Bob",
        input="dice 33355\nscore full_house\nquit\n",
    )  # fmt: skip
    assert "'fivedice table --plain --resume' continues it" in first.stdout
    again = run("table", "--plain", "--db", db_url, "--resume", input="score chance 20\n")
    assert again.exit_code == 0, again.output
    assert "Resuming game 1 after 2 actions." in again.stdout
    assert "Bob: 20 in Chance (total 20)" in again.stdout
    # `play` neither offers nor resumes the table game on its own.
    nothing = run("play", "--plain", "--db", db_url, "--resume", input="")
    assert nothing.exit_code == 2 and "no unfinished game to resume" in nothing.stderr
    played = run("play", "--plain", "--db", db_url, "--player", "Cy", "--seed", "2", input="")
    assert "unfinished" not in played.stdout
    assert played.exit_code == 0
    wrong = run("table", "--plain", "--db", db_url, "2", input="")
    assert wrong.exit_code == 2 and "not a game at the table" in wrong.stderr
    with_played = run("play", "--plain", "--db", db_url, "--resume", "1", input="roll\n")
    assert "Not allowed: at the table you roll your own dice" in with_played.stdout


def test_first_player_by_name_keeps_the_order_of_play():
    settings = build_table_settings(CLASSIC, ["Ann", "Bob", "Cy"], "cy")
    assert [seat.name for seat in settings.seats] == ["Cy", "Ann", "Bob"]
    assert settings.kind is GameKind.TABLE
    assert build_table_settings(CLASSIC, ["Ann", "Bob"]).seats[0].name == "Ann"
    assert build_table_settings(CLASSIC, ["Ann", "Bob"], "highest_die").first_player.value == (
        "highest_die"
    )
    with pytest.raises(ValueError, match="one of Ann, Bob, first_seat, highest_die"):
        build_table_settings(CLASSIC, ["Ann", "Bob"], "Zoe")
    with pytest.raises(ValueError, match="name the players"):
        build_table_settings(CLASSIC, [])


def test_coach_requests():
    assert parse_coach_request([]) == (None, None)
    assert parse_coach_request(["2"]) == (None, 2)
    assert parse_coach_request(["11666"]) == ((1, 1, 6, 6, 6), None)
    assert parse_coach_request(["6", "6", "1", "1", "6", "2"]) == ((1, 1, 6, 6, 6), 2)
    with pytest.raises(ValueError, match="hint 11666 2"):
        parse_coach_request(["keep", "6"])


def test_the_coach_ranks_typed_dice_through_the_service(db_url, monkeypatch):
    ranked: list[tuple[tuple[int, ...], int]] = []

    def advise(table, column, dice, rolls_left):
        ranked.append((tuple(dice), rolls_left))
        return []

    monkeypatch.setattr("fivedice.strategy.turn_cache.advise", advise)
    monkeypatch.setattr("fivedice.strategy.cache.load_or_solve", lambda rules: None)
    service = GameService(Store(db_url))
    view = service.create_game(build_table_settings(CLASSIC, ["Ann"]))
    with pytest.raises(HintsUnavailableError, match="type the dice"):
        service.hint(view.game_id)
    service.hint(view.game_id, (1, 1, 6, 6, 6), 2)
    view = service.apply_action(view.game_id, "dice 2 3 4 5 5", view.version)
    service.hint(view.game_id)
    service.hint(view.game_id, rolls_left=1)
    assert ranked == [((1, 1, 6, 6, 6), 2), ((2, 3, 4, 5, 5), 0), ((2, 3, 4, 5, 5), 1)]
    with pytest.raises(HintsUnavailableError, match="0 to 2"):
        service.hint(view.game_id, rolls_left=3)
    assert service.load(view.game_id).version == 1  # asking the coach changes nothing


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_games_saved_before_table_games_read_as_played(tmp_path):
    from alembic import command

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    store = Store(url, migrate=False)
    config = store._alembic_config()
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    with store.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO games (created_at, updated_at, status, rules_json, rules_key,"
                " first_player, match_length, seed, practice, seat_count, opening_dice, version,"
                " totals_json) VALUES ('2026-01-01', '2026-01-01', 'in_progress', '{}',"
                " 'classic', 'first_seat', 1, 5, 0, 1, '', 0, '[0]')"
            )
        )
        connection.execute(
            text("INSERT INTO game_seats (game_id, seat, name) VALUES (1, 0, 'Old')")
        )
    store.close()
    upgraded = Store(url)
    assert upgraded.list_games()[0].kind == "play"
    assert upgraded.load_game(1).settings.kind is GameKind.PLAY
    upgraded.close()


def test_undo_restores_the_previous_card_exactly(db_url):
    service = GameService(Store(db_url))
    view = service.create_game(build_table_settings(CLASSIC, ["Ann", "Bob"]))
    game_id = view.game_id
    states = [view.state]
    for entry in ("dice 22222", "score yahtzee", "score chance 20", "dice 66666"):
        view = service.apply_action(game_id, entry, view.version)
        states.append(view.state)
    view = service.apply_action(game_id, "score sixes", view.version)  # +100 extra Yahtzee
    assert view.state.cards[0].columns[0].extra_yahtzees == 1
    result = run("table", "--plain", "--db", db_url, "--resume", input="undo\nundo\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    taken_back = [line for line in result.stdout.splitlines() if "Taken back" in line]
    assert [line.split("> ")[-1] for line in taken_back] == [
        "Taken back: Ann's 30 in Sixes, +100 extra-Yahtzee bonus",
        "Taken back: Ann's dice 6 6 6 6 6",
        "Taken back: Bob's 20 in Chance",
    ]
    back = service.load(game_id)
    assert back.state == states[2]  # Ann's Yahtzee kept; Bob's chance and Ann's sixes gone
    assert back.state.cards[0].columns[0].extra_yahtzees == 0
    # The log keeps the corrections; a replay of the record gives the same card.
    actions = [entry.action for entry in service.record(game_id).actions]
    assert actions[-3:] == ["undo", "undo", "undo"] and len(actions) == 8
    assert parse_record(service.export(game_id)).rebuild() == states[2]
    # Undo back to the start, then once more: refused, nothing changes.
    result = run("table", "--plain", "--db", db_url, "--resume", input="undo\nundo\nundo\nquit\n")
    assert "Cannot undo: there is nothing to take back yet" in result.stdout
    assert service.load(game_id).state == states[0]
    assert service.load(game_id).version == 10


def test_box_names_and_help_in_the_players_language(db_url):
    """Under --lang de the boxes are listed and accepted by their German names, a refusal
    names the box as on the card, and an unknown entry lists the entries of the table
    (not `roll | hold`, which the table refuses)."""
    entries = [
        "foo",
        "dice 11666",
        "score Dreierpasch",
        "score Full House 30",
        "score Full House 25",
    ]
    result = run(
        "--lang", "de", "table", "--plain", "--db", db_url, "--player", "Ann", "--player", "Bob",
        input="\n".join(entries) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    # The refusal and what to type instead (wrapped: plain lines stay under 80 characters).
    unknown = out[out.index("'foo'") :].split("Ann>")[0]
    assert "dice 3 3 3 5 5" in unknown and "hold 1 3 5" not in unknown
    assert "Einser 2" in out and "Dreierpasch 20" in out and "three_of_a_kind" not in out
    assert "kein Wurf ergibt jetzt 30 in Full House" in out
    state = GameService(Store(db_url)).load(1).state
    assert state.cards[0].columns[0].score(Category.THREE_OF_A_KIND) == 20
    assert state.cards[1].columns[0].score(Category.FULL_HOUSE) == 25


def test_the_roll_off_for_the_first_turn_is_shown(tmp_path):
    """`--first highest_die`: the app rolls for the table, and says what it rolled."""
    url = f"sqlite:///{tmp_path / 'roll.sqlite3'}"
    result = run(
        "table", "--plain", "--db", url, "--player", "Ann", "--player", "Bob",
        "--first", "highest_die", "--seed", "1", input="quit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    state = GameService(Store(url)).load(1).state
    starter = state.seats[state.current_seat].name
    line = next(line for line in result.stdout.splitlines() if line.startswith("Roll-off: "))
    assert line.endswith(f"; {starter} starts.")
    last = dict(
        (seat.name, sum(roll))
        for seat, roll in zip(state.seats, state.opening_rolls[-1], strict=True)
        if roll is not None
    )
    assert last[starter] == max(last.values())


@pytest.mark.parametrize("word", ["\u00b2", "\u0663", "1234\u00b2", "11666\u00b2"])
def test_coach_requests_with_digits_int_cannot_read_are_refused(word):
    """`hint ²` in `fivedice table --plain` was a ValueError traceback
    (str.isdigit() accepts "²", int() does not); now the usual clear refusal."""
    from fivedice.core.errors import MalformedActionError

    with pytest.raises(MalformedActionError, match="hint 11666 2"):
        parse_coach_request([word])


@pytest.mark.parametrize("seed", ["9223372036854775808", "18446744073709551616", "-1"])
def test_a_table_seed_out_of_range_is_refused_before_anything_is_saved(db_url, seed):
    """On `fivedice table`, a seed the database cannot hold said
    "could not save the new game" (an SQLite overflow), and -1 was saved; now the range
    `play` has, and no game is made."""
    result = run(
        "table", "--plain", "--db", db_url, "--seed", seed, "--player", "Ann", "--player", "Bob",
        "--first", "highest_die", input="quit\n",
    )  # fmt: skip
    assert result.exit_code != 0
    assert "--seed must be from 0 to 9223372036854775807" in result.output
    assert "Traceback" not in result.output
    assert GameService.open(db_url).store.list_games() == []
