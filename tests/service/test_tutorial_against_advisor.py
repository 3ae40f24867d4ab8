"""Every scripted lesson step against the advisor: a lesson only teaches moves the coach
agrees with.

Each lesson is walked step by step under the rules of every preset (the lessons' versions of
them, `lesson_rules`); at each decision a step asks for (a keep before a roll, a box) the
advisor's options are worked out for the very position on screen. The step's move must be
the best, and every other move within `TOLERANCE` of the best must be accepted by the lesson
too, with a comment saying why the lesson prefers its own. Keeping all the dice is not a
move of its own (it is scoring the same dice one roll later), so it is left out.
"""

from __future__ import annotations

from collections import Counter

import pytest

from fivedice.core import PRESETS, Hold, Roll, Score, find_ruleset
from fivedice.service.tutorial import LESSONS, StepKind, TutorialRun, attempt, start
from fivedice.service.tutorial.engine import _expected, coach_line, lesson_rules
from fivedice.strategy.hints import Hint, hints_for, hold_positions
from tests.support.tutorial import expected_action

TOLERANCE = 0.01
"""Expected points within which two moves count as equally good."""

TAUGHT = [lesson for lesson in LESSONS if not lesson.guided]


def lesson_rule_sets() -> list[tuple[str, object]]:
    """One preset for each distinct set of rules the lessons play (yatzy and the triple
    card play the classic lessons)."""
    seen: dict[object, str] = {}
    for preset in PRESETS:
        rules = lesson_rules(find_ruleset(preset.name), TAUGHT[0])
        seen.setdefault(rules, preset.name)
    return [(name, rules) for rules, name in seen.items()]


RULE_SETS = lesson_rule_sets()


def moves(run: TutorialRun, table) -> list[Hint]:
    """The advisor's options now, without keeping all the dice (scoring them later)."""
    dice = run.state.dice
    assert dice is not None
    return [
        hint
        for hint in hints_for(run.state, table)
        if hint.keep is None or len(hint.keep) < len(dice)
    ]


def is_the_steps_move(run: TutorialRun, hint: Hint) -> bool:
    step = run.step
    if step.kind is StepKind.KEEP:
        return hint.keep == tuple(sorted(step.keep))
    expected = {p.category for p in _expected(step, run.state.placements())}
    return hint.category in expected


def lesson_takes(run: TutorialRun, hint: Hint) -> TutorialRun:
    """The run after the player makes the hinted move the way a player would."""
    if hint.category is not None:
        return attempt(run, Score(hint.category))
    state = run.state
    release = [p for p, held in enumerate(state.turn.held, start=1) if held]
    tried = run
    if release:
        from fivedice.core import Release

        tried = attempt(tried, Release(tuple(release)))
        if not tried.feedback.applied:
            return tried
    positions = sorted(hold_positions(state.dice, (False,) * len(state.dice), hint.keep))
    if positions:
        tried = attempt(tried, Hold(tuple(positions)))
        if not tried.feedback.applied:
            return tried
    return attempt(tried, Roll())


def decisions(lesson, rules):
    """Each run at the start of a step that decides something (dice showing)."""
    run = start(lesson, rules)
    last = -1
    while not run.finished:
        if (
            run.step_index != last
            and run.step.kind in (StepKind.KEEP, StepKind.SCORE)
            and run.state.dice is not None
        ):
            yield run
        last = run.step_index
        run = attempt(run, expected_action(run))
        assert run.feedback.applied, run.feedback


@pytest.mark.parametrize(("preset", "rules"), RULE_SETS, ids=[name for name, _ in RULE_SETS])
@pytest.mark.parametrize("lesson", TAUGHT, ids=lambda lesson: lesson.key)
def test_every_step_asks_for_the_advisors_best_move(lesson, preset, rules, solved_table):
    table = solved_table(lesson_rules(rules, lesson))
    checked = 0
    for run in decisions(lesson, find_ruleset(preset)):
        options = moves(run, table)
        best = options[0].value
        mine = [hint for hint in options if is_the_steps_move(run, hint)]
        where = f"{lesson.key} step {run.step_index + 1} with {run.state.dice}"
        assert mine, f"{where}: the step's move is not among the advisor's options"
        assert best - mine[0].value < TOLERANCE, (
            f"{where}: the lesson asks for {mine[0].notation} ({mine[0].value:.2f}), the"
            f" advisor prefers {options[0].notation} ({best:.2f})"
        )
        for other in options:
            if best - other.value >= TOLERANCE or is_the_steps_move(run, other):
                continue
            tried = lesson_takes(run, other)
            assert tried.feedback.applied, f"{where}: {other.notation} is as good, but refused"
            assert run.step.also_say, f"{where}: the lesson must say why it prefers its move"
        checked += 1
    assert checked, "the lesson decides nothing"


def test_every_refused_box_is_worse_than_the_steps_by_the_advisor(solved_table):
    # The converse, said plainly for the classic rules: a box the lesson refuses is one the
    # advisor ranks below the step's box by more than the tolerance.
    rules = find_ruleset("classic")
    for lesson in TAUGHT:
        table = solved_table(lesson_rules(rules, lesson))
        for run in decisions(lesson, rules):
            if run.step.kind is not StepKind.SCORE:
                continue
            options = {hint.category: hint for hint in moves(run, table) if hint.category}
            best = max(hint.value for hint in options.values())
            for placement in run.state.placements():
                tried = attempt(run, Score(placement.category))
                if not tried.feedback.applied:
                    assert best - options[placement.category].value >= TOLERANCE


@pytest.mark.parametrize(
    ("lesson_key", "dice", "rolls_left", "move"),
    [
        ("scoring", (2, 3, 4, 5, 5), 2, (2, 3, 4, 5)),
        ("lower", (2, 3, 4, 5, 2), 2, (2, 3, 4, 5)),
        ("lower", (2, 3, 4, 5, 3), 0, "small_straight"),
    ],
)
def test_the_straight_steps_teach_what_the_advisor_plays(
    lesson_key, dice, rolls_left, move, solved_table
):
    # The two steps that once contradicted the coach (2 3 4 6 1 and 6 3 5 4 6) are gone:
    # the straights now come up where the lesson's move is the advisor's first choice.
    rules = find_ruleset("classic")
    lesson = next(item for item in LESSONS if item.key == lesson_key)
    table = solved_table(lesson_rules(rules, lesson))
    run = next(
        run
        for run in decisions(lesson, rules)
        if run.state.dice == dice and run.state.rolls_left == rolls_left
    )
    best = moves(run, table)[0]
    if isinstance(move, tuple):
        assert best.keep == move
    else:
        assert best.category is not None and best.category.key == move


def test_the_guided_coach_names_the_positions_of_the_advisors_best_keep(solved_table):
    guided = next(lesson for lesson in LESSONS if lesson.guided)
    rules = find_ruleset("classic")
    table = solved_table(rules)
    run = start(guided, rules, seed=3)
    from fivedice.core import apply
    from fivedice.core.dice import ScriptedDice

    run = TutorialRun(run.lesson, apply(run.state, Roll(), ScriptedDice([5, 2, 5, 6, 1])))
    coach = lambda state: hints_for(state, table)  # noqa: E731
    best = coach(run.state)[0]
    assert best.hold is not None and Counter(best.keep) == Counter(
        run.state.dice[p - 1] for p in best.hold
    )
    line = coach_line(run, coach)
    assert " ".join(map(str, best.hold)) in line
    assert "keep" not in line  # positions only, never faces and positions in one line


def front_end_texts(move) -> dict[str, str]:
    """The step's move as each front end says it: terminal keys, plain commands, web taps."""
    from fivedice.plain.tutorial import move_command_text
    from fivedice.tui.screens.tutorial import move_keys_text
    from fivedice.web.routers.tutorial import move_taps_text

    return {
        "terminal": move_keys_text(move),
        "plain": move_command_text(move),
        "web": move_taps_text(move),
    }


@pytest.mark.parametrize("lesson", TAUGHT, ids=lambda lesson: lesson.key)
def test_every_front_end_names_the_steps_dice_by_their_positions(lesson):
    # Walked with the moves the front ends name: holding the positions they give holds
    # exactly the dice of the step's keep, and a box they name is the step's box.
    from fivedice.core import Release
    from fivedice.service.tutorial import next_move

    run = start(lesson, find_ruleset("classic"))
    for _ in range(60):
        if run.finished:
            break
        move = next_move(run)
        texts = front_end_texts(move)
        assert all(texts.values()), texts
        if move.kind == "hold":
            joined = " ".join(map(str, move.positions))
            assert f"Press {joined} to hold them" in texts["terminal"]
            assert f"Type hold {joined}, then roll." == texts["plain"]
            assert ", ".join(map(str, move.positions)) in texts["web"]
            action = Hold(move.positions)
        elif move.kind == "release":
            action = Release(move.positions)
        elif move.kind == "score":
            assert f"score {move.category.key}" in texts["plain"]
            preview = next(p for p in run.state.placements() if p.category is move.category)
            assert move.points == preview.points  # the number each card shows beside the box
            action = Score(move.category)
        else:
            assert texts["plain"] == "Type roll."
            action = Roll()
        after = attempt(run, action)
        assert after.feedback.applied, (lesson.key, run.step_index, move, after.feedback)
        if move.kind == "hold":
            assert Counter(after.state.turn.kept_values) == Counter(run.step.keep)
        run = after
    assert run.finished


def test_no_lesson_text_promises_what_a_card_does_not_show():
    # The terminal card shows "- (25)", the web card a button with 25, plain mode a
    # "Boxes:" line: the lessons speak of what each box shows, never of "brackets".
    from fivedice.service.tutorial import instruction

    for preset, _rules in RULE_SETS:
        for lesson in TAUGHT:
            run = start(lesson, find_ruleset(preset))
            while not run.finished:
                said = instruction(run)
                assert "bracket" not in said and "{" not in said, said
                if "add up to" in said:
                    assert "Upper total" in said  # names the row of the card that shows it
                run = attempt(run, expected_action(run))
