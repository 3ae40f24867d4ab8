import json
import subprocess
import sys

import pytest

from tests.support.cli import run


def test_score_json_in_card_order():
    result = run("score", "--dice", "33355", "--json")
    assert result.exit_code == 0
    options = json.loads(result.stdout)["options"]
    assert options[:3] == [
        {"category": "ones", "points": 0},
        {"category": "twos", "points": 0},
        {"category": "threes", "points": 9},
    ]
    assert {"category": "full_house", "points": 25} in options
    assert len(options) == 13


def test_score_with_card_bonus_and_joker():
    result = run("score", "--dice", "44444", "--card", '{"yahtzee": 50, "fours": 12}', "--json")
    options = {o["category"]: o["points"] for o in json.loads(result.stdout)["options"]}
    assert options == {
        "three_of_a_kind": 120,
        "four_of_a_kind": 120,
        "full_house": 125,
        "small_straight": 130,
        "large_straight": 140,
        "chance": 120,
    }


def test_score_upper_bonus_reached_now():
    card = '{"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15}'
    result = run("score", "--dice", "66612", "--card", card, "--json")
    options = {o["category"]: o["points"] for o in json.loads(result.stdout)["options"]}
    assert options["sixes"] == 53


def test_score_with_set_options():
    result = run(
        "score",
        "--dice",
        "12345",
        "--rules",
        "classic-five",
        "--set",
        "small_straight=20",
        "--json",
    )
    options = {o["category"]: o["points"] for o in json.loads(result.stdout)["options"]}
    assert options["small_straight"] == 20 and options["large_straight"] == 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["score", "--dice", "3335"], "5 dice"),
        (["score", "--dice", "33355", "--card", "{bad"], "not valid JSON"),
        (["score", "--dice", "33355", "--card", '{"threes": 10}'], "cannot hold"),
        (["score", "--dice", "33355", "--rules", "nope"], "no rule preset"),
        (["score", "--dice", "33355", "--set", "joker=maybe"], "Joker must be"),
        (["score", "--dice", "33355", "--card", "[1]"], "JSON object"),
    ],
)
def test_bad_input_exits_2_with_a_message(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_rules_in_words_show_the_active_values():
    result = run(
        "rules",
        "--rules",
        "classic",
        "--set",
        "upper_bonus_threshold=70",
        "--set",
        "yahtzee_bonus_value=50",
    )
    assert result.exit_code == 0
    assert "70" in result.stdout and "bonus of 50" in result.stdout
    assert "free choice" in run("rules", "--rules", "free-choice").stdout
    triple = run("rules", "--rules", "triple").stdout
    assert "3 columns" in triple and "×3" in triple


def test_plain_play_reads_actions_and_survives_bad_lines():
    result = run(
        "play", "--plain", "--seed", "4", input="roll\nhold 9\nscore nothing\nroll\nscore chance\n"
    )
    assert result.exit_code == 0
    out = result.stdout
    assert "there is no die 9" in out and "no box is called" in out
    assert "Turn 2 of 13." in out and "End of input" in out


def test_plain_play_full_game_two_players():
    lines = []
    boxes = [
        "ones",
        "twos",
        "threes",
        "fours",
        "fives",
        "sixes",
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "yahtzee",
        "chance",
    ]
    for box in boxes:
        lines += ["roll", f"score {box}", "y", "roll", f"score {box}", "y"]  # "y": a 0 asks
    result = run(
        "play",
        "--plain",
        "--player",
        "Ann",
        "--player",
        "Bob",
        "--seed",
        "1",
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0
    assert "Game over." in result.stdout
    assert "1. " in result.stdout


def test_play_same_seed_same_dice():
    a = run("play", "--plain", "--seed", "9", input="roll\nroll\n").stdout
    b = run("play", "--plain", "--seed", "9", input="roll\nroll\n").stdout
    # The two games are saved as games 1 and 2; their dice are the same.
    dice = [[line for line in out.splitlines() if "Roll " in line] for out in (a, b)]
    assert dice[0] == dice[1] and len(dice[0]) >= 2


def test_importing_the_core_loads_no_third_party_package():
    code = (
        "import sys, fivedice.core, fivedice.core.game;"
        "heavy = ('numpy', 'numba', 'typer', 'rich', 'textual', 'fastapi', 'sqlalchemy', 'click');"
        "print([m for m in heavy if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- input at the edges: refused with one line, never a traceback, nothing changed ---------

HUGE_ID = "99999999999999999999999"


def _refused_cleanly(result, message):
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(
    "command",
    [
        ["export"],
        ["abandon"],
        ["play", "--plain", "--resume"],
        # These said the (healthy) database was damaged.
        ["review"],
        ["sheet", "-o", "-", "--game"],
        ["table", "--plain"],
    ],
)
def test_a_game_id_beyond_the_database_integers_is_no_game(command):
    _refused_cleanly(run(*command, HUGE_ID), f"there is no saved game {HUGE_ID}")
    # The largest id the database holds is looked up like any other.
    result = run(*command, str(2**63 - 1), input="")
    assert result.exit_code == 2 and "there is no saved game" in result.stderr


@pytest.mark.parametrize("seed", ["9223372036854775808", "-1", "18446744073709551616"])
def test_play_seed_outside_the_stored_range_is_refused(seed):
    _refused_cleanly(run("play", "--plain", "--seed", seed, input="roll\n"), "--seed must be")
    assert "No saved games" in run("games").stdout  # nothing was created


def test_play_seed_at_the_top_of_the_range_is_played_and_saved():
    top = 2**63 - 1
    result = run("play", "--plain", "--seed", str(top), input="roll\n")
    assert result.exit_code == 0, result.output
    games = json.loads(run("games", "--json").stdout)
    assert len(games) == 1
    assert f"seed: {top}" in run("export", str(games[0]["id"])).stdout


@pytest.mark.parametrize("seed", ["18446744073709551616", "9223372036854775808", "-3"])
def test_simulate_seed_outside_the_range_is_refused(seed):
    _refused_cleanly(run("simulate", "--games", "1", "--seed", seed), "--seed must be")


@pytest.mark.parametrize(
    "card, message",
    [
        ("[" * 20_000, "too long"),
        ("[" * 5_000, "nested too deeply"),
        ('{"ones": ' + "1" * 5_000 + "}", "number too long"),
        ('{"ones": ' + "1" * 4_000 + "}", "cannot hold"),
        ('{"chance": 1e999}', "--card"),
        ('{"ones": NaN}', "--card"),
    ],
)
def test_card_json_at_the_edges_is_refused(card, message):
    for command in (
        ["score", "--dice", "11111"],
        ["advise", "--dice", "11111", "--rolls-left", "0"],
    ):
        result = run(*command, "--card", card)
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        if message != "--card":
            assert message in result.stderr


@pytest.mark.parametrize(
    "rules, rolls_left",
    [
        ([], "3"),
        ([], "-1"),
        ([], "1000000"),
        ([], "9223372036854775807"),
        ([], "99999999999999999999"),
        (["--set", "rolls_per_turn=1"], "1"),
        (["--set", "rolls_per_turn=5"], "5"),
    ],
)
def test_advise_rolls_left_beyond_the_rules_is_refused(rules, rolls_left):
    result = run("advise", "--dice", "55666", "--rolls-left", rolls_left, *rules)
    _refused_cleanly(result, "--rolls-left must be from 0 to")
    assert f"not {rolls_left}" in result.stderr


@pytest.mark.parametrize("bonus", ["on", "off"])
@pytest.mark.parametrize("condition", ["box_scored", "box_filled"])
@pytest.mark.parametrize("yahtzee", ["0", "50"])
@pytest.mark.parametrize("value", ["0", "100"])
def test_the_rules_say_a_yahtzee_bonus_exactly_when_play_pays_one(bonus, condition, yahtzee, value):
    from fivedice.core.card import Column
    from fivedice.core.categories import Category
    from fivedice.core.rules import find_ruleset, parse_settings

    settings = [
        f"yahtzee_bonus={bonus}",
        f"yahtzee_bonus_condition={condition}",
        f"yahtzee={yahtzee}",
        f"yahtzee_bonus_value={value}",
    ]
    rules = find_ruleset("classic", parse_settings(settings))
    # Play: the Yahtzee box filled by a five of a kind, then a further five of a kind.
    column = Column.empty().fill(rules, Category.YAHTZEE, (6, 6, 6, 6, 6))
    paid = max(p.yahtzee_bonus for p in column.placements(rules, (6, 6, 6, 6, 6)))
    result = run("rules", *(arg for s in settings for arg in ("--set", s)))
    assert result.exit_code == 0
    sentence = next(
        line
        for line in result.stdout.splitlines()
        if "further Yahtzees" in line or "Each further Yahtzee" in line
    )
    if paid:
        assert f"earns a bonus of {paid}" in sentence
    else:
        assert sentence.startswith("- No bonus for further Yahtzees")


@pytest.mark.parametrize(
    "levels, message",
    [
        (["--bot", "master"], "--paired needs at least two players"),
        (["--bot", "casual", "--vs", "expert"], "paired games seat expert and master players"),
        (["--bot", "master", "--vs", "expert", "--rules", "maxi-yatzy"], "(not Maxi Yatzy)"),
    ],
)
def test_simulate_paired_refuses_what_it_cannot_pair(levels, message):
    _refused_cleanly(run("simulate", "--paired", "--games", "2", *levels), message)
