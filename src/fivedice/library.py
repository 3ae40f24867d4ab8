"""The library API: rule sets, cards, scores, the solver, advice and simulation in six names.

`from fivedice import RuleSet, Card, score, solve, advise, simulate` is the stable surface for
programs that use fivedice as a library (python-chess is the model: plain values, typed, one
import). Everything here is importable without numpy or numba; the strategy layer loads on the
first call that needs it (`solve`, `advise`, `simulate`), so `import fivedice` stays cheap.

`advise` answers a query in a few microseconds: the engine writes every option's code, value and
loss into one small array, and the `Advice` it returns builds an `AdviceOption` only when one is
read (indexing, iterating, `best`), so a caller that wants the best move pays for one option,
not for the twenty-odd a position has.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from fivedice.core.card import Column
from fivedice.core.categories import Category
from fivedice.core.dice import check_roll
from fivedice.core.rules import RuleSet
from fivedice.core.scoring import box_score

if TYPE_CHECKING:
    import os

    import numpy as np
    import numpy.typing as npt

    from fivedice.strategy.simulate import SimulationResult
    from fivedice.strategy.solver import StrategyTable

__all__ = [
    "Advice",
    "AdviceOption",
    "Card",
    "RuleSet",
    "advise",
    "score",
    "simulate",
    "solve",
]

Card = Column
"""A score card of one column: `Card.from_dict(rules, {"yahtzee": 50})`, `Card.empty()`."""


def score(rules: RuleSet, box: str, dice: Sequence[int]) -> int:
    """The points the dice score in a box (by its key), before bonuses and the joker.

    >>> score(RuleSet.preset("classic"), "full_house", (3, 3, 5, 5, 5))
    25

    Raises:
        CardError: no box has that key.
        DiceError: not five dice 1-6.
    """
    return box_score(rules, Category.parse(box), check_roll(dice))


def solve(
    rules: RuleSet,
    *,
    use_cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
) -> StrategyTable:
    """The solved table of single-column rules (`.expected_score`: the optimal mean score).

    Read from the table cache when a valid copy is there (`$FIVEDICE_CACHE_DIR` or the user
    cache; `cache_dir` overrides), else solved (seconds) and written there.

    Raises:
        UnsupportedRulesError: the rules have more than one column.
        SolveNotAllowedError: `$FIVEDICE_SOLVE_RULES` does not list these rules.
    """
    from fivedice.strategy.cache import load_or_solve

    return load_or_solve(rules, use_cache=use_cache, cache_dir=cache_dir)


class AdviceOption(NamedTuple):
    """One option of an `Advice`: keep some dice and re-roll, or score a box.

    Exactly one of `keep` and `box` is set.

    Attributes:
        keep: the dice held (sorted) before re-rolling the others, or None.
        box: the key of the box to score in now ("full_house"), or None.
        value: expected points still to come after this choice under optimal play (the box's
            points and bonuses included, the points already on the card excluded).
        loss: the best option's value minus this one's (0 for the best).
    """

    keep: tuple[int, ...] | None
    box: str | None
    value: float
    loss: float

    @property
    def label(self) -> str:
        """The option in words: "keep 6 6 6", "keep nothing" or "score sixes"."""
        if self.box is not None:
            return f"score {self.box}"
        return "keep " + (" ".join(map(str, self.keep)) if self.keep else "nothing")

    def to_dict(self) -> dict[str, object]:
        """The option as `fivedice advise --json` prints it."""
        head: dict[str, object] = (
            {"keep": list(self.keep)} if self.keep is not None else {"score": self.box}
        )
        head["value"] = self.value
        return head


_new_option = tuple.__new__  # AdviceOption from its four fields, skipping the NamedTuple's __new__


class Advice(Sequence[AdviceOption]):
    """Every legal option at a decision point, best first (a read-only sequence).

    Equal values list boxes (in card order) before keeps (smallest first). Options are built
    when read; the engine's result stays in one small array until then.
    """

    __slots__ = ("_box_key_of", "_count", "_data", "_keep_of", "_options")

    _data: npt.NDArray[np.float64]
    _count: int
    _keep_of: Sequence[tuple[int, ...] | None]
    _box_key_of: Sequence[str | None]
    _options: tuple[AdviceOption, ...] | None

    def __init__(
        self,
        data: npt.NDArray[np.float64],
        count: int,
        keep_of: Sequence[tuple[int, ...] | None],
        box_key_of: Sequence[str | None],
    ) -> None:
        """Wraps an engine result: `count` (code, value, loss) triples in `data`, and what
        each code keeps or scores (`strategy.advisor.query`)."""
        self._data = data
        self._count = count
        self._keep_of = keep_of
        self._box_key_of = box_key_of
        self._options = None

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> AdviceOption: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[AdviceOption]: ...

    def __getitem__(self, index: int | slice) -> AdviceOption | Sequence[AdviceOption]:
        if self._options is not None or isinstance(index, slice):
            return self._all()[index]
        count = self._count
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("advice index out of range")
        code, value, loss = self._data[3 * index : 3 * index + 3].tolist()
        code = int(code)
        return _new_option(AdviceOption, (self._keep_of[code], self._box_key_of[code], value, loss))

    def __iter__(self) -> Iterator[AdviceOption]:
        return iter(self._all())

    def __repr__(self) -> str:
        return f"Advice({list(self._all())!r})"

    @property
    def best(self) -> AdviceOption:
        """The best option (the first; a decision point always has one)."""
        if self._options is not None:
            return self._options[0]
        code, value, loss = self._data[:3].tolist()  # as `self[0]`, without its checks
        code = int(code)
        return _new_option(AdviceOption, (self._keep_of[code], self._box_key_of[code], value, loss))

    def to_dict(self) -> dict[str, object]:
        """The advice as `fivedice advise --json` prints it: {"options": [...]}."""
        return {"options": [option.to_dict() for option in self._all()]}

    def _all(self) -> tuple[AdviceOption, ...]:
        options = self._options
        if options is None:
            flat = iter(self._data[: 3 * self._count].tolist())
            keep_of, box_key_of = self._keep_of, self._box_key_of
            options = self._options = tuple(
                _new_option(AdviceOption, (keep_of[code], box_key_of[code], value, loss))
                for code, value, loss in zip(map(int, flat), flat, flat, strict=True)
            )
        return options


# The last rules asked about and their table: a query with the same RuleSet object skips even
# the dictionary lookup (hashing a RuleSet costs about a microsecond).
_last: tuple[RuleSet, StrategyTable] | None = None
_tables: dict[RuleSet, StrategyTable] = {}
_KEPT_TABLES = 4  # tables `advise` keeps in memory for rules given as a RuleSet (8 MB each)
_tables_lock = threading.Lock()
# The advisor's query, bound on the first `advise` (importing it loads numba).
_query: Callable[[StrategyTable, Column | None, Sequence[int], int], tuple[Any, int, Any]] | None
_query = None


def _bind_engine() -> Callable[
    [StrategyTable, Column | None, Sequence[int], int], tuple[Any, int, Any]
]:
    global _query
    from fivedice.strategy.advisor import query

    _query = query
    return query


def advise(
    rules: RuleSet | StrategyTable,
    dice: Sequence[int],
    rolls_left: int,
    card: Column | Mapping[str, object] | None = None,
) -> Advice:
    """Every legal option at a decision point with its expected points to come, best first.

    Args:
        rules: the rules (solved on first use, see `solve`) or a table `solve` returned.
        dice: the five dice showing, any order.
        rolls_left: rolls still allowed this turn: 0 (the dice must be scored) to
            rolls_per_turn - 1.
        card: the card before this decision: a `Card`, the `--card` JSON as a dict, or None
            for an empty card.

    Raises:
        DiceError: not five dice 1-6.
        CardError: a card dict with an unknown box or an impossible score.
        ValueError: rolls left not a whole number in range, or a complete card.
        UnsupportedRulesError: rules with more than one column.
        TypeError: `rules` or `card` of another type.
    """
    last = _last
    table = last[1] if last is not None and last[0] is rules else _table(rules)
    if card is not None and not isinstance(card, Column):
        if not isinstance(card, Mapping):
            raise TypeError(f"card must be a Card, a dict of box scores or None, not {card!r}")
        card = Column.from_dict(table.rules, card)
    data, count, engine = (_query or _bind_engine())(table, card, dice, rolls_left)
    return Advice(data, count, engine.keep_of, engine.box_key_of)


def _table(rules: RuleSet | StrategyTable) -> StrategyTable:
    global _last
    if not isinstance(rules, RuleSet):
        from fivedice.strategy.solver import StrategyTable

        if not isinstance(rules, StrategyTable):
            raise TypeError(f"rules must be a RuleSet or a table from solve(), not {rules!r}")
        return rules
    with _tables_lock:
        table = _tables.get(rules)
    if table is None:
        table = solve(rules)
        with _tables_lock:
            _tables[rules] = table
            while len(_tables) > _KEPT_TABLES:  # the oldest first (dicts keep their order)
                del _tables[next(iter(_tables))]
    _last = (rules, table)
    return table


def simulate(
    rules: RuleSet,
    games: int = 1000,
    *,
    level: str = "expert",
    seed: int = 0,
) -> SimulationResult:
    """Plays `games` solitaire games of a CPU level in numba and returns their statistics
    (`.scores`, `.mean`, `.upper_bonus_rate`, ...).

    Levels: beginner, casual, guide (plays the strategy guide), strong, expert (optimal) and
    master.

    Raises:
        FivediceError: an unknown level, or games or seed out of range.
    """
    from fivedice.strategy.simulate import simulate as run

    return run(rules, level, games, seed=seed)
