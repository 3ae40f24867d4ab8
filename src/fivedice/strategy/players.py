"""The CPU player of any level: `make_bot`.

The levels up to expert are `bots.Bot`; master is `master.MasterBot`, a `Bot` that plays to
win. This module sits above both, so neither imports the other's maker.

>>> from fivedice.core.rules import CLASSIC
>>> make_bot("master", CLASSIC, 3).level.value
'master'
"""

from __future__ import annotations

import random
from typing import Any

from fivedice.core.rules import RuleSet
from fivedice.strategy.bots import PROFILES, Bot, level_values
from fivedice.strategy.levels import Level
from fivedice.strategy.limits import has_win_chances, is_supported
from fivedice.strategy.master import MasterBot

__all__ = ["make_bot", "prepare_tables", "tables_ready"]


def make_bot(
    level: Level | str,
    rules: RuleSet,
    rng: random.Random | int | None = None,
    **options: Any,
) -> Bot:
    """A CPU player of a level.

    Args:
        level: a `Level` or its name.
        rules: the rule set it plays.
        rng: its random source, or a seed for one (None: seeded by the system).
        **options: passed to `Bot` (values, use_cache, cache_dir, profile).
    """
    generator = rng if isinstance(rng, random.Random) else random.Random(rng)
    if Level.parse(level) is Level.MASTER:
        return MasterBot(rules, generator, **options)
    return Bot(level, rules, generator, **options)


def _needs(level: Level | str, rules: RuleSet) -> tuple[RuleSet | None, bool]:
    """The one-column rules whose solved table a CPU of this level plays from (None: none),
    and whether it needs their moment table too (master, where it plays to win)."""
    parsed = Level.parse(level)
    if not PROFILES[parsed].optimal_values or not is_supported(rules):
        return None, False
    single = rules.replace(column_multipliers=(1,))
    return single, parsed is Level.MASTER and has_win_chances(single)


def tables_ready(level: Level | str, rules: RuleSet) -> bool:
    """Whether a CPU of this level can decide on these rules without solving anything: the
    tables it plays from are in memory or on disk (a quick load). Never solves."""
    from fivedice.strategy.cache import cache_path
    from fivedice.strategy.moments import moments_ready

    single, moments = _needs(level, rules)
    if single is None:
        return True
    return cache_path(single).exists() and (not moments or moments_ready(single))


def prepare_tables(level: Level | str, rules: RuleSet) -> None:
    """Loads, or solves (in the process's one solving slot, as the current permit and wait
    allow), the tables a CPU of this level plays from on these rules, so that its decisions
    then take no solve: called outside any game's lock.

    Raises:
        SolverBusyError: the solver is busy longer than the caller may wait, or the permit
            refuses a new rule set; SolveNotAllowedError: rules this process may not solve.
    """
    from fivedice.strategy.moments import moments_of

    single, moments = _needs(level, rules)
    if single is None:
        return
    level_values(single, level)  # (solved and kept in memory for the level's bots)
    if moments:
        moments_of(single)
