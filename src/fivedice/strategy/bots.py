"""CPU players of six strengths, for any rule set (one column or several).

>>> from fivedice.core.rules import CLASSIC
>>> from fivedice.core.card import ScoreCard
>>> bot = Bot("beginner", CLASSIC)
>>> bot.choose_keep(CLASSIC, ScoreCard.empty(CLASSIC), (6, 2, 6, 3, 1), rolls_left=2)
(6, 6)

The levels (see `heuristics` for the shared machinery):

* `beginner`: keeps its most common face (or a straight draw while a straight box is open)
  and scores wherever the dice earn most right now.
* `casual`: looks ahead over the turn exactly, but values the future with rules of thumb
  (the typical worth of each open box, a guess at the upper-bonus chances), and slips now
  and then.
* `guide`: plays exactly the rules of the printed strategy guide (`guide`): keeps by its
  ordered keep rules, boxes by its par table. Where no guide fits the card (several columns,
  other box families) it plays like casual.
* `strong`: plays from the optimal values but now and then slips, choosing a near miss.
* `expert`: optimal (exactly, for one column; for several, optimal values per column).
* `master`: plays to win: against others it takes the option with the best chance of winning
  (`master.MasterBot`); solo, and with several columns, it plays like the expert.

`players.make_bot` makes the player of any level, master included.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from fivedice.core.card import Placement, ScoreCard
from fivedice.core.dice import ALL_KEEPS, Roll, check_roll
from fivedice.core.errors import FivediceError
from fivedice.core.rules import RuleSet
from fivedice.strategy import heuristics as h
from fivedice.strategy.guide import (
    Guide,
    Position,
    bonus_threshold,
    choose_box_index,
    counts_of,
    guide_for,
)
from fivedice.strategy.levels import Level
from fivedice.strategy.limits import has_served_points, is_supported
from fivedice.strategy.policy import EPSILON
from fivedice.strategy.policy import straight_open as straight_open_on
from fivedice.strategy.rule_arrays import is_served_roll
from fivedice.strategy.tables import dice_tables as _kernel_dice_tables

if TYPE_CHECKING:
    from fivedice.strategy.advisor import Option
    from fivedice.strategy.solver import StrategyTable

__all__ = [
    "HEURISTIC_PROFILES",
    "PROFILES",
    "Bot",
    "Level",
    "LevelProfile",
    "level_values",
    "profile_for",
    "values_from_table",
]


@dataclass(frozen=True)
class LevelProfile:
    """How a level plays.

    Attributes:
        greedy: play the beginner's rules of thumb instead of looking ahead.
        optimal_values: value states with the solver's table (else the casual estimate).
        slip: chance, at each decision, of choosing a near miss instead of the best option.
        max_loss: the largest expected loss (points) a slip may cost.
    """

    greedy: bool
    optimal_values: bool
    slip: float = 0.0
    max_loss: float = 0.0


PROFILES: dict[Level, LevelProfile] = {
    Level.BEGINNER: LevelProfile(greedy=True, optimal_values=False),
    # Slip rates are calibrated on classic rules (20,000 games, seed 1): casual ≈ 232,
    # strong ≈ 245, between the beginner (≈ 206) and the optimum (254.6).
    Level.CASUAL: LevelProfile(greedy=False, optimal_values=False, slip=0.15, max_loss=8.0),
    # The guide's decisions come from its rules (`guide.Guide`); the profile is casual's
    # without slips, for cards no guide fits.
    Level.GUIDE: LevelProfile(greedy=False, optimal_values=False),
    Level.STRONG: LevelProfile(greedy=False, optimal_values=True, slip=0.18, max_loss=6.0),
    Level.EXPERT: LevelProfile(greedy=False, optimal_values=True),
    # Master's own decisions come from `master.MasterBot`; it falls back on the expert.
    Level.MASTER: LevelProfile(greedy=False, optimal_values=True),
}


HEURISTIC_PROFILES: dict[Level, LevelProfile] = {
    Level.BEGINNER: PROFILES[Level.BEGINNER],
    # Rules the solver cannot solve (Maxi Yatzy): every looking-ahead level plays from the
    # casual estimate, and the levels differ in how often and how badly they slip. Calibrated
    # on Maxi Yatzy (see the README for the measured means).
    Level.CASUAL: LevelProfile(greedy=False, optimal_values=False, slip=0.35, max_loss=12.0),
    Level.GUIDE: LevelProfile(greedy=False, optimal_values=False, slip=0.2, max_loss=8.0),
    Level.STRONG: LevelProfile(greedy=False, optimal_values=False, slip=0.12, max_loss=5.0),
    Level.EXPERT: LevelProfile(greedy=False, optimal_values=False),
    Level.MASTER: LevelProfile(greedy=False, optimal_values=False),
}


WILD_DIE_PROFILES: dict[Level, LevelProfile] = {
    **PROFILES,
    # With the wild die every level plays from the exact coach's option values (the
    # heuristics know the plain dice only): the lower levels slip more often and further.
    # Calibrated on classic with the wild die (`benchmarks/bench_wild.py`, optimum 298.94) to
    # the plain levels' gaps below the optimum (beginner -49, casual -22, guide -13, strong
    # -10): beginner 0.35/12 made 261.0 ± 2.8 (600 games: only -38), 0.4/13 247.5 ± 3.0 (400).
    Level.BEGINNER: LevelProfile(greedy=False, optimal_values=True, slip=0.4, max_loss=13.0),
    Level.CASUAL: LevelProfile(greedy=False, optimal_values=True, slip=0.25, max_loss=8.0),
    Level.GUIDE: LevelProfile(greedy=False, optimal_values=True, slip=0.2, max_loss=8.0),
}
"""How each level plays with the wild die (`wild_die`)."""


def profile_for(level: Level | str, rules: RuleSet) -> LevelProfile:
    """How a level plays these rules: `PROFILES`, or `HEURISTIC_PROFILES` where the solver
    cannot solve the rules (`WILD_DIE_PROFILES` with the wild die)."""
    level = Level.parse(level)
    if rules.wild_die and is_supported(rules):
        return WILD_DIE_PROFILES[level]
    return PROFILES[level] if is_supported(rules) else HEURISTIC_PROFILES[level]


def level_values(
    rules: RuleSet,
    level: Level | str,
    *,
    use_cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> h.Values:
    """The state-value array a level plays with, shaped (8192, upper cap + 1, 2), read-only.

    Optimal values come from the solver for the one-column version of the rules (solved
    once and cached on disk, and kept in memory for the next bots); several columns reuse
    them column by column.

    Args:
        rules: the rules to play.
        level: the CPU level.
        use_cache: read and write solved tables on disk.
        cache_dir: where solved tables live (default: the user cache).
        progress: called as `progress(states_done, states)` if a solve is needed.
    """
    profile = PROFILES[Level.parse(level)]
    if not profile.optimal_values or not is_supported(rules):
        return h.heuristic_values(rules)  # also every level of rules the solver cannot solve
    return _optimal(rules, use_cache, cache_dir, progress)[1]


def _optimal(
    rules: RuleSet,
    use_cache: bool,
    cache_dir: str | os.PathLike[str] | None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[StrategyTable, h.Values]:
    """The solved table of the one-column version of `rules` and its values as the kernels
    read them (`values_from_table`), kept together for the next bots."""
    single = rules.replace(column_multipliers=(1,))
    key = (single, use_cache, None if cache_dir is None else str(cache_dir))
    if key not in _OPTIMAL:
        from fivedice.strategy.cache import load_or_solve

        table = load_or_solve(single, use_cache=use_cache, cache_dir=cache_dir, progress=progress)
        if len(_OPTIMAL) >= 4:  # about 8 MB each (Maxi Yatzy 268): the latest few
            _OPTIMAL.pop(next(iter(_OPTIMAL)))
        _OPTIMAL[key] = (table, values_from_table(table))
    return _OPTIMAL[key]


_OPTIMAL: dict[tuple[RuleSet, bool, str | None], tuple[StrategyTable, h.Values]] = {}


def values_from_table(table: StrategyTable) -> h.Values:
    """A solved table's values as the kernels read them: a float64 array, or a compact
    table's `(values, slot, layout)` (Maxi Yatzy; it holds no unreachable states).

    Unreachable states are NaN in a full table; no placement ever reads them, so they
    become 0.
    """
    if table.layout is not None:
        return table.kernel_values  # type: ignore[no-any-return]
    values = np.nan_to_num(table.values.astype(np.float64), nan=0.0)
    values.setflags(write=False)  # shared between bots and simulations
    return values


class Bot:
    """A CPU player: decides what to keep and where to score.

    Args:
        level: the strength.
        rules: the rules it will mostly play (values are prepared for them lazily).
        rng: the only source of randomness: it seeds the slips once, at construction. A
            decision is then a fixed function of the situation (card, dice, rolls left), so
            asking again gives the same answer - the game layer re-asks while it holds dice
            one step at a time, and after a resume.
        values: a ready state-value array (skips solving/caching), e.g. shared by seats.
        table: the solved table of the rules' one-column version (skips solving/caching):
            its values, and, where it can (`engine_table`), its turn engine.
        use_cache: read and write solved tables on disk.
        cache_dir: where solved tables live (default: the user cache).
        profile: play with this profile instead of the level's (tests, tuning).
    """

    def __init__(
        self,
        level: Level | str,
        rules: RuleSet,
        rng: random.Random | None = None,
        *,
        values: h.Values | None = None,
        table: StrategyTable | None = None,
        use_cache: bool = True,
        cache_dir: str | os.PathLike[str] | None = None,
        profile: LevelProfile | None = None,
    ) -> None:
        self.level = Level.parse(level)
        self.profile = profile or profile_for(self.level, rules)
        self.rules = rules
        self.rng = rng if rng is not None else random.Random(0)
        self._salt = self.rng.getrandbits(64)
        self._use_cache = use_cache
        self._cache_dir = cache_dir
        self._values: dict[RuleSet, h.Values] = {}
        # The guide level's rules per rule set (None: no guide fits, play like casual).
        self._guides: dict[RuleSet, Guide | None] = {}
        # The table whose turn engine decides, per rule set (None: the kernels below decide).
        self._tables: dict[RuleSet, StrategyTable | None] = {}
        if values is not None:
            self._values[rules] = values
            self._tables[rules] = None  # values handed in: the kernels read exactly them
        elif table is not None:
            self._values[rules] = values_from_table(table)
            self._tables[rules] = self._engine_table(rules, table)

    def __repr__(self) -> str:
        return f"Bot({self.level.value!r})"

    def values_for(self, rules: RuleSet) -> h.Values:
        """The state values this bot plays with under `rules` (prepared on first use)."""
        if rules not in self._values:
            if self.profile.greedy:
                self._values[rules] = h.greedy_values(rules)
            else:
                self._values[rules] = level_values(
                    rules, self.level, use_cache=self._use_cache, cache_dir=self._cache_dir
                )
        return self._values[rules]

    def engine_table(self, rules: RuleSet) -> StrategyTable | None:
        """The solved table whose turn engine (`turn_cache`, the public `fivedice.advise`'s)
        gives this bot's values under `rules`, or None.

        An optimal level (strong, expert) on one column of five dice, with the values of its
        own table, values each option exactly as the kernels below do (the engine's expected
        points to come less the card's state value, the same to about 1e-13), and the engine
        keeps each state's turn values: a turn asks up to three times on one card, and the game
        layer asks again at each hold, so most questions only read them.
        """
        if rules not in self._tables:
            self._tables[rules] = self._engine_table(rules, None)
        return self._tables[rules]

    def _engine_table(self, rules: RuleSet, table: StrategyTable | None) -> StrategyTable | None:
        """`table` (else the one `level_values` reads) if the turn engine can play `rules`."""
        profile = self.profile
        if not (
            profile.optimal_values
            and not profile.greedy
            and rules.columns == 1
            and rules.dice == 5
            and self.guide_for(rules) is None
            and is_supported(rules)
        ):
            return None
        if table is None:
            table = _optimal(rules, self._use_cache, self._cache_dir)[0]
        from fivedice.strategy.turn_cache import engine

        if engine(table).kernel is None:  # a compact table: the engine asks the advisor
            return None
        return table

    def guide_for(self, rules: RuleSet) -> Guide | None:
        """The guide this bot plays under `rules`: only the `guide` level has one, and only
        where a guide fits the card."""
        if self.level is not Level.GUIDE:
            return None
        if rules not in self._guides:
            self._guides[rules] = guide_for(rules)
        return self._guides[rules]

    def keep_options(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], rolls_left: int
    ) -> list[tuple[Roll, float]]:
        """Every distinct keep of the dice with this bot's value of it, largest keeps first.

        Values are expected points to come in this turn and later, relative to the card's
        current state value (so only differences between options matter).
        """
        roll = check_roll(dice, rules.dice)
        self._check(rules, card, rolls_left)
        if rolls_left < 1:
            raise FivediceError("no roll is left this turn: the dice must be scored")
        if rules.wild_die:
            options = self._wild_options(rules, card, dice, rolls_left)
            return _scoring_now(
                rules,
                rolls_left,
                [(option.keep, option.value) for option in options if option.keep is not None],
                [option.value for option in options if option.category is not None],
            )
        rt = h.rule_tables(rules)
        dt = h.dice_tables(rt.dice)
        values = self.values_for(rules)
        table = self.engine_table(rules)
        if table is not None:
            value_of, base = _engine_values(table, values, card, roll, rolls_left)
            keeps = _kernel_dice_tables(rt.dice).keeps
            first = rt.boxes  # option codes: the boxes, then every keep
            return _scoring_now(
                rules,
                rolls_left,
                [
                    (keeps[k], value_of[first + k] - base)
                    for k in dt.roll_keeps[dt.roll_of[roll]].tolist()
                    if k >= 0
                ],
                [value - base for code, value in value_of.items() if code < first],
            )
        boxes, _ = h.card_arrays(card.columns)
        ends = np.empty(dt.rolls)
        h.end_values(boxes, h.player_args(rules, values), ends)
        keep_values = np.empty((rolls_left, dt.keeps))
        roll_values = np.empty((rolls_left + 1, dt.rolls))
        h.turn_tables(
            ends, rolls_left, dt.keep_add, dt.keep_remove, keep_values, roll_values,
            np.empty(dt.keeps),
        )  # fmt: skip
        index = dt.roll_of[roll]
        keeps = _kernel_dice_tables(rt.dice).keeps
        return [
            (keeps[k], float(keep_values[rolls_left - 1, k]))
            for k in dt.roll_keeps[index]
            if k >= 0
        ]

    def choose_keep(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], rolls_left: int
    ) -> tuple[int, ...]:
        """The dice values to hold before the next roll (sorted). All five means "score now".

        Args:
            rules: the rules of the game.
            card: the bot's card (at least one open box).
            dice: the five dice as they lie.
            rolls_left: rolls still allowed this turn (at least 1).

        Raises:
            FivediceError: no roll is left, the card is complete or the dice are not five.
        """
        if rules.wild_die:
            self._check(rules, card, rolls_left)
            if rolls_left < 1:
                raise FivediceError("no roll is left this turn: the dice must be scored")
            options = self.keep_options(rules, card, dice, rolls_left)
            picked = self._pick(np.array([v for _, v in options]), ("keep", card, dice, rolls_left))
            return options[picked][0]
        roll = check_roll(dice, rules.dice)
        self._check(rules, card, rolls_left)
        if rolls_left < 1:
            raise FivediceError("no roll is left this turn: the dice must be scored")
        guide = self.guide_for(rules)
        if guide is not None:
            scores = card.columns[0].scores
            return guide.keep(Position(scores, counts_of(roll), rolls_left))
        if self.profile.greedy:
            counts = np.zeros(6, dtype=np.int64)
            for die in roll:
                counts[die - 1] += 1
            boxes, _ = h.card_arrays(card.columns)
            straight_open = straight_open_on(boxes, h.rule_tables(rules).params)
            held = np.zeros(6, dtype=np.int64)
            h.beginner_keep(counts, straight_open, held)
            return tuple(face + 1 for face in range(6) for _ in range(int(held[face])))
        table = self.engine_table(rules)
        if table is not None and self.profile.slip == 0:  # no slip: the best keep is enough
            dt = h.dice_tables(rules.dice)
            order = dt.roll_keeps[dt.roll_of[roll]].tolist()  # the kernels' order of the keeps
            first = len(rules.boxes)
            # On a served roll the boxes are options too (their served points are lost by
            # rolling again): a box first means keeping every die, so scoring now.
            served = is_served_roll(rules, rolls_left)
            code = _engine_best(
                table,
                card,
                roll,
                rolls_left,
                range(0 if served else first, first + len(ALL_KEEPS)),
                lambda c: -1 if c < first else order.index(c - first),
            )
            return roll if code < first else ALL_KEEPS[code - first]
        options = self.keep_options(rules, card, roll, rolls_left)
        option_values = np.array([value for _, value in options])
        return options[self._pick(option_values, ("keep", card, roll, rolls_left))][0]

    def choose_box(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], *, served: bool = False
    ) -> Placement:
        """Where to score the dice: one of `card.placements(rules, dice, served)`.

        `served`: the dice are the turn's first roll, whose hands earn their served points
        (Generala): the boxes are valued with them.

        Raises:
            FivediceError: the card is complete or the dice are not five.
        """
        left = scoring_rolls_left(rules, served)
        if rules.wild_die:
            self._check(rules, card, 0)
            scored = [
                option
                for option in self._wild_options(rules, card, dice, left)
                if option.category is not None
            ]
            scored_values = np.array([option.value for option in scored])
            best = scored[self._pick(scored_values, ("box", card, dice))].category
            return next(p for p in card.placements(rules, dice) if p.category == best)
        roll = check_roll(dice, rules.dice)
        self._check(rules, card, 0)
        legal = card.placements(rules, roll, served)
        guide = self.guide_for(rules)
        if guide is not None:
            scores = card.columns[0].scores
            options = [(rules.box_index(p.category), p.box_points) for p in legal]
            return legal[choose_box_index(guide, options, scores, bonus_threshold(rules))]
        table = self.engine_table(rules)
        if table is not None and self.profile.slip == 0:  # ties: the first box on the card
            every_box = range(len(rules.boxes))
            category = rules.boxes[_engine_best(table, card, roll, left, every_box, int)]
            return next(placement for placement in legal if placement.category == category)
        if table is not None:  # the legal boxes in card order, as the kernel lists them
            values, base = _engine_values(table, self.values_for(rules), card, roll, left)
            option_values = np.array(
                [values[rules.box_index(placement.category)] - base for placement in legal]
            )
            return legal[self._pick(option_values, ("box", card, roll))]
        boxes, _ = h.card_arrays(card.columns)
        cols, box_ids, _, option_values = h.card_placements(
            rules, boxes, roll, self.profile.greedy, self.values_for(rules)
        )
        chosen = self._pick(option_values, ("box", card, roll))
        column, category = int(cols[chosen]), rules.boxes[int(box_ids[chosen])]
        for placement in legal:
            if placement.column == column and placement.category == category:
                return placement
        raise AssertionError(f"kernel chose an illegal box {category} in column {column}")

    def _wild_options(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], rolls_left: int
    ) -> list[Option]:
        """The exact coach's options (best first; ties: boxes in card order, then the
        smaller keeps) with the wild die, whose dice the CPU kernels do not read."""
        from fivedice.strategy.turn_cache import advise

        table = _optimal(rules, self._use_cache, self._cache_dir)[0]
        return advise(table, card.columns[0], dice, rolls_left)

    def _pick(self, option_values: h.FloatArray, situation: tuple[object, ...]) -> int:
        # The slip draw hashes the situation with the bot's salt (a stable digest: Python's
        # own hash of None varies between runs), so it never depends on how often or in
        # what order the bot is asked.
        draw = 1.0
        if self.profile.slip > 0:
            text = f"{self._salt}|{situation!r}".encode()
            digest = hashlib.blake2b(text, digest_size=8).digest()
            draw = int.from_bytes(digest, "big") / 2.0**64
        return int(
            h.pick(
                option_values, len(option_values), draw, self.profile.slip, self.profile.max_loss
            )
        )

    @staticmethod
    def _check(rules: RuleSet, card: ScoreCard, rolls_left: int) -> None:
        if len(card.columns) != rules.columns:
            raise FivediceError(
                f"the card has {len(card.columns)} columns; the rules use {rules.columns}"
            )
        if card.is_complete:
            raise FivediceError("the card is complete: there is nothing left to decide")
        if rolls_left < 0:
            raise FivediceError(f"rolls left cannot be negative, not {rolls_left}")


_engine: Any = None  # `turn_cache.query` and `solver.column_state`, bound on first use


def _bound_engine() -> Any:
    global _engine
    if _engine is None:
        from fivedice.strategy.solver import column_state
        from fivedice.strategy.turn_cache import query

        _engine = (query, column_state)
    return _engine


def scoring_rolls_left(rules: RuleSet, served: bool) -> int:
    """The rolls left the coach's kernels value a scored box with: the turn's first roll's
    when the dice are served and the rules pay served points (`is_served_roll`), else none."""
    return rules.rolls_per_turn - 1 if served and has_served_points(rules) else 0


def _scoring_now(
    rules: RuleSet, rolls_left: int, keeps: list[tuple[Roll, float]], boxes: list[float]
) -> list[tuple[Roll, float]]:
    """The keeps of a decision point, where keeping every die means scoring now (the game
    layer's rule): on a served roll that keep is worth the best box with its served points
    (`boxes`: every legal box's value), not the kernels' value of keeping every die (the
    roll with one roll fewer: its served points lost, a later roll kept open). No other keep
    is worth less than that kernel value unless a served box is worth more, so the best
    option's value stays the best value of the decision."""
    if not is_served_roll(rules, rolls_left) or not boxes:
        return keeps
    best = max(boxes)
    return [(keep, best if len(keep) == rules.dice else value) for keep, value in keeps]


def _engine_best(
    table: StrategyTable,
    card: ScoreCard,
    roll: Roll,
    rolls_left: int,
    wanted: range,
    rank: Callable[[int], int],
) -> int:
    """The option code the CPU kernels' `pick` takes without a slip, from the turn engine's
    options (best first): among the options whose code is in `wanted` (the keeps: from the
    number of boxes on; the boxes: below it), the first by `rank` (the kernels' order) of
    those within `policy.EPSILON` of the best.
    """
    query = _bound_engine()[0]
    out, (count, _, _), _ = query(table, card.columns[0], roll, rolls_left)
    flat = out[: 3 * count].tolist()
    top = None
    tied: list[int] = []
    for i in range(0, 3 * count, 3):
        code = int(flat[i])
        if code not in wanted:
            continue  # a box, when a keep is asked for (or the reverse)
        value = flat[i + 1]
        if top is None:
            top = value
        elif value < top - EPSILON:
            break
        tied.append(code)
    return tied[0] if len(tied) == 1 else min(tied, key=rank)


def _engine_values(
    table: StrategyTable, values: h.Values, card: ScoreCard, roll: Roll, rolls_left: int
) -> tuple[dict[int, float], float]:
    """The turn engine's value of each option at a one-column decision point (by its code: a
    box's index, or the number of boxes plus a keep's index in `ALL_KEEPS`), and the card's
    state value in `values`, which the CPU kernels subtract from every option."""
    query, column_state = _bound_engine()
    column = card.columns[0]
    out, (count, _, _), found = query(table, column, roll, rolls_left)
    flat = out[: 3 * count].tolist()
    value_of = dict(zip(map(int, flat[0::3]), flat[1::3], strict=True))
    last = found.last  # the state the engine read from this card (one tuple: thread-safe)
    mask, upper_total, armed = last[1] if last[0] is column else column_state(table.rules, column)
    cap = len(values[0]) - 1  # a full table's values: (masks, upper cap + 1, armed)
    base = float(values[mask, min(upper_total, cap), int(armed)])  # type: ignore[call-overload]
    return value_of, base
