"""Moves in words: rolls, holds, scores and undos as sentences, for move logs, replays and
screen readers ("CPU 2 rolls 3 3 5 6 6", "You score 25 in Full house").
"""

from __future__ import annotations

from fivedice.core.actions import Action, EnterDice, Hold, Release, Roll, ScorePoints, parse_action
from fivedice.core.card import Placement
from fivedice.core.categories import Category
from fivedice.core.errors import FivediceError
from fivedice.core.game import GameState
from fivedice.core.record import UNDO
from fivedice.core.rules import RuleSet
from fivedice.core.scoring import is_yahtzee, position_codes
from fivedice.core.wild import die_token
from fivedice.i18n import _, ngettext
from fivedice.wording.boxes import box_name


def dice_values(dice: tuple[int, ...]) -> str:
    """Dice as words for a sentence: "3 3 5 6 6" (the wild die, coded apart, in braces:
    "3 3 5 6 {★}")."""
    return " ".join(map(die_token, dice))


def placement_words(
    points: int,
    category: Category,
    column: int | None = None,
    upper_bonus: int = 0,
    yahtzee_bonus: int = 0,
) -> str:
    """Points in a box: "25 in Full house", plus the column (0-based; None: a one-column
    card) and every bonus earned ("+100 extra-Yahtzee bonus")."""
    text = _("{points} in {box}").format(points=points, box=box_name(category))
    if column is not None:
        text += " " + _("(column {column})").format(column=column + 1)
    if upper_bonus:
        text += _(", ") + _("+{points} upper bonus").format(points=upper_bonus)
    if yahtzee_bonus:
        text += _(", ") + _("+{points} extra-Yahtzee bonus").format(points=yahtzee_bonus)
    return text


def placement_text(placement: Placement, rules: RuleSet) -> str:
    """Where the dice went and what it earned: "25 in Full house", plus the column when the
    card has several, plus every bonus it earned ("+100 extra-Yahtzee bonus")."""
    return placement_words(
        placement.box_points,
        placement.category,
        placement.column if rules.columns > 1 else None,
        placement.upper_bonus,
        placement.yahtzee_bonus,
    )


def roll_sentence(actor: str | None, dice: tuple[int, ...]) -> str:
    """A roll with its dice: "CPU 2 rolls 3 3 5 6 6" (`actor` None: "You roll ...")."""
    if actor is None:
        return _("You roll {dice}").format(dice=dice_values(dice))
    return _("{name} rolls {dice}").format(name=actor, dice=dice_values(dice))


def score_sentence(actor: str | None, placement: str) -> str:
    """A score with its points, `placement` from `placement_words`: "CPU 2 scores 25 in Full
    house" (`actor` None: "You score ...")."""
    if actor is None:
        return _("You score {placement}").format(placement=placement)
    return _("{name} scores {placement}").format(name=actor, placement=placement)


def hold_sentence(
    actor: str | None, positions: tuple[int, ...], dice: tuple[int, ...], *, hold: bool = True
) -> str:
    """Dice held or released by position, with their faces: "Ann holds dice 1 2 (6 6)"
    (`actor` None: "You hold dice 1 2 (6 6)")."""
    count = len(positions)
    if actor is None and hold:
        message = ngettext(
            "You hold die {positions} ({dice})", "You hold dice {positions} ({dice})", count
        )
    elif actor is None:
        message = ngettext(
            "You release die {positions} ({dice})", "You release dice {positions} ({dice})", count
        )
    elif hold:
        message = ngettext(
            "{name} holds die {positions} ({dice})",
            "{name} holds dice {positions} ({dice})",
            count,
        )
    else:
        message = ngettext(
            "{name} releases die {positions} ({dice})",
            "{name} releases dice {positions} ({dice})",
            count,
        )
    return message.format(name=actor, positions=dice_values(positions), dice=dice_values(dice))


def move_sentence(actor: str | None, action: Action, before: GameState, after: GameState) -> str:
    """An action that was just taken, as a sentence: "CPU 1 rolls 3 3 5 6 6", "CPU 1 holds
    dice 2 3 (3 3)", "You score 25 in Full house" (`actor` None: the player reading it)."""
    if isinstance(action, Roll):
        return roll_sentence(actor, position_codes(after.rules, after.turn.dice or ()))
    if isinstance(action, Hold | Release):
        # By position, as a person types it (`hold 2 3`), with the faces: "CPU 1 holds dice
        # 2 3 (5 5)", never faces alone that read as positions (the wild die in braces).
        faces = position_codes(before.rules, before.turn.dice or ())
        positions = tuple(p for p in action.positions if p <= len(faces))
        chosen = tuple(faces[p - 1] for p in positions)
        return hold_sentence(actor, positions, chosen, hold=isinstance(action, Hold))
    if isinstance(action, EnterDice):  # at the table: the dice rolled with real dice
        dice = dice_values(action.dice)
        if actor is None:
            return _("You enter {dice}").format(dice=dice)
        return _("{name} enters {dice}").format(name=actor, dice=dice)
    if isinstance(action, ScorePoints):  # at the table: points without dice
        where = _("{points} in {box}").format(points=action.points, box=box_name(action.category))
        if before.rules.columns > 1:
            where += " " + _("(column {column})").format(column=action.column + 1)
        if actor is None:
            return _("You score {placement}").format(placement=where)
        return _("{name} scores {placement}").format(name=actor, placement=where)
    placement = next(
        (
            p
            for p in before.placements()
            if p.category == action.category and p.column == action.column
        ),
        None,
    )
    if placement is None:  # not from `before` (cannot happen for an applied action)
        return str(action)
    return score_sentence(actor, placement_text(placement, before.rules))


def replay_sentence(actor: str, notation: str, before: GameState, after: GameState) -> str:
    """A saved action (its notation, as in a game record) as a sentence; an undo is said as
    such, and notation that is no action is shown as it is."""
    if notation.strip().lower() == UNDO:
        return undo_sentence(actor)
    try:
        action = parse_action(notation)
    except FivediceError:
        return notation
    return move_sentence(actor, action, before, after)


def undo_sentence(actor: str | None, undone: str | None = None) -> str:
    """An undo: "Ann takes back the last action", or, with the sentence of what it took
    back, "Ann took back: Ann holds die 2 (undo)" (`actor` None: "You take back ...")."""
    if actor is None:
        if undone is None:
            return _("You take back the last action")
        return _("You took back: {action} (undo)").format(action=undone)
    if undone is None:
        return _("{name} takes back the last action").format(name=actor)
    return _("{name} took back: {action} (undo)").format(name=actor, action=undone)


def entry_taken_back_text() -> str:
    """What a game at the table says once its last entry is taken back."""
    return _("The last entry is taken back (the log keeps both).")


def turn_events(before: GameState, after: GameState) -> tuple[bool, int]:
    """What a score did to the turns that its own sentence does not say: whether the seat
    plays an extra turn for a Yahtzee (`extra_turn_on_yahtzee`), and how many rolls it now
    has saved for later turns when that changed (`saved_rolls`; 0: nothing to say).

    `before` is the state the seat to move acted in, `after` the state it led to.
    """
    seat = before.current_seat
    if before.dice is None or before.is_match_over or after.game_number != before.game_number:
        return False, 0
    if after.cards[seat].boxes_filled <= before.cards[seat].boxes_filled:
        return False, 0  # not a score: a roll, a hold, or nothing at all
    if after.is_game_over:
        return False, 0
    rules = before.rules
    extra = (  # (alone at the table every turn is the same seat's: nothing extra to say)
        rules.extra_turn_on_yahtzee
        and is_yahtzee(rules, before.dice)
        and after.current_seat == seat
        and len(before.seats) > 1
    )
    saved = after.rolls_saved(seat)
    changed = rules.saved_rolls and saved != before.rolls_saved(seat)
    return extra, saved if changed else 0


def turn_news_sentences(actor: str | None, extra_turn: bool, saved: int) -> list[str]:
    """The announcements of `turn_events`, for every front end: "Yahtzee! Ann plays an
    extra turn.", "Ann has 2 rolls saved for later turns." (`actor` None: "You ...")."""
    news = []
    if extra_turn:
        if actor is None:
            news.append(_("Yahtzee! You play an extra turn."))
        else:
            news.append(_("Yahtzee! {name} plays an extra turn.").format(name=actor))
    if saved > 0:
        if actor is None:
            message = ngettext(
                "You have {count} roll saved for a later turn.",
                "You have {count} rolls saved for later turns.",
                saved,
            )
        else:
            message = ngettext(
                "{name} has {count} roll saved for a later turn.",
                "{name} has {count} rolls saved for later turns.",
                saved,
            )
        news.append(message.format(name=actor, count=saved))
    return news


def turn_news(actor: str | None, before: GameState, after: GameState) -> list[str]:
    """The announcements after an action (`turn_events` in words; empty for most actions):
    call it after a move's own sentence, in every front end."""
    return turn_news_sentences(actor, *turn_events(before, after))


def saved_rolls_turn_text(saved: int, rolls: int) -> str:
    """A turn that starts with saved rolls: "2 saved rolls: 5 rolls this turn."."""
    return ngettext(
        "{saved} saved roll: {rolls} rolls this turn.",
        "{saved} saved rolls: {rolls} rolls this turn.",
        saved,
    ).format(saved=saved, rolls=rolls)
