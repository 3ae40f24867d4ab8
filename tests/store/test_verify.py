"""Verifiable dice in saved games: the commitment from the start, the server seed revealed at
the end, `fivedice verify` on true and tampered records, and seeded games kept as practice."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.fairdice import LEGACY_SCHEME, SCHEME_V2, DiceSeedError, HmacDice
from fivedice.core.game import FirstPlayer, GameSettings, Seat
from fivedice.core.record import record_terms
from fivedice.core.rules import find_ruleset
from fivedice.core.verify import VerifyRefusedError, verify_record
from fivedice.service.games import GameService
from fivedice.store import Store, dice_for, parse_record
from tests.support.players import play_out, simple_cpu_factory

runner = CliRunner()
PRESETS = ("classic", "free-choice", "simple", "classic-five", "triple")
ACTION = re.compile(r"^(?P<seq>\d+)\. (?P<name>[^:]+): (?P<action>.+?)(?: -> (?P<dice>[1-6 ]+))?$")


@pytest.fixture
def sqlite_service(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'dice.sqlite3'}")
    yield GameService(store, cpu_factory=simple_cpu_factory)
    store.close()


def duel(rules: str = "classic") -> GameSettings:
    return GameSettings(
        (Seat("Ann"), Seat("CPU", cpu_level="casual")),
        find_ruleset(rules),
        FirstPlayer.HIGHEST_DIE,
    )


def finished_record(service: GameService, rules: str = "classic") -> str:
    view = service.create_game(duel(rules), client_seeds=["ann's seed", None])
    play_out(service, view.game_id)
    return service.export(view.game_id)


def verify_text(record_text: str):
    return verify_record(parse_record(record_text, check=False))


def action_lines(record_text: str) -> list[tuple[int, re.Match[str]]]:
    lines = record_text.splitlines()
    return [(i, m) for i, line in enumerate(lines) if (m := ACTION.match(line))]


@pytest.mark.parametrize("rules", PRESETS)
def test_true_records_of_every_preset_verify(sqlite_service, rules):
    record_text = finished_record(sqlite_service, rules)
    record = parse_record(record_text)
    assert record.status == "finished" and record.dice_scheme == SCHEME_V2
    verification = verify_record(record)
    assert verification.ok, verification.problems
    rolled = sum(1 for entry in record.actions if entry.dice) + (1 if record.opening_dice else 0)
    assert verification.rolls == rolled and verification.committed
    # The dice really are the seeds' (recomputed here without fivedice.core.verify).
    seed = record.server_seed
    assert seed is not None and hashlib.sha256(seed).hexdigest() == record.dice_commitment
    for entry in record.actions:
        if entry.dice:
            terms = record_terms(record)  # the rules and players, bound into the dice
            recomputed = HmacDice(seed, record.client_seeds, entry.seq, terms).roll(len(entry.dice))
            assert recomputed == entry.dice


def test_fivedice_verify_accepts_a_true_record_and_names_the_first_bad_action(
    sqlite_service, tmp_path
):
    record_text = finished_record(sqlite_service)
    path = tmp_path / "game.txt"
    path.write_text(record_text)
    good = runner.invoke(app, ["verify", str(path)])
    assert good.exit_code == 0, good.output
    assert "Verified" in good.stdout and "matches the commitment" in good.stdout

    lines = record_text.splitlines()
    rolls = [(i, m) for i, m in action_lines(record_text) if m["dice"]]
    index, match = rolls[len(rolls) // 2]
    dice = match["dice"].split()
    dice[-1] = str(int(dice[-1]) % 6 + 1)
    lines[index] = f"{match['seq']}. {match['name']}: {match['action']} -> {' '.join(dice)}"
    path.write_text("\n".join(lines) + "\n")
    bad = runner.invoke(app, ["verify", str(path)])
    assert bad.exit_code == 1, bad.output
    assert f"action {match['seq']} (" in bad.stdout
    assert f"The first action that does not match: {match['seq']}." in bad.stdout
    assert "Traceback" not in bad.output


def tamper_die(record_text: str) -> tuple[str, int]:
    lines = record_text.splitlines()
    rolls = [(i, m) for i, m in action_lines(record_text) if m["dice"]]
    index, match = rolls[len(rolls) // 3]
    dice = match["dice"].split()
    dice[0] = str(int(dice[0]) % 6 + 1)
    lines[index] = f"{match['seq']}. {match['name']}: {match['action']} -> {' '.join(dice)}"
    return "\n".join(lines) + "\n", int(match["seq"])


def tamper_header(record_text: str, key: str, change) -> str:
    lines = record_text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"{key}: "):
            lines[i] = f"{key}: {change(line[len(key) + 2 :])}"
            return "\n".join(lines) + "\n"
    raise AssertionError(f"no {key} line")


def flip_hex(value: str) -> str:
    return ("0" if value[0] != "0" else "1") + value[1:]


def test_tampered_records_are_refused_naming_the_first_bad_action(sqlite_service):
    record_text = finished_record(sqlite_service)
    assert verify_text(record_text).ok

    changed, seq = tamper_die(record_text)
    result = verify_text(changed)
    assert not result.ok and result.first_bad_action == seq
    assert str(seq) in str(result.problems[0].error)

    # The server seed changed: it no longer matches the commitment, and the roll-off (action
    # 0, rolled before the first action) is the first roll it does not give.
    result = verify_text(tamper_header(record_text, "server_seed", flip_hex))
    assert not result.ok and "commitment" in str(result.problems[0].error)
    assert result.first_bad_action == 0

    # The commitment changed: the seed is not the one committed to; every roll still matches.
    result = verify_text(tamper_header(record_text, "dice_commitment", flip_hex))
    assert not result.ok and result.first_bad_action is None
    assert "commitment" in str(result.problems[0].error)

    # A client seed changed: the commitment holds, the roll-off does not. (A changed seed gives
    # the same two roll-off dice one time in 36: pick a name whose roll-off really differs.)
    record = parse_record(record_text)
    for name in ("bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo", "kim"):
        other = [f"{name}'s seed", *record.client_seeds[1:]]
        opening = HmacDice(record.server_seed, other, 0, record_terms(record))
        if opening.roll(len(record.opening_dice)) != record.opening_dice:
            break
    seeds = tamper_header(record_text, "client_seeds", lambda v: v.replace("ann's", f"{name}'s"))
    result = verify_text(seeds)
    assert not result.ok and result.first_bad_action == 0
    assert "roll-off" in str(result.problems[0].error)


def test_a_removed_action_is_named(sqlite_service):
    record_text = finished_record(sqlite_service)
    lines = record_text.splitlines()
    actions = action_lines(record_text)
    index, match = actions[len(actions) // 2]
    removed = "\n".join(lines[:index] + lines[index + 1 :]) + "\n"
    result = verify_text(removed)
    assert not result.ok and result.first_bad_action == int(match["seq"])
    assert "missing" in str(result.problems[0].error)

    # Removed and the later actions renumbered: the first roll of a turn, followed by a hold.
    index, match = next(
        actions[position]
        for position in range(1, len(actions) - 1)
        if actions[position][1]["action"] == "roll"
        and actions[position - 1][1]["action"].startswith("score")
        and actions[position + 1][1]["action"].startswith("hold")
    )
    seq = int(match["seq"])
    kept = lines[:index]
    for line in lines[index + 1 :]:
        found = ACTION.match(line)
        if found and int(found["seq"]) > seq:
            line = f"{int(found['seq']) - 1}." + line[len(found["seq"]) + 1 :]
        kept.append(line)
    result = verify_text("\n".join(kept) + "\n")
    assert not result.ok and result.first_bad_action == seq


def test_the_server_seed_stays_secret_until_the_end(service, tmp_path):
    view = service.create_game(duel("simple"), client_seeds=["x"])
    assert view.dice_scheme == SCHEME_V2 and len(view.dice_commitment or "") == 64
    assert view.server_seed is None
    secret = service.record(view.game_id).server_seed
    assert secret is not None and hashlib.sha256(secret).hexdigest() == view.dice_commitment
    play_out(service, view.game_id, limit=6)
    during = service.load(view.game_id)
    assert during.server_seed is None and secret.hex() not in repr(during)
    exported = service.export(view.game_id)
    assert "dice_commitment: " + view.dice_commitment in exported
    assert "server_seed" not in exported and secret.hex() not in exported
    [listed] = service.list_games()
    assert listed.to_json()["server_seed"] is None
    assert listed.to_json()["dice_commitment"] == view.dice_commitment
    with pytest.raises(VerifyRefusedError):
        verify_text(exported)
    path = tmp_path / "in_progress.txt"
    path.write_text(exported)
    refused = runner.invoke(app, ["verify", str(path)])
    assert refused.exit_code == 3 and "Not verifiable yet" in refused.stdout
    assert "still in progress" in refused.stdout and "Verified" not in refused.stdout

    service.abandon(view.game_id)  # abandoning reveals it: the game cannot go on
    after = service.load(view.game_id)
    assert after.server_seed == secret.hex()
    assert service.list_games()[0].to_json()["server_seed"] == secret.hex()
    revealed = service.export(view.game_id)
    assert f"server_seed: {secret.hex()}" in revealed
    assert verify_text(revealed).ok


def test_games_json_shows_the_commitment_then_the_seed(db_url):
    service = GameService(Store(db_url), cpu_factory=simple_cpu_factory)
    view = service.create_game(GameSettings((Seat("Ann"),), find_ruleset("simple")))
    listed = json.loads(runner.invoke(app, ["games", "--db", db_url, "--json"]).stdout)
    assert listed[0]["dice_commitment"] == view.dice_commitment
    assert listed[0]["server_seed"] is None
    final = play_out(service, view.game_id)
    assert final.server_seed is not None
    listed = json.loads(runner.invoke(app, ["games", "--db", db_url, "--json"]).stdout)
    assert listed[0]["server_seed"] == final.server_seed


def test_seeded_games_are_practice_and_stay_out_of_statistics(service):
    solo = GameSettings((Seat("Ann"),), find_ruleset("simple"))
    seeded = service.create_game(solo, seed=5)  # practice not asked for: forced
    assert seeded.practice and seeded.dice_scheme == LEGACY_SCHEME
    assert seeded.dice_commitment is None
    play_out(service, seeded.game_id)
    assert service.stats() == [] and service.high_scores() == {}
    assert service.list_games()[0].practice
    # Its dice are the seed's, as before, and it still verifies (without a commitment).
    record = service.record(seeded.game_id)
    first_roll = next(entry for entry in record.actions if entry.dice)
    assert dice_for(5, first_roll.seq).roll(5) == first_roll.dice
    verification = verify_text(service.export(seeded.game_id))
    assert verification.ok and not verification.committed
    with pytest.raises(DiceSeedError):
        service.create_game(solo, seed=6, client_seeds=["mine"])

    fair = service.create_game(solo)
    play_out(service, fair.game_id)
    [ann] = service.stats()
    assert ann.games == 1 and len(service.high_scores()["simple"]) == 1


def test_plain_mode_shows_the_commitment_and_takes_a_client_seed(db_url):
    result = runner.invoke(
        app,
        ["play", "--plain", "--db", db_url, "--player", "Ann", "--client-seed", "hello"],
        input="fair\nroll\n",
    )
    assert result.exit_code == 0, result.output
    assert "Fair dice: type fair" in result.stdout  # the commitment is on request
    service = GameService(Store(db_url))
    [game] = service.list_games()
    view = service.load(game.game_id)
    # (the hash on a line of its own: plain lines stay under 80 characters)
    assert re.search(rf"Dice commitment:\s+{view.dice_commitment}\n", result.stdout)
    assert view.client_seeds == ("hello",) and not view.practice
    too_many = runner.invoke(
        app, ["play", "--plain", "--db", db_url, "--client-seed", "a", "--client-seed", "b"]
    )
    assert too_many.exit_code == 2 and "client seeds" in too_many.stderr
    long_seed = runner.invoke(app, ["play", "--plain", "--db", db_url, "--client-seed", "x" * 99])
    assert long_seed.exit_code == 2 and "at most 64" in long_seed.stderr
    assert len(service.list_games()) == 1  # nothing was created by the refused commands


def test_games_saved_before_verifiable_dice_replay_and_roll_as_before(tmp_path):
    """A database at schema 0001 with a game in progress: after the migration, the game
    keeps its legacy dice (from its seed) and replays as before."""
    from alembic import command

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    old = Store(url, migrate=False)
    config = old._alembic_config()
    with old.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    rolled = "".join(map(str, dice_for(77, 1).roll(5)))
    with old.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO games (id, created_at, updated_at, status, rules_json, rules_key,"
                " first_player, match_length, seed, practice, seat_count, opening_dice,"
                " version, totals_json) VALUES (1, '2026-01-01 00:00:00', '2026-01-01 00:00:00',"
                " 'in_progress', :rules, 'classic', 'first_seat', 1, 77, 0, 1, '', 1, '[0]')"
            ),
            {"rules": json.dumps(find_ruleset("classic").settings(), sort_keys=True)},
        )
        connection.execute(
            text("INSERT INTO game_seats (game_id, seat, name) VALUES (1, 0, 'Ann')")
        )
        connection.execute(
            text(
                "INSERT INTO actions (game_id, seq, seat, action, dice, created_at)"
                " VALUES (1, 1, 0, 'roll', :dice, '2026-01-01 00:00:00')"
            ),
            {"dice": rolled},
        )
    old.close()
    service = GameService(Store(url), cpu_factory=simple_cpu_factory)
    view = service.load(1)
    assert view.dice_scheme == LEGACY_SCHEME and view.dice_commitment is None
    assert not view.practice and view.state.dice == tuple(int(d) for d in rolled)
    after = service.apply_action(1, "roll", 1)
    assert after.state.dice == dice_for(77, 2).roll(5)
    assert "dice_scheme" not in service.export(1)  # old records read as before


def test_the_readme_recipe_checks_a_record(sqlite_service, tmp_path):
    """The docs' few lines of standard-library Python (docs/how/fair-dice.md) recompute every
    roll of a record."""
    import subprocess
    import sys
    from pathlib import Path

    section = (Path(__file__).parents[2] / "docs" / "how" / "fair-dice.md").read_text(
        encoding="utf-8"
    )
    recipe = next(
        block.split("```", 1)[0]
        for block in section.split("```python\n")[1:]
        if "import hashlib, hmac" in block
    )
    script = tmp_path / "check.py"
    script.write_text(recipe)
    record = tmp_path / "game.txt"
    record_text = finished_record(sqlite_service)
    record.write_text(record_text)
    command = [sys.executable, str(script), str(record)]
    good = subprocess.run(command, capture_output=True, text=True)
    rolled = verify_text(record_text).rolls  # the roll-off (it has one) and every roll
    assert good.returncode == 0 and good.stdout.strip() == f"{rolled} rolls verified"
    changed, seq = tamper_die(record_text)
    record.write_text(changed)
    bad = subprocess.run(command, capture_output=True, text=True)
    assert bad.returncode != 0 and f"action {seq} does not match" in bad.stderr


@pytest.mark.parametrize(
    "statement, what",
    [
        ("UPDATE games SET server_seed = 'xyz'", "games.server_seed"),
        ("UPDATE games SET dice_scheme = 'dice-by-hand'", "games.dice_scheme"),
        ("UPDATE games SET client_seeds_json = '[1]'", "games.client_seeds_json"),
    ],
)
def test_damaged_dice_columns_are_named(sqlite_service, statement, what):
    from fivedice.store import GameDamagedError

    view = sqlite_service.create_game(duel("simple"))
    with sqlite_service.store.engine.begin() as connection:
        connection.execute(text(statement))
    with pytest.raises(GameDamagedError, match=what):
        sqlite_service.store.load_game(view.game_id)


def hostile_records(record_text: str) -> dict[str, str]:
    """A true record changed as an attacker would: numbers of thousands of digits, JSON
    nested thousands deep in each JSON field, a line megabytes long."""
    index, match = action_lines(record_text)[0]
    lines = record_text.splitlines()
    huge_action = lines.copy()
    huge_action[index] = "9" * 5000 + lines[index][len(match["seq"]) :]
    deep = "[" * 5000 + "]" * 5000
    return {
        "a 5,000-digit action number": "\n".join(huge_action) + "\n",
        "a 5,000-digit seed": tamper_header(record_text, "seed", lambda _: "7" * 5000),
        "a 5,000-digit total": tamper_header(record_text, "totals", lambda _: "1" * 5000),
        "nested rules_settings": tamper_header(record_text, "rules_settings", lambda _: deep),
        "nested client_seeds": tamper_header(record_text, "client_seeds", lambda _: deep),
        "a megabyte line": record_text + "x" * 1_000_000 + "\n",
    }


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("command", ["verify", "replay"])
def test_a_hostile_record_is_refused_with_status_2_and_a_short_message(
    sqlite_service, tmp_path, command
):
    """Status 2 is "this is not a record I can read" and 1 stays "the dice do not match": a
    crafted record never reaches a traceback, and the message does not echo it back."""
    record_text = finished_record(sqlite_service)
    for what, hostile in hostile_records(record_text).items():
        path = tmp_path / "hostile.txt"
        path.write_text(hostile)
        result = runner.invoke(app, [command, str(path)])
        assert result.exit_code == 2, (what, result.output[-500:])
        assert "Traceback" not in result.output, what
        assert 0 < len(result.output) < 400, (what, len(result.output))
    path.write_bytes(b"\x00\xff\xfe" * 1000)
    binary = runner.invoke(app, [command, str(path)])
    assert binary.exit_code == 2 and "Traceback" not in binary.output


def test_the_readme_recipe_checks_a_records_signature(sqlite_service, tmp_path):
    """The docs' few lines of Python (with `cryptography`, docs/how/fair-dice.md) check a
    record's signature and print its key's fingerprint; a record changed in any line fails
    them."""
    import subprocess
    import sys
    from pathlib import Path

    from fivedice.service.signing import record_key

    section = (Path(__file__).parents[2] / "docs" / "how" / "fair-dice.md").read_text(
        encoding="utf-8"
    )
    recipe = next(
        block.split("```", 1)[0]
        for block in section.split("```python\n")[1:]
        if "Ed25519PublicKey" in block
    )
    script = tmp_path / "signature.py"
    script.write_text(recipe)
    record = tmp_path / "game.txt"
    record_text = finished_record(sqlite_service)
    record.write_text(record_text)
    command = [sys.executable, str(script), str(record)]
    good = subprocess.run(command, capture_output=True, text=True)
    assert good.returncode == 0, good.stderr
    assert good.stdout.strip() == f"signed by {record_key().fingerprint}"
    record.write_text(record_text.replace('seat: "Ann"', 'seat: "Zoe"'))
    bad = subprocess.run(command, capture_output=True, text=True)
    assert bad.returncode != 0 and "InvalidSignature" in bad.stderr


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_record_with_the_wild_die_names_it_and_verifies(sqlite_service):
    """The option is written in the record of a game that has it (and only there), and the
    record replays and verifies: the wild die's faces are recorded in their place."""
    rules = find_ruleset("classic", {"wild_die": "on"})
    settings = GameSettings((Seat("Ann"), Seat("Bob")), rules)
    view = sqlite_service.create_game(settings, client_seeds=["ann's seed", None])
    play_out(sqlite_service, view.game_id)
    record_text = sqlite_service.export(view.game_id)
    assert "wild_die" in record_text
    assert "wild_die" not in finished_record(sqlite_service)
    record = parse_record(record_text)
    verification = verify_record(record)
    assert verification.ok, verification.problems
    *_, (_, last) = record.states()
    assert last.rules == rules and last.is_game_over
    assert sqlite_service.load(view.game_id).state == last
