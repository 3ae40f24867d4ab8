"""The solve and advise commands, through a local Typer app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from fivedice.cli.strategy import register
from fivedice.core.card import Column
from fivedice.strategy import breakdown, cache
from fivedice.strategy.advisor import advise
from fivedice.strategy.solver import StrategyTable
from tests.support import tables

pytestmark = pytest.mark.slow


@pytest.fixture
def app(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    classic_table: StrategyTable,
    free_choice_table: StrategyTable,
) -> typer.Typer:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    solved = {t.rules: t for t in (classic_table, free_choice_table)}

    def fake_solve(rules: object, progress: object = None) -> StrategyTable:
        if callable(progress):
            progress(1, 1)
        return solved[rules]  # type: ignore[index]

    monkeypatch.setattr(cache, "solve", fake_solve)
    # The breakdown too is the session's (computed once): the commands still load it from
    # their cache directory or save it there.
    monkeypatch.setattr(
        breakdown, "compute_breakdown", lambda table, progress=None: tables.breakdown(table)
    )
    application = typer.Typer()
    register(application)
    return application


runner = CliRunner()


def test_solve_json(app: typer.Typer) -> None:
    result = runner.invoke(app, ["solve", "--rules", "classic", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["expected_score"] == pytest.approx(254.5877287, abs=1e-6)
    assert payload["states"] > 100_000
    assert payload["seconds"] >= 0


def test_solve_text(app: typer.Typer) -> None:
    result = runner.invoke(app, ["solve", "--set", "joker=free_choice", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert "254.5896095" in result.stdout


def test_advise_json(app: typer.Typer) -> None:
    args = ["advise", "--rules", "free-choice", "--dice", "11666", "--rolls-left", "2", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    options = json.loads(result.stdout)["options"]
    assert options[0]["keep"] == [6, 6, 6]
    assert options[0]["value"] == pytest.approx(265.1155, abs=5e-5)
    assert sum("keep" in o for o in options) == 12  # 3 × 4 distinct keeps of 1-1-6-6-6
    assert any(o.get("score") == "sixes" for o in options)


def test_advise_json_is_exact(app: typer.Typer, classic_table: StrategyTable) -> None:
    # The example: float32 tables printed 218.2245 (rounded to 4 places).
    card = '{"large_straight": 0}'
    args = ["advise", "--dice", "55666", "--rolls-left", "1", "--card", card, "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    options = json.loads(result.stdout)["options"]
    sixes = next(o["value"] for o in options if o.get("score") == "sixes")
    assert sixes == pytest.approx(218.2244492, abs=5e-8)  # the exact value, to 7 places
    # Full precision: the points now plus the table's future, to rounding.
    after = Column.from_scores(classic_table.rules, {"large_straight": 0, "sixes": 18})
    assert sixes == pytest.approx(18 + classic_table.column_value(after), abs=1e-12)
    # Every value is the advisor's float, not a rounded copy.
    exact = advise(
        classic_table,
        Column.from_scores(classic_table.rules, {"large_straight": 0}),
        (5, 5, 6, 6, 6),
        1,
    )
    assert [o["value"] for o in options] == [o.value for o in exact]


def test_advise_with_card(app: typer.Typer) -> None:
    card = json.dumps({"yahtzee": 50, "sixes": 18, "extra_yahtzees": 1})
    args = ["advise", "--dice", "66666", "--rolls-left", "0", "--card", card, "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    options = json.loads(result.stdout)["options"]
    # Forced joker: the sixes box is filled, so any open lower box, at full value.
    assert {o["score"] for o in options} == {
        "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
        "large_straight", "chance",
    }  # fmt: skip
    text = runner.invoke(app, ["advise", "--dice", "66666", "--rolls-left", "0", "--card", card])
    assert text.exit_code == 0
    lines = text.stdout.splitlines()
    assert lines[0].split() == ["option", "points", "to", "come", "loss"]
    assert lines[1].startswith("score ") and lines[1].split()[-1] == "0.0000"


@pytest.mark.parametrize(
    "args",
    [
        ["--dice", "1166", "--rolls-left", "2"],
        ["--dice", "11667", "--rolls-left", "2"],
        ["--dice", "11666", "--rolls-left", "-1"],
        ["--dice", "11666", "--rolls-left", "3"],
        ["--dice", "11666", "--rolls-left", "9223372036854775807"],
        ["--dice", "11666", "--rolls-left", "99999999999999999999"],
        ["--dice", "11666", "--rolls-left", "3", "--set", "rolls_per_turn=3"],
        ["--dice", "11666", "--rolls-left", "2", "--card", "{oops"],
        ["--dice", "11666", "--rolls-left", "2", "--card", "[1, 2]"],
        ["--dice", "11666", "--rolls-left", "2", "--card", '{"yahtzee": 7}'],
        ["--dice", "11666", "--rolls-left", "2", "--card", '{"sevens": 7}'],
        ["--dice", "11666", "--rolls-left", "2", "--rules", "triple"],
        ["--dice", "11666", "--rolls-left", "2", "--rules", "nope"],
        ["--dice", "11666", "--rolls-left", "2", "--set", "joker"],
        ["--dice", "11666", "--rolls-left", "2", "--set", "rolls_per_turn=0"],
    ],
)
def test_advise_errors(app: typer.Typer, args: list[str]) -> None:
    result = runner.invoke(app, ["advise", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith("fivedice: ")
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_solve_refuses_multi_column(app: typer.Typer) -> None:
    result = runner.invoke(app, ["solve", "--rules", "triple", "--json"])
    assert result.exit_code == 2
    assert "one score column" in result.stderr


def test_advise_explain_json_splits_every_option_exactly(app: typer.Typer) -> None:
    args = ["advise", "--dice", "23466", "--rolls-left", "1", "--explain", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    options = json.loads(result.stdout)["options"]
    plain = json.loads(runner.invoke(app, [*args[:-2], "--json"]).stdout)["options"]
    assert [o["value"] for o in options] == pytest.approx([o["value"] for o in plain], abs=1e-9)
    for option in options:
        assert sum(option["breakdown"].values()) == pytest.approx(option["value"], abs=1e-9)
        assert set(option["breakdown"]) >= {"sixes", "upper_bonus", "yahtzee_bonus"}
        if "keep" in option:
            assert 0 < sum(option["chances_this_turn"].values()) <= 1 + 1e-9
        else:
            assert "chances_this_turn" not in option
    straight = next(o for o in options if o.get("keep") == [2, 3, 4])
    # One roll left holding 2 3 4: a large straight needs 1 5 or 5 6 among 36 outcomes.
    assert straight["chances_this_turn"]["large_straight"] == pytest.approx(4 / 36, abs=1e-12)


def test_advise_explain_text_says_why_the_best_beats_the_next(app: typer.Typer) -> None:
    args = ["advise", "--dice", "23466", "--rolls-left", "2", "--explain"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[-2].startswith("keep 6 6 rather than keep ")
    assert " in " in lines[-2]
    assert lines[-1].startswith("Chances this turn: Sixes ")


def test_solve_explain_gives_each_box_its_mean_and_the_bonus_rates(app: typer.Typer) -> None:
    result = runner.invoke(app, ["solve", "--explain", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    parts = payload["breakdown"]
    assert sum(parts.values()) == pytest.approx(payload["expected_score"], abs=1e-9)
    assert parts["sixes"] == pytest.approx(19.19, abs=0.01)  # every optimal game's sixes
    bonus = payload["bonuses"]["upper_bonus"]
    assert bonus["probability"] == pytest.approx(parts["upper_bonus"] / 35)
    assert 0.6 < bonus["probability"] < 0.75  # optimal play makes the bonus about 68% of games
    extra = payload["bonuses"]["yahtzee_bonus"]
    assert extra["expected_count"] == pytest.approx(parts["yahtzee_bonus"] / 100)
    text = runner.invoke(app, ["solve", "--explain"]).stdout
    assert "Upper bonus: earned in 68.1% of games" in text
