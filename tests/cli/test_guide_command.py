"""`fivedice guide`: the strategy guide as text, JSON and a PDF, in the player's language."""

from __future__ import annotations

import io
import json

import pytest
from pypdf import PdfReader

from tests.support.cli import run


def test_the_guide_as_text_lists_numbered_rules_with_their_worth():
    result = run("guide")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Strategy guide"
    numbered = [line for line in lines if line[:3].strip().rstrip(".").isdigit()]
    assert 3 < len(numbered) <= 50
    # Numbered 1..n as shown (the pars under rule 1 are not rules of their own).
    assert [int(line.split(".")[0]) for line in numbered] == list(range(1, len(numbered) + 1))
    assert "      Ones: par " in result.stdout
    assert " 1. Score where your points minus the box's par are highest" in result.stdout
    assert "points a game)" in result.stdout


def test_the_guide_in_japanese():
    result = run("--lang", "ja", "guide")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("戦略ガイド")
    assert "キープ" in result.stdout and "Score where" not in result.stdout


def test_the_guide_as_json_is_the_level_s_data():
    result = run("guide", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rules"] == "classic"
    assert {"pars", "upper_weight", "worth"} <= set(data["box"])
    assert all({"action", "when", "worth"} <= set(rule) for rule in data["keep"])


def test_rules_without_a_guide_are_refused_clearly():
    result = run("guide", "--rules", "yatzy")
    assert result.exit_code == 2
    assert result.stderr.strip() == ("fivedice: a strategy guide exists for classic, not 'yatzy'")


@pytest.mark.slow
@pytest.mark.parametrize(("language", "words"), [("de", "Was du behältst"), ("ja", "戦略ガイド")])
def test_the_guide_as_a_pdf(tmp_path, language, words):
    target = tmp_path / "guide.pdf"
    result = run("guide", "--lang", language, "-o", str(target))
    assert result.exit_code == 0, result.output
    reader = PdfReader(io.BytesIO(target.read_bytes()))
    assert 1 <= len(reader.pages) <= 3
    # (pypdf reads the Japanese fallback font's characters with a NUL before each)
    text = "\n".join(page.extract_text() for page in reader.pages).replace("\x00", "")
    assert words in text


def test_a_bad_paper_size_is_refused_in_the_players_language(tmp_path):
    target = tmp_path / "guide.pdf"
    result = run("--lang", "de", "guide", "--paper", "a3", "-o", str(target))
    assert result.exit_code == 2
    assert result.stderr.startswith("fivedice: ") and "a3" in result.stderr
    assert "paper is" not in result.stderr  # German, not English
    assert not target.exists()
