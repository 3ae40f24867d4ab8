"""The tutorial engine: plays a lesson step by step, pure and immutable like the core.

`start` sets a lesson up; `attempt(run, action)` returns the next run with `feedback`:
the expected action is applied and the lesson moves on; any other action is explained and
not applied (the step repeats), or, where the lesson says so, accepted with a comment.
Actions are checked with the core's `legal_actions` first, so an illegal action gets the
core's own reason. Dice come from each step's script, so a lesson always goes the same way;
the guided game rolls seeded dice (`guided_dice(seed, number)`).

Messages are rendered with the current language's `_` at the moment they are made (the web
calls these functions under `in_language`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fivedice.core.actions import Action, Hold, Release, Roll, Score
from fivedice.core.card import Column, Placement, ScoreCard
from fivedice.core.categories import Category
from fivedice.core.dice import RandomDice, ScriptedDice
from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import GameSettings, GameState, Seat, Turn, apply, legal_actions, new_game
from fivedice.core.rules import Family, FillOrder, RuleSet
from fivedice.i18n import _, formats
from fivedice.service.tutorial.lessons import Lesson, Step, StepKind, Text
from fivedice.strategy.hints import Hint, find_hint
from fivedice.wording.boxes import par_label, upper_total_label
from fivedice.wording.errors import refused_text
from fivedice.wording.text import box_name, choice_text, dice_values, error_text, move_sentence

GUIDED_CPU_LEVEL = "beginner"
LESSON_ROLLS = 3


Coach = Callable[[GameState], Sequence[Hint]]
"""The coach: every option for the seat to move, best first (empty: nothing to advise);
the service's hints (`GameService.tutorial_coach`)."""


CpuMove = Callable[[GameState], Action]
"""The guided game's CPU: its next single action in a position (the service's bot)."""


@dataclass(frozen=True)
class Feedback:
    """What the last attempt did: `applied` (the game moved on) and what to say about it."""

    applied: bool
    lines: tuple[str, ...]


@dataclass(frozen=True)
class TutorialRun:
    """A lesson being played: the position, the step reached, and the last feedback."""

    lesson: Lesson
    state: GameState
    step_index: int = 0
    seed: int = 0
    version: int = 0
    feedback: Feedback | None = None

    @property
    def finished(self) -> bool:
        if self.lesson.guided:
            return self.state.is_match_over
        return self.step_index >= len(self.lesson.steps)

    @property
    def step(self) -> Step | None:
        if self.finished:
            return None
        return self.lesson.steps[min(self.step_index, len(self.lesson.steps) - 1)]

    @property
    def rules(self) -> RuleSet:
        return self.state.rules


def lesson_rules(rules: RuleSet, lesson: Lesson) -> RuleSet:
    """The rules a lesson plays: the scoring of the rules in force (box values, bonuses,
    straights, the joker rule), on one column with three rolls and no upper-first rule, so
    that its scripted situation can come up. The guided game plays the rules as they are.

    The lessons teach the Yahtzee card: under another family of boxes (Yatzy, Maxi Yatzy)
    they play the classic rules, and always with the free fill order, no saved rolls and no
    extra turn (the scripts and the guided game's coach need those)."""
    if rules.family is not Family.YAHTZEE:
        rules = RuleSet()
    rules = rules.replace(fill_order=FillOrder.FREE, saved_rolls=False, extra_turn_on_yahtzee=False)
    if lesson.guided:
        return rules
    return rules.replace(column_multipliers=(1,), upper_first=False, rolls_per_turn=LESSON_ROLLS)


def start(
    lesson: Lesson, rules: RuleSet, *, seed: int = 0, player: str | None = None
) -> TutorialRun:
    """A lesson at its first step, under (a lesson's version of) the rules in force."""
    played = lesson_rules(rules, lesson)
    you = Seat(player or _("Player"))
    if lesson.guided:
        cpu = Seat(_("Beginner CPU"), GUIDED_CPU_LEVEL)
        state = new_game(GameSettings(seats=(you, cpu), rules=played))
        return TutorialRun(lesson, state, seed=seed)
    state = new_game(GameSettings(seats=(you,), rules=played))
    column = Column.empty()
    for category, dice in lesson.card:
        column = column.fill(played, category, dice)
    state = replace(state, cards=(ScoreCard((column,)),))
    if lesson.turn is not None:
        state = replace(state, turn=Turn(seat=0, dice=lesson.turn, rolls_used=LESSON_ROLLS))
    return TutorialRun(lesson, state, seed=seed)


def _text(text: Text, rules: RuleSet) -> str:
    return text(rules) if callable(text) else text


def _say(text: Text, params: dict[str, Any], rules: RuleSet) -> str:
    template = _text(text, rules)
    if not template:
        return ""
    translated = _(template)
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError):
        return template.format(**params)


def _expected(step: Step, placements: Sequence[Placement]) -> list[Placement]:
    """The placements a SCORE step accepts: its boxes, or every box scoring the most now."""
    if step.boxes:
        return [p for p in placements if p.category in step.boxes]
    if not placements:
        return []
    most = max(p.points for p in placements)
    return [p for p in placements if p.points == most]


def step_params(run: TutorialRun) -> dict[str, Any]:
    """The numbers a step's message may use, from the rules and the position."""
    rules, state = run.rules, run.state
    column = state.cards[0].columns[0]
    params: dict[str, Any] = {
        "rolls": rules.rolls_per_turn,
        "rolls_left": state.rolls_left,
        "full_house": rules.full_house,
        "small_straight": rules.small_straight,
        "large_straight": rules.large_straight,
        "yahtzee": rules.yahtzee,
        "yahtzee_bonus": rules.yahtzee_bonus_value,
        "upper_bonus": rules.upper_bonus_value,
        "threshold": rules.upper_bonus_threshold,
        "upper": column.upper_total,
        "par": f"{column.upper_par:+d}",
        "upper_label": upper_total_label(),
        "par_label": par_label(),
        "box": "",
        "points": 0,
        "shown": 0,
        "keep": "",
    }
    step = run.step
    if step is not None:
        params["keep"] = dice_values(step.keep)
        expected = _expected(step, state.placements()) if state.dice is not None else []
        if expected:
            params["box"] = box_name(expected[0].category)
            params["points"] = expected[0].box_points
            params["shown"] = expected[0].points  # (the number beside the box on the card)
    return params


def instruction(run: TutorialRun) -> str:
    """What the current step asks, in one or two sentences ("" once the lesson is done)."""
    step = run.step
    if step is None:
        return ""
    return _say(step.say, step_params(run), run.rules)


@dataclass(frozen=True)
class NextMove:
    """What the current step waits for, for each front end to say with its own keys or taps:
    `roll`; `hold` the dice at `positions` (then roll); `release` the dice at `positions`
    (held but not part of the step's keep); `score` in `category`, where the card shows
    `points` (its preview: the box and any bonus it earns)."""

    kind: str
    positions: tuple[int, ...] = ()
    category: Category | None = None
    points: int = 0


def next_move(run: TutorialRun) -> NextMove | None:
    """The move the current step waits for (None in the guided game and once it is done)."""
    step, state = run.step, run.state
    if step is None or step.kind is StepKind.PLAY:
        return None
    dice = state.dice
    if step.kind is StepKind.ROLL or dice is None:
        return NextMove("roll")
    if step.kind is StepKind.SCORE:
        expected = _expected(step, state.placements())
        if not expected:
            return None
        # The points every front end shows beside the box (bonuses included).
        return NextMove("score", category=expected[0].category, points=expected[0].points)
    held = state.turn.held
    wanted = Counter(step.keep)
    keep: set[int] = set()
    for index in sorted(range(len(dice)), key=lambda i: not held[i]):  # held ones first
        if wanted[dice[index]] > 0:
            wanted[dice[index]] -= 1
            keep.add(index + 1)
    release = tuple(p for p in range(1, len(dice) + 1) if held[p - 1] and p not in keep)
    if release:
        return NextMove("release", release)
    hold = tuple(sorted(p for p in keep if not held[p - 1]))
    return NextMove("hold", hold) if hold else NextMove("roll")


def _refusal(state: GameState, action: Action) -> str:
    """The core's reason an action is not legal now."""
    try:
        apply(state, action, ScriptedDice([1] * 5))
    except FivediceError as error:
        return error_text(error)
    return _("that is not possible now")


def _only_changes(state: GameState, action: Action) -> Action:
    """ "hold 1 2 3 4" with 1 2 4 held already means "hold 3": a learner need not know."""
    if not isinstance(action, (Hold, Release)) or state.turn.dice is None:
        return action
    holding = isinstance(action, Hold)
    changes = tuple(p for p in action.positions if state.turn.held[p - 1] != holding)
    if not changes or len(changes) == len(action.positions):
        return action
    return Hold(changes) if holding else Release(changes)


def _is_legal(state: GameState, action: Action) -> bool:
    legal = legal_actions(state)
    if isinstance(action, Hold):
        return all(Hold((p,)) in legal for p in action.positions)
    if isinstance(action, Release):
        return all(Release((p,)) in legal for p in action.positions)
    return action in legal


def _explain(run: TutorialRun, *lines: str) -> TutorialRun:
    return replace(run, feedback=Feedback(False, tuple(line for line in lines if line)))


def _advance(run: TutorialRun, state: GameState, *lines: str) -> TutorialRun:
    return replace(
        run,
        state=state,
        step_index=run.step_index + 1,
        version=run.version + 1,
        feedback=Feedback(True, tuple(line for line in lines if line)),
    )


def attempt(
    run: TutorialRun,
    action: Action,
    *,
    coach: Coach | None = None,
    cpu: CpuMove | None = None,
) -> TutorialRun:
    """The run after the player tries `action`: applied if the step expects it, explained
    (and not applied) if not. The guided game applies every legal action, the coach says
    how it compares, and the CPU then plays its turn (`cpu` is needed there)."""
    step = run.step
    if step is None:
        return _explain(run, _("This lesson is done."))
    state = run.state
    action = _only_changes(state, action)
    if not _is_legal(state, action):
        reason = refused_text(_refusal(state, action))
        return _explain(run, reason, instruction(run))
    if step.kind is StepKind.PLAY:
        return _play(run, action, coach, cpu)
    if step.kind is StepKind.ROLL:
        return _roll_step(run, step, action)
    if step.kind is StepKind.KEEP:
        return _keep_step(run, step, action)
    return _score_step(run, step, action)


def _scripted_roll(run: TutorialRun, step: Step) -> GameState:
    dice = step.dice(run.rules) if callable(step.dice) else step.dice
    return apply(run.state, Roll(), ScriptedDice(dice))


def _done_line(run: TutorialRun, after: GameState, step: Step) -> str:
    params = step_params(run)
    column = after.cards[0].columns[0]
    params.update(upper=column.upper_total, par=f"{column.upper_par:+d}")
    return _say(step.done, params, run.rules)


def _roll_step(run: TutorialRun, step: Step, action: Action) -> TutorialRun:
    if isinstance(action, Roll):
        after = _scripted_roll(run, step)
        return _advance(run, after, _done_line(run, after, step))
    return _explain(
        run, _("Not yet: this step starts with a roll, so there is nothing else to do first.")
    )


def _held_after(state: GameState, action: Hold | Release) -> Counter[int]:
    dice = state.turn.dice or ()
    held = list(state.turn.held)
    for position in action.positions:
        held[position - 1] = isinstance(action, Hold)
    return Counter(d for d, h in zip(dice, held, strict=True) if h)


def _keep_step(run: TutorialRun, step: Step, action: Action) -> TutorialRun:
    state = run.state
    target = Counter(step.keep)
    keep = dice_values(step.keep)
    if isinstance(action, Hold):
        held = _held_after(state, action)
        extra = held - target
        if extra:
            return _explain(
                run,
                _(
                    "This step keeps {keep}, so a {value} is not one to hold; it was not held."
                ).format(keep=keep, value=min(extra)),
            )
        after = apply(state, action)
        line = _("Now roll.") if held == target else ""
        return replace(run, state=after, feedback=Feedback(True, (line,) if line else ()))
    if isinstance(action, Release):
        after = apply(state, action)
        return replace(run, state=after, feedback=Feedback(True, ()))
    if isinstance(action, Roll):
        held = Counter(state.turn.kept_values)
        if held == target:
            after = _scripted_roll(run, step)
            return _advance(run, after, _done_line(run, after, step))
        missing = target - held
        if missing:
            return _explain(
                run,
                _("Hold {dice} too before you roll: this step keeps {keep}.").format(
                    dice=dice_values(tuple(sorted(missing.elements()))), keep=keep
                ),
            )
        return _explain(
            run,
            _("Release {dice} first: this step keeps {keep} and rolls the rest.").format(
                dice=dice_values(tuple(sorted((held - target).elements()))), keep=keep
            ),
        )
    assert isinstance(action, Score)
    return _explain(
        run,
        _(
            "You could score now, but you may still roll: this step keeps {keep} and rolls"
            " the other dice again."
        ).format(keep=keep),
    )


def _score_step(run: TutorialRun, step: Step, action: Action) -> TutorialRun:
    state = run.state
    placements = state.placements()
    expected = _expected(step, placements)
    params = step_params(run)
    if not isinstance(action, Score):
        return _explain(
            run,
            _(
                "You could roll again, but these dice already fit: this step scores them in {box}."
            ).format(box=params["box"]),
        )
    chosen = next(p for p in placements if (p.category, p.column) == (action.category, 0))
    if any(p.category == action.category for p in expected):
        after = apply(state, action)
        sentence = move_sentence(None, action, state, after)
        return _advance(run, after, sentence, _done_line(run, after, step))
    if action.category in step.also:
        after = apply(state, action)
        sentence = move_sentence(None, action, state, after)
        comment = _say(step.also_say, params, run.rules)
        return _advance(run, after, sentence, comment, _done_line(run, after, step))
    why = _say(step.why, params, run.rules)
    return _explain(
        run,
        _(
            "{chosen} would score {chosen_points} now, but this step asks for {box} ({points}):"
        ).format(
            chosen=box_name(chosen.category),
            chosen_points=chosen.box_points,
            box=params["box"],
            points=params["points"],
        )
        + (" " + why if why else ""),
        _("Try {box}.").format(box=params["box"]),
    )


# -- the guided game ------------------------------------------------------------------------


def guided_dice(seed: int, number: int) -> RandomDice:
    """The dice of action `number` of a guided game (same seed, same game)."""
    return RandomDice(random.Random(f"fivedice/tutorial/{seed}/{number}"))


HOLD_AND_ROLL = N_("hold dice {positions} and roll the others")
"""A keep of the coach by the positions of its dice: every tutorial front end shows the dice
with their positions and takes positions (keys 1-5, `hold 1 2`, die buttons numbered)."""


def advice_text(option: Hint, dice: Sequence[int] | None = None) -> str:
    """A coach option in words, one form only: a keep by the positions of the dice to hold
    ("hold dice 1 2 4 and roll the others"), a box by name ("score Full house"); rolling
    everything again is "roll all the dice again". Faces and positions are never mixed."""
    keeps_some = dice is not None and option.keep and len(option.keep) < len(dice)
    if option.category is None and option.hold and keeps_some:
        return _(HOLD_AND_ROLL).format(positions=" ".join(map(str, option.hold)))
    return choice_text(option.keep, option.category, option.column)


def coach_line(run: TutorialRun, coach: Coach | None) -> str:
    """The coach's suggestion for the human's decision now ("" when there is none)."""
    state = run.state
    if coach is None or run.finished or state.seats[state.current_seat].is_cpu:
        return ""
    if state.dice is None:
        return _("Coach: roll to start your turn.")
    options = coach(state)
    if not options:
        return ""
    return _("Coach: {choice}.").format(choice=advice_text(options[0], state.dice))


def _judge(options: Sequence[Hint], action: Action, state: GameState) -> str:
    """What the coach says of a decision: the keep before a roll, or the box chosen."""
    if not options:
        return ""
    if isinstance(action, Score):
        chosen = find_hint(options, category=action.category, column=action.column)
    else:
        chosen = find_hint(options, keep=state.turn.kept_values)
    if chosen is None:
        return ""
    if chosen.loss < 0.05:
        return _("The coach agrees: that was the best choice.")
    return _("The coach would {choice} (about {loss} points more in expectation).").format(
        choice=advice_text(options[0], state.dice), loss=formats.number(chosen.loss, 1)
    )


def _play(
    run: TutorialRun, action: Action, coach: Coach | None, cpu: CpuMove | None
) -> TutorialRun:
    state = run.state
    decides = isinstance(action, Score) or (isinstance(action, Roll) and state.dice is not None)
    options = coach(state) if coach is not None and decides else ()
    version = run.version + 1
    after = apply(state, action, guided_dice(run.seed, version))
    lines = []
    if isinstance(action, Score):
        lines.append(move_sentence(None, action, state, after))
    comment = _judge(options, action, state) if decides else ""
    if comment:
        lines.append(comment)
    while not after.is_match_over and after.seats[after.current_seat].is_cpu:
        if cpu is None:
            raise ValueError("the guided game needs a CPU player")
        before = after
        step = cpu(before)
        version += 1
        after = apply(before, step, guided_dice(run.seed, version))
        if isinstance(step, Score):  # the CPU's rolls and holds would crowd the lesson out
            lines.append(move_sentence(before.seats[before.current_seat].name, step, before, after))
    if after.is_match_over:
        you, them = after.totals
        lines.append(_("The game is over: you {you}, the CPU {cpu}.").format(you=you, cpu=them))
    return replace(run, state=after, version=version, feedback=Feedback(True, tuple(lines)))
