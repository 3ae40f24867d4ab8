"""`fivedice tutorial --list [--json]` and the plain tutorial driven by stdin."""

from __future__ import annotations

import json

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
UPPER = "3\nroll\nscore four of a kind\nscore Sixes\nquit\n"


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


def test_plain_skip_restart_bad_lines_and_end_of_input():
    script = "--lesson\n"  # not a lesson number: said, then the menu again
    script += "1\nroll\nbogus\nhold 9\nrestart\nroll\nhold 1 2 4\nskip\n"
    result = run("tutorial", "--plain", input=script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "There is no lesson '--lesson'." in out
    assert "Not allowed: unknown action 'bogus'" in out
    assert "there is no die 9" in out
    assert "From the start." in out
    assert "Lesson skipped." in out
    assert out.rstrip().endswith("Goodbye. Your progress is saved.")  # input ended
    assert listed()["lessons"][0]["state"] == "skipped"


def test_plain_tutorial_in_dutch_with_the_rules_in_force():
    script = "5\nroll\nscore yahtzee\nroll\n"
    result = run("--lang", "nl", "tutorial", "--plain", "--set", "yahtzee=60", input=script)
    assert result.exit_code == 0, result.output
    assert "Grote straat" in result.output
    assert "60" in result.output
    assert "Tot ziens" in result.output


def test_an_unknown_lesson_and_bad_rules_fail_cleanly():
    result = run("tutorial", "--rules", "nope", "--list")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
