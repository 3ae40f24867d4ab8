"""What a score changes besides the card, said once in words: an extra turn earned by a
Yahtzee (the `extra_turn_on_yahtzee` rule) and rolls saved for later turns (the
`saved_rolls` rule, Maxi Yatzy). Nothing on the card shows either, so a front end that does
not say them leaves a player (and a screen reader) guessing why the same seat moves again or
why a turn has four rolls.
"""

from __future__ import annotations

from fivedice.core.game import GameState
from fivedice.core.scoring import is_yahtzee
from fivedice.i18n import _, ngettext


def earned_extra_turn(before: GameState, after: GameState) -> bool:
    """Whether the score that led from `before` to `after` earned its seat an extra turn: the
    rule is on, the dice were a Yahtzee, and the same seat moves again in the same game (a
    seat that moves again only because the others have finished earned nothing)."""
    dice = before.turn.dice
    return (
        before.rules.extra_turn_on_yahtzee
        and dice is not None
        and is_yahtzee(before.rules, dice)
        and after.game_number == before.game_number
        and not after.is_game_over
        and after.current_seat == before.current_seat
        and len(before.seats) > 1
    )


def rolls_saved_by_score(before: GameState, after: GameState) -> int:
    """How many rolls the seat that just scored saved for its later turns (0: none, the
    rules save none, or its card is full)."""
    seat = before.current_seat
    if (
        not before.rules.saved_rolls
        or after.game_number != before.game_number
        or after.cards[seat].is_complete
    ):
        return 0  # no later turn of this game to use them in
    return after.rolls_saved(seat)


def extra_turn_sentence(actor: str | None) -> str:
    """ "Ann plays again: an extra turn for the Yahtzee." (`actor` None: "You play again...")."""
    if actor is None:
        return _("You play again: an extra turn for the Yahtzee.")
    return _("{name} plays again: an extra turn for the Yahtzee.").format(name=actor)


def saved_rolls_sentence(actor: str | None, count: int) -> str:
    """ "Ann saves 2 rolls for later turns." (`actor` None: "You save ...")."""
    if actor is None:
        return ngettext(
            "You save {count} roll for later turns.",
            "You save {count} rolls for later turns.",
            count,
        ).format(count=count)
    return ngettext(
        "{name} saves {count} roll for later turns.",
        "{name} saves {count} rolls for later turns.",
        count,
    ).format(name=actor, count=count)


def score_announcements(actor: str | None, before: GameState, after: GameState) -> list[str]:
    """The sentences a score needs besides its points: saved rolls, then an extra turn."""
    lines = []
    saved = rolls_saved_by_score(before, after)
    if saved:
        lines.append(saved_rolls_sentence(actor, saved))
    if earned_extra_turn(before, after):
        lines.append(extra_turn_sentence(actor))
    return lines


def saved_rolls_turn_text(saved: int, rolls: int) -> str:
    """A turn that starts with saved rolls: "2 saved rolls: 5 rolls this turn."."""
    return ngettext(
        "{saved} saved roll: {rolls} rolls this turn.",
        "{saved} saved rolls: {rolls} rolls this turn.",
        saved,
    ).format(saved=saved, rolls=rolls)
