"""The lessons as data: for each, a starting card, scripted dice and the steps it teaches.

A step says what to do (an English gettext message with `{placeholders}` the engine fills
from the rules in force and the position, see `engine.step_params`) and what the step
expects: a roll, dice to hold before a roll, or a box to score. Dice are scripted per roll,
so the situation each lesson teaches always comes up. Messages that depend on the rules
(the joker rule, the bonuses, how three of a kind scores) are chosen by small functions of
the `RuleSet`; numbers always come from the rules and the position, never from the text
(`{points}` is what the box itself scores, `{shown}` what the card shows beside it: the box
and any bonus it earns).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from fivedice.core.categories import Category
from fivedice.core.errors import N_
from fivedice.core.rules import Joker, OfAKindScoring, RuleSet, Straights

Text = str | Callable[[RuleSet], str]
"""A message, or a function choosing the message for the rules in force."""

Dice = tuple[int, ...] | Callable[[RuleSet], tuple[int, ...]]
"""The values a roll brings (for the dice not held, left to right), or a function of the rules."""


class StepKind(Enum):
    """What a step waits for."""

    ROLL = "roll"  # a roll (nothing to hold first)
    KEEP = "keep"  # hold exactly `keep`, then roll
    SCORE = "score"  # score one of `boxes` (empty: any box that scores the most now)
    PLAY = "play"  # the guided game: any legal action, the coach comments


@dataclass(frozen=True)
class Step:
    """One thing to do, with what the step accepts and what it says."""

    kind: StepKind
    say: Text
    dice: Dice = ()
    keep: tuple[int, ...] = ()
    boxes: tuple[Category, ...] = ()
    also: tuple[Category, ...] = ()  # SCORE: accepted too, with `also_say` as a comment
    also_say: Text = ""
    why: Text = ""  # SCORE: why the step's box beats another one (said for a different box)
    done: Text = ""  # said once the step is done


@dataclass(frozen=True)
class Lesson:
    """A lesson: its key (for progress and the command line), title, summary and steps.

    `card` fills boxes before the lesson starts, each by placing dice through the core (so
    every preset score is one these rules allow); `turn` starts the lesson at a decision with
    those dice showing and no rolls left.
    """

    key: str
    title: str
    summary: str
    steps: tuple[Step, ...]
    card: tuple[tuple[Category, tuple[int, ...]], ...] = ()
    turn: tuple[int, ...] | None = None

    @property
    def guided(self) -> bool:
        """The guided game: a real game against a beginner CPU with the coach on."""
        return any(step.kind is StepKind.PLAY for step in self.steps)


def _upper_say(rules: RuleSet) -> str:
    if not rules.upper_bonus:
        return N_(
            "The upper boxes count only their own face: yours add up to {upper} ({upper_label}"
            " on the card). Your third and last roll brought four 6s: Sixes gives {points}. These"
            " rules have no upper bonus, but Sixes is still the box for them: score Sixes."
        )
    return N_(
        "The upper boxes count only their own face: yours add up to {upper} ({upper_label}"
        " on the card), and {par_label} reads {par}, how far you are from three of each face."
        " Your third and last roll brought four 6s: Sixes gives {points} and lifts your upper"
        " total to {threshold} or more, which earns the upper bonus of {upper_bonus}: the card"
        " shows the two together, {shown}, beside Sixes. Score Sixes."
    )


def _three_of_a_kind_say(rules: RuleSet) -> str:
    if rules.of_a_kind_scores is OfAKindScoring.MATCHING_DICE:
        return N_(
            "Three of a kind scores only the three matching dice under these rules: {points}"
            " here. Score Three of a kind."
        )
    return N_(
        "Three of a kind scores all five dice under these rules: {points} here."
        " Score Three of a kind."
    )


def _straight_draw_say(rules: RuleSet) -> str:
    # Fixed straights: the small one is exactly 1-2-3-4-5; runs: any four in a row.
    if rules.straights is Straights.FIXED:
        return N_(
            "2, 3, 4 and 5: under these rules a small straight is exactly 1 to 5 and a large"
            " one 2 to 6, so a 1 or a 6 would make one. Hold 2, 3, 4 and 5 and roll the other"
            " 2 again."
        )
    return N_(
        "2, 3, 4 and 5 in a row are a small straight already, and a 1 or a 6 would make a"
        " large one. Hold 2, 3, 4 and 5 and roll the other 2 again."
    )


def _small_straight_last(rules: RuleSet) -> tuple[int, ...]:
    # Fixed straights: a 1 completes 1-2-3-4-5 (the small one); runs: a 3 leaves four in a row.
    if rules.straights is Straights.FIXED:
        return (1,)
    return (3,)


def _joker_say(rules: RuleSet) -> str:
    if rules.yahtzee_bonus:  # the card shows the box and the bonus together
        return _joker_with_bonus_say(rules)
    if rules.joker is Joker.FORCED:
        return N_(
            "A second Yahtzee, and Fours is already filled, so the forced joker rule lets the"
            " dice count in any lower box at full value. Score {box} for {points}."
        )
    if rules.joker is Joker.FREE_CHOICE:
        return N_(
            "A second Yahtzee: the free-choice joker rule lets the dice go in any open box,"
            " at full value in a lower box. Score {box} for {points}."
        )
    return N_(
        "A second Yahtzee: these rules have no joker, so the dice score only as they are."
        " Score {box} for {points}."
    )


def _joker_with_bonus_say(rules: RuleSet) -> str:
    if rules.joker is Joker.FORCED:
        return N_(
            "A second Yahtzee, and Fours is already filled, so the forced joker rule lets the"
            " dice count in any lower box at full value: {box} scores {points}, and the"
            " extra-Yahtzee bonus of {yahtzee_bonus} makes {shown} beside it on the card."
            " Score {box}."
        )
    if rules.joker is Joker.FREE_CHOICE:
        return N_(
            "A second Yahtzee: the free-choice joker rule lets the dice go in any open box,"
            " at full value in a lower box: {box} scores {points}, and the extra-Yahtzee bonus"
            " of {yahtzee_bonus} makes {shown} beside it on the card. Score {box}."
        )
    return N_(
        "A second Yahtzee: these rules have no joker, so the dice score only as they are:"
        " {box} scores {points}, and the extra-Yahtzee bonus of {yahtzee_bonus} makes {shown}"
        " beside it on the card. Score {box}."
    )


def _bonus_done(rules: RuleSet) -> str:
    if rules.yahtzee_bonus:
        return N_(
            "The second Yahtzee also earned the extra-Yahtzee bonus of {yahtzee_bonus}: the"
            " card shows it on its own line."
        )
    return N_("These rules pay no extra-Yahtzee bonus, so only the box counts.")


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        key="rolling",
        title=N_("Rolling and holding"),
        summary=N_("Roll up to three times; the dice you hold stay as they are."),
        steps=(
            Step(
                StepKind.ROLL,
                N_("Every turn starts with a roll of all five dice. Roll them."),
                dice=(6, 6, 2, 6, 3),
            ),
            Step(
                StepKind.KEEP,
                N_("Three 6s! Hold the three 6s and roll the other two dice again."),
                keep=(6, 6, 6),
                dice=(6, 4),
            ),
            Step(
                StepKind.KEEP,
                N_("A fourth 6. Hold it too, and use your last roll on the one die left."),
                keep=(6, 6, 6, 6),
                dice=(5,),
            ),
            Step(
                StepKind.SCORE,
                N_(
                    "No rolls are left, so the dice must go in a box. Score them in Sixes:"
                    " four 6s make {points}."
                ),
                boxes=(Category.SIXES,),
                also=(Category.FOUR_OF_A_KIND,),
                also_say=N_(
                    "Four of a kind is a fine box for them too; Sixes would have brought you"
                    " closer to the upper bonus."
                ),
                why=N_("four 6s in Sixes are a strong start on the upper section."),
                done=N_("That is a whole turn: roll, hold, roll again, and score."),
            ),
        ),
    ),
    Lesson(
        key="scoring",
        title=N_("Scoring and the previews"),
        summary=N_("The card shows what the dice would score in every open box."),
        turn=(3, 3, 5, 3, 5),
        steps=(
            Step(
                StepKind.SCORE,
                N_(
                    "Your third and last roll brought three 3s and two 5s: a full house. Every"
                    " open box shows what these dice would score there: Full house shows"
                    " {points}. Score Full house."
                ),
                boxes=(Category.FULL_HOUSE,),
                why=N_("a full house scores the same {points} whatever its dice."),
            ),
            Step(StepKind.ROLL, N_("A new turn. Roll."), dice=(2, 3, 4, 5, 5)),
            Step(
                StepKind.KEEP,
                N_(
                    "2, 3, 4 and 5 are in a row: a 6 would make a large straight. Hold 2, 3, 4"
                    " and 5 and roll the other 5 again."
                ),
                keep=(2, 3, 4, 5),
                dice=(6,),
            ),
            Step(
                StepKind.SCORE,
                N_(
                    "A large straight: Large straight shows {points}. Score it now; rolling on"
                    " could only spoil it."
                ),
                boxes=(Category.LARGE_STRAIGHT,),
                why=N_("five in a row is worth {points} in Large straight, the most here."),
                done=N_("Always look at what each box would score before you choose one."),
            ),
        ),
    ),
    Lesson(
        key="upper",
        title=N_("The upper section, its bonus and par"),
        summary=N_("Ones to Sixes, the upper bonus, and the par (+/−) count."),
        card=(
            (Category.ONES, (1, 1, 1, 4, 5)),
            (Category.TWOS, (2, 2, 2, 5, 6)),
            (Category.THREES, (3, 3, 3, 1, 6)),
            (Category.FOURS, (4, 4, 2, 5, 6)),
            (Category.FIVES, (5, 5, 5, 1, 2)),
        ),
        turn=(6, 6, 2, 6, 6),
        steps=(
            Step(
                StepKind.SCORE,
                _upper_say,
                boxes=(Category.SIXES,),
                why=N_("Sixes is the only box left for the upper bonus, and four 6s fill it well."),
                done=N_("{par_label} now reads {par}: above par means ahead of the bonus pace."),
            ),
        ),
    ),
    Lesson(
        key="lower",
        title=N_("The lower section"),
        summary=N_("Three and four of a kind, full house, straights and chance."),
        steps=(
            Step(
                StepKind.ROLL,
                N_("The lower boxes score combinations of dice. Roll."),
                dice=(5, 5, 2, 5, 1),
            ),
            Step(
                StepKind.KEEP,
                N_("Three 5s. Hold them and roll the other two dice."),
                keep=(5, 5, 5),
                dice=(6, 3),
            ),
            Step(
                StepKind.KEEP,
                N_(
                    "Still three 5s. Keep holding the three 5s and roll the other two once"
                    " more: a fourth 5 would be worth more."
                ),
                keep=(5, 5, 5),
                dice=(6, 4),
            ),
            Step(
                StepKind.SCORE,
                _three_of_a_kind_say,
                boxes=(Category.THREE_OF_A_KIND,),
                why=N_("Three of a kind is made for three matching dice."),
            ),
            Step(StepKind.ROLL, N_("A new turn. Roll."), dice=(2, 3, 4, 5, 2)),
            Step(
                StepKind.KEEP,
                _straight_draw_say,
                keep=(2, 3, 4, 5),
                dice=(2,),
            ),
            Step(
                StepKind.KEEP,
                N_("No luck yet. Hold 2, 3, 4 and 5 again for your last roll."),
                keep=(2, 3, 4, 5),
                dice=_small_straight_last,
            ),
            Step(
                StepKind.SCORE,
                N_(
                    "No rolls are left, and these dice make a small straight: {points} points."
                    " Score it."
                ),
                boxes=(Category.SMALL_STRAIGHT,),
                why=N_("a small straight scores {points} whatever its dice."),
                done=N_(
                    "Chance takes any dice and scores their sum: keep it for a turn that goes"
                    " wrong."
                ),
            ),
        ),
    ),
    Lesson(
        key="yahtzee",
        title=N_("Yahtzee, its bonus and the joker"),
        summary=N_("Five of a kind, the extra-Yahtzee bonus and the joker rule in force."),
        card=((Category.FOURS, (4, 4, 4, 1, 2)),),
        steps=(
            Step(StepKind.ROLL, N_("Five of a kind is a Yahtzee. Roll."), dice=(4, 4, 4, 4, 4)),
            Step(
                StepKind.SCORE,
                N_("Five 4s on the first roll: a Yahtzee, worth {yahtzee}. Score Yahtzee."),
                boxes=(Category.YAHTZEE,),
                why=N_("the Yahtzee box pays {yahtzee} and opens the extra-Yahtzee bonus."),
            ),
            Step(
                StepKind.ROLL,
                N_("Next turn. Roll: in this lesson, lightning strikes twice."),
                dice=(4, 4, 4, 4, 2),
            ),
            Step(
                StepKind.KEEP,
                N_("Four 4s. Hold them and roll the last die."),
                keep=(4, 4, 4, 4),
                dice=(3,),
            ),
            Step(
                StepKind.KEEP,
                N_("Still four 4s. Hold them once more for your last roll."),
                keep=(4, 4, 4, 4),
                dice=(4,),
            ),
            Step(
                StepKind.SCORE,
                _joker_say,
                why=N_("{box} scores the most for these dice: {points}."),
                done=_bonus_done,
            ),
        ),
    ),
    Lesson(
        key="zero",
        title=N_("Where to put a zero"),
        summary=N_("When nothing fits, give up the box that is worth least."),
        card=(
            (Category.TWOS, (2, 2, 2, 1, 3)),
            (Category.THREES, (3, 3, 3, 3, 1)),
            (Category.FOURS, (4, 4, 4, 4, 1)),
            (Category.FIVES, (5, 5, 5, 5, 1)),
            (Category.SIXES, (6, 6, 6, 6, 1)),
            (Category.THREE_OF_A_KIND, (4, 4, 4, 5, 6)),
            (Category.FOUR_OF_A_KIND, (3, 3, 3, 3, 6)),
            (Category.FULL_HOUSE, (2, 2, 5, 5, 5)),
            (Category.SMALL_STRAIGHT, (1, 2, 3, 4, 6)),
            (Category.YAHTZEE, (1, 2, 3, 4, 6)),
            (Category.CHANCE, (3, 4, 5, 5, 6)),
        ),
        turn=(6, 6, 5, 5, 2),
        steps=(
            Step(
                StepKind.SCORE,
                N_(
                    "No rolls left, and these dice score nothing in your two open boxes: one"
                    " of them takes a 0. Put it in Ones, which can never bring more than 5."
                ),
                boxes=(Category.ONES,),
                why=N_(
                    "a 0 in Large straight gives up a box you have a fair chance to fill on"
                    " your last turn; Ones is worth 5 at most."
                ),
            ),
            Step(
                StepKind.ROLL,
                N_("Your last turn, with Large straight still open. Roll."),
                dice=(3, 5, 2, 6, 4),
            ),
            Step(
                StepKind.SCORE,
                N_("A large straight at the first roll: {points} points. Score it."),
                boxes=(Category.LARGE_STRAIGHT,),
                why=N_("it is the box you kept open for this."),
                done=N_("A 0 is part of the game: put it where it costs the least."),
            ),
        ),
    ),
    Lesson(
        key="guided",
        title=N_("A game against a beginner CPU"),
        summary=N_("A whole game with the coach on; it is not saved as a game."),
        steps=(
            Step(
                StepKind.PLAY,
                N_(
                    "Play a whole game against the beginner CPU. The coach says what it would"
                    " do, and tells you after each choice how it compares."
                ),
            ),
        ),
    ),
)


def find_lesson(key: str) -> Lesson | None:
    """The lesson with this key, or None."""
    wanted = key.strip().casefold()
    return next((lesson for lesson in LESSONS if lesson.key == wanted), None)
