"""Chances shown as whole percentages add up to exactly 100."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fivedice.wording.shares import whole_percents


@pytest.mark.parametrize(
    ("shares", "percents"),
    [
        ([1 / 3, 1 / 3, 1 / 3], (34, 33, 33)),  # rounded alone: 99
        ([0.505, 0.495], (51, 49)),  # two remainders of a half: the earlier seat's
        ([0.125, 0.125, 0.125, 0.625], (13, 13, 12, 62)),  # alone: 12+12+12+62 = 98
        ([0.166, 0.166, 0.334, 0.334], (17, 17, 33, 33)),  # alone: 17+17+33+33 = 100
        ([0.2549, 0.2549, 0.2451, 0.2451], (25, 25, 25, 25)),  # the largest remainders up
        ([0.336, 0.336, 0.328], (34, 33, 33)),  # alone: 34+34+33 = 101
        ([0.996, 0.004], (100, 0)),
        ([1.0, 0.0, 0.0], (100, 0, 0)),
        ([0.5], (50,)),  # (not adding up to 1: each rounded alone)
        ([], ()),
    ],
)
def test_whole_percents_add_up_to_100_and_stay_next_to_the_exact_share(shares, percents):
    assert whole_percents(shares) == percents


@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=2, max_size=8))
def test_any_split_of_one_shows_100_percent_each_within_one_point(weights):
    total = sum(weights)
    if total < 1e-6:
        return
    shares = [weight / total for weight in weights]
    percents = whole_percents(shares)
    assert sum(percents) == 100
    for share, percent in zip(shares, percents, strict=True):
        assert math.floor(100 * share - 1e-6) <= percent <= math.ceil(100 * share + 1e-6)
