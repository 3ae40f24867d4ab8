"""The wild die: the ★ scores as the best face in each box, a Yahtzee made with it is one for
the bonus and the joker, and the option changes nothing of games without it.

Dice are written in position order; the last die is the wild one, and its 1 is the ★.
"""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fivedice.core.boxes import score_box
from fivedice.core.card import Column
from fivedice.core.dice import ScriptedDice
from fivedice.core.errors import DiceError, SettingsError
from fivedice.core.game import GameKind, GameSettings, Seat, apply, new_game
from fivedice.core.rules import CLASSIC, find_ruleset
from fivedice.core.scoring import box_score, is_yahtzee, possible_scores, scoring_roll
from fivedice.core.wild import dice_text, wild_roll, wild_rolls

WILD = find_ruleset("classic", {"wild_die": "on"})
WILD_YATZY = find_ruleset("yatzy", {"wild_die": "on"})


def dice(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in text)


@pytest.mark.parametrize(
    "rules, box, roll, expected",
    [
        # Four 4s and the ★: a Yahtzee of fours, and the ★ as a 6 where the sum counts.
        (WILD, "ones", "44441", 1),
        (WILD, "fours", "44441", 20),
        (WILD, "sixes", "44441", 6),
        (WILD, "three_of_a_kind", "44441", 22),
        (WILD, "four_of_a_kind", "44441", 22),
        (WILD, "full_house", "44441", 0),
        (WILD, "yahtzee", "44441", 50),
        (WILD, "chance", "44441", 22),
        # Two pairs and the ★: a full house either way.
        (WILD, "full_house", "33551", 25),
        (WILD, "three_of_a_kind", "33551", 21),
        (WILD, "fives", "33551", 15),
        (WILD, "twos", "33551", 2),
        (WILD, "small_straight", "33551", 0),
        # The ★ fills the gap of a straight.
        (WILD, "large_straight", "23461", 40),
        (WILD, "small_straight", "23461", 30),
        (WILD, "large_straight", "12351", 40),
        (WILD, "ones", "12351", 2),
        (WILD, "small_straight", "22341", 30),
        (WILD, "small_straight", "22441", 0),
        (WILD, "small_straight", "13461", 30),
        (WILD, "large_straight", "13461", 0),
        # Of a kind and full house with the ★ as the missing die.
        (WILD, "four_of_a_kind", "66621", 26),
        (WILD, "full_house", "66621", 25),
        (WILD, "chance", "66621", 26),
        (WILD, "three_of_a_kind", "11221", 8),
        (WILD, "sixes", "66551", 18),
        # The wild die showing 2-6 is an ordinary die.
        (WILD, "yahtzee", "55553", 0),
        (WILD, "threes", "55553", 3),
        (WILD, "yahtzee", "55555", 50),
        (WILD, "large_straight", "12346", 0),
        # Five ones with the ★: a Yahtzee of ones, or the ★ as a 6.
        (WILD, "yahtzee", "11111", 50),
        (WILD, "ones", "11111", 5),
        (WILD, "chance", "11111", 10),
        (WILD, "sixes", "11111", 6),
        # Yatzy's boxes: the matching dice, the exact straights, the sum of a full house.
        (WILD_YATZY, "one_pair", "12341", 8),
        (WILD_YATZY, "two_pairs", "44221", 12),
        (WILD_YATZY, "three_of_a_kind", "44221", 12),
        (WILD_YATZY, "full_house", "66221", 22),
        (WILD_YATZY, "small_straight", "23451", 15),
        (WILD_YATZY, "large_straight", "23451", 20),
        (WILD_YATZY, "yatzy", "33331", 50),
        (WILD_YATZY, "four_of_a_kind", "33331", 12),
    ],
)
def test_the_star_scores_as_the_best_face_in_each_box(rules, box, roll, expected):
    assert box_score(rules, rules.box(box), scoring_roll(rules, dice(roll))) == expected


WILD_MAXI = find_ruleset("maxi-yatzy", {"wild_die": "on"})


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("rules", [WILD, WILD_YATZY, WILD_MAXI])
def test_every_box_scores_the_best_of_the_six_faces_for_the_star(rules):
    """Brute force over every roll in position order (the last die wild): the ★ scores in each
    box, plain and as a joker, the best of the rolls with a 1-6 in its place."""
    for regular in itertools.combinations_with_replacement(range(1, 7), rules.dice - 1):
        for wild in range(1, 7):
            roll = scoring_roll(rules, (*regular, wild))
            faces = range(1, 7) if wild == 1 else (wild,)
            for box in rules.boxes:
                for joker in (False, True):
                    best = max(score_box(box, sorted((*regular, f)), joker) for f in faces)
                    assert score_box(box, roll, joker) == best, (box, regular, wild, joker)


@pytest.mark.slow
@given(st.lists(st.integers(1, 6), min_size=5, max_size=5))
def test_a_wild_roll_is_a_yahtzee_when_some_face_for_the_star_makes_one(values):
    star = values[-1] == 1
    regular = values[:-1]
    expected = len(set(regular)) == 1 and (star or values[-1] == regular[0])
    assert is_yahtzee(WILD, values) is expected


def test_the_wild_die_is_the_last_die_and_coded_apart():
    assert wild_roll((4, 4, 2, 4, 1)) == (2, 4, 4, 4, 7)
    assert wild_roll((2, 4, 4, 4, 7)) == (2, 4, 4, 4, 7)  # already coded
    assert wild_roll((1, 1, 1, 1, 6)) == (1, 1, 1, 1, 12)
    assert dice_text(wild_roll((4, 4, 2, 4, 1))) == "2444★"
    assert len(wild_rolls(5)) == 6 * 126 == len(set(wild_rolls(5)))
    with pytest.raises(DiceError):
        wild_roll((7, 8, 1, 1, 1))


def test_a_yahtzee_with_the_star_earns_the_bonus_and_is_forced_to_its_upper_box():
    column = Column.from_scores(WILD, {"yahtzee": 50})
    placements = column.placements(WILD, scoring_roll(WILD, dice("44441")))
    assert [(p.category.key, p.box_points, p.yahtzee_bonus, p.joker) for p in placements] == [
        ("fours", 20, 100, True)
    ]
    # Fours filled: any lower box as a joker, straights and full house at their full points.
    column = Column.from_scores(WILD, {"yahtzee": 50, "fours": 12})
    placements = column.placements(WILD, scoring_roll(WILD, dice("44441")))
    points = {p.category.key: p.box_points for p in placements}
    assert points == {
        "three_of_a_kind": 22,
        "four_of_a_kind": 22,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 22,
    }
    assert all(p.yahtzee_bonus == 100 and p.joker for p in placements)


def test_the_wild_die_showing_a_face_makes_no_yahtzee_of_another():
    column = Column.from_scores(WILD, {"yahtzee": 50})
    placements = column.placements(WILD, scoring_roll(WILD, dice("44443")))
    assert all(p.yahtzee_bonus == 0 and not p.joker for p in placements)
    assert len(placements) == 12


def test_a_game_with_the_wild_die_holds_it_by_position_and_scores_the_star():
    settings = GameSettings(seats=(Seat("Ann"),), rules=WILD)
    state = apply(new_game(settings), "roll", ScriptedDice([4, 4, 2, 4, 3]))
    state = apply(state, "hold 1 2 4")
    state = apply(state, "roll", ScriptedDice([6, 1]))  # die 3 shows 6, the wild die the ★
    assert state.dice == (4, 4, 6, 4, 1)
    state = apply(state, "score four_of_a_kind")
    assert state.totals == (4 * 4 + 6,)  # the ★ as the fourth 4


def test_a_yahtzee_with_the_star_gives_the_extra_turn():
    rules = WILD.replace(extra_turn_on_yahtzee=True)
    settings = GameSettings(seats=(Seat("Ann"), Seat("Bob")), rules=rules)
    state = apply(new_game(settings), "roll", ScriptedDice([5, 5, 5, 5, 1]))
    state = apply(state, "score yahtzee")
    assert state.current_seat == 0 and state.totals == (50, 0)


def test_the_option_is_off_by_default_and_absent_from_old_settings():
    assert not CLASSIC.wild_die
    assert "wild_die" not in CLASSIC.settings()
    assert WILD.settings()["wild_die"] is True
    assert find_ruleset("classic", WILD.changed_settings()) == WILD
    assert possible_scores(WILD, WILD.box("ones")) == frozenset(range(0, 6))
    assert possible_scores(CLASSIC, CLASSIC.box("ones")) == frozenset(range(0, 6))


def test_the_wild_die_is_not_played_at_the_table():
    with pytest.raises(SettingsError, match="wild die"):
        GameSettings(seats=(Seat("Ann"),), rules=WILD, kind=GameKind.TABLE)


WILD_GENERALA = find_ruleset("generala", {"wild_die": "on"})
WILD_KISMET = find_ruleset("kismet", {"wild_die": "on"})


@pytest.mark.parametrize(
    "box, roll, later, served",
    [
        # Generala: the ★ completes the hand; made on the first roll it earns 5 more, once.
        ("escalera", "23451", 20, 25),
        ("escalera", "34561", 20, 25),
        ("full", "33351", 30, 35),
        ("full", "33552", 0, 0),  # the wild die showing a 2 is a 2: no hand, no served points
        ("poker", "44421", 40, 45),
        ("generala", "66661", 50, 50),  # no served points on the Generala box
        ("fives", "55521", 20, 20),  # none in an upper box either
        ("ones", "23451", 1, 1),
    ],
)
def test_a_served_hand_with_the_star_earns_its_served_points_once(box, roll, later, served):
    scored = scoring_roll(WILD_GENERALA, dice(roll))
    rule_box = WILD_GENERALA.box(box)
    assert score_box(rule_box, scored) == later
    assert score_box(rule_box, scored, served=True) == served


def test_served_points_with_the_star_are_the_best_substitutes_served_points():
    """Every wild roll in every Generala box, served: the best of the six faces for the ★,
    each scored as a served plain roll."""
    for roll in wild_rolls(5):
        plain = roll[:-1]
        for box in WILD_GENERALA.boxes:
            best = max(score_box(box, (*plain, face), served=True) for face in range(1, 7))
            assert score_box(box, roll, served=True) == (
                best if roll[-1] == 7 else score_box(box, (*plain, roll[-1] - 6), served=True)
            )


@pytest.mark.parametrize(
    "roll, points, bonus",
    [
        ("66661", 30, 55),  # the ★ a 6: 45 + 30 = 75 reaches the 71 tier (55), not the 78
        ("66621", 24, 35),  # three 6s and the ★: 45 + 24 = 69, the first tier (35) only
        ("66122", 12, 0),  # the wild die showing a 2 is a 2: 45 + 12 = 57, no bonus
    ],
)
def test_the_star_counts_towards_the_tiered_upper_bonus(roll, points, bonus):
    column = Column.from_scores(
        WILD_KISMET, {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15}
    )
    (sixes,) = [p for p in column.placements(WILD_KISMET, dice(roll)) if p.category.key == "sixes"]
    assert (sixes.box_points, sixes.upper_bonus) == (points, bonus)
