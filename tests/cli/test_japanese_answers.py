"""The command line's answers in Japanese: rules, score, advise, the saved games,
statistics, a replayed record and its check say nothing in English (box names, counts,
statuses and moves in words; only preset keys, typed with `--rules`, stay ASCII)."""

from __future__ import annotations

import io
import re

import pytest
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.categories import CATEGORIES
from fivedice.core.rules import RuleSet
from fivedice.i18n import set_language
from fivedice.plain.game import run_plain
from tests.support.language import ScriptedPlayer, english_sentences

TYPED = re.compile(r"\b(?:classic|free-choice|simple|classic-five|triple|CPU)\b")
"""What a player types (`--rules classic`) or a seat is called: not words to translate."""


@pytest.fixture
def saved_game(tmp_path):
    """A finished solo game in a fresh database, and that database's URL."""
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    out = io.StringIO()
    script = []
    for category in CATEGORIES:  # one roll a turn, every box once
        script += ["roll", f"score {category.key}"]
    run_plain(RuleSet(), ["太郎"], [], seed=None, first="first_seat", games=1,
              stdin=ScriptedPlayer(out, script), stdout=out, db=url)  # fmt: skip
    set_language("en")
    return url


def japanese(*args: str) -> str:
    result = CliRunner().invoke(app, ["--lang", "ja", *args])
    set_language("en")
    assert result.exit_code == 0, result.output
    text = TYPED.sub(" ", result.stdout)
    assert english_sentences(text) == [], text
    return result.stdout


def test_rules_score_and_advise_are_japanese():
    assert "ルール" in japanese("rules")
    assert "フルハウス" in japanese("score", "--dice", "33355")
    advice = japanese("advise", "--dice", "11666", "--rolls-left", "2")
    assert advice.splitlines()[0].split() == ["選択肢", "今後の期待得点", "損失"]
    assert "6 6 6 をキープ" in advice and "keep" not in advice


def test_saved_games_statistics_and_a_replay_are_japanese(saved_game, tmp_path):
    games = japanese("games", "--db", saved_game)
    assert "終了済み" in games and "アクション" in games and "actions" not in games
    stats = japanese("stats", "--db", saved_game)
    assert "太郎 · クラシック" in stats and "1の目 " in stats
    assert "クラシック" in japanese("highscores", "--db", saved_game)
    record = tmp_path / "record.txt"
    record.write_text(CliRunner().invoke(app, ["export", "1", "--db", saved_game]).stdout)
    replayed = japanese("replay", str(record))
    assert "太郎の出目：" in replayed and "太郎の記入：チャンスに" in replayed
    assert "roll" not in replayed and "score" not in replayed
    assert "検証済み" in japanese("verify", str(record))
