"""`fivedice advise --target`: the options ranked by their chance of reaching a goal."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from fivedice.cli.strategy import register
from fivedice.core.rules import find_ruleset
from fivedice.strategy import solver as s
from fivedice.strategy import thresholds
from tests.strategy.support import column_with_open_boxes

runner = CliRunner()
CLASSIC = find_ruleset("classic")


@pytest.fixture
def app() -> typer.Typer:
    application = typer.Typer()
    register(application)
    return application


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("lots", "a goal is a total to reach"),
        ("-3", "from 1 to 100000"),
        ("99999999", "from 1 to 100000"),
        ("2000", "2000 is 2000 points ahead"),
        ("beat Ann", "a goal is a total to reach"),  # no players without a game
    ],
)
def test_bad_targets_are_refused_clearly(app: typer.Typer, target: str, words: str) -> None:
    result = runner.invoke(
        app, ["advise", "--dice", "11666", "--rolls-left", "2", "--target", target]
    )
    assert result.exit_code != 0
    assert words in result.output and "Traceback" not in result.output


@pytest.mark.slow
def test_target_options_are_the_threshold_tables_chances(
    app: typer.Typer, monkeypatch: pytest.MonkeyPatch
) -> None:
    late = thresholds.compute_thresholds(CLASSIC, 90, min_filled=12)
    monkeypatch.setattr(thresholds, "thresholds_of", lambda rules, top, **_: late)
    column = column_with_open_boxes(CLASSIC, ("chance",), yahtzee=0)
    card = json.dumps({box.key: column.scores[i] for i, box in enumerate(CLASSIC.boxes)
                       if column.scores[i] is not None})  # fmt: skip
    total = column.total(CLASSIC)
    args = ["advise", "--dice", "12356", "--rolls-left", "1", "--card", card]
    result = runner.invoke(app, [*args, "--target", f"beat {total + 19}", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["goal"] == total + 20
    options = payload["options"]
    assert options[0] == {"keep": [5, 6], "chance": pytest.approx(options[0]["chance"])}
    mask, up, armed = s.column_state(CLASSIC, column)
    turn = late.turn(mask, up, armed, 20, 2)
    for option in options:
        if "keep" in option:
            keep = tuple(option["keep"])
            assert option["chance"] == pytest.approx(
                turn.keep_chances[1, s.KEEP_INDEX[keep]], abs=1e-6
            )
        else:  # chance scores 17 < 20 now
            assert option == {"score": "chance", "chance": 0.0}
    text = runner.invoke(app, [*args, "--target", str(total + 20)])
    assert text.exit_code == 0
    lines = text.stdout.splitlines()
    assert lines[0].split()[:2] == ["option", "chance"] and lines[1].startswith("keep 5 6")


def test_a_goal_table_to_build_is_announced_shown_and_cancelled_by_ctrl_c(
    app: typer.Typer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before minutes of silence: the table's cost, then its progress with the time left;
    Ctrl+C stops it with a word and exit status 130."""
    from fivedice.strategy.derived import BuildProgress

    monkeypatch.setattr(
        thresholds, "build_cost", lambda rules, top: thresholds.BuildCost(577_000_000, 313.0)
    )
    seen: list[object] = []

    def building(rules, top, *, listener=None, **_):  # type: ignore[no-untyped-def]
        seen.append(listener)
        assert listener is not None
        listener(BuildProgress("goal", 0.25, 240.0, 80.0))
        raise KeyboardInterrupt

    monkeypatch.setattr(thresholds, "thresholds_of", building)
    result = runner.invoke(
        app, ["advise", "--dice", "11666", "--rolls-left", "2", "--target", "300"]
    )
    assert result.exit_code == 130
    assert "about 5 min of CPU, 577 MB on disk" in result.output
    assert "Computing the goal table: 25% done, about 4 min left" in result.output
    assert result.output.rstrip().endswith("Cancelled: nothing was saved.")
    assert len(seen) == 1
