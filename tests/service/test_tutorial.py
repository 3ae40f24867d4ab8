"""The tutorial engine: every lesson played through by its expected actions, under every
preset, and by wrong ones (explained, never applied); numbers come from the rules in force."""

from __future__ import annotations

import pytest

from fivedice.core import PRESETS, Category, Hold, Roll, Score, find_ruleset, legal_actions
from fivedice.core.rules import Joker, RuleSet
from fivedice.service.tutorial import (
    LESSONS,
    StepKind,
    TutorialRun,
    attempt,
    find_lesson,
    instruction,
)
from fivedice.service.tutorial import start as start_lesson
from fivedice.service.tutorial.engine import _expected
from tests.support.tutorial import expected_action

TAUGHT = [lesson for lesson in LESSONS if not lesson.guided]


def play_through(run: TutorialRun, limit: int = 60) -> TutorialRun:
    for _ in range(limit):
        if run.finished:
            return run
        before = run
        run = attempt(run, expected_action(run))
        assert run.feedback is not None and run.feedback.applied, run.feedback
        assert run.state != before.state
    raise AssertionError("the lesson did not end")


@pytest.mark.parametrize("preset", [p.name for p in PRESETS])
@pytest.mark.parametrize("lesson", TAUGHT, ids=lambda lesson: lesson.key)
def test_every_lesson_can_be_played_through_under_every_preset(lesson, preset):
    run = start_lesson(lesson, find_ruleset(preset))
    assert instruction(run)
    done = play_through(run)
    assert done.finished
    assert done.step is None
    assert instruction(done) == ""
    # The expected actions are always legal in the core: the situation did come up.
    assert done.state.cards[0].boxes_filled > run.state.cards[0].boxes_filled


@pytest.mark.parametrize("lesson", TAUGHT, ids=lambda lesson: lesson.key)
def test_every_other_box_is_explained_and_not_applied(lesson):
    run = start_lesson(lesson, RuleSet())
    while not run.finished:
        step = run.step
        if step.kind is StepKind.SCORE:
            expected = {p.category for p in _expected(step, run.state.placements())}
            for placement in run.state.placements():
                box = placement.category
                if box in expected or box in step.also:
                    continue
                tried = attempt(run, Score(box))
                assert tried.feedback is not None
                assert not tried.feedback.applied
                assert tried.state == run.state and tried.step_index == run.step_index
                assert any("this step asks for" in line for line in tried.feedback.lines)
        run = attempt(run, expected_action(run))


def test_a_wrong_hold_is_explained_and_the_step_repeats():
    run = attempt(start_lesson(find_lesson("rolling"), RuleSet()), Roll())  # 6 6 2 6 3
    assert run.state.dice == (6, 6, 2, 6, 3)
    wrong = attempt(run, Hold((3,)))
    assert not wrong.feedback.applied
    assert wrong.state.turn.held == (False,) * 5
    assert "6 6 6" in wrong.feedback.lines[0] and "2" in wrong.feedback.lines[0]
    # Rolling before holding the three 6s: explained, nothing rolled.
    early = attempt(run, Roll())
    assert not early.feedback.applied and early.state == run.state
    assert "Hold 6 6 6" in early.feedback.lines[0]
    # Scoring while rolls are left: explained, nothing scored.
    scored = attempt(run, Score(Category.SIXES))
    assert not scored.feedback.applied and scored.state == run.state
    # The right holds, even all at once and with a die held already, then the roll.
    run = attempt(attempt(run, Hold((1,))), Hold((1, 2, 4)))
    assert run.state.turn.kept_values == (6, 6, 6)
    run = attempt(run, Roll())
    assert run.feedback.applied and run.state.dice == (6, 6, 6, 6, 4)


def test_an_illegal_action_gets_the_cores_reason():
    run = start_lesson(find_lesson("rolling"), RuleSet())
    tried = attempt(run, Score(Category.CHANCE))
    assert not tried.feedback.applied
    assert "roll before you score" in tried.feedback.lines[0]
    assert legal_actions(run.state) == [Roll()]


def test_a_box_the_lesson_also_accepts_is_taken_with_a_comment():
    run = start_lesson(find_lesson("rolling"), RuleSet())
    while run.step.kind is not StepKind.SCORE:
        run = attempt(run, expected_action(run))
    done = attempt(run, Score(Category.FOUR_OF_A_KIND))
    assert done.finished and done.feedback.applied
    assert any("Four of a kind is a fine box" in line for line in done.feedback.lines)


def yahtzee_second_roll(rules: RuleSet) -> TutorialRun:
    run = start_lesson(find_lesson("yahtzee"), rules)
    while run.step.kind is not StepKind.SCORE or run.state.rolls_left:
        run = attempt(run, expected_action(run))
    assert run.state.dice == (4, 4, 4, 4, 4) and run.step.kind is StepKind.SCORE
    return run


@pytest.mark.parametrize(
    ("joker", "words", "best"),
    [
        (Joker.FORCED, "forced joker", Category.LARGE_STRAIGHT),
        (Joker.FREE_CHOICE, "free-choice joker", Category.LARGE_STRAIGHT),
        (Joker.NONE, "no joker", Category.THREE_OF_A_KIND),
    ],
)
def test_the_yahtzee_lesson_follows_the_joker_rule_in_force(joker, words, best):
    rules = RuleSet(joker=joker, yahtzee_bonus_value=250, large_straight=45)
    run = yahtzee_second_roll(rules)
    said = instruction(run)
    assert words in said
    placement = next(p for p in run.state.placements() if p.category is best)
    # The box's own points, and the box with the bonus as the card shows them beside it.
    assert f"scores {placement.box_points}," in said
    assert placement.points == placement.box_points + 250
    assert f"makes {placement.points} beside it" in said
    done = attempt(run, Score(best))
    assert done.finished
    assert any("bonus of 250" in line for line in done.feedback.lines)
    assert done.state.cards[0].columns[0].extra_yahtzees == 1


def test_the_yahtzee_lesson_without_the_bonus_says_so():
    run = yahtzee_second_roll(RuleSet(yahtzee_bonus=False))
    done = attempt(run, Score(Category.LARGE_STRAIGHT))
    assert any("no extra-Yahtzee bonus" in line for line in done.feedback.lines)


def test_the_upper_lesson_takes_the_bonus_and_par_from_the_rules():
    run = start_lesson(find_lesson("upper"), RuleSet(upper_bonus_value=50))
    said = instruction(run)
    assert "+" not in said and "-4" in said and "add up to 41" in said
    assert "Upper total" in said and "Against par" in said
    assert "upper bonus of 50" in said
    run = attempt(run, Score(Category.SIXES))
    assert run.finished and run.state.totals == (41 + 24 + 50,)
    assert any("+2" in line for line in run.feedback.lines)
    plain = start_lesson(find_lesson("upper"), RuleSet(upper_bonus=False))
    assert "no upper bonus" in instruction(plain)


def test_lessons_play_one_column_with_three_rolls_whatever_the_rules():
    rules = find_ruleset("triple").replace(rolls_per_turn=5, upper_first=True)
    run = start_lesson(find_lesson("lower"), rules)
    assert run.rules.columns == 1 and run.rules.rolls_per_turn == 3
    assert not run.rules.upper_first
    assert play_through(run).finished
    guided = start_lesson(find_lesson("guided"), rules)
    assert guided.rules == rules  # the guided game plays the rules as they are


def test_the_zero_goes_where_the_advisor_puts_it():
    from fivedice.strategy.advisor import advise
    from fivedice.strategy.cache import load_or_solve

    run = start_lesson(find_lesson("zero"), RuleSet())
    state = run.state
    options = advise(load_or_solve(RuleSet()), state.cards[0].columns[0], state.dice, 0)
    assert options[0].category is run.step.boxes[0] is Category.ONES


def test_a_finished_lesson_refuses_more_actions():
    run = play_through(start_lesson(find_lesson("upper"), RuleSet()))
    again = attempt(run, Roll())
    assert not again.feedback.applied and again.state == run.state
