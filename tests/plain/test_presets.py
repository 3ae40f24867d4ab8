"""Yatzy and Maxi Yatzy played to the end in the plain mode, from scripted input."""

from __future__ import annotations

import io
import re

import pytest
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.rules import find_ruleset
from fivedice.plain.game import run_plain
from fivedice.service.games import GameService

runner = CliRunner()


class Stdin(io.StringIO):
    def isatty(self) -> bool:
        return False


def play(rules_name: str, text: str, tmp_path, players=("Ann", "Bob"), cpus=()) -> str:
    out = io.StringIO()
    code = run_plain(
        find_ruleset(rules_name),
        list(players),
        list(cpus),
        seed=5,
        first="first_seat",
        games=1,
        stdin=Stdin(text),
        stdout=out,
        db=f"sqlite:///{tmp_path / 'plain.sqlite3'}",
        practice=False,
    )
    assert code == 0
    return out.getvalue()


@pytest.mark.parametrize(
    "preset", ["yatzy", "maxi-yatzy", "yacht", "yacht-dice", "generala", "kismet"]
)
def test_a_two_player_game_of_every_box_to_the_end(preset, tmp_path):
    rules = find_ruleset(preset)
    lines = []
    for box in rules.boxes:
        for _ in range(2):  # Ann, then Bob: hold the last die, roll again, score the box
            lines += ["roll", f"hold {rules.dice}", "roll", f"score {box.key}", "y"]
    lines.insert(1, "show")  # the card once, after Ann's first roll
    out = play(preset, "\n".join(lines) + "\n", tmp_path)
    assert "Game over." in out
    state = GameService.open(f"sqlite:///{tmp_path / 'plain.sqlite3'}").load(1).state
    assert state.is_game_over and state.rules == rules
    assert all(card.columns[0].boxes == rules.boxes for card in state.cards)
    for name, total in zip(("Ann", "Bob"), state.totals, strict=True):
        assert re.search(rf"^\d\. {name}: {total}$", out, re.MULTILINE)  # ranks (ties share)
    turns = len(rules.boxes)
    assert f"Bob: turn {turns} of {turns}." in out  # the card has the rule set's boxes
    for box in rules.boxes[6:]:
        assert box.name in out  # every box by its name on the card `show` printed
    rolls = re.findall(r"Roll 1 of \d+: (.*)\.$", out, re.MULTILINE)
    assert rolls and all(len(roll.split(", ")) == rules.dice for roll in rolls)


def test_boxes_are_typed_by_name_and_other_cards_boxes_refused(tmp_path):
    out = play("yatzy", "roll\nscore full straight\nscore two pairs\ny\nquit\n", tmp_path, ("Ann",))
    assert "no box is called 'full straight'" in out and "One pair" in out
    assert "in Two pairs" in out


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("rules_name", ["yatzy", "maxi-yatzy"])
def test_a_cpu_seat_plays_the_new_families(tmp_path, rules_name):
    """Yatzy's CPUs play from its exact table, Maxi Yatzy's from calibrated estimates."""
    db = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    args = ["play", "--plain", "--rules", rules_name, "--cpu", "casual", "--db", db]
    result = runner.invoke(app, args, input="roll\nscore chance\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "CPU 1 (casual) scores" in result.output


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_game_with_the_wild_die_shows_it_in_words_and_plays_to_the_end(tmp_path):
    """The wild die is named in words on every roll, the coach's keeps name it apart, and a
    CPU seat plays beside the player to the end."""
    out = io.StringIO()
    db = f"sqlite:///{tmp_path / 'wild.sqlite3'}"
    rules = find_ruleset("classic", {"wild_die": "on"})
    lines = ["roll", "hint"]
    for box in rules.boxes:
        lines += ["roll", "hold 5", "roll", f"score {box.key}", "y"][
            1 if box.key == "ones" else 0 :
        ]
    code = run_plain(
        rules, ["Ann"], ["expert"], seed=5, first="first_seat", games=1,
        stdin=Stdin("\n".join(lines) + "\n"), stdout=out, db=db, practice=False,
    )  # fmt: skip
    text = out.getvalue()
    assert code == 0 and "Game over." in text, text[-2000:]
    rolls = re.findall(r"Roll \d of \d+: (.*)\.$", text, re.MULTILINE)
    assert rolls and all("wild die: " in roll for roll in rolls)
    assert any("wild die: star" in roll for roll in rolls)
    assert (
        "Wild die: die 5 has its own colour"
        in runner.invoke(app, ["rules", "--rules", "classic", "--set", "wild_die=on"]).output
    )
    state = GameService.open(db).load(1).state
    assert state.is_game_over and state.rules == rules
    assert "CPU 1 (expert) scores" in text
