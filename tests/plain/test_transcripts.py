"""What a screen reader reads in the plain mode: whole transcripts checked for terseness.

A screen reader reads every character, so each line should say one new thing once: a turn
heading, a roll's dice in words and the boxes they score, a hold's result in one line; the
card, the 64-digit dice commitment and the rules only when asked for.
"""

from __future__ import annotations

import io
import re

import pytest

from fivedice.core.dice import ScriptedDice
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.plain.game import run_plain
from fivedice.service.games import GameService

PROMPT = "Ann> "
HEX = re.compile(r"[0-9a-f]{64}")

FINAL_DICE = {
    # The dice each box is scored with (none scores 0, so no question is asked).
    "ones": [1, 1, 1, 5, 6],
    "twos": [2, 2, 2, 5, 6],
    "threes": [3, 3, 3, 5, 6],
    "fours": [4, 4, 4, 5, 6],
    "fives": [5, 5, 5, 2, 6],
    "sixes": [6, 6, 6, 2, 5],
    "three_of_a_kind": [4, 4, 4, 1, 2],
    "four_of_a_kind": [3, 3, 3, 3, 1],
    "full_house": [2, 2, 5, 5, 5],
    "small_straight": [1, 2, 3, 4, 6],
    "large_straight": [2, 3, 4, 5, 6],
    "yahtzee": [6, 6, 6, 6, 6],
    "chance": [1, 1, 2, 3, 4],
}


class Stdin(io.StringIO):
    def isatty(self) -> bool:
        return False


def script_dice(monkeypatch, script: dict[int, list[int]]) -> None:
    """The dice of action n are script[n], verifiable game or not."""
    monkeypatch.setattr(
        "fivedice.service.view.action_dice",
        lambda server_seed, client_seeds, seed, number, terms=None: ScriptedDice(
            script.get(number, [])
        ),
    )


def play(
    lines: list[str],
    tmp_path,
    *,
    players=("Ann",),
    rules: RuleSet | None = None,
    practice: bool = False,
    seed: int | None = None,
) -> str:
    out = io.StringIO()
    code = run_plain(
        rules or RuleSet(),
        list(players),
        [],
        seed=seed,
        first="first_seat",
        games=1,
        stdin=Stdin("".join(line + "\n" for line in lines)),
        stdout=out,
        db=f"sqlite:///{tmp_path / 'plain.sqlite3'}",
        practice=practice,
    )
    assert code == 0
    return out.getvalue()


def answers(out: str, prompt: str = PROMPT) -> tuple[list[str], list[list[str]]]:
    """The lines before the first prompt, and the lines answering each input line."""
    start, *rest = out.split(prompt)
    return start.splitlines(), [part.splitlines() for part in rest]


@pytest.fixture
def whole_game(tmp_path, monkeypatch) -> tuple[list[str], str]:
    """A whole verifiable solo game: each turn roll, hold 1 2, roll, score; `fair` and
    `show` once, in turn 3."""
    script: dict[int, list[int]] = {}
    lines: list[str] = []
    for turn, (box, final) in enumerate(FINAL_DICE.items()):
        first = 4 * turn + 1  # each turn takes four actions: roll, hold, roll, score
        script[first] = [*final[:2], 1, 2, 3]
        script[first + 2] = final[2:]
        lines += ["r", "hold 1 2", "r", f"score {box}"]
        if turn == 2:
            lines[-1:-1] = ["fair", "show"]
    script_dice(monkeypatch, script)
    return lines, play(lines, tmp_path)


def test_a_whole_game_reads_in_a_few_lines_a_move(whole_game):
    lines, out = whole_game
    start, said = answers(out)
    assert len(said) == len(lines)  # every line answered; the last ends the game
    assert len(start) <= 6  # game number, fair dice, actions (two lines), help, the heading
    assert all(len(line) < 80 for line in out.splitlines())  # short: under 80 columns
    assert start[-1] == "Turn 1 of 13."
    for line, answer in zip(lines, said, strict=False):
        if line == "r":
            # the dice in words, and the boxes they score (wrapped under 80 columns)
            assert answer[0].startswith("Roll ") and answer[1].startswith("Boxes: ")
            assert all(more.startswith("  ") for more in answer[2:]), answer
        elif line.startswith("hold"):
            assert len(answer) == 1 and answer[0].startswith("Held: "), answer
        elif line.startswith("score") and line != "score chance":
            assert len(answer) == 2, answer  # the points, and the next turn's heading
            assert re.fullmatch(r"Turn \d+ of 13\.", answer[1])
    last = said[len(lines) - 1]
    assert last[0] == "You score 11 in Chance"
    assert last[1:3] == ["Game over.", "1. Ann: 282"]  # the standings, without the cards
    verify = " ".join(line.strip() for line in last[3:])  # (wrapped under 80 columns)
    assert "'fivedice export 1' and 'fivedice verify'" in verify
    assert all(line.startswith("  ") for line in last[4:])


def test_the_commitment_and_the_card_only_when_asked(whole_game):
    lines, out = whole_game
    _start, said = answers(out)
    fair, show = said[lines.index("fair")], said[lines.index("show")]
    assert len(HEX.findall(out)) == 1 and HEX.search(" ".join(fair))
    assert sum("Upper total" in line for line in out.splitlines()) == 1
    assert any("Upper total" in line for line in show)
    assert ["Chance", "-", "(20)"] in [line.split() for line in show]  # open, with a preview


def test_held_dice_are_said_in_words_and_only_scoring_boxes_listed(whole_game):
    _lines, out = whole_game
    assert "[" not in out and "]" not in out
    assert "Held: 6 and 6." in out
    assert "Roll 2 of 3: held 6, held 6, 6, 2, 5." in out  # sixes: positions kept in order
    boxes = [line for line in out.splitlines() if "Boxes: " in line]
    assert len(boxes) == 2 * 13
    for line in boxes:
        assert not re.search(r" 0(,|$)", line), line  # a box that would take 0 is left out
    assert "Boxes: Sixes 53, Three of a kind 25, Chance 25" in out  # 53 with the bonus


def test_the_upper_bonus_is_said_with_its_score(whole_game):
    _lines, out = whole_game
    assert "You score 18 in Sixes, +35 upper bonus" in out


def test_a_roll_that_scores_nowhere_says_so(tmp_path, monkeypatch):
    """Every box but Yahtzee filled, then a roll that is no Yahtzee."""
    script: dict[int, list[int]] = {}
    lines: list[str] = []
    boxes = [box for box in FINAL_DICE if box != "yahtzee"]
    for turn, box in enumerate(boxes):
        script[2 * turn + 1] = FINAL_DICE[box]
        lines += ["r", f"score {box}"]
    script[2 * len(boxes) + 1] = [1, 2, 3, 4, 6]
    script_dice(monkeypatch, script)
    out = play([*lines, "r", "score yahtzee", "y"], tmp_path)
    _start, said = answers(out)
    assert said[len(lines)] == [
        "Roll 1 of 3: 1, 2, 3, 4, 6.",
        "No open box scores with these dice: any of them takes 0.",
    ]
    assert "You score 0 in Yahtzee" in out


def test_a_practice_game_says_nothing_of_fair_dice_until_asked(tmp_path):
    out = play(["fair"], tmp_path, practice=True, seed=3)
    start, said = answers(out)
    assert not any("fair" in line.casefold() for line in start[:1] + start[2:])
    assert "Fair dice" not in out
    assert "cannot be verified" in " ".join(said[0])


def test_several_seats_name_whose_turn_it_is(tmp_path):
    out = play(["r", "score chance", "r"], tmp_path, players=("Ann", "Bob"), seed=2)
    assert "Ann: turn 1 of 13." in out and "Bob: turn 1 of 13." in out
    assert "Ann's turn" not in out


def test_the_column_form_is_offered_only_with_several_columns(tmp_path):
    for name in ("one", "three"):
        (tmp_path / name).mkdir()
    one = play(["help", "score", "roll 2"], tmp_path / "one", seed=1)
    assert "2:chance" not in one  # not in the help, nor in what a refusal says
    three = play(["help"], tmp_path / "three", rules=RuleSet(column_multipliers=(1, 2, 3)), seed=1)
    assert three.count("score 2:chance") == 2  # at the start, and in the help


def test_an_extra_turn_on_a_yahtzee_is_announced(tmp_path, monkeypatch):
    script_dice(monkeypatch, {1: [4, 4, 4, 4, 4]})
    rules = RuleSet(extra_turn_on_yahtzee=True)
    out = play(["r", "score yahtzee"], tmp_path, players=("Ann", "Bob"), rules=rules, seed=1)
    _start, said = answers(out)
    assert said[1] == [
        "You score 50 in Yahtzee",
        "Yahtzee! You play an extra turn.",
        "Ann: turn 2 of 13.",
    ]


def test_saved_rolls_are_announced_when_saved_and_when_used(tmp_path):
    rules = find_ruleset("maxi-yatzy")
    out = play(["r", "score chance", "r"], tmp_path, rules=rules, practice=True, seed=4)
    _start, said = answers(out)
    assert said[1][0].startswith("You score ") and " in Chance" in said[1][0]
    assert said[1][1:] == [
        "You have 2 rolls saved for later turns.",
        "Turn 2 of 20.",
        "2 saved rolls: 5 rolls this turn.",
    ]
    assert said[2][0].startswith("Roll 1 of 5: ")


def test_every_saved_action_is_in_the_log(whole_game, tmp_path):
    _lines, _out = whole_game
    service = GameService.open(f"sqlite:///{tmp_path / 'plain.sqlite3'}")
    log = [entry.action for entry in service.record(1).actions]
    assert len(log) == 4 * 13
    assert log[:4] == ["roll", "hold 1 2", "roll", "score ones"]
