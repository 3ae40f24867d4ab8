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
from fivedice.strategy.limits import has_win_chances
from fivedice.strategy.playout import game_seeds

__all__ = ["HeadToHead", "SimulationResult", "head_to_head", "simulate"]

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
    """

    level: Level
    rules: RuleSet
    seed: int
    scores: npt.NDArray[np.int64] = field(repr=False)
    upper_bonus_rate: float
    yahtzee_rate: float
    mean_extra_yahtzees: float
    seconds: float

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
        }


@dataclass(frozen=True)
class HeadToHead:
    """Levels at one table: each game every level plays the same dice stream.

    Attributes:
        results: each level's solitaire statistics over the same games.
        win_rates: share of games each level won (a tie for first is shared equally).
    """

    results: tuple[SimulationResult, ...]
    win_rates: dict[Level, float]

    def summary(self) -> dict[str, object]:
        """The win rates and each level's statistics, JSON-friendly."""
        return {
            "games": self.results[0].games,
            "seed": self.results[0].seed,
            "win_rates": {level.value: round(rate, 4) for level, rate in self.win_rates.items()},
            "players": [result.summary() for result in self.results],
        }


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
    """
    level = Level.parse(level)
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
    out = np.zeros((games, 4), dtype=np.int64)
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
    play(seeds[:1], np.zeros((1, 4), np.int64))
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
    )


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
) -> HeadToHead:
    """Several levels at one table for `games` games; win rates with ties shared.

    Yahtzee has no interaction between players, so a table game is each player's solitaire
    game; every level plays game i with the same dice stream.

    Raises:
        FivediceError: fewer than two levels, or as for `simulate`.
    """
    parsed = [Level.parse(level) for level in levels]
    if len(parsed) < 2:
        raise FivediceError("a head-to-head needs at least two levels")
    # Without winning chances (Yatzy, Maxi Yatzy) master plays exactly like expert, alone.
    if Level.MASTER in parsed and has_win_chances(rules):
        return _master_head_to_head(rules, parsed, games, seed, use_cache, cache_dir, progress)
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
    scores = np.stack([result.scores for result in results])
    best = scores.max(axis=0)
    winners = scores == best
    shares = winners / winners.sum(axis=0)
    rates = shares.sum(axis=1) / games
    win_rates: dict[Level, float] = {}
    for level, rate in zip(parsed, rates, strict=True):
        # The same level listed twice shares one entry; each copy's wins add up.
        win_rates[level] = win_rates.get(level, 0.0) + float(rate)
    return HeadToHead(tuple(results), win_rates)


def _master_head_to_head(
    rules: RuleSet,
    levels: list[Level],
    games: int,
    seed: int,
    use_cache: bool,
    cache_dir: str | os.PathLike[str] | None,
    progress: Progress | None,
) -> HeadToHead:
    """Master watches the other seat, so its games are played as duels (`master.play_duels`):
    two seats, master or expert, one column; the seats take turns to start."""
    from fivedice.strategy.master import play_duels
    from fivedice.strategy.moments import moments_of

    if len(levels) != 2 or not set(levels) <= {Level.MASTER, Level.EXPERT} or rules.columns != 1:
        raise FivediceError(
            N_("master is simulated against expert or master only: two seats, one column")
        )
    if not 1 <= games <= MAX_GAMES:
        raise FivediceError(f"the number of games must be from 1 to {MAX_GAMES:,}, not {games}")
    moments = moments_of(rules, use_cache=use_cache, cache_dir=cache_dir)
    play_duels(moments, (levels[0].value, levels[1].value), 1, seed=seed)  # compile first
    start = time.perf_counter()
    duels = play_duels(moments, (levels[0].value, levels[1].value), games, seed=seed)
    seconds = time.perf_counter() - start
    if progress is not None:
        progress(games * 2, games * 2)
    results = tuple(
        SimulationResult(
            level=level,
            rules=rules,
            seed=seed,
            scores=duels.finals[:, i].astype(np.int64),
            upper_bonus_rate=float(duels.stats[:, i, 0].mean()),
            yahtzee_rate=float(duels.stats[:, i, 1].mean()),
            mean_extra_yahtzees=float(duels.stats[:, i, 2].mean()),
            seconds=seconds,
        )
        for i, level in enumerate(levels)
    )
    first, second = duels.finals[:, 0], duels.finals[:, 1]
    shares = (
        (first > second) + 0.5 * (first == second),
        (second > first) + 0.5 * (first == second),
    )
    win_rates: dict[Level, float] = {}
    for level, share in zip(levels, shares, strict=True):
        win_rates[level] = win_rates.get(level, 0.0) + float(share.mean())
    return HeadToHead(results, win_rates)


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
