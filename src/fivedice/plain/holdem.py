"""Texas Hold'em Yahtzee in the plain, line-based mode: one action per input line.

As the plain score game (`fivedice.plain.game`): short lines that each say one new thing,
made for screen readers and pipes; bad lines get a message and change nothing; end of input
ends the program cleanly (the game is kept). Actions: ``check``, ``call``, ``bet 40``,
``raise 120``, ``allin``, ``fold``; and ``show`` (the table), ``coach``, ``rules``,
``fair`` (the dice commitment), ``help``, ``quit``.
"""

from __future__ import annotations

from typing import TextIO

from fivedice.core.errors import FivediceError
from fivedice.core.holdem import HoldemView
from fivedice.i18n import _
from fivedice.plain.game import LineReader, clean_line, write_lines
from fivedice.service.holdem import ActResult, HoldemService
from fivedice.wording.holdem import (
    action_text,
    coach_text,
    result_lines,
    rules_lines,
    table_lines,
)
from fivedice.wording.text import error_text

__all__ = ["PlainHoldem"]


class PlainHoldem:
    """One person's seat at a Hold'em game, played line by line."""

    def __init__(
        self, service: HoldemService, game_id: int, seat: int, reader: TextIO, out: TextIO
    ) -> None:
        self.service = service
        self.game_id = game_id
        self.seat = seat
        self.reader = LineReader(reader)
        self.out = out
        self.hand_shown = 0
        self.changed = True
        """Whether the table changed since the player was last told their options."""

    def say(self, *lines: str) -> None:
        write_lines(self.out, *lines)

    def names(self) -> list[str]:
        return [seat.name for seat in self.service.view(self.game_id, None).seats]

    def tell(self, moves: list[ActResult]) -> None:
        for move in moves:
            self.heading(move.hand_number)
            if move.seat != self.seat:  # (the player knows what they typed)
                self.say(_("{name} {does}.").format(name=move.name, does=action_text(move.action)))
            if move.ended_hand is not None:
                self.say(*result_lines(move.ended_hand, self.names(), self.seat))

    def heading(self, hand_number: int) -> None:
        if hand_number != self.hand_shown:
            self.hand_shown = hand_number
            self.say(_("Hand {number}.").format(number=hand_number))

    def prompt(self, view: HoldemView) -> None:
        me = view.seats[self.seat]
        pocket = " ".join(map(str, me.pocket or ()))
        board = " ".join(map(str, view.board)) or "-"
        self.say(
            _("Your dice: {pocket}. Board: {board}.").format(pocket=pocket, board=board),
            _("Pot {pot}. To call {call}. Your chips {stack}.").format(
                pot=view.pot, call=view.to_call, stack=me.stack
            ),
            _("You may: {actions}.").format(actions=", ".join(view.legal)),
        )

    def run(self) -> int:
        """Plays until the game is over, the player quits or the input ends (0)."""
        self.say(_("Texas Hold'em Yahtzee. Type help for the commands."))
        while True:
            self.tell(self.service.run_cpus(self.game_id))
            view = self.service.view(self.game_id, self.seat)
            if view.winner is not None:
                self.say(_("{name} wins the game.").format(name=view.seats[view.winner].name))
                return 0
            self.heading(view.hand_number)
            if self.changed:
                self.prompt(view)
                self.changed = False
            line = self.reader.read()
            if line is None:
                self.say(_("Input ended; the game is kept."))
                return 0
            text = clean_line(line) if line != LineReader.TOO_LONG else None
            if text is None:
                self.say(_("That line cannot be read; type help."))
                continue
            if not self.handle(text.casefold()):
                return 0

    def handle(self, text: str) -> bool:
        """One line; False when the player quits."""
        if text in ("q", "quit"):
            self.say(_("Bye; the game is kept."))
            return False
        if text in ("?", "help"):
            self.say(
                _("Actions: check, call, bet N, raise N (to N), allin, fold."),
                _("Also: show, coach, rules, fair, quit."),
            )
        elif text in ("v", "show"):
            self.say(*table_lines(self.service.view(self.game_id, self.seat)))
        elif text in ("h", "coach"):
            self.say(coach_text(self.service.coach(self.game_id, self.seat)))
        elif text in ("u", "rules"):
            self.say(*rules_lines())
        elif text == "fair":
            commitment = self.service.commitment(self.game_id)
            self.say(
                _("Dice commitment: {commitment}.").format(commitment=commitment)
                if commitment
                else _("A practice game: its dice come from a seed.")
            )
        elif text:
            try:
                move = self.service.act(self.game_id, self.seat, text)
            except FivediceError as error:
                self.say(error_text(error))
            else:
                self.tell([move])
                self.changed = True
        return True
