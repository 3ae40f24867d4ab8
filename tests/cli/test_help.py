"""The command line's help in the player's language: `fivedice --help` and the
help of every command read in Japanese, with no English sentence left."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import typer.main

from fivedice.cli import app
from fivedice.cli.help import HELP_TEXTS, language_of
from tests.support.language import english_sentences


def help_screen(*args: str, language: str = "ja") -> str:
    env = {**os.environ, "FIVEDICE_LANG": language, "COLUMNS": "100", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "fivedice.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def command_names() -> list[str]:
    return sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def test_every_help_text_is_listed_for_translation():
    """A command or option added without its help in `HELP_TEXTS` would stay English."""
    command = typer.main.get_command(app)
    texts = [command.help]
    for sub in command.commands.values():  # type: ignore[attr-defined]
        texts.append(sub.help)
        texts.extend(getattr(param, "help", None) for param in sub.params)
    texts.extend(getattr(param, "help", None) for param in command.params)
    missing = [text for text in texts if text and text not in HELP_TEXTS]
    assert not missing


@pytest.mark.processes
def test_the_main_help_is_japanese():
    screen = help_screen("--help")
    assert "使い方：" in screen and "コマンド" in screen and "オプション" in screen
    assert "[オプション] コマンド [引数]..." in screen  # the usage line
    assert "このヘルプを表示して終了します。" in screen
    assert english_sentences(screen) == []
    assert "Show this message" not in screen and "Usage" not in screen
    # The English help of the same command is English, so the check above can fail.
    assert english_sentences(help_screen("--help", language="en"))


@pytest.mark.processes
@pytest.mark.slow
@pytest.mark.parametrize("name", command_names())
def test_each_commands_help_is_japanese(name):
    screen = help_screen(name, "--help")
    assert re.search(r"[\u3040-\u30ff]", screen)
    assert english_sentences(screen) == [], name


@pytest.mark.processes
def test_lang_on_the_command_line_chooses_the_help_language():
    assert "Utilisation" not in help_screen("--lang", "fr", "--help", language="en")
    assert "Usage :" in help_screen("--lang", "fr", "--help", language="en")
    assert "使い方：" in help_screen("--lang=ja", "play", "--help", language="de")
    assert language_of(["play", "--", "--lang", "ja"]) is None


@pytest.mark.processes
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["play", "--games", "x"], "--games には整数を指定してください。"),
        (["advise", "--dice", "11666"], "--rolls-left がありません。"),
        (["play", "--bogus"], "オプション --bogus はありません。"),
        (["rules", "a", "b"], "余分な引数があります：a b"),
    ],
)
def test_a_refused_command_line_says_why_in_japanese(args, expected):
    env = {**os.environ, "FIVEDICE_LANG": "ja", "COLUMNS": "100", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "fivedice.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert expected in done.stderr
    assert english_sentences(done.stderr) == []
    assert "Traceback" not in done.stderr


@pytest.mark.processes
@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ("en", "fivedice: the languages are en, nl, de, ja, fr, es, not 'xx'"),
        ("de", "fivedice: die Sprachen sind en, nl, de, ja, fr, es, nicht 'xx'"),
    ],
)
def test_an_unknown_lang_is_refused_not_played_in_english(environment, expected):
    """`--lang xx` says which languages there are (in the environment's language) and
    exits 2 having done nothing; a code in capitals is still one of them."""
    env = {**os.environ, "FIVEDICE_LANG": environment, "NO_COLOR": "1"}
    run = [sys.executable, "-m", "fivedice.cli"]
    done = subprocess.run(
        [*run, "--lang", "xx", "rules"], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == expected
    shown = subprocess.run(
        [*run, "--lang", "JA", "rules"], capture_output=True, text=True, env=env, timeout=120
    )
    assert shown.returncode == 0 and "クラシック" in shown.stdout


def test_the_help_of_play_names_every_cpu_level():
    from fivedice.strategy.levels import LEVELS

    play = typer.main.get_command(app).commands["play"]  # type: ignore[attr-defined]
    cpu = next(param for param in play.params if "--cpu" in param.opts)
    assert all(level in cpu.help for level in LEVELS), cpu.help
