"""A game as plain text, for the plain mode and screen readers: the dice, the score card with
its previews, whose turn and what each box would earn, how the first player was chosen,
and the standings.
"""

from __future__ import annotations

from fivedice.core.card import Column, Placement, ScoreCard
from fivedice.core.categories import Category
from fivedice.core.game import GameState
from fivedice.core.rules import Family, RuleSet
from fivedice.i18n import _, ngettext
from fivedice.wording.boxes import (
    box_name,
    par_label,
    total_label,
    upper_bonus_label,
    upper_total_label,
    yahtzee_bonus_label,
)
from fivedice.wording.cells import pad_cells, text_width
from fivedice.wording.labels import first_player_name
from fivedice.wording.lists import list_text
from fivedice.wording.moves import dice_values
from fivedice.wording.wild import wild_face_text


def dice_text(dice: tuple[int, ...] | None, held: tuple[bool, ...] = (), wild: bool = False) -> str:
    """'3 3 [5] 6 2' — held dice in brackets; with `wild`, the last die is the wild die, in
    braces: '3 3 [5] 6 {★}'."""
    if dice is None:
        return _("not rolled yet")
    marks = held or (False,) * len(dice)
    shown = [str(d) for d in dice]
    if wild and shown:
        shown[-1] = wild_face_text(dice[-1])
    return " ".join(f"[{d}]" if h else d for d, h in zip(shown, marks, strict=True))


CELL = 8
"""Width of a card cell in `card_lines` (an open box with its preview: "- (125)")."""


def card_lines(
    rules: RuleSet, card: ScoreCard, previews: dict[tuple[int, Category], int]
) -> list[str]:
    """A score card as aligned lines; open boxes show what the current dice would earn there."""
    labels = [upper_total_label(), par_label(), upper_bonus_label(), yahtzee_bonus_label()]
    columns = card.columns
    boxes = columns[0].boxes
    width = max(text_width(name) for name in [*map(box_name, boxes), *labels])
    lines = []
    last_upper = [box for box in boxes if box.is_upper][-1]

    def cell(column: Column, index: int, category: Category) -> str:
        # An open box is "-", with what the dice would score there in brackets: "- (25)".
        score = column.score(category)
        if score is not None:
            return f"{score:>{CELL}}"
        preview = previews.get((index, category))
        return f"{'- (' + str(preview) + ')' if preview is not None else '-':>{CELL}}"

    column_word = _("col")
    header = " " * width + "".join(
        " " + pad_cells(f"{column_word} {i + 1}", CELL, ">") for i in range(len(columns))
    )
    if len(columns) > 1:
        lines.append(header)
    for category in boxes:
        row = "".join(" " + cell(col, i, category) for i, col in enumerate(columns))
        lines.append(pad_cells(box_name(category), width) + row)
        if category == last_upper:
            par = "".join(f" {col.upper_par:>+{CELL}}" for col in columns)
            upper = "".join(f" {col.upper_total:>{CELL}}" for col in columns)
            bonus = "".join(f" {col.upper_bonus(rules):>{CELL}}" for col in columns)
            lines.append(pad_cells(upper_total_label(), width) + upper)
            lines.append(pad_cells(par_label(), width) + par)
            lines.append(pad_cells(upper_bonus_label(), width) + bonus)
    if rules.yahtzee_bonus or rules.family is Family.YAHTZEE:
        extra = "".join(f" {col.yahtzee_bonus_total(rules):>{CELL}}" for col in columns)
        lines.append(pad_cells(yahtzee_bonus_label(), width) + extra)
    totals = "".join(f" {t:>{CELL}}" for t in card.column_totals(rules))
    lines.append(pad_cells(total_label(), width) + totals)
    return lines


def state_lines(state: GameState) -> list[str]:
    """The whole state as plain text, for the plain mode and screen readers."""
    rules = state.rules
    lines: list[str] = []
    if state.settings.match_length > 1:
        lines.append(
            _("Game {number} of {count}").format(
                number=state.game_number, count=state.settings.match_length
            )
        )
    if state.is_match_over:
        lines.append(_("Game over."))
        for seat, card in enumerate(state.cards):
            lines.append(f"== {state.seats[seat].name} ==")
            lines.extend(card_lines(rules, card, {}))
        if state.settings.match_length > 1:
            lines.append(_("Match totals:"))
        lines.extend(ranking_lines(state))
        return lines
    seat = state.current_seat
    previews = {(p.column, p.category): p.points for p in state.placements()}
    for index, card in enumerate(state.cards):
        if len(state.cards) > 1 or index != seat:
            heading = (
                _("{name}: {total}").format(name=state.seats[index].name, total=card.total(rules))
                if index != seat
                else state.seats[index].name
            )
            lines.append(f"== {heading} ==")
        if index == seat:
            lines.extend(card_lines(rules, card, previews))
    lines.extend(turn_lines(state))
    return lines


def opening_lines(state: GameState) -> list[str]:
    """How the first player of the current game was chosen, for those who cannot see it:
    each round of the roll-off (who rolled what; a tie rolls again) and who starts. Empty
    when nobody rolled for it (one seat, or the first seat starts)."""
    if not state.opening_rolls:
        return []
    lines = [_("Who starts: {mode}.").format(mode=first_player_name(state.settings.first_player))]
    for number, rolls in enumerate(state.opening_rolls):
        said = []
        for seat, dice in enumerate(rolls):
            if dice is None:
                continue
            shown = dice_values(dice)
            if len(dice) > 1:
                shown = _("{dice} (sum {total})").format(dice=shown, total=sum(dice))
            said.append(_("{name} rolls {dice}").format(name=state.seats[seat].name, dice=shown))
        if number:
            lines.append(_("A tie: they roll again."))
        # Translators: the rolls of one round of the roll-off, e.g. "Ann rolls 3; Bob rolls 5."
        lines.append(_("{rolls}.").format(rolls=_("; ").join(said)))
    lines.append(_("{name} starts.").format(name=state.seats[state.starting_seat].name))
    return lines


def game_result_line(number: int, count: int, names: list[str], totals: tuple[int, ...]) -> str:
    """One finished game of a match: "Game 1 of 3 is over: Ann 231, CPU 2 198."."""
    scores = list_text(f"{name} {total}" for name, total in zip(names, totals, strict=True))
    return _("Game {number} of {count} is over: {scores}.").format(
        number=number, count=count, scores=scores
    )


def match_progress_lines(before: GameState, after: GameState) -> list[str]:
    """What a move that ended a game of a match changed: that game's result, then how the
    next game's first player was chosen. Empty for any other move."""
    count = after.settings.match_length
    if count <= 1:
        return []
    names = [seat.name for seat in after.seats]
    if after.game_number > before.game_number and after.finished_games:
        finished = after.finished_games[-1]
        result = game_result_line(before.game_number, count, names, finished.totals)
        return [result, *opening_lines(after)]
    if after.is_match_over and not before.is_match_over:
        return [game_result_line(after.game_number, count, names, after.totals)]
    return []


def placement_notes(placement: Placement) -> list[str]:
    """What a placement earns besides the box, in words: bonuses, and whether it is a joker."""
    notes = []
    if placement.upper_bonus:
        notes.append(_("upper bonus +{points}").format(points=placement.upper_bonus))
    if placement.yahtzee_bonus:
        notes.append(_("Yahtzee bonus +{points}").format(points=placement.yahtzee_bonus))
    if placement.joker:
        notes.append(_("joker"))
    return notes


def _turn_of(state: GameState) -> dict[str, object]:
    """What every turn heading names: whose turn it is (`name`), its number (`turn`) and how
    many turns a game has (`turns`)."""
    return {
        "name": state.seats[state.current_seat].name,
        "turn": state.turn_number,
        "turns": state.rules.turns,
    }


def table_turn_lines(state: GameState) -> list[str]:
    """A turn at the table: whose turn, the dice entered, and every box they may go in."""
    rules = state.rules
    lines = [_("{name}'s turn {turn} of {turns}.").format(**_turn_of(state))]
    if state.dice is None:
        lines.append(
            _("Enter the dice rolled (e.g. dice 3 3 3 5 5), or the points (score chance 22).")
        )
        return lines
    lines.append(_("Dice: {dice}").format(dice=dice_text(state.dice)))
    multi = rules.columns > 1
    options = []
    for p in state.placements():
        notes = placement_notes(p)
        suffix = f" ({list_text(notes)})" if notes else ""
        options.append(f"{p.column + 1}:" * multi + f"{box_name(p.category)} {p.points}{suffix}")
    lines.append(_("Boxes: {options}").format(options=list_text(options)))
    return lines


def turn_lines(state: GameState) -> list[str]:
    """The turn in two or three lines: whose turn, the dice, and what each open box would earn."""
    if state.settings.is_table:
        return table_turn_lines(state)
    rules = state.rules
    lines = [
        _("{name}'s turn {turn} of {turns}: roll {used} of {rolls}.").format(
            **_turn_of(state),
            used=state.turn.rolls_used,
            rolls=rules.rolls_per_turn + state.rolls_saved(state.current_seat),
        ),
        _("Dice: {dice}").format(dice=dice_text(state.dice, state.turn.held, rules.wild_die)),
    ]
    placements = state.placements()
    if placements:
        multi = rules.columns > 1
        options = list_text(
            f"{p.column + 1}:" * multi + f"{box_name(p.category)} {p.points}" for p in placements
        )
        lines.append(_("Boxes: {options}").format(options=options))
    return lines


def ranking_lines(state: GameState) -> list[str]:
    """Final standings: rank, name and (match) total, equal totals sharing a rank; after a
    game won at once, first the sentence that says so (`instant_win_line`)."""
    order = sorted(range(len(state.seats)), key=lambda s: (state.ranks[s], s))
    won = instant_win_line(state)
    return [
        *([won] if won else []),
        *(
            _("{rank}. {name}: {total}").format(
                rank=state.ranks[s], name=state.seats[s].name, total=state.match_totals[s]
            )
            for s in order
        ),
    ]


def instant_win_line(state: GameState) -> str | None:
    """ "Ann served a Generala: she wins the game at once." when a single game ended so
    (`GameState.instant_winner`; in a match such a game ends, and the match is ranked by its
    totals: nothing to say here), else None."""
    winner = state.instant_winner
    box = next((box for box in state.rules.boxes if box.served_wins), None)
    if winner is None or box is None or state.settings.match_length != 1:
        return None
    return _("{name} made a {box} on the first roll of a turn and wins the game at once.").format(
        name=state.seats[winner].name, box=box_name(box)
    )


def resuming_line(game_id: int, actions: int) -> str:
    """What a resumed game says first: "Resuming game 7 after 12 actions."."""
    return ngettext(
        "Resuming game {id} after {count} action.",
        "Resuming game {id} after {count} actions.",
        actions,
    ).format(id=game_id, count=actions)
