"""`fivedice tutorial --list [--json]` and the plain tutorial driven by stdin."""

from __future__ import annotations

import json

import pytest

from fivedice.service.tutorial import LESSONS
from tests.support.cli import run


def listed():
    result = run("tutorial", "--list", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_list_json_shows_every_lesson_and_its_state():
    data = listed()
    assert [item["key"] for item in data["lessons"]] == [lesson.key for lesson in LESSONS]
    assert {item["state"] for item in data["lessons"]} == {"new"}
    assert data["done"] == 0 and data["count"] == len(LESSONS)
    assert data["lessons"][0]["title"] == "Rolling and holding"


# The "upper" lesson: a wrong box first (explained), then Sixes.
UPPER = "3\nscore four of a kind\nscore Sixes\nquit\n"


def test_the_plain_tutorial_plays_a_lesson_from_stdin_and_keeps_the_progress():
    result = run("tutorial", "--plain", input=UPPER)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "0 of 7 lessons done." in out
    assert "== The upper section, its bonus and par ==" in out
    assert "Four of a kind would score 26 now, but this step asks for Sixes (24)" in out
    assert "You score 24 in Sixes, +35 upper bonus" in out
    assert "Lesson done: The upper section, its bonus and par." in out
    assert "1 of 7 lessons done." in out
    assert out.rstrip().endswith("Goodbye. Your progress is saved.")
    states = {item["key"]: item["state"] for item in listed()["lessons"]}
    assert states["upper"] == "done" and states["rolling"] == "new"
    text = run("tutorial", "--list")
    assert "✓ 3. The upper section, its bonus and par (done)" in text.output


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_plain_skip_restart_bad_lines_and_end_of_input():
    script = "--lesson\n"  # not a lesson number: said, then the menu again
    script += "1\nroll\nbogus\nhold 9\nrestart\nroll\nhold 1 2 4\nskip\n"
    result = run("tutorial", "--plain", input=script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "There is no lesson '--lesson'." in out
    assert "Not allowed: unknown command 'bogus'" in out
    assert "there is no die 9" in out
    assert "From the start." in out
    assert "Lesson skipped." in out
    assert out.rstrip().endswith("Goodbye. Your progress is saved.")  # input ended
    assert listed()["lessons"][0]["state"] == "skipped"


def test_plain_tutorial_in_dutch_with_the_rules_in_force():
    script = "5\nroll\nshow\nscore yahtzee\nroll\n"  # (the card, with its boxes, on `show`)
    result = run("--lang", "nl", "tutorial", "--plain", "--set", "yahtzee=60", input=script)
    assert result.exit_code == 0, result.output
    assert "Grote straat" in result.output
    assert "60" in result.output
    assert "Tot ziens" in result.output


def test_an_unknown_lesson_and_bad_rules_fail_cleanly():
    result = run("tutorial", "--rules", "nope", "--list")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# The "scoring" lesson as a screen reader hears it: each step, then the command that does it.
SCORING = (
    "2\nscore chance\nscore full house\nroll\nhold 4 5\nhold 1 2 3 4\nroll\n"
    "score large straight\nquit\n"
)


def test_the_plain_tutorial_says_each_steps_command_with_the_dice_positions():
    result = run("tutorial", "--plain", input=SCORING)
    assert result.exit_code == 0, result.output
    out = result.output
    said: list[str] = []
    for line in out.splitlines():  # (a long line is wrapped under 80 columns: join it again)
        if line.startswith("  ") and said:
            said[-1] += " " + line.strip()
        else:
            said.append(line.removeprefix("> "))
    # The step, then its command; after a refusal the command again.
    step = said.index("Type score full_house (Full house, 25).")
    assert said[step - 1].startswith("Your third and last roll brought three 3s and two 5s")
    refused = next(i for i, line in enumerate(said) if line.startswith("Chance would score"))
    assert said[refused + 2] == "Type score full_house (Full house, 25)."
    assert "Type roll." in said
    # 2 3 4 5 5: the dice to hold are named by their positions, as `hold` takes them.
    hold = said.index("Type hold 1 2 3 4, then roll.")
    assert "2, 3, 4 and 5 are in a row" in said[hold - 1]
    wrong = next(i for i, line in enumerate(said) if "so a 5 is not one to hold" in line)
    assert said[wrong + 1] == "Type hold 1 2 3 4, then roll."
    assert "Type score large_straight (Large straight, 40)." in said
    assert "Lesson done: Scoring and the previews." in out
    assert "bracket" not in out
