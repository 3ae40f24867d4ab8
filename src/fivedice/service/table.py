"""Games at the table (`fivedice table`): the players roll real dice and the app keeps the
card. The use cases every front end of it shares: an entry typed with a box's name turned
into the notation the service applies (`table_entry`), and what an entry or an undo changed
on the card, to be said in a line (`entry_between`, `last_entry`). The settings of such a
game are `service.settings.build_table_settings`; opening or resuming one is
`service.opening.open_game(..., kind=GameKind.TABLE)`. A score of 0 is asked about first
in every front end (`service.settings.zero_score_to_confirm`).
"""

from __future__ import annotations

from dataclasses import dataclass

from fivedice.core.card import ScoreCard
from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.errors import MalformedActionError
from fivedice.core.game import GameState
from fivedice.core.record import UNDO, GameRecord
from fivedice.core.rules import RuleSet
from fivedice.wording.boxes import parse_score_words


def table_entry(line: str, rules: RuleSet | None = None) -> str:
    """The entry in notation: a box named as on the card, in the player's language too
    (`score Dreierpasch`, `score Full House 25`), becomes its key; anything else is passed on
    as typed (the service says what is wrong with it)."""
    words = line.split()
    if len(words) < 2 or words[0].casefold() != "score":
        return line
    box_words, points = words[1:], []
    if len(box_words) > 1 and box_words[-1].isascii() and box_words[-1].isdigit():
        box_words, points = box_words[:-1], box_words[-1:]
    try:
        action = parse_score_words(" ".join(box_words), rules.boxes if rules else CATEGORIES)
    except MalformedActionError:
        return line
    key = action.category.key
    box = f"{action.column + 1}:{key}" if action.column else key
    return " ".join(["score", box, *points])


@dataclass(frozen=True)
class TableEntry:
    """One entry at the table as the card shows it: the dice a player typed in, or the
    points written in a box (with the bonuses that came with them).

    Attributes:
        seat: the player's seat (0-based).
        name: the player's name.
        dice: the dice entered (None: a box was scored).
        category: the box scored (None: dice were entered).
        column: the box's column (0-based), None on a one-column card.
        points: the points in the box.
        upper_bonus, yahtzee_bonus: bonus points the box earned with it.
        total: the player's total after it.
    """

    seat: int
    name: str
    dice: tuple[int, ...] | None = None
    category: Category | None = None
    column: int | None = None
    points: int = 0
    upper_bonus: int = 0
    yahtzee_bonus: int = 0
    total: int = 0


def entry_between(before: GameState, after: GameState) -> TableEntry | None:
    """The entry that took the game from `before` to `after` (one action apart): the box the
    player to move in `before` filled, else the dice they entered; None when neither changed.

    Undo uses it the other way round: an undo took back `entry_between(restored, undone)`.
    """
    seat = before.current_seat
    rules = before.rules
    old = before.cards[seat]
    new = after.cards[seat]
    total = after.totals[seat]
    if after.game_number != before.game_number and after.finished_games:
        new = after.finished_games[-1].cards[seat]  # that score ended a game of the match
    filled = _filled_box(old, new)
    if filled is not None:
        index, category = filled
        old_column, new_column = old.columns[index], new.columns[index]
        return TableEntry(
            seat,
            before.seats[seat].name,
            category=category,
            column=index if rules.columns > 1 else None,
            points=new_column.score(category) or 0,
            upper_bonus=new_column.upper_bonus(rules) - old_column.upper_bonus(rules),
            yahtzee_bonus=(
                new_column.yahtzee_bonus_total(rules) - old_column.yahtzee_bonus_total(rules)
            ),
            total=total,
        )
    if after.current_seat == seat and after.dice is not None and after.dice != before.dice:
        return TableEntry(seat, before.seats[seat].name, dice=after.dice, total=total)
    return None


def _filled_box(old: ScoreCard, new: ScoreCard) -> tuple[int, Category] | None:
    for index, (old_column, new_column) in enumerate(zip(old.columns, new.columns, strict=True)):
        for category in old_column.boxes:
            if old_column.score(category) is None and new_column.score(category) is not None:
                return index, category
    return None


@dataclass(frozen=True)
class LastEntry:
    """What the last entry of the log did: `entry`, or, when `taken_back`, what the undo
    at the end of the log took back."""

    entry: TableEntry
    taken_back: bool


def last_entry(record: GameRecord) -> LastEntry | None:
    """The last entry of a game's log and what it changed on the card (None: nothing yet,
    or an entry that changed neither a box nor the dice).

    Raises:
        RecordError: the log does not replay (as `GameRecord.states`).
    """
    earlier = later = None
    last_action = None
    for entry, state in record.states():
        earlier, later = later, state
        last_action = entry.action if entry is not None else None
    if earlier is None or later is None or last_action is None:
        return None
    undone = last_action == UNDO  # it took back the entry from the state now to the one before
    found = entry_between(later, earlier) if undone else entry_between(earlier, later)
    return LastEntry(found, taken_back=undone) if found is not None else None
