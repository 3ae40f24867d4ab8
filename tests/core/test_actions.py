import pytest
from hypothesis import given
from hypothesis import strategies as st

from fivedice.core.actions import Hold, Release, Roll, Score, parse_action
from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.errors import MalformedActionError


@pytest.mark.parametrize(
    "text, action",
    [
        ("roll", Roll()),
        ("  ROLL ", Roll()),
        ("hold 1 3 5", Hold((1, 3, 5))),
        ("hold 135", Hold((1, 3, 5))),
        ("hold 5,1", Hold((1, 5))),
        ("release 2", Release((2,))),
        ("score full_house", Score(Category.FULL_HOUSE)),
        ("score Full-House", Score(Category.FULL_HOUSE)),
        ("score 2:chance", Score(Category.CHANCE, 1)),
        ("score 1:chance", Score(Category.CHANCE, 0)),
    ],
)
def test_parse(text, action):
    assert parse_action(text) == action


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("jump", "unknown action"),
        ("roll 3", "takes nothing"),
        ("hold", "at least one die"),
        ("hold 6", "no die 6"),
        ("hold 0", "no die 0"),
        ("hold 1 1", "named twice"),
        ("hold x", "number 1-5"),
        ("score", "one box"),
        ("score sevens", "no box"),
        ("score 0:chance", "counts from 1"),
        ("score a:chance", "counts from 1"),
    ],
)
def test_malformed_actions_say_what_was_wrong(text, message):
    with pytest.raises(MalformedActionError, match=message):
        parse_action(text)


positions = st.sets(st.integers(1, 5), min_size=1).map(lambda s: tuple(sorted(s)))
actions = st.one_of(
    st.just(Roll()),
    positions.map(Hold),
    positions.map(Release),
    st.builds(Score, st.sampled_from(CATEGORIES), st.integers(0, 9)),
)


@given(actions)
def test_notation_round_trips(action):
    assert parse_action(str(action)) == action
    assert hash(action) == hash(parse_action(str(action)))
