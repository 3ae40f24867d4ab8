import pytest

from fivedice.core.errors import RuleSetError
from fivedice.core.rules import (
    PRESETS,
    SETTING_NAMES,
    BonusCondition,
    Joker,
    OfAKindScoring,
    RuleSet,
    Straights,
    find_preset,
    find_ruleset,
    nearest_preset,
    parse_settings,
    preset_name,
)


def test_presets_are_what_the_rule_book_says():
    classic = find_ruleset("classic")
    assert classic == RuleSet()
    assert (classic.yahtzee_bonus, classic.yahtzee_bonus_value, classic.joker) == (
        True,
        100,
        Joker.FORCED,
    )
    assert find_ruleset("free-choice").joker is Joker.FREE_CHOICE
    simple = find_ruleset("simple")
    assert not simple.yahtzee_bonus and simple.joker is Joker.NONE
    five = find_ruleset("classic-five")
    assert five.straights is Straights.FIXED and five.joker is Joker.NONE and not five.yahtzee_bonus
    triple = find_ruleset("triple")
    assert triple.columns == 3 and triple.column_multipliers == (1, 2, 3)
    assert [p.name for p in PRESETS] == [
        "classic",
        "free-choice",
        "simple",
        "classic-five",
        "triple",
        "yatzy",
        "maxi-yatzy",
        "yacht",
        "yacht-dice",
        "generala",
        "kismet",
    ]


def test_aliases_and_case():
    assert find_preset("CLASSIC").name == "classic"
    assert find_preset("free_choice").name == "free-choice"


def test_unknown_preset_names_the_known_ones():
    with pytest.raises(RuleSetError, match="classic, free-choice"):
        find_ruleset("kniffel-deluxe")


def test_every_setting_is_settable_from_text():
    rules = find_ruleset(
        "classic",
        parse_settings(
            [
                "rolls_per_turn=4",
                "upper_bonus=off",
                "upper_bonus_threshold=70",
                "upper_bonus_value=50",
                "full_house=30",
                "small_straight=25",
                "large_straight=35",
                "yahtzee=60",
                "of_a_kind_scores=matching_dice",
                "five_of_a_kind_is_full_house=on",
                "straights=fixed",
                "yahtzee_bonus=off",
                "yahtzee_bonus_value=50",
                "yahtzee_bonus_condition=box_filled",
                "joker=free_choice",
                "upper_first=on",
                "column_multipliers=1,2,3",
            ]
        ),
    )
    assert rules == RuleSet(
        rolls_per_turn=4,
        upper_bonus=False,
        upper_bonus_threshold=70,
        upper_bonus_value=50,
        full_house=30,
        small_straight=25,
        large_straight=35,
        yahtzee=60,
        of_a_kind_scores=OfAKindScoring.MATCHING_DICE,
        five_of_a_kind_is_full_house=True,
        straights=Straights.FIXED,
        yahtzee_bonus=False,
        yahtzee_bonus_value=50,
        yahtzee_bonus_condition=BonusCondition.BOX_FILLED,
        joker=Joker.FREE_CHOICE,
        upper_first=True,
        column_multipliers=(1, 2, 3),
    )
    assert set(SETTING_NAMES) >= {"columns", "column_multipliers", "joker"}


def test_columns_alone_gives_multiplier_one():
    assert find_ruleset("classic", {"columns": "2"}).column_multipliers == (1, 1)
    assert find_ruleset(
        "triple", {"columns": 3, "column_multipliers": "1,1,2"}
    ).column_multipliers == (1, 1, 2)
    with pytest.raises(RuleSetError, match="columns=2 but column_multipliers has 3"):
        find_ruleset("classic", {"columns": 2, "column_multipliers": "1,2,3"})


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("rolls_per_turn", "0", "from 1"),
        ("rolls_per_turn", "three", "integer"),
        ("upper_bonus_threshold", "106", "at most 105"),
        ("upper_bonus_threshold", "0", "from 1"),
        ("full_house", "-5", "from 0"),
        ("joker", "sometimes", "forced, free_choice, none"),
        ("straights", "long", "runs, fixed"),
        ("upper_bonus", "maybe", "on or off"),
        ("columns", "0", "Columns must be"),
        ("column_multipliers", "1,0", "multiplier"),
        ("colour", "red", "unknown rule option"),
    ],
)
def test_impossible_values_are_refused_with_a_reason(key, value, message):
    with pytest.raises(RuleSetError, match=message):
        find_ruleset("classic", {key: value})


def test_construction_validates_python_values_too():
    with pytest.raises(RuleSetError):
        RuleSet(rolls_per_turn=True)
    with pytest.raises(RuleSetError):
        RuleSet(joker="forced")  # type: ignore[arg-type]
    with pytest.raises(RuleSetError):
        RuleSet(column_multipliers=())


def test_settings_round_trip_and_preset_name():
    for preset in PRESETS:
        assert RuleSet().with_settings(preset.rules.settings()) == preset.rules
        assert preset_name(preset.rules) == preset.name
    assert preset_name(RuleSet(rolls_per_turn=4)) is None
    assert RuleSet(rolls_per_turn=4).changed_settings() == {"rolls_per_turn": 4}


def test_parse_settings_needs_key_value():
    with pytest.raises(RuleSetError, match="KEY=VALUE"):
        parse_settings(["joker"])


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.name)
def test_a_preset_with_an_option_changed_is_still_named_after_it(preset):
    assert nearest_preset(preset.rules) is preset
    changed = preset.rules.with_settings({"wild_die": not preset.rules.wild_die})
    assert changed != preset.rules and nearest_preset(changed) is preset
