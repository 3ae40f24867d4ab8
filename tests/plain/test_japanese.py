"""A Japanese player meets no English in the plain mode: a whole two-game match
against a CPU, with help, rules, hints, the card, refused lines and zero confirmations, is
read for ASCII words; only the commands the player types may appear."""

from __future__ import annotations

import io
import re

import pytest

from fivedice.core.categories import CATEGORIES
from fivedice.core.rules import RuleSet
from fivedice.i18n import set_language
from fivedice.plain.game import run_plain
from tests.support.language import ScriptedPlayer

COMMAND_WORDS = {
    # Typed by the player (they are the same in every language) and named in the help.
    "roll", "hold", "release", "score", "hint", "undo", "help", "show", "rules", "quit",
    "r", "h", "rel", "s", "q", "y", "N", "chance", "full_house", "all", "fair", "z", "v", "u",
    "why", "w", "goal", "beat", "off",
    # The command that resumes a saved game, and the CPU seats' name.
    "fivedice", "play", "plain", "resume", "CPU",
}  # fmt: skip
"""Every ASCII word a Japanese player may read in the plain mode (kept small on purpose)."""

TURN = ["hint", "roll", "hint", "hold 1 2", "roll", "release 1", "roll", "show"]


@pytest.fixture
def japanese():
    set_language("ja")
    yield
    set_language("en")


def ascii_words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z][A-Za-z_]*", text))


def test_a_whole_match_in_japanese_shows_only_the_commands_in_ascii(tmp_path, japanese):
    lines = ["help", "rules", "?", "", "ふー", "hold 9", "score なし", "undo"]
    for _game in range(2):
        for category in CATEGORIES:  # every box once, in Japanese names half of the time
            lines += [*TURN, f"score {category.key}"]
    lines.append("quit")
    out = io.StringIO()
    code = run_plain(
        RuleSet(),
        ["太郎"],
        ["casual"],
        seed=4,
        first="highest_die",
        games=2,
        stdin=ScriptedPlayer(out, lines),
        stdout=out,
        db=f"sqlite:///{tmp_path / 'ja.sqlite3'}",
    )
    text = out.getvalue()
    assert code == 0
    assert "マッチ合計" in text and "1位" in text  # the match was played to its end
    assert "コーチのおすすめの手" in text and "0点になります" in text
    assert ascii_words(text) - COMMAND_WORDS == set()
    # Lists and sentences use the language's own punctuation, none built in code.
    assert "," not in text and ";" not in text
    assert re.search(r"太郎の出目：\d、CPU 1（中級）の出目：\d。", text)
    assert re.search(r"^  1\. .+：\d+\.\d", text, re.MULTILINE)  # a hint line: "…：250.6"


def test_the_english_plain_mode_keeps_its_commas(tmp_path):
    """The separators are messages: English still reads "Ones 3, Twos 0"."""
    out = io.StringIO()
    run_plain(
        RuleSet(),
        ["Ann"],
        [],
        seed=4,
        first="first_seat",
        games=1,
        stdin=ScriptedPlayer(out, ["roll"]),
        stdout=out,
        db=f"sqlite:///{tmp_path / 'en.sqlite3'}",
    )
    assert re.search(r"Boxes: Ones \d+, Twos \d+, ", out.getvalue())
