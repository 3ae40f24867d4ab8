"""The library API (`from fivedice import ...`): its answers against the advisor and the CLI,
its lazy advice, its errors, a light import, and the library page's examples run as doctests."""

from __future__ import annotations

import doctest
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import fivedice
from fivedice import Advice, AdviceOption, Card, RuleSet, advise, score, solve
from fivedice.core.card import Column
from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.errors import CardError, DiceError, RuleSetError
from fivedice.core.rules import Joker, find_ruleset
from fivedice.core.scoring import box_score
from fivedice.strategy import advisor, cache
from fivedice.strategy.solver import StrategyTable, UnsupportedRulesError

pytestmark = pytest.mark.slow

LIBRARY_PAGE = Path(__file__).resolve().parents[2] / "docs" / "library.md"


def _positions(rules: RuleSet, count: int, seed: int) -> list[tuple[Column, tuple[int, ...], int]]:
    """Reachable decision points: a card filled by random legal moves, dice and rolls left."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        column = Column.empty()
        for _ in range(rng.randrange(13)):
            roll = tuple(rng.randint(1, 6) for _ in range(5))
            placement = rng.choice(column.placements(rules, roll))
            column = column.fill(rules, placement.category, roll)
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        positions.append((column, dice, rng.randrange(rules.rolls_per_turn)))
    return positions


@pytest.fixture
def cache_dir(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    classic_table: StrategyTable,
    free_choice_table: StrategyTable,
) -> Path:
    """A private table cache holding the classic and free-choice tables."""
    for table in (classic_table, free_choice_table):
        cache.save_table(table, cache.cache_path(table.rules, tmp_path))
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    return tmp_path


def test_import_loads_neither_numpy_nor_numba() -> None:
    script = (
        "import sys; import fivedice;"
        "from fivedice import RuleSet, Card, score, solve, advise, simulate;"
        "rules = RuleSet.preset('classic', joker='free_choice');"
        "Card.from_dict(rules, {'yahtzee': 50}); score(rules, 'chance', (1, 2, 3, 4, 5));"
        "print(sorted(m for m in ('numpy', 'numba') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True, timeout=60
    )
    assert out.stdout.strip() == "[]"


def test_names_of_the_api() -> None:
    for name in ("RuleSet", "Card", "score", "solve", "advise", "simulate"):
        assert name in fivedice.__all__
        assert getattr(fivedice, name) is not None
    assert Card is Column


def test_preset_takes_the_set_options_as_keywords() -> None:
    assert RuleSet.preset("classic", joker="free_choice") == find_ruleset("free-choice")
    rules = RuleSet.preset("simple", rolls_per_turn="4", upper_bonus=False, columns=2)
    assert (rules.rolls_per_turn, rules.upper_bonus, rules.columns) == (4, False, 2)
    assert RuleSet.preset("classic", joker=Joker.NONE).joker is Joker.NONE
    assert RuleSet.preset() == find_ruleset("classic")
    with pytest.raises(RuleSetError, match="unknown rule option"):
        RuleSet.preset("classic", jocker="none")
    with pytest.raises(RuleSetError, match="no rule preset"):
        RuleSet.preset("nonesuch")
    with pytest.raises(RuleSetError):
        RuleSet.preset("classic", rolls_per_turn=0)


def test_card_from_dict_reads_the_card_json() -> None:
    rules = RuleSet.preset("classic")
    card = Card.from_dict(rules, {"yahtzee": 50, "threes": 9, "extra_yahtzees": 2})
    assert card.score(Category.THREES) == 9
    assert card.extra_yahtzees == 2
    assert card.total(rules) == 50 + 9 + 200
    with pytest.raises(CardError, match="whole number"):
        Card.from_dict(rules, {"yahtzee": 50, "extra_yahtzees": "2"})
    with pytest.raises(CardError, match="no box"):
        Card.from_dict(rules, {"yahtzees": 50})
    with pytest.raises(CardError, match="cannot hold"):
        Card.from_dict(rules, {"threes": 10})
    with pytest.raises(CardError, match="extra Yahtzees"):
        Card.from_dict(rules, {"extra_yahtzees": 1})


def test_score_is_the_box_score() -> None:
    rules = RuleSet.preset("classic-five")
    rng = random.Random(3)
    for _ in range(200):
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        box = rng.choice(CATEGORIES)
        assert score(rules, box.key, dice) == box_score(rules, box, tuple(sorted(dice)))
    with pytest.raises(CardError):
        score(rules, "sevens", (1, 2, 3, 4, 5))
    with pytest.raises(DiceError):
        score(rules, "chance", (1, 2, 3, 4, 7))


@pytest.mark.parametrize("preset", ["classic", "free-choice"])
def test_advise_agrees_with_the_advisor(
    preset: str, solved_table: object, classic_table: StrategyTable
) -> None:
    rules = find_ruleset(preset)
    table = solved_table(rules)  # type: ignore[operator]
    for column, dice, rolls_left in _positions(rules, 300, seed=len(preset)):
        expected = advisor.advise(table, column, dice, rolls_left)
        got = advise(table, dice, rolls_left, column)
        assert isinstance(got, Advice)
        assert len(got) == len(expected)
        assert [(o.keep, o.box, o.value, o.loss) for o in got] == [
            (o.keep, o.category.key if o.category else None, o.value, o.loss) for o in expected
        ]
        assert got[0] == got.best == next(iter(got))


def test_advice_is_a_sequence_of_its_own(classic_table: StrategyTable) -> None:
    first = advise(classic_table, (1, 1, 6, 6, 6), 2)
    options = [first[i] for i in range(len(first))]  # read one by one, before any other query
    for dice in ((2, 3, 4, 5, 6), (5, 5, 5, 5, 5), (1, 2, 2, 4, 6)):
        advise(classic_table, dice, 1)  # later queries do not change an earlier result
    assert list(first) == options
    assert first[-1] == options[-1] and first[-len(first)] == options[0]
    assert list(first[1:3]) == options[1:3]
    with pytest.raises(IndexError):
        first[len(first)]
    with pytest.raises(IndexError):
        first[-len(first) - 1]
    best = first.best
    assert isinstance(best, AdviceOption)
    assert best.keep == (6, 6, 6) and best.box is None and best.loss == 0.0
    assert best.label == "keep 6 6 6"
    assert [o.value for o in first] == sorted((o.value for o in first), reverse=True)
    assert all(o.loss == pytest.approx(best.value - o.value, abs=1e-12) for o in first)
    scored = advise(classic_table, (6, 6, 6, 6, 1), 0)
    assert all(o.keep is None and o.box for o in scored)
    assert scored.best.label == f"score {scored.best.box}"
    assert "AdviceOption(" in repr(scored)


def test_advise_takes_rules_or_a_table_and_a_card_or_its_dict(cache_dir: Path) -> None:
    rules = RuleSet.preset("classic")
    card = {"yahtzee": 50, "threes": 9}
    by_rules = advise(rules, [6, 6, 6, 6, 6], 0, card)
    by_table = advise(solve(rules), (6, 6, 6, 6, 6), 0, Card.from_dict(rules, card))
    assert list(by_rules) == list(by_table)
    assert by_rules.best.box == "sixes"  # the forced joker with the bonus
    assert solve(rules).expected_score == pytest.approx(254.5877287, abs=1e-6)
    assert advise(RuleSet.preset("free-choice"), (1, 1, 6, 6, 6), 2).best.value == pytest.approx(
        265.1155, abs=1e-4
    )


def test_to_dict_is_the_json_of_the_cli(cache_dir: Path) -> None:
    from fivedice.cli import app

    card = '{"sixes": 18, "yahtzee": 0}'
    result = CliRunner().invoke(
        app, ["advise", "--dice", "66661", "--rolls-left", "1", "--card", card, "--json"]
    )
    assert result.exit_code == 0, result.output
    rules = RuleSet.preset("classic")
    advice = advise(rules, (6, 6, 6, 6, 1), 1, json.loads(card))
    assert json.loads(result.stdout) == advice.to_dict()
    assert json.loads(json.dumps(advice.to_dict())) == advice.to_dict()


def test_bad_queries_raise_value_errors(classic_table: StrategyTable) -> None:
    full = Column(tuple([0] * 13))
    with pytest.raises(DiceError):
        advise(classic_table, (1, 2, 3, 4), 2)
    with pytest.raises(DiceError):
        advise(classic_table, (1, 2, 3, 4, True), 2)
    with pytest.raises(DiceError):
        advise(classic_table, (1.0, 2, 3, 4, 5), 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rolls left"):
        advise(classic_table, (1, 2, 3, 4, 5), 3)
    with pytest.raises(ValueError, match="rolls left"):
        advise(classic_table, (1, 2, 3, 4, 5), -1)
    with pytest.raises(ValueError, match="complete"):
        advise(classic_table, (1, 2, 3, 4, 5), 0, full)
    with pytest.raises(CardError):
        advise(classic_table, (1, 2, 3, 4, 5), 0, {"fives": 3})
    with pytest.raises(UnsupportedRulesError):
        advise(RuleSet.preset("triple"), (1, 2, 3, 4, 5), 0)
    with pytest.raises(ValueError, match="whole number"):
        advise(classic_table, (1, 2, 3, 4, 5), 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="card must be"):
        advise(classic_table, (1, 2, 3, 4, 5), 0, ["yahtzee"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be"):
        advise("classic", (1, 2, 3, 4, 5), 0)  # type: ignore[arg-type]


def test_the_library_pages_examples(cache_dir: Path) -> None:
    """The ```python examples of the docs' library page, run as doctests against the cached
    tables."""
    text = LIBRARY_PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)
    test = doctest.DocTestParser().get_doctest(
        "\n".join(blocks), {}, "library.md", str(LIBRARY_PAGE), 0
    )
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 15
    assert result.failed == 0
