"""Drills ("Practice") in words: the puzzle, the verdict on an answer, and the progress.

Shared by `fivedice drill`, the terminal app's Practice screen and the web's Practice page;
renders what the service returns (`fivedice.service.drills`) and computes nothing of its own.
Text is in the current language (the web calls these under `in_language`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fivedice.core.card import ScoreCard
from fivedice.core.categories import Category
from fivedice.i18n import _, formats, ngettext
from fivedice.wording.boxes import find_box
from fivedice.wording.coach import choice_text, coach_lines
from fivedice.wording.game import card_lines, dice_text
from fivedice.wording.reasons import why_lines
from fivedice.wording.rules import rules_title

if TYPE_CHECKING:
    from fivedice.service.drills import Drill, DrillProgress, DrillResult, Position

OPTIONS_SHOWN = 5
"""How many of the ranked options a verdict lists."""


def points_text(value: float) -> str:
    """Expected points with two decimals, in the language's number format."""
    return formats.number(value, 2)


def played_text(label: str, position: Position) -> str:
    """A choice as the review recorded it ("keep 6 6", "score sixes") in words."""
    verb, _space, rest = label.partition(" ")
    if verb == "score":
        box = find_box(rest, position.rules.boxes)
        return choice_text(None, box) if isinstance(box, Category) else label
    keep = () if rest == "nothing" else tuple(int(d) for d in rest.split() if d.isdigit())
    return choice_text(keep, None)


def drill_heading(drill: Drill) -> str:
    """Where the position comes from: a built-in position's title, or the game and turn
    where the player met it, with what they chose then and what it cost."""
    if drill.title:  # its title is the lesson: said with the verdict, not before
        return _("A classic position to practise")
    if drill.game_id is None or drill.played is None or drill.lost is None:
        return _("A position from your games")
    return _("From game {game}, turn {turn}: you chose {choice} and lost {loss} points.").format(
        game=drill.game_id,
        turn=drill.turn,
        choice=played_text(drill.played, drill.position),
        loss=points_text(drill.lost),
    )


def question_text(position: Position) -> str:
    """ "Keep some dice and roll, or score now? (2 rolls left)" or "Last roll: which box?"
    (with rolls left the answer may be either: the question gives neither away)."""
    if position.rolls_left == 0:
        return _("Last roll: which box?")
    rolls = ngettext("{count} roll left", "{count} rolls left", position.rolls_left).format(
        count=position.rolls_left
    )
    return _("Keep some dice and roll, or score now? ({rolls})").format(rolls=rolls)


def answer_help() -> str:
    """How to answer, in the notation of a game."""
    return _(
        "Answer as in a game: hold 1 3 (or 1 3) keeps those dice and rolls the others,"
        " roll keeps none, score and a box (score chance) fills it."
    )


def position_lines(drill: Drill) -> list[str]:
    """The puzzle as plain lines: where it comes from, the rules, the card (open boxes show
    what the dice would score there), the dice and the question."""
    position = drill.position
    state = position.state()
    previews = {(p.column, p.category): p.points for p in state.placements()}
    card = ScoreCard((position.column,))
    return [
        drill_heading(drill),
        _("Rules: {rules}").format(rules=rules_title(position.rules)),
        *card_lines(position.rules, card, previews),
        _("Dice: {dice}").format(dice=dice_text(position.dice)),
        question_text(position),
    ]


def verdict_text(result: DrillResult) -> str:
    """ "Right: keep 6 6 6 is the best move." or "The best is ...; yours loses 3.83 points." """
    answer = choice_text(result.answer.keep, result.answer.category)
    if result.right:
        return _("Right: {answer} is the best move.").format(answer=answer)
    return _("The best is {best}; {answer} loses {loss} points.").format(
        best=choice_text(result.best.keep, result.best.category),
        answer=answer,
        loss=points_text(result.loss),
    )


def schedule_text(result: DrillResult) -> str:
    """When the position comes again: never (mastered), or after some other positions."""
    if result.comes_back_after is None:
        return _("Mastered: right twice in a row. It will not come back.")
    count = result.comes_back_after
    if result.right:
        return ngettext(
            "Right once: it comes back after {count} other position, to be sure.",
            "Right once: it comes back after {count} other positions, to be sure.",
            count,
        ).format(count=count)
    return ngettext(
        "It comes back after {count} other position.",
        "It comes back after {count} other positions.",
        count,
    ).format(count=count)


def options_title() -> str:
    return _("The options, best first (expected points still to come):")


def result_lines(result: DrillResult) -> list[str]:
    """The verdict, why (the boxes and bonuses that make the difference, the best move's
    chances this turn), a built-in position's rule of thumb, the best options ranked with
    their expected points, and the schedule."""
    lesson = result.drill.title
    rules = result.drill.position.rules
    # Why: the best against the answer (right: against the next best), and its chances.
    reasons = why_lines(rules, result.options, None if result.right else result.answer)
    return [
        verdict_text(result),
        *reasons,
        *([_("Rule of thumb: {rule}").format(rule=_(lesson))] if lesson else []),
        options_title(),
        *coach_lines(result.options, limit=OPTIONS_SHOWN),
        schedule_text(result),
    ]


def progress_text(progress: DrillProgress) -> str:
    """ "2 of 14 positions mastered · 3 to practise again · 9 new" """
    return ngettext(
        "{mastered} of {total} position mastered · {waiting} to practise again · {new} new",
        "{mastered} of {total} positions mastered · {waiting} to practise again · {new} new",
        progress.total,
    ).format(
        mastered=progress.mastered,
        total=progress.total,
        waiting=progress.waiting,
        new=progress.new,
    )


def exact_note() -> str:
    """Which games give drills, and why not the others."""
    return _(
        "Positions come from the costliest decisions of your finished games with one column,"
        " where the coach is exact; games with several columns or six dice give none."
    )


def all_mastered_text() -> str:
    return _("Every position is mastered. Finish more games for new ones.")


def practice_title() -> str:
    return _("Practice")
