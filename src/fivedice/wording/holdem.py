"""Texas Hold'em Yahtzee in words: hands, streets, actions, the coach, results, the rules.

Every sentence goes through gettext; the front ends (plain, terminal app, web) share them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fivedice.core.errors import N_
from fivedice.core.holdem import HandKey, HandResult, HandValue, HoldemView, Street
from fivedice.i18n import _
from fivedice.wording.lists import list_text

if TYPE_CHECKING:
    from fivedice.strategy.holdem.players import Decision

HAND_NAMES = {
    HandKey.HIGH_CARD: N_("high card"),
    HandKey.ONE_PAIR: N_("one pair"),
    HandKey.TWO_PAIR: N_("two pair"),
    HandKey.THREE_OF_A_KIND: N_("three of a kind"),
    HandKey.FULL_HOUSE: N_("full house"),
    HandKey.STRAIGHT: N_("straight"),
    HandKey.FOUR_OF_A_KIND: N_("four of a kind"),
    HandKey.FLUSH: N_("flush"),
    HandKey.YAHTZEE: N_("Yahtzee"),
    HandKey.STRAIGHT_FLUSH: N_("straight flush"),
    HandKey.YAHTZEE_FLUSH: N_("Yahtzee Flush"),
}

STREET_NAMES = {
    Street.PREFLOP: N_("before the flop"),
    Street.FLOP: N_("the flop"),
    Street.TURN: N_("the turn"),
    Street.RIVER: N_("the river"),
}

REASONS = {
    "station": N_("it calls whatever is bet"),
    "value_bet": N_("the hand is ahead: a bet makes worse hands pay"),
    "value_raise": N_("the hand is well ahead: a raise makes worse hands pay more"),
    "slow_play": N_("a strong hand played quietly, so that the others keep betting"),
    "bluff": N_("a weak hand that bets now and then, so that folding against it loses"),
    "pot_odds_call": N_("the chance to win beats the price of the call"),
    "pot_odds_fold": N_("the chance to win is below the price of the call"),
    "free_check": N_("nothing to call: see the next die for free"),
    "hand_name": N_("it goes by the name of its hand"),
    "top_fifth": N_("the hand is in the top fifth: raise"),
}


def hand_name(key: HandKey) -> str:
    return _(HAND_NAMES[key])


def hand_text(value: HandValue) -> str:
    """A hand with its faces: "full house (5, 2)"."""
    return _("{hand} ({faces})").format(
        hand=hand_name(value.key), faces=", ".join(map(str, value.faces))
    )


def street_name(street: Street) -> str:
    return _(STREET_NAMES[street])


def action_text(action: str) -> str:
    """An action in words ("bet 40" -> "bets to 40")."""
    word, _space, amount = action.partition(" ")
    texts = {
        "check": _("checks"),
        "call": _("calls"),
        "fold": _("folds"),
        "allin": _("goes all-in"),
    }
    if word in texts:
        return texts[word]
    if word == "bet":
        return _("bets {amount}").format(amount=amount)
    return _("raises to {amount}").format(amount=amount)


def percent(chance: float) -> str:
    return f"{100 * chance:.1f}%"


def coach_text(decision: Decision) -> str:
    """The coach in one sentence: the equity now, the pot odds, the best action and why."""
    lines = []
    if decision.equity is not None:
        lines.append(
            _("Your share of the pot now: {share} (win {win}, tie {tie}).").format(
                share=percent(decision.equity.share),
                win=percent(decision.equity.win),
                tie=percent(decision.equity.tie),
            )
        )
    if decision.pot_odds:
        lines.append(
            _("Pot odds: a call costs {odds} of the pot.").format(odds=percent(decision.pot_odds))
        )
    lines.append(
        _("The strongest CPU would {action}: {reason}.").format(
            action=str(decision.action), reason=_(REASONS[decision.reason.value])
        )
    )
    return " ".join(lines)


def table_lines(view: HoldemView) -> list[str]:
    """The table in short lines: the hand, the board, the pot, then one line a seat."""
    lines = [
        _("Hand {number}, {street}.").format(
            number=view.hand_number, street=street_name(view.street)
        ),
        _("Board: {dice}.").format(dice=" ".join(map(str, view.board)) or "-"),
        _("Pot: {pot}.").format(pot=view.pot),
    ]
    for number, seat in enumerate(view.seats):
        marks = []
        if seat.is_button:
            marks.append(_("button"))
        if seat.is_out:
            marks.append(_("out"))
        elif seat.folded:
            marks.append(_("folded"))
        elif seat.all_in:
            marks.append(_("all-in"))
        if number == view.to_act:
            marks.append(_("to act"))
        pocket = f" [{' '.join(map(str, seat.pocket))}]" if seat.pocket else ""
        lines.append(
            _("{name}: {stack} chips, bet {bet}{pocket}{marks}.").format(
                name=seat.name,
                stack=seat.stack,
                bet=seat.street_bet,
                pocket=pocket,
                marks=f" ({list_text(marks)})" if marks else "",
            )
        )
    return lines


def result_lines(result: HandResult, names: Sequence[str], viewer: int | None = None) -> list[str]:
    """How a hand ended: the hands shown, and who took which pot (the viewer's as "You")."""
    lines = []
    if result.showdown:
        lines.append(_("Board: {dice}.").format(dice=" ".join(map(str, result.board))))
    for number, (pocket, value) in enumerate(zip(result.shown, result.hands, strict=True)):
        if pocket is not None and value is not None:
            shows = (
                _("You show {dice}: {hand}.")
                if number == viewer
                else _("{name} shows {dice}: {hand}.")
            )
            lines.append(
                shows.format(
                    name=names[number], dice=" ".join(map(str, pocket)), hand=hand_text(value)
                )
            )
    for number, chips in enumerate(result.won):
        if chips:
            takes = _("You take {chips}.") if number == viewer else _("{name} takes {chips}.")
            lines.append(takes.format(name=names[number], chips=chips))
    if result.yahtzee_flush is not None:
        lines.append(
            _("A Yahtzee Flush! {name} wins the whole game.").format(
                name=names[result.yahtzee_flush]
            )
        )
    return lines


RULES = (
    N_(
        "Texas Hold'em Yahtzee: 2 to 6 seats, each with the same stack (1,000 chips)."
        " A bag holds 20 dice, five each of red, black, white and yellow."
    ),
    N_(
        "A hand: every seat antes 10. Each draws two pocket dice blind from the bag and rolls"
        " them hidden. A betting round. The flop: three dice drawn and rolled on the board."
        " Betting. The turn: one die. Betting. The river: one die. Betting. The showdown."
    ),
    N_(
        "Betting: check, bet, call, raise, fold or go all-in. No-limit by default: the smallest"
        " bet is the ante (or the big blind), the smallest raise the last bet or raise."
        " Fixed-limit is an option. Side pots as in poker."
    ),
    N_(
        "Hands, the best five of your seven dice, low to high: high card, one pair, two pair,"
        " three of a kind, full house, straight (1-2-3-4-5 or 2-3-4-5-6), four of a kind,"
        " flush (five of one colour), Yahtzee (five of a face), straight flush,"
        " Yahtzee Flush (five of a face in one colour)."
    ),
    N_(
        "Ties: the faces that make the hand, highest first, then the other dice; colour never"
        " breaks a tie. An exact tie splits the pot; odd chips go to the first seat left of"
        " the button."
    ),
    N_(
        "A Yahtzee Flush shown at the showdown wins the whole game at once. Otherwise the"
        " button passes left after each hand, a seat without chips is out, and the last seat"
        " with chips wins."
    ),
    N_(
        "From the box: the bag of 20 dice in four colours, two pocket dice, the flop, turn and"
        " river, the ante of 10, the betting actions, the Yahtzee Flush and the last seat with"
        " chips. Ours, where the box is silent: one pair and high card, the order of ties,"
        " side pots, odd chips, blinds and fixed-limit as options, and the Yahtzee Flush tie"
        " (the best one wins; equal ones, the first left of the button)."
    ),
)


def rules_lines() -> list[str]:
    return [_(text) for text in RULES]
