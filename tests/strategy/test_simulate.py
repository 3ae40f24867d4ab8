"""Simulation: statistics, reproducibility, agreement with the exact value, calibration, CLI."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from fivedice.cli.sim import register
from fivedice.core.errors import FivediceError
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.strategy.bots import Level, values_from_table
from fivedice.strategy.cache import cache_path, save_table
from fivedice.strategy.simulate import head_to_head, simulate
from fivedice.strategy.solver import StrategyTable

CLASSIC = find_ruleset("classic")
Solved = Callable[[RuleSet], StrategyTable]


@pytest.mark.slow
def test_summary_has_every_statistic() -> None:
    result = simulate(CLASSIC, "casual", 500, seed=4)
    summary = result.summary()
    assert summary["games"] == 500
    assert summary["level"] == "casual"
    assert set(summary["percentiles"]) == {"5", "25", "50", "75", "95"}  # type: ignore[arg-type]
    percentiles = list(result.percentiles.values())
    assert result.scores.min() <= percentiles[0] <= percentiles[2] <= percentiles[4]
    assert percentiles[4] <= result.scores.max()
    assert 0 < result.upper_bonus_rate < 1
    assert 0 < result.yahtzee_rate < 1
    assert result.mean_extra_yahtzees >= 0
    assert result.games_per_second > 0
    json.dumps(summary)


@pytest.mark.slow
def test_same_seed_same_games_other_seed_other_games() -> None:
    # Casual slips at random, so this also checks that slips are seeded.
    first = simulate(CLASSIC, "casual", 300, seed=8)
    again = simulate(CLASSIC, "casual", 300, seed=8)
    other = simulate(CLASSIC, "casual", 300, seed=9)
    assert np.array_equal(first.scores, again.scores)
    assert not np.array_equal(first.scores, other.scores)
    # A game's dice depend on its number only: the first games of a longer run are the same.
    longer = simulate(CLASSIC, "beginner", 600, seed=8)
    shorter = simulate(CLASSIC, "beginner", 200, seed=8)
    assert np.array_equal(longer.scores[:200], shorter.scores)


def test_expert_mean_agrees_with_the_exact_value(classic_table: StrategyTable) -> None:
    games = 20_000
    result = simulate(CLASSIC, "expert", games, seed=12, values=values_from_table(classic_table))
    # Four standard errors (about 1.7 points): fails for a bug, not for bad luck.
    assert abs(result.mean - classic_table.expected_score) < 4 * result.standard_error
    assert result.upper_bonus_rate == pytest.approx(0.68, abs=0.02)


def test_expert_is_exact_on_simple_rules_too(solved_table: Solved) -> None:
    rules = find_ruleset("classic", {"rolls_per_turn": "2", "joker": "free_choice"})
    table = solved_table(rules)
    result = simulate(rules, "expert", 10_000, seed=3, values=values_from_table(table))
    assert abs(result.mean - table.expected_score) < 4 * result.standard_error


def test_head_to_head_shares_ties_and_sums_to_one(tmp_path: Path) -> None:
    match = head_to_head(CLASSIC, ["beginner", "casual", "beginner"], 400, seed=1)
    assert sum(match.win_rates.values()) == pytest.approx(1.0)
    assert set(match.win_rates) == {Level.BEGINNER, Level.CASUAL}
    assert match.win_rates[Level.CASUAL] > 0.5
    # Two beginners with the same seed play identical games: every game is a tie between them.
    assert np.array_equal(match.results[0].scores, match.results[2].scores)
    with pytest.raises(FivediceError):
        head_to_head(CLASSIC, ["casual"], 10)


def test_bad_arguments_raise_typed_errors() -> None:
    with pytest.raises(FivediceError):
        simulate(CLASSIC, "casual", 0)
    with pytest.raises(FivediceError):
        simulate(CLASSIC, "casual", 10, seed=-1)
    with pytest.raises(FivediceError):
        simulate(CLASSIC, "wizard", 10)


@pytest.mark.slow
def test_levels_are_calibrated(classic_table: StrategyTable) -> None:
    """Classic means clearly apart and plausible (published: greedy ~218, good heuristics
    240-245, optimal 254.59). 20,000 games a level (standard errors about 0.4 points); the
    guide, whose games take about a millisecond each (most of this test's time), 10,000
    (about 0.6): its 3.3 points below strong are still 4.5 standard errors of the difference."""
    values = values_from_table(classic_table)
    means = {}
    for level in Level:
        optimal = level in (Level.STRONG, Level.EXPERT, Level.MASTER)
        games = 10_000 if level is Level.GUIDE else 20_000
        result = simulate(CLASSIC, level, games, seed=1, values=values if optimal else None)
        means[level] = result.mean
    assert 195 < means[Level.BEGINNER] < 218
    assert 222 < means[Level.CASUAL] < 240
    assert 238 < means[Level.STRONG] < 250
    assert abs(means[Level.EXPERT] - 254.59) < 2
    # Master plays to win against others; alone it plays exactly like the expert.
    assert means[Level.MASTER] == means[Level.EXPERT]
    # The guide (rules a person can follow) sits between casual and strong, nearer strong.
    assert 235 < means[Level.GUIDE] < means[Level.STRONG]
    ordered = [means[level] for level in Level if level not in (Level.MASTER, Level.GUIDE)]
    assert all(b - a > 5 for a, b in itertools.pairwise(ordered))
    assert means[Level.GUIDE] - means[Level.CASUAL] > 5


# --- CLI ------------------------------------------------------------------------------


@pytest.fixture
def cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, classic_table: StrategyTable
) -> Callable[..., object]:
    """Runs `simulate` with a cache directory that already holds the classic table."""
    save_table(classic_table, cache_path(CLASSIC, tmp_path))
    monkeypatch.setenv("FIVEDICE_CACHE_DIR", str(tmp_path))
    app = typer.Typer()
    app.callback()(lambda: None)  # keep `simulate` a subcommand, as in the real app
    register(app)
    runner = CliRunner()

    def run(*args: str) -> object:
        return runner.invoke(app, ["simulate", *args])

    return run


def test_cli_json_solitaire(cli: Callable[..., object]) -> None:
    result = cli("--bot", "expert", "--games", "2000", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    data = json.loads(result.stdout)  # type: ignore[attr-defined]
    assert data["level"] == "expert"
    assert data["games"] == 2000
    assert 240 < data["mean"] < 270
    for key in ("std", "percentiles", "min", "max", "upper_bonus_rate", "yahtzee_rate"):
        assert key in data
    assert "mean_extra_yahtzees" in data and "games_per_second" in data


def test_cli_head_to_head_json(cli: Callable[..., object]) -> None:
    result = cli("--bot", "beginner", "--vs", "casual", "--games", "300", "--json")
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    data = json.loads(result.stdout)  # type: ignore[attr-defined]
    assert set(data["win_rates"]) == {"beginner", "casual"}
    assert [p["level"] for p in data["players"]] == ["beginner", "casual"]


def test_cli_text_and_plot(cli: Callable[..., object], tmp_path: Path) -> None:
    image = tmp_path / "scores.png"
    result = cli("--bot", "casual", "--bot", "strong", "--games", "300", "--plot", str(image))
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    assert "Win rates" in result.stdout  # type: ignore[attr-defined]
    assert image.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "args",
    [
        ("--bot", "wizard"),
        ("--games", "0"),
        ("--seed", "-3"),
        ("--rules", "nonsense"),
        ("--set", "joker=sometimes"),
        ("--set", "no-equals-sign"),
        ("--games", "5", "--plot", "/no/such/dir/x.png"),
        ("--games", "5", "--seed", "18446744073709551616"),
        ("--games", "5", "--seed", "9223372036854775808"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(
    cli: Callable[..., object], args: tuple[str, ...]
) -> None:
    result = cli(*args)
    assert result.exit_code == 2  # type: ignore[attr-defined]
    assert "Traceback" not in result.output  # type: ignore[attr-defined]
    lines = result.stderr.strip().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1 and lines[0].startswith("fivedice: ")


@pytest.mark.parametrize("name", ["scores.svg", "scores.PDF", "scores.png"])
def test_cli_plot_writes_exactly_the_path_given(
    cli: Callable[..., object], tmp_path: Path, name: str
) -> None:
    image = tmp_path / "plots" / name
    image.parent.mkdir()
    result = cli("--bot", "casual", "--games", "50", "--plot", str(image))
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    assert [p.name for p in image.parent.iterdir()] == [name]  # no suffix appended
    assert f"Histogram written to {image}" in result.stdout  # type: ignore[attr-defined]
    as_json = cli("--bot", "casual", "--games", "20", "--plot", str(image), "--json")
    assert json.loads(as_json.stdout)["plot"] == str(image)  # type: ignore[attr-defined]
    assert [p.name for p in image.parent.iterdir()] == [name]
    head = image.read_bytes()[:8]
    assert head.startswith({"svg": b"<?xml", "pdf": b"%PDF", "png": b"\x89PNG"}[name[-3:].lower()])


@pytest.mark.parametrize("target", ["directory", "no-extension", "unknown-extension"])
def test_cli_plot_refuses_a_path_it_would_not_write_exactly(
    cli: Callable[..., object], tmp_path: Path, target: str
) -> None:
    folder = tmp_path / "plots"
    folder.mkdir()
    path = {
        "directory": folder,
        "no-extension": folder / "scores",
        "unknown-extension": folder / "scores.txt",
    }[target]
    result = cli("--bot", "casual", "--games", "50", "--plot", str(path))
    assert result.exit_code == 2  # type: ignore[attr-defined]
    assert "--plot needs a file name" in result.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in result.output  # type: ignore[attr-defined]
    assert not any(folder.iterdir())  # nothing written, beside it or inside
    assert not any(p.name.startswith("plots") and p != folder for p in tmp_path.iterdir())


@pytest.mark.slow
def test_master_head_to_head_runs_as_duels() -> None:
    """Master against expert: both seats' statistics and win rates that add up to 1."""
    match = head_to_head(CLASSIC, ["master", "expert"], 300, seed=2)
    assert set(match.win_rates) == {Level.MASTER, Level.EXPERT}
    assert sum(match.win_rates.values()) == pytest.approx(1.0)
    for result in match.results:
        assert result.games == 300 and 150 < result.mean < 350
        assert 0.3 < result.upper_bonus_rate < 0.95
    with pytest.raises(FivediceError, match="master"):
        head_to_head(CLASSIC, ["master", "casual"], 10)
