"""The rules text names all dice the same by each family's own word (Yahtzee, Yatzy, Yacht,
Generala, Kismet, Maxi Yatzy) in the wild die's and the extra turn's sentences, and says how
a served Generala wins, in every language."""

from __future__ import annotations

import pytest

from fivedice.core.rules import find_ruleset
from fivedice.i18n import LANGUAGES, use_language
from fivedice.wording.boxes import box_name
from fivedice.wording.rules import describe_rules

FAMILIES = ["classic", "yatzy", "maxi-yatzy", "yacht", "yacht-dice", "generala", "kismet"]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("preset", FAMILIES)
def test_the_wild_die_completes_the_familys_own_five_of_a_kind(preset, language) -> None:
    rules = find_ruleset(preset, {"wild_die": "on"})
    assert rules.all_same_box is not None
    with use_language(language):
        own = box_name(rules.all_same_box)
        yahtzee = box_name(find_ruleset("classic").all_same_box)  # (Kniffel in German)
        text = describe_rules(rules)
    wild = [line for line in text if "★" in line]
    assert len(wild) == 1 and wild[0].count(own) >= 2
    if own != yahtzee:  # (Maxi Yatzy's name holds Yatzy's: only the words besides it)
        assert yahtzee not in wild[0].replace(own, "")


def test_the_extra_turn_sentence_names_the_familys_five_of_a_kind() -> None:
    text = describe_rules(find_ruleset("yatzy", {"extra_turn_on_yahtzee": "on"}))
    assert any(line.startswith("Extra turn: a player who scores a Yatzy") for line in text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_say_a_served_generala_wins_among_several_and_is_worth_50_alone(
    language,
) -> None:
    rules = find_ruleset("generala")
    with use_language(language):
        text = describe_rules(rules)
        served = [line for line in text if box_name(rules.box("generala")) in line and "50" in line]
    assert served, text
    if language == "en":
        assert any("wins the game at once when others are at the table" in line for line in text)
        assert not any("not played yet" in line for line in text)
