"""The plain mode's lines, terse for a screen reader: each says one new thing once.

A turn is a heading ("Ann: turn 2 of 13."), then after each roll the dice in words with the
held ones marked ("Roll 2 of 3: 3, 5, held 6, held 6, 2.") and only the boxes that would
score; a hold or a release says just what is held now ("Held: 6 and 6."). The card, the dice
commitment and the rules are there on request (`show`, `fair`, `rules`), never repeated.
"""

from __future__ import annotations

from collections.abc import Sequence

from fivedice.core.game import GameState
from fivedice.core.rules import RuleSet
from fivedice.i18n import _, ngettext
from fivedice.wording.boxes import box_name
from fivedice.wording.lists import list_text
from fivedice.wording.moves import saved_rolls_turn_text
from fivedice.wording.wild import wild_die_words


def and_list(items: Sequence[str]) -> str:
    """Items as a list in words, the last joined by "and": "3, 5 and 6"."""
    if len(items) <= 1:
        return "".join(items)
    # Translators: the last two items of a list, e.g. "3, 5 and 6" ({first} is "3, 5").
    return _("{first} and {last}").format(first=list_text(items[:-1]), last=items[-1])


def dice_words(dice: tuple[int, ...], held: tuple[bool, ...] = (), wild: bool = False) -> str:
    """The dice in order, the held ones marked in words: "3, 5, held 6, held 6, 2" (a screen
    reader reads brackets as noise or not at all); with `wild`, the last die is the wild die:
    "…, wild die: star"."""
    marks = held or (False,) * len(dice)
    words = [str(face) for face in dice]
    if wild and words:
        words[-1] = wild_die_words(dice[-1])
    return list_text(
        _("held {face}").format(face=word) if is_held else word
        for word, is_held in zip(words, marks, strict=True)
    )


def held_line(state: GameState) -> str:
    """What is held now, faces only: "Held: 6 and 6." or "Nothing is held."."""
    dice = state.turn.dice or ()
    faces = [str(face) for face, held in zip(dice, state.turn.held, strict=False) if held]
    if not faces:
        return _("Nothing is held.")
    return _("Held: {dice}.").format(dice=and_list(faces))


def positions_words(positions: Sequence[int]) -> str:
    """Die positions in words: "2", "2 and 4"."""
    return and_list([str(position) for position in positions])


def ignored_positions_text(positions: Sequence[int], *, hold: bool) -> str:
    """Dice a hold or release left alone: "Die 2 was already held." / "Dice 2 and 4 were not
    held."."""
    if hold:
        message = ngettext(
            "Die {positions} was already held.",
            "Dice {positions} were already held.",
            len(positions),
        )
    else:
        message = ngettext(
            "Die {positions} was not held.", "Dice {positions} were not held.", len(positions)
        )
    return message.format(positions=positions_words(positions))


def nothing_held_text() -> str:
    """`release all` with nothing held."""
    return _("No die is held.")


def turn_heading(state: GameState) -> list[str]:
    """A new turn in one line: "Ann: turn 2 of 13." ("Turn 2 of 13." with one seat), and a
    second when saved rolls make it longer than usual."""
    turn, turns = state.turn_number, state.rules.turns
    if len(state.seats) > 1:
        heading = _("{name}: turn {turn} of {turns}.").format(
            name=state.seats[state.current_seat].name, turn=turn, turns=turns
        )
    else:
        heading = _("Turn {turn} of {turns}.").format(turn=turn, turns=turns)
    lines = [heading]
    saved = state.rolls_saved(state.current_seat)
    if saved and state.turn.rolls_used == 0:
        lines.append(saved_rolls_turn_text(saved, state.rules.rolls_per_turn + saved))
    return lines


def roll_line(state: GameState) -> str:
    """The dice after a roll: "Roll 2 of 3: 3, 5, held 6, held 6, 2."."""
    rules = state.rules
    return _("Roll {used} of {rolls}: {dice}.").format(
        used=state.turn.rolls_used,
        rolls=rules.rolls_per_turn + state.rolls_saved(state.current_seat),
        dice=dice_words(state.turn.dice or (), state.turn.held, rules.wild_die),
    )


def scoring_boxes_line(state: GameState) -> str:
    """Only the open boxes the dice would score in, with their points ("Boxes: Fives 15,
    Chance 19"); a box that would take 0 is left out, since every open box can."""
    multi = state.rules.columns > 1
    options = [
        f"{p.column + 1}:" * multi + f"{box_name(p.category)} {p.points}"
        for p in state.placements()
        if p.points > 0
    ]
    if not options:
        return _("No open box scores with these dice: any of them takes 0.")
    return _("Boxes: {options}").format(options=list_text(options))


def dice_summary(state: GameState) -> list[str]:
    """After a roll, or when a turn is shown again: the dice and the boxes they score (nothing
    before the first roll)."""
    if state.turn.dice is None:
        return []
    return [roll_line(state), scoring_boxes_line(state)]


def turn_summary(state: GameState) -> list[str]:
    """Where a turn stands, for its start or when it is shown again (a resumed game, an undo
    across turns): the heading, then the dice and what they score once rolled."""
    return [*turn_heading(state), *dice_summary(state)]


def notation_text(rules: RuleSet) -> str:
    """The actions in short: the column form (`score 2:chance`) only for a card that has
    several columns."""
    if rules.columns > 1:
        return _(
            "Actions: roll (r), hold 1 3 (or just 1 3), release 2 (rel 2), release all,"
            " score full_house (s full_house), score 2:chance for column 2."
        )
    return _(
        "Actions: roll (r), hold 1 3 (or just 1 3), release 2 (rel 2), release all,"
        " score full_house (s full_house)."
    )


def commands_text() -> str:
    """Everything else the plain mode understands, with the terminal app's keys."""
    return _(
        "Also: hint (or h: the coach's best options), undo (or z), show (or v: the card),"
        " rules (or u), fair (the dice commitment), help (or ?), quit (or q)."
    )


def why_command_text() -> str:
    """The `why` command, said with the others (`commands_text`)."""
    return _(
        "And: why (or y: why the coach's best option beats the next ones, box by box, and its"
        " chances this turn)."
    )


def fair_dice_line() -> str:
    """Said once at the start of a verifiable game instead of the 64-digit commitment."""
    return _("Fair dice: type fair for the commitment and how to check it.")


def verify_later_line(game_id: int) -> str:
    """Said at the end of a verifiable game: how to check its dice now that they are known."""
    return _(
        "The server seed is revealed: 'fivedice export {id}' and 'fivedice verify' check"
        " every roll."
    ).format(id=game_id)
