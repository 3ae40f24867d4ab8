"""`fivedice drill`: the puzzles line by line from stdin, and `--progress [--json]`."""

from __future__ import annotations

import json

import pytest

from fivedice.service.drills import BUILTIN
from tests.support.cli import run
from tests.support.language import english_sentences

TABLES = pytest.mark.tables  # answers are judged by the classic table (the user's cache)


def progress() -> dict[str, int]:
    result = run("drill", "--progress", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@TABLES
def test_a_transcript_of_right_wrong_and_bad_answers():
    # 1st built-in: 6 2 6 3 6 with two rolls left (keep 6 6 6); 2nd: 5 3 2 5 4 (keep 2 3 4 5).
    script = "hold 1 3 5\nfly away\nhold 9\nscore nothing\nv\n1 4\nquit\n"
    result = run("drill", input=script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "0 of 10 positions mastered · 0 to practise again · 10 new" in out
    assert "A classic position to practise" in out
    assert "Dice: 6 2 6 3 6" in out
    assert "Keep some dice and roll, or score now? (2 rolls left)" in out
    assert "Right: keep 6 6 6 is the best move." in out
    assert f"Rule of thumb: {BUILTIN[0].title}" in out
    assert "1. keep 6 6 6: 265.1 points to come" in out
    assert "Right once: it comes back after 8 other positions, to be sure." in out
    # The refusals as sentences (a long one wraps: plain lines stay under 80 characters).
    said = " ".join(out.split())
    assert (
        "> Not allowed: answer with the dice to hold (hold 1 3), roll, or score and a box"
        " (score chance) >" in said
    )
    assert "> Not allowed: there are dice 1 to 5; there is no die 9\n" in out
    assert "> Not allowed: no box is called 'nothing'" in out
    assert "The best is keep 2 3 4 5; keep 5 5 loses 1.86 points." in out
    # Why, in boxes and bonuses (the breakdown): the best against the answer, its chances.
    assert "keep 2 3 4 5 rather than keep 5 5: +" in out and " in Large straight" in out
    assert "Chances this turn: Large straight" in out
    # A right answer is explained against the next best option.
    assert "keep 6 6 6 rather than keep 2 6 6 6: " in out
    assert "It comes back after 3 other positions." in out
    assert out.count("Dice: 5 3 2 5 4") == 2  # shown, then shown again on `v`
    assert out.rstrip().endswith("Goodbye. Your progress is saved.")
    assert progress() == {"total": 10, "mastered": 0, "waiting": 2, "new": 8, "own": 0}


@TABLES
def test_end_of_input_keeps_the_progress_and_reset_forgets_it():
    result = run("drill", input="hold 1 3 5\n")
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("Goodbye. Your progress is saved.")
    assert progress()["waiting"] == 1
    assert run("drill", "--reset").output.strip() == "The drills' progress is forgotten."
    assert progress()["waiting"] == 0


def test_the_drills_in_japanese_have_no_english_left():
    result = run("--lang", "ja", "drill", input="score nothing\nquit\n")
    assert result.exit_code == 0, result.output
    assert "それとも今記入しますか" in result.output and "定番の練習局面" in result.output
    assert not english_sentences(result.output), result.output
