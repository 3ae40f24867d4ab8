"""Fast simulation of CPU players: solitaire score statistics and head-to-head win rates.

Games run entirely inside numba (`heuristics.play_game`), in parallel, with one splitmix64
dice stream per game derived from (seed, game number): a game's dice do not depend on the
thread that plays it, and every level given the same seed faces the same stream of dice
(common random numbers, which makes head-to-head comparisons sharper).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from fivedice.core.errors import N_, FivediceError
from fivedice.core.rules import RuleSet
from fivedice.strategy import heuristics as h
from fivedice.strategy.bots import Level, level_values, profile_for
from fivedice.strategy.guide import Guide, guide_for
from fivedice.strategy.guide_play import GameResult, play_guide_games
from fivedice.strategy.limits import check_simulated, has_table_games
from fivedice.strategy.playout import BOX_POINTS, game_seeds

__all__ = ["HeadToHead", "SimulationResult", "head_to_head", "simulate", "table_outcomes"]

PERCENTILES: tuple[int, ...] = (5, 25, 50, 75, 95)
MAX_GAMES = 100_000_000
_CHUNK = 4096  # games between progress reports

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SimulationResult:
    """Statistics of N solitaire games of one level.

    Attributes:
        level: the level that played.
        rules: the rules played.
        seed: the seed of the dice.
        scores: every game's final score, in game order.
        upper_bonus_rate: share of columns that earned the upper bonus.
        yahtzee_rate: share of columns whose Yahtzee box scored more than 0.
        mean_extra_yahtzees: extra Yahtzees (bonuses) per game.
        seconds: wall time of the games (excluding solving and compiling).
        parts: each game's points per component (`breakdown.component_keys`: each box, then
            the upper bonus and the extra-Yahtzee bonuses where the rules have them), the
            columns' multipliers applied: a row sums to the game's score.
    """

    level: Level
    rules: RuleSet
    seed: int
    scores: npt.NDArray[np.int64] = field(repr=False)
    upper_bonus_rate: float
    yahtzee_rate: float
    mean_extra_yahtzees: float
    seconds: float
    parts: npt.NDArray[np.int64] | None = field(default=None, repr=False)

    @property
    def games(self) -> int:
        return int(self.scores.size)

    @property
    def mean(self) -> float:
        mean: float = self.scores.mean()
        return float(mean)

    @property
    def std(self) -> float:
        return float(self.scores.std(ddof=1)) if self.games > 1 else 0.0

    @property
    def standard_error(self) -> float:
        return self.std / math.sqrt(self.games)

    @property
    def percentiles(self) -> dict[int, float]:
        values = np.percentile(self.scores, PERCENTILES)
        return {p: float(v) for p, v in zip(PERCENTILES, values, strict=True)}

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def summary(self) -> dict[str, object]:
        """The statistics as a JSON-friendly mapping."""
        return {
            "level": self.level.value,
            "rules": self.rules.changed_settings(),
            "games": self.games,
            "seed": self.seed,
            "mean": round(self.mean, 3),
            "std": round(self.std, 3),
            "standard_error": round(self.standard_error, 3),
            "percentiles": {str(p): v for p, v in self.percentiles.items()},
            "min": int(self.scores.min()),
            "max": int(self.scores.max()),
            "upper_bonus_rate": round(self.upper_bonus_rate, 4),
            "yahtzee_rate": round(self.yahtzee_rate, 4),
            "mean_extra_yahtzees": round(self.mean_extra_yahtzees, 4),
            "games_per_second": round(self.games_per_second, 1),
            **({"breakdown": self.breakdown()} if self.parts is not None else {}),
        }

    def breakdown(self) -> dict[str, dict[str, float]]:
        """Each component's mean points per game and the mean's standard error (to hold
        against the exact start-of-game breakdown, `fivedice solve --explain`)."""
        from fivedice.strategy.breakdown import component_keys

        if self.parts is None:
            return {}
        n = self.games
        means = self.parts.mean(axis=0)
        errors = self.parts.std(axis=0, ddof=1) / math.sqrt(n) if n > 1 else np.zeros(means.size)
        return {
            key: {"mean": round(float(means[i]), 4), "standard_error": round(float(errors[i]), 4)}
            for i, key in enumerate(component_keys(self.rules))
        }


@dataclass(frozen=True)
class HeadToHead:
    """Levels at one table: each game every level plays the same dice stream (or, paired, each
    set of dice streams is played once per rotation of the players round the seats).

    Attributes:
        results: each level's solitaire statistics over the same games.
        win_rates: share of games each level won (a tie for first is shared equally).
        outright: share of games each level won alone.
        draws: share of games each level tied for first (counted ½ in `win_rates` with two
            seats, 1/k for a k-way tie).
        intervals: each win rate's 95% interval (normal approximation over independent sets
            of games: single games, or paired sets).
        paired: whether the games were paired (`master.seatings`).
    """

    results: tuple[SimulationResult, ...]
    win_rates: dict[Level, float]
    outright: dict[Level, float] = field(default_factory=dict)
    draws: dict[Level, float] = field(default_factory=dict)
    intervals: dict[Level, tuple[float, float]] = field(default_factory=dict)
    paired: bool = False

    def summary(self) -> dict[str, object]:
        """The win rates and each level's statistics, JSON-friendly."""
        return {
            "games": self.results[0].games,
            "seed": self.results[0].seed,
            "paired": self.paired,
            "win_rates": {level.value: round(rate, 4) for level, rate in self.win_rates.items()},
            "intervals_95": {
                level.value: [round(low, 4), round(high, 4)]
                for level, (low, high) in self.intervals.items()
            },
            "outright_win_rates": {
                level.value: round(rate, 4) for level, rate in self.outright.items()
            },
            "draw_rates": {level.value: round(rate, 4) for level, rate in self.draws.items()},
            "players": [result.summary() for result in self.results],
        }


def table_outcomes(
    levels: Sequence[Level], finals: npt.NDArray[np.integer], group: int = 1
) -> tuple[
    dict[Level, float], dict[Level, float], dict[Level, float], dict[Level, tuple[float, float]]
]:
    """Win rates (ties shared), outright wins, draws and 95% intervals from final totals.

    Args:
        levels: each player's level (a level listed twice adds up its players' results).
        finals: (players, games) final totals.
        group: consecutive games that share their dice (paired sets): the interval is taken
            over the sets' means, which are independent where single paired games are not.

    >>> rates, alone, drawn, _ = table_outcomes(
    ...     [Level.MASTER, Level.EXPERT], np.array([[250, 200, 230], [240, 210, 230]])
    ... )
    >>> round(rates[Level.MASTER], 3), round(alone[Level.MASTER], 3), round(drawn[Level.MASTER], 3)
    (0.5, 0.333, 0.333)
    """
    best = finals.max(axis=0)
    top = finals == best
    shares = top / top.sum(axis=0)
    alone = top & (top.sum(axis=0) == 1)
    tied = top & ~alone
    games = finals.shape[1]
    rates: dict[Level, float] = {}
    outright: dict[Level, float] = {}
    draws: dict[Level, float] = {}
    per_game: dict[Level, npt.NDArray[np.float64]] = {}
    for i, level in enumerate(levels):
        rates[level] = rates.get(level, 0.0) + float(shares[i].mean())
        outright[level] = outright.get(level, 0.0) + float(alone[i].mean())
        draws[level] = draws.get(level, 0.0) + float(tied[i].mean())
        per_game[level] = per_game.get(level, np.zeros(games)) + shares[i]
    intervals: dict[Level, tuple[float, float]] = {}
    for level, values in per_game.items():
        sets = values[: games - games % group].reshape(-1, group).mean(axis=1)
        half = 1.96 * float(sets.std(ddof=1)) / math.sqrt(sets.size) if sets.size > 1 else 1.0
        intervals[level] = (rates[level] - half, rates[level] + half)
    return rates, outright, draws, intervals


def simulate(
    rules: RuleSet,
    level: Level | str,
    games: int,
    *,
    seed: int = 0,
    values: h.Values | None = None,
    use_cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    solve_progress: Progress | None = None,
) -> SimulationResult:
    """Plays `games` solitaire games of a level and returns their statistics.

    Args:
        rules: any rule set.
        level: the CPU level.
        games: number of games (at least 1).
        seed: the dice seed; the same seed gives the same games.
        values: the level's state values if already at hand (see `bots.level_values`).
        use_cache: read/write solved tables on disk (strong and expert).
        cache_dir: where solved tables live.
        progress: called as `progress(games_done, games)` while playing.
        solve_progress: called as `progress(states_done, states)` if the rules need solving.

    Raises:
        FivediceError: bad number of games or seed, or an unknown level.
        UnsupportedByStrategyError: served points (`limits.check_simulated`).
    """
    level = Level.parse(level)
    check_simulated(rules)
    if not 1 <= games <= MAX_GAMES:
        raise FivediceError(
            N_("the number of games must be from 1 to {most:,}, not {games}"),
            most=MAX_GAMES,
            games=games,
        )
    if seed < 0:
        raise FivediceError(N_("the seed must not be negative, not {seed}"), seed=seed)
    if level is Level.GUIDE:
        guide = guide_for(rules)
        if guide is not None:
            return _simulate_guide(guide, rules, games, seed, progress)
    profile = profile_for(level, rules)
    if values is None:
        values = (
            h.greedy_values(rules)
            if profile.greedy
            else level_values(
                rules, level, use_cache=use_cache, cache_dir=cache_dir, progress=solve_progress
            )
        )
    rt = h.rule_tables(rules)
    dt = h.dice_tables(rt.dice)
    first_keep = first_turn_values(rules, values, profile.greedy)
    parts = component_columns(rules)
    out = np.zeros((games, BOX_POINTS + rt.boxes + 2), dtype=np.int64)
    seeds = game_seeds(seed, games)
    typical = h.typical_box_values(rules)

    def play(chunk_seeds: npt.NDArray[np.uint64], results: npt.NDArray[np.int64]) -> None:
        h.play_games(
            profile.greedy,
            profile.slip,
            profile.max_loss,
            chunk_seeds,
            rt.multipliers,
            rt.arrays,
            values,
            typical,
            dt.arrays,
            first_keep,
            results,
        )

    # Compile (or load the compiled kernel) before the clock starts.
    play(seeds[:1], np.zeros((1, out.shape[1]), np.int64))
    start = time.perf_counter()
    if progress is not None:
        progress(0, games)
    for begin in range(0, games, _CHUNK):
        end = min(begin + _CHUNK, games)
        play(seeds[begin:end], out[begin:end])
        if progress is not None:
            progress(end, games)
    seconds = time.perf_counter() - start
    columns = rules.columns * games
    return SimulationResult(
        level=level,
        rules=rules,
        seed=seed,
        scores=out[:, 0].copy(),
        upper_bonus_rate=float(out[:, 1].sum()) / columns,
        yahtzee_rate=float(out[:, 2].sum()) / columns,
        mean_extra_yahtzees=float(out[:, 3].mean()),
        seconds=seconds,
        parts=out[:, BOX_POINTS + parts].copy(),
    )


def component_columns(rules: RuleSet) -> npt.NDArray[np.int64]:
    """Which of `play_game`'s box and bonus columns (from `BOX_POINTS`) are the rules'
    components (`breakdown.component_keys`: the bonuses only where the rules have them)."""
    from fivedice.strategy.breakdown import UPPER_BONUS, component_keys

    boxes = len(rules.boxes)
    keys = component_keys(rules)
    columns = [*range(boxes)]
    if UPPER_BONUS in keys:
        columns.append(boxes)
    if len(keys) > len(columns):
        columns.append(boxes + 1)
    return np.array(columns, dtype=np.int64)


def _simulate_guide(
    guide: Guide, rules: RuleSet, games: int, seed: int, progress: Progress | None
) -> SimulationResult:
    """The guide level's games: its rules are plain Python, played by `guide_play`."""
    start = time.perf_counter()
    done: list[GameResult] = []
    for begin in range(0, games, _CHUNK):
        end = min(begin + _CHUNK, games)
        done.extend(play_guide_games(guide, rules, end - begin, seed, first=begin))
        if progress is not None:
            progress(end, games)
    seconds = time.perf_counter() - start
    return SimulationResult(
        level=Level.GUIDE,
        rules=rules,
        seed=seed,
        scores=np.array([game.score for game in done], dtype=np.int64),
        upper_bonus_rate=sum(game.upper_bonus for game in done) / games,
        yahtzee_rate=sum(game.yahtzee for game in done) / games,
        mean_extra_yahtzees=sum(game.extra_yahtzees for game in done) / games,
        seconds=seconds,
    )


def head_to_head(
    rules: RuleSet,
    levels: Sequence[Level | str],
    games: int,
    *,
    seed: int = 0,
    use_cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    solve_progress: Progress | None = None,
    paired: bool = False,
) -> HeadToHead:
    """Several levels at one table for `games` games; win rates with ties shared.

    Yahtzee has no interaction between players, so a table game is each player's solitaire
    game; every level plays game i with the same dice stream. Master watches the table: its
    games (and paired games) are played with a dice stream per seat (`master.play_table`).

    Args:
        paired: play every set of dice streams once per rotation of the players round the
            seats (expert and master only; `games` is rounded up to a multiple of the seats).

    Raises:
        FivediceError: fewer than two levels, paired games of other levels or of rules
            without winning chances, or as for `simulate`.
    """
    parsed = [Level.parse(level) for level in levels]
    check_simulated(rules)
    if len(parsed) < 2:
        raise FivediceError("a head-to-head needs at least two levels")
    if paired and not (has_table_games(rules) and set(parsed) <= {Level.MASTER, Level.EXPERT}):
        raise FivediceError(
            N_(
                "paired games seat expert and master players only, under Yahtzee or Yatzy"
                " rules (not Maxi Yatzy)"
            )
        )
    # Without winning chances (Maxi Yatzy) master plays exactly like expert, alone.
    if paired or (Level.MASTER in parsed and has_table_games(rules)):
        return _master_head_to_head(
            rules, parsed, games, seed, use_cache, cache_dir, progress, paired=paired
        )
    done = [0] * len(parsed)

    def report(index: int) -> Progress | None:
        if progress is None:
            return None

        def inner(count: int, _total: int) -> None:
            done[index] = count
            progress(sum(done), games * len(parsed))

        return inner

    # Strong and expert share the solved values: load (or solve) them once.
    shared: dict[bool, h.Values] = {}
    results = []
    for i, level in enumerate(parsed):
        profile = profile_for(level, rules)
        values = None
        if not profile.greedy:
            if profile.optimal_values not in shared:
                shared[profile.optimal_values] = level_values(
                    rules, level, use_cache=use_cache, cache_dir=cache_dir, progress=solve_progress
                )
            values = shared[profile.optimal_values]
        results.append(simulate(rules, level, games, seed=seed, values=values, progress=report(i)))
    # The same level listed twice shares one entry; each copy's wins add up.
    rates, outright, draws, intervals = table_outcomes(
        parsed, np.stack([result.scores for result in results])
    )
    return HeadToHead(tuple(results), rates, outright, draws, intervals)


def _master_head_to_head(
    rules: RuleSet,
    levels: list[Level],
    games: int,
    seed: int,
    use_cache: bool,
    cache_dir: str | os.PathLike[str] | None,
    progress: Progress | None,
    *,
    paired: bool,
) -> HeadToHead:
    """Master watches the other seats, so its games are played by `master.play_table`: 2-8
    seats, master or expert, one column, a dice stream per seat; the seats rotate."""
    from fivedice.strategy.master import MAX_SEATS, play_table
    from fivedice.strategy.moments import moments_of

    if (
        not 2 <= len(levels) <= MAX_SEATS
        or not set(levels) <= {Level.MASTER, Level.EXPERT}
        or rules.columns != 1
    ):
        raise FivediceError(
            N_("master is simulated against expert or master only: 2 to {most} seats, one column"),
            most=MAX_SEATS,
        )
    if not 1 <= games <= MAX_GAMES:
        raise FivediceError(f"the number of games must be from 1 to {MAX_GAMES:,}, not {games}")
    seats = len(levels)
    if paired:
        games = -(-games // seats) * seats  # whole sets: every seating of each set of dice
    kinds = tuple(level.value for level in levels)
    moments = moments_of(rules, use_cache=use_cache, cache_dir=cache_dir)
    play_table(moments, kinds, seats, seed=seed, paired=paired)  # compile first
    start = time.perf_counter()
    played = play_table(moments, kinds, games, seed=seed, paired=paired)
    seconds = time.perf_counter() - start
    if progress is not None:
        progress(games * seats, games * seats)
    results = tuple(
        SimulationResult(
            level=level,
            rules=rules,
            seed=seed,
            scores=played.finals[:, i].astype(np.int64),
            upper_bonus_rate=float(played.stats[:, i, 0].mean()),
            yahtzee_rate=float(played.stats[:, i, 1].mean()),
            mean_extra_yahtzees=float(played.stats[:, i, 2].mean()),
            seconds=seconds,
        )
        for i, level in enumerate(levels)
    )
    rates, outright, draws, intervals = table_outcomes(
        levels, played.finals.T, seats if paired else 1
    )
    return HeadToHead(results, rates, outright, draws, intervals, paired)


def first_turn_values(rules: RuleSet, values: h.Values, greedy: bool) -> h.FloatArray:
    """The keep values of the first turn, the same in every game, computed once."""
    levels = max(rules.rolls_per_turn - 1, 1)
    rt = h.rule_tables(rules)
    dt = h.dice_tables(rt.dice)
    keep_values = np.zeros((levels, dt.keeps))
    if greedy or rules.rolls_per_turn == 1:
        return keep_values
    card = np.full((rules.columns, rt.boxes), -1, dtype=np.int64)
    ends = np.empty(dt.rolls)
    h.end_values(card, h.player_args(rules, values), ends)
    roll_values = np.empty((levels + 1, dt.rolls))
    h.turn_tables(
        ends, levels, dt.keep_add, dt.keep_remove, keep_values, roll_values, np.empty(dt.keeps)
    )
    return keep_values
