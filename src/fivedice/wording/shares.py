"""Shares shown as whole percentages that add up to exactly 100.

Rounding each chance on its own shows 33 % + 33 % + 33 % = 99 % (or 101 %) for a three-way
tie; a bar of chances that does not add up looks broken. `whole_percents` rounds by largest
remainder (Hamilton's method): every share gets its floor, and the points still missing go
to the shares with the largest remainders, ties to the earlier seat.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def whole_percents(shares: Sequence[float]) -> tuple[int, ...]:
    """The shares (each 0-1, together about 1) as whole percentages adding up to 100.

    Each result is its share's percentage rounded down or up (never further away), so a
    share of 0 stays 0 and a share of 1 stays 100. Shares that do not add up to about 1
    (an empty list, or all zero) are rounded one by one.

    >>> whole_percents([1 / 3, 1 / 3, 1 / 3])
    (34, 33, 33)
    >>> whole_percents([0.125, 0.125, 0.75])
    (13, 12, 75)
    >>> whole_percents([0.996, 0.004])
    (100, 0)
    """
    exact = [100 * max(share, 0.0) for share in shares]
    total = sum(exact)
    if not exact or abs(total - 100) > 0.5:
        return tuple(round(value) for value in exact)
    exact = [value * 100 / total for value in exact]  # (a sum of 99.9999999 is 100)
    floors = [math.floor(value + 1e-9) for value in exact]
    missing = 100 - sum(floors)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for index in order[:missing]:
        floors[index] += 1
    return tuple(floors)
