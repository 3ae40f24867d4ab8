"""The whole-game simulator refuses rules it would play or score wrongly (served points, the
wild die) instead of answering wrong."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.rules import PRESETS, find_ruleset
from fivedice.strategy.limits import UnsupportedByStrategyError, has_served_points
from fivedice.strategy.simulate import head_to_head, simulate

SERVED = [preset.name for preset in PRESETS if has_served_points(preset.rules)]


def test_generala_is_among_the_presets_with_served_points():
    assert "generala" in SERVED and "classic" not in SERVED


@pytest.mark.parametrize("preset", SERVED)
def test_served_points_are_refused_by_the_simulator(preset):
    rules = find_ruleset(preset)
    with pytest.raises(UnsupportedByStrategyError, match="served points"):
        simulate(rules, "beginner", 10)
    with pytest.raises(UnsupportedByStrategyError, match="served points"):
        head_to_head(rules, ["beginner", "casual"], 10)


@pytest.mark.parametrize("preset", ["classic", "yatzy"])
def test_the_wild_die_is_refused_by_the_simulator(preset):
    rules = find_ruleset(preset, {"wild_die": True})
    with pytest.raises(UnsupportedByStrategyError, match="wild die"):
        simulate(rules, "expert", 10)
    with pytest.raises(UnsupportedByStrategyError, match="wild die"):
        head_to_head(rules, ["expert", "master"], 10)


def test_the_simulate_command_says_why_without_a_traceback():
    result = CliRunner().invoke(app, ["simulate", "--rules", "generala", "--games", "10"])
    assert result.exit_code != 0
    assert "served points" in result.output and "Traceback" not in result.output
