"""The plain mode, driven through stdin and stdout in-process (a saved game per test)."""

from __future__ import annotations

import io
import re

from fivedice.core.categories import Category
from fivedice.core.rules import RuleSet
from fivedice.plain.game import run_plain
from fivedice.service.games import GameService


class Stdin(io.StringIO):
    def isatty(self) -> bool:
        return False


def play(
    text: str,
    tmp_path,
    *,
    players=("Ann",),
    cpus=(),
    seed: int = 3,
    rules: RuleSet | None = None,
    practice: bool = False,
    cpu_factory=None,
) -> str:
    """Runs the plain mode on `text` and returns what it printed."""
    out = io.StringIO()
    options = {} if cpu_factory is None else {"cpu_factory": cpu_factory}
    code = run_plain(
        rules or RuleSet(),
        list(players),
        list(cpus),
        seed=seed,
        first="first_seat",
        games=1,
        stdin=Stdin(text),
        stdout=out,
        db=f"sqlite:///{tmp_path / 'plain.sqlite3'}",
        practice=practice,
        **options,
    )
    assert code == 0
    return out.getvalue()


def saved_log(tmp_path) -> list[str]:
    service = GameService.open(f"sqlite:///{tmp_path / 'plain.sqlite3'}")
    return [entry.action for entry in service.record(1).actions]


def test_undo_takes_back_the_last_action_and_help_lists_it(tmp_path):
    out = play("help\nroll\nhold 1 2\nundo\nundo\nroll\nundo\n", tmp_path)
    assert "undo" in out.split("Ann> ")[1]  # the answer to help
    assert "Your last action is taken back." in out
    assert "Cannot undo: only the last action can be taken back" in out
    assert "Cannot undo: a roll cannot be taken back" in out
    assert saved_log(tmp_path) == ["roll", "hold 1 2", "undo", "roll"]


class SixesCpu:
    """A fast, deterministic CPU: keeps its sixes, scores where it earns most."""

    def choose_keep(self, rules, card, dice, rolls_left):
        return tuple(d for d in dice if d == 6)

    def choose_box(self, rules, card, dice):
        return max(card.placements(rules, dice), key=lambda p: p.points)


def sixes_factory(level, seed, rules):
    return SixesCpu()


def scripted(monkeypatch, script: dict[int, list[int]]) -> None:
    """The dice of action n are script[n] (the service asks `dice_for(seed, n)`)."""
    from fivedice.core.dice import ScriptedDice

    monkeypatch.setattr(
        "fivedice.service.view.dice_for", lambda seed, number: ScriptedDice(script.get(number, []))
    )


def test_cpu_turns_are_said_with_their_dice_and_points(tmp_path):
    from fivedice.wording.text import box_name

    out = play("r\ns chance\n", tmp_path, cpus=["casual"], cpu_factory=sixes_factory)
    record = GameService.open(f"sqlite:///{tmp_path / 'plain.sqlite3'}").record(1)
    cpu = "CPU 1 (casual)"
    said = 0
    for entry, state in record.states():
        if entry is None or entry.seat != 1:
            continue
        if entry.action == "roll":
            assert f"{cpu} rolls {' '.join(map(str, state.dice))}" in out
        elif entry.action.startswith("hold"):  # by position as a person types it, and faces
            positions = entry.action.split()[1:]
            faces = [str(state.dice[int(p) - 1]) for p in positions]
            dice = "die" if len(positions) == 1 else "dice"
            assert f"{cpu} holds {dice} {' '.join(positions)} ({' '.join(faces)})" in out
        elif entry.action.startswith("score"):
            box = Category(entry.action.split()[1])
            column = state.cards[1].columns[0]
            assert f"{cpu} scores {column.score(box)} in {box_name(box)}" in out
        said += 1
    assert said >= 2  # at least a roll and a score
    assert f"{cpu}: roll" not in out  # no bare notation any more


def test_your_score_is_confirmed_with_its_bonuses(tmp_path, monkeypatch):
    scripted(monkeypatch, {1: [6] * 5, 3: [5] * 5, 5: [1, 2, 3, 4, 6]})
    rules = RuleSet().with_settings({"upper_bonus_threshold": 20})
    out = play("r\ns yahtzee\nr\ns fives\nr\ns chance\n", tmp_path, rules=rules)
    assert "You score 50 in Yahtzee" in out
    assert "You score 25 in Fives, +35 upper bonus, +100 extra-Yahtzee bonus" in out
    assert "You score 16 in Chance\n" in out


def test_hint_gives_the_services_options_with_positions_to_hold(tmp_path):
    out = play("hint\nr\nhint\n", tmp_path, seed=3)
    assert "No hint: hints are given once the dice are rolled" in out
    service = GameService.open(f"sqlite:///{tmp_path / 'plain.sqlite3'}")
    best = service.hint(1)[0]
    shown = out.split("The coach's best options (expected points still to come):\n")[1]
    first = shown.splitlines()[0]
    assert first.startswith("  1. ") and f": {best.value:.1f}" in first
    if best.category is None:
        assert first.startswith(f"  1. keep {' '.join(map(str, best.keep))}")
    assert len([line for line in shown.splitlines() if re.match(r"  \d\. ", line)]) == 5


def test_a_zero_score_is_confirmed_once(tmp_path, monkeypatch):
    scripted(monkeypatch, {1: [1, 2, 3, 4, 6], 3: [2, 2, 3, 3, 4]})
    out = play("r\nscore yahtzee\nn\nscore yahtzee\ny\nr\nscore chance\n", tmp_path)
    assert out.count("Yahtzee would score 0. Score it anyway? [y/N] ") == 2
    assert "Not scored." in out and "You score 0 in Yahtzee" in out
    assert "Chance would score 0" not in out  # only a 0 asks
    assert saved_log(tmp_path) == ["roll", "score yahtzee", "roll", "score chance"]


def test_end_of_input_answers_no_to_the_zero_question(tmp_path, monkeypatch):
    scripted(monkeypatch, {1: [1, 3, 4, 5, 6]})
    out = play("r\nscore twos", tmp_path)
    assert "Twos would score 0. Score it anyway? [y/N] Not scored.\n" in out
    assert out.endswith("End of input: goodbye. Game 1 is saved.\n")
    assert saved_log(tmp_path) == ["roll"]


def test_short_forms_are_accepted(tmp_path):
    play("r\n1 2\nrel 2\nhold 3\nrel all\ns chance\n", tmp_path)
    assert saved_log(tmp_path) == [
        "roll",
        "hold 1 2",
        "release 2",
        "hold 3",
        "release 1 3",
        "score chance",
    ]


def test_box_names_are_shown_and_accepted_in_the_players_language(tmp_path, monkeypatch):
    from fivedice.i18n import set_language

    scripted(monkeypatch, {1: [3, 3, 3, 5, 5], 3: [1, 2, 3, 4, 5], 5: [6, 6, 6, 2, 2]})
    set_language("de")
    try:
        out = play("r\nscore Full House\nr\nscore große straße\nr\nscore full_house\n", tmp_path)
    finally:
        set_language("en")
    assert "Felder: Dreier 9, Fünfer 10, Dreierpasch 19, Full House 25, Chance 19" in out
    assert "three_of_a_kind" not in out
    assert "Du erzielst 25 bei Full House" in out
    assert "Du erzielst 40 bei Große Straße" in out
    assert saved_log(tmp_path) == [
        "roll",
        "score full_house",
        "roll",
        "score large_straight",
        "roll",
    ]  # the key works as well, and a filled box is refused: the last score was not applied
    assert "Nicht erlaubt" in out


def test_open_boxes_in_show_look_open_with_the_preview_in_brackets(tmp_path, monkeypatch):
    scripted(monkeypatch, {1: [3, 3, 3, 5, 5]})
    out = play("show\nr\nshow\n", tmp_path)
    parts = out.split("Ann> ")  # the answers to: show, r, show
    before_roll, after_roll = parts[1], parts[3]
    rows = [line.split() for line in after_roll.splitlines()]
    assert ["Chance", "-", "(19)"] in rows
    assert ["Yahtzee", "-", "(0)"] in rows  # not "+0"
    assert ["Full", "house", "-", "(25)"] in rows
    assert ["Yahtzee", "-"] in [line.split() for line in before_roll.splitlines()]
    assert not any(row[-1].startswith("+") for row in rows if row and row[0] != "Against")


def test_digits_that_are_not_ascii_are_refused_not_a_traceback(tmp_path):
    out = play("r\nhold ²\nscore ²:chance\nhold ١\n", tmp_path)
    assert out.count("Not allowed: a die position is a number 1-5, not '²'") == 1
    assert "Not allowed: a column number counts from 1, not '²'" in out
    assert saved_log(tmp_path) == ["roll"]


def test_non_ascii_digits_are_refused_by_every_parser():
    import pytest

    from fivedice.core.actions import parse_action
    from fivedice.core.dice import parse_dice
    from fivedice.core.errors import FivediceError
    from fivedice.core.record import parse_dice_text

    for parse, text in [
        (parse_action, "hold ²"),
        (parse_action, "score ²:chance"),
        (parse_dice, "1234²"),
        (lambda t: parse_dice_text(t, "line 9"), "12²"),
    ]:
        with pytest.raises(FivediceError):
            parse(text)


# The plain mode reads well for a screen reader ---------------------------------------------


def run_match(text: str, tmp_path, *, first: str = "first_seat", games: int = 1, cpus=()) -> str:
    out = io.StringIO()
    code = run_plain(
        RuleSet(),
        ["Ann", "Bob"] if not cpus else ["Ann"],
        list(cpus),
        seed=11,
        first=first,
        games=games,
        stdin=Stdin(text),
        stdout=out,
        db=f"sqlite:///{tmp_path / 'plain.sqlite3'}",
        cpu_factory=sixes_factory,
    )
    assert code == 0
    return out.getvalue()


def test_the_roll_off_for_the_first_player_is_told(tmp_path):
    out = run_match("", tmp_path, first="highest_die")
    state = GameService.open(f"sqlite:///{tmp_path / 'plain.sqlite3'}").load(1).state
    assert state.opening_rolls  # the seats rolled for it
    assert "Who starts: everyone rolls one die, highest starts." in out
    for rolls in state.opening_rolls:
        said = "; ".join(
            f"{name} rolls {dice[0]}"
            for name, dice in zip(("Ann", "Bob"), rolls, strict=True)
            if dice is not None
        )
        assert said + "." in out
    assert ("A tie: they roll again." in out) == (len(state.opening_rolls) > 1)
    starter = ("Ann", "Bob")[state.starting_seat]
    assert f"{starter} starts." in out
    # Five dice: each roll with its sum.
    (tmp_path / "sum").mkdir()
    out = run_match("", tmp_path / "sum", first="highest_sum")
    assert "(sum " in out and "starts." in out


def test_nobody_rolls_when_the_first_seat_starts(tmp_path):
    out = run_match("", tmp_path)
    assert "Who starts" not in out and "starts." not in out


def test_each_game_of_a_match_is_announced_and_the_totals_are_labelled(tmp_path):
    from fivedice.core.categories import CATEGORIES

    turn = "".join(f"r\ns {category.key}\ny\n" for category in CATEGORIES)
    out = run_match(turn * 2, tmp_path, games=2, cpus=["casual"])
    state = GameService.open(f"sqlite:///{tmp_path / 'plain.sqlite3'}").load(1).state
    assert state.is_match_over
    first, second = state.finished_games[0].totals, state.totals
    assert f"Game 1 of 2 is over: Ann {first[0]}, CPU 1 (casual) {first[1]}." in out
    assert f"Game 2 of 2 is over: Ann {second[0]}, CPU 1 (casual) {second[1]}." in out
    assert out.index("Game 1 of 2 is over") < out.index("Game 2 of 2 is over")
    totals = out[out.index("Match totals:") :]
    for seat, name in enumerate(("Ann", "CPU 1 (casual)")):
        assert f"{state.ranks[seat]}. {name}: {first[seat] + second[seat]}" in totals


def test_a_byte_order_mark_is_stripped(tmp_path):
    stream = io.TextIOWrapper(io.BytesIO("\ufeffroll\n".encode()), encoding="utf-8")
    out = io.StringIO()
    run_plain(
        RuleSet(),
        ["Ann"],
        [],
        seed=3,
        first="first_seat",
        games=1,
        stdin=stream,
        stdout=out,
        db=f"sqlite:///{tmp_path / 'plain.sqlite3'}",
    )
    assert "Roll 1 of 3: " in out.getvalue()  # the roll was taken
    assert "characters no command uses" not in out.getvalue()
    assert saved_log(tmp_path) == ["roll"]


def test_a_huge_line_is_never_echoed_back(tmp_path):
    lines = [
        "hold " + "a" * 900,  # under the reader's limit, far over any command
        "score " + "b" * 900,
        "c" * 50_000,  # over the reader's limit
        "roll",
    ]
    out = play("\n".join(lines) + "\n", tmp_path)
    for letter in "abc":
        assert letter * 120 not in out
    assert out.count("That line is too long") == 3
    assert saved_log(tmp_path) == ["roll"]  # and the game went on


def test_why_says_what_the_best_option_gains_box_by_box(tmp_path, classic_table):
    out = play("r\nhint\nwhy\n", tmp_path, seed=3)
    shown = out.split("The coach's best options (expected points still to come):\n")[1]
    # Under the hint, one line of reasons (the best against the next) and the chances.
    assert " rather than " in shown and "Chances this turn: " in shown
    after = out.split("rather than", 1)[1]
    assert after.count(" rather than ") >= 3  # `why`: the best against each of the next three
    assert " in " in after


def test_hint_and_why_name_the_column_and_say_estimated_with_several_columns(
    tmp_path, solved_table
):
    triple = RuleSet(column_multipliers=(1, 2, 3))
    solved_table(triple.replace(column_multipliers=(1,)))  # the one-column table, cached
    out = play("r\nhint\nwhy\n", tmp_path, seed=3, rules=triple)
    shown = out.split("The coach's best options (estimated points still to come):\n")[1]
    assert "no exact breakdown" not in out and "no breakdown" not in out
    # Under the hint, the reasons name columns and say they are estimated.
    assert " rather than " in shown and "(column " in shown and "(estimated)" in shown
    assert "Chances this turn: " in shown
    after = out.split("rather than", 1)[1]
    assert after.count(" rather than ") >= 3  # `why`: against each of the next three
