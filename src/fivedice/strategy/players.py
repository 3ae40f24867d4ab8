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
from fivedice.strategy.bots import Bot
from fivedice.strategy.levels import Level
from fivedice.strategy.master import MasterBot

__all__ = ["make_bot"]


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
