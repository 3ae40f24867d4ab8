"""Texas Hold'em Yahtzee in words: hands, streets, actions, the coach, results, the rules.

Every sentence goes through gettext; the front ends (plain, terminal app, web) share them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fivedice.core.errors import N_
from fivedice.core.holdem import Colour, HandKey, HandResult, HandValue, HoldemView, Street
from fivedice.core.holdem.game import pots_of
from fivedice.i18n import _
from fivedice.wording.lists import list_text

if TYPE_CHECKING:
    from fivedice.service.holdem import HoldemStats, HoldemSummary, ReviewLine
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


COLOUR_NAMES = {
    Colour.RED: N_("red"),
    Colour.BLACK: N_("black"),
    Colour.WHITE: N_("white"),
    Colour.YELLOW: N_("yellow"),
}


def colour_name(colour: Colour) -> str:
    return _(COLOUR_NAMES[colour])


def hand_name(key: HandKey) -> str:
    return _(HAND_NAMES[key])


def hand_text(value: HandValue) -> str:
    """A hand with its faces: "full house (5, 2)"."""
    return _("{hand} ({faces})").format(
        hand=hand_name(value.key), faces=", ".join(map(str, value.faces))
    )


def street_name(street: Street) -> str:
    return _(STREET_NAMES[street])


def action_text(action: str, *, own: bool = False) -> str:
    """An action in words ("bet 40" -> "bets 40"); `own`: the player's own, said to them
    as a sentence ("You bet 40.")."""
    word, _space, amount = action.partition(" ")
    if own:
        texts = {
            "check": _("You check."),
            "call": _("You call."),
            "fold": _("You fold."),
            "allin": _("You go all-in."),
            "bet": _("You bet {amount}."),
            "raise": _("You raise to {amount}."),
        }
    else:
        texts = {
            "check": _("checks"),
            "call": _("calls"),
            "fold": _("folds"),
            "allin": _("goes all-in"),
            "bet": _("bets {amount}"),
            "raise": _("raises to {amount}"),
        }
    return texts[word].format(amount=amount)


def seat_marks(view: HoldemView, number: int) -> list[str]:
    """What to say of a seat besides its chips: the button, out, folded, all-in, to act."""
    seat = view.seats[number]
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
    return marks


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
    lines.extend(advice_parts(decision.pot_odds, str(decision.action), decision.reason.value))
    return " ".join(lines)


def advice_parts(pot_odds: float, action: str, reason: str) -> list[str]:
    """The pot odds (when there is a bet to call) and what the strongest CPU would do, why."""
    parts = []
    if pot_odds:
        parts.append(_("Pot odds: a call costs {odds} of the pot.").format(odds=percent(pot_odds)))
    parts.append(
        _("The strongest CPU would {action}: {reason}.").format(
            action=action, reason=_(REASONS[reason])
        )
    )
    return parts


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
        marks = seat_marks(view, number)
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


def result_lines(
    result: HandResult, names: Sequence[str], viewer: int | None = None, *, by_pot: bool = False
) -> list[str]:
    """How a hand ended: the hands shown, and who took how much (the viewer's as "You");
    `by_pot`: who won which pot instead, with the winning hand (`award_lines`)."""
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
    if by_pot:
        lines.extend(award_lines(result, names))
    for number, chips in enumerate(result.won):
        if chips and not by_pot:
            takes = _("You take {chips}.") if number == viewer else _("{name} takes {chips}.")
            lines.append(takes.format(name=names[number], chips=chips))
    if result.yahtzee_flush is not None:
        lines.append(
            _("A Yahtzee Flush! {name} wins the whole game.").format(
                name=names[result.yahtzee_flush]
            )
        )
    return lines


def pot_name(number: int) -> str:
    """The main pot (0) or a side pot (1, 2, ...)."""
    return _("Main pot") if number == 0 else _("Side pot {number}").format(number=number)


def pots_text(view: HoldemView) -> str:
    """The pot of the hand in play, and its side pots when some seat is all-in:
    "Pot 600 (Main pot 300, Side pot 1 300)" (a bet no one can call yet is in no side pot)."""
    pots = pots_of([seat.committed for seat in view.seats], [seat.in_hand for seat in view.seats])
    pots = [(amount, seats) for amount, seats in pots if len(seats) > 1]
    text = _("Pot {pot}").format(pot=view.pot)
    if len(pots) > 1 and any(seat.all_in for seat in view.seats):
        parts = [f"{pot_name(number)} {amount}" for number, (amount, _seats) in enumerate(pots)]
        text += f" ({', '.join(parts)})"
    return text


def award_lines(result: HandResult, names: Sequence[str]) -> list[str]:
    """Who won which pot, with the winning hand named when there was a showdown:
    "Main pot, 300: Ann with full house (5, 2).", "Main pot, 40: Bob (the others folded)."."""
    lines = []
    for number, award in enumerate(result.awards):
        winners = list_text([names[seat] for seat in award.winners])
        value = result.hands[award.winners[0]] if award.winners else None
        if value is not None and len(award.eligible) > 1:
            line = _("{pot}, {amount}: {winners} with {hand}.").format(
                pot=pot_name(number), amount=award.amount, winners=winners, hand=hand_text(value)
            )
        elif result.showdown:
            line = _("{pot}, {amount}: back to {winners}, whom no one could call.").format(
                pot=pot_name(number), amount=award.amount, winners=winners
            )
        else:
            line = _("{pot}, {amount}: {winners} (the others folded).").format(
                pot=pot_name(number), amount=award.amount, winners=winners
            )
        lines.append(line)
    return lines


def review_line_text(line: ReviewLine) -> str:
    """One decision of a reviewed game in words: who did what, when, with which chance, and
    what the strongest CPU would have done."""
    equity = line.equity
    parts = [
        _("Hand {number}, {street}: {name} {does}.").format(
            number=line.hand_number,
            street=street_name(line.street),
            name=line.name,
            does=action_text(line.action),
        ),
        _("Share of the pot {share} (win {win}, tie {tie}).").format(
            share=percent(equity.share), win=percent(equity.win), tie=percent(equity.tie)
        ),
    ]
    parts.extend(advice_parts(line.pot_odds, line.best, line.reason.value))
    return " ".join(parts)


def summary_text(summary: HoldemSummary) -> str:
    """A kept game in one line: its id, status, hands played, seats' chips, the winner."""
    from fivedice.wording.labels import status_text

    players = list_text(
        _("{name} {chips}").format(name=name, chips=chips)
        for name, chips in zip(summary.names, summary.stacks, strict=True)
    )
    text = _("Game {game_id} ({status}), hand {hands}: {players}.").format(
        game_id=summary.game_id,
        status=status_text(summary.status),
        hands=summary.hands,
        players=players,
    )
    if summary.winner is not None:
        text += " " + _("{name} wins the game.").format(name=summary.winner)
    return text


def stats_text(stats: HoldemStats) -> str:
    """A person's Hold'em games in one line."""
    return _("{name}: played {played}, won {won}, hands {hands}.").format(
        name=stats.name, played=stats.played, won=stats.won, hands=stats.hands
    )


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
