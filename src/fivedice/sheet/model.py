"""The printable score sheet: what goes on it, in words and numbers, for any rule set.

A sheet is laid out like the pad in the box: one row per box with what it scores, the upper
total, the bonus line, the extra-Yahtzee ticks, the lower total and the grand total; one
column per game or per player (several sub-columns each when the rules have several, e.g.
triple ×1 ×2 ×3); the rules in words at the foot. `build_sheet` turns a rule set, column
headings and (optionally) the cards of a saved game into a `Sheet` of plain strings in the
current language; `fivedice.sheet.pdf` draws it as a PDF and the web page as HTML, so both
say the same thing. Nothing here reads the store: a saved game comes in as its `GameState`
(from `GameService.load`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from fivedice.core.card import Column, ScoreCard
from fivedice.core.categories import Category
from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import GameState
from fivedice.core.names import MAX_NAME_LENGTH, check_name, visible_text
from fivedice.core.rules import Family, OfAKindScoring, RuleSet, Straights, preset_name
from fivedice.i18n import _
from fivedice.wording.lists import list_text
from fivedice.wording.text import (
    box_name,
    box_rule,
    describe_rules,
    preset_description,
    preset_title,
)

MAX_SHEET_COLUMNS = 60  # ten pages of six columns
MAX_SCORE_COLUMNS = 120
"""Columns of scores a sheet may have in all: its columns times the rules' columns each. A
sheet of 60 games of 20-column rules (1,200) cost 2.3-4 s of CPU as a PDF; 120 cost up to
about 1 s (in Japanese, whose font is embedded; 0.35 s for 60 Maxi Yatzy columns in English),
and fit any real table: eight players of a 15-column game."""
DEFAULT_COLUMNS = 6  # the pad in the box: six games
COLUMNS_PER_PAGE = 6
DIE_FACES = "⚀⚁⚂⚃⚄⚅"


class SheetError(FivediceError):
    """Options a score sheet cannot be made from (bad paper, too many columns, ...)."""


class Paper(Enum):
    """The paper sizes a sheet is laid out for."""

    A4 = "a4"
    LETTER = "letter"


def parse_paper(text: str) -> Paper:
    """`a4` or `letter`, any case.

    Raises:
        SheetError: another size.
    """
    try:
        return Paper(text.strip().lower())
    except ValueError:
        raise SheetError(N_("the paper is a4 or letter, not {paper!r}"), paper=text) from None


def parse_names(text: str | None) -> list[str]:
    """Player names from "Ann, Bob" (commas between names, a Japanese "、" or "，" too; empty
    entries are skipped).

    Raises:
        SheetError: a name longer than `MAX_NAME_LENGTH` characters.
        PlayerNameError: a name with a control character, line break or direction mark.
    """
    names = [name.strip() for name in re.split("[,、，]", text or "") if name.strip()]
    for name in names:
        if len(name) > MAX_NAME_LENGTH:
            raise SheetError(
                N_("a name has at most {most} characters: {name}…"),
                most=MAX_NAME_LENGTH,
                name=visible_text(name[:MAX_NAME_LENGTH], quote=True),
            )
        check_name(name)  # the rule of every name: no control characters, breaks, direction marks
    return names


@dataclass(frozen=True)
class SheetColumn:
    """One column of the sheet: its heading and, when filled in, the card it shows."""

    name: str  # "" leaves room to write a name in
    note: str = ""  # a second heading line: "Game 2"
    card: ScoreCard | None = None


def blank_columns(names: Sequence[str], count: int | None = None) -> tuple[SheetColumn, ...]:
    """Empty columns: one per player, or `count` of them (the names repeat game after game).

    Without names the columns are headed "Game 1" … like the pad; with names and more columns
    than players, each round of names is one game ("Ann, Bob, Ann, Bob": games 1 and 2).

    Raises:
        SheetError: fewer columns than players, or more than the sheet takes.
    """
    total = count if count is not None else (len(names) or DEFAULT_COLUMNS)
    if not 1 <= total <= MAX_SHEET_COLUMNS:
        raise SheetError(
            N_("a sheet has 1 to {most} columns, not {count}"),
            most=MAX_SHEET_COLUMNS,
            count=total,
        )
    if len(names) > total:
        raise SheetError(
            N_("{players} players need at least {players} columns, not {count}"),
            players=len(names),
            count=total,
        )
    if not names:
        return tuple(SheetColumn("", _("Game {number}").format(number=i + 1)) for i in range(total))
    rounds = total > len(names)
    return tuple(
        SheetColumn(
            names[i % len(names)],
            _("Game {number}").format(number=i // len(names) + 1) if rounds else "",
        )
        for i in range(total)
    )


def game_columns(state: GameState) -> tuple[SheetColumn, ...]:
    """The columns of a saved game: every seat's card, game by game of a match.

    Games of a match not reached yet are blank columns, so the sheet can be finished by hand.

    Raises:
        SheetError: more columns than a sheet takes.
    """
    seats = state.seats
    length = state.settings.match_length
    if len(seats) * length > MAX_SHEET_COLUMNS:
        raise SheetError(
            N_("a sheet has 1 to {most} columns, not {count}"),
            most=MAX_SHEET_COLUMNS,
            count=len(seats) * length,
        )
    games: list[tuple[ScoreCard, ...] | None] = [game.cards for game in state.finished_games]
    games.append(state.cards)
    games.extend([None] * (length - len(games)))
    columns = []
    for number, cards in enumerate(games, start=1):
        note = _("Game {number}").format(number=number) if length > 1 else ""
        for index, seat in enumerate(seats):
            columns.append(SheetColumn(seat.name, note, cards[index] if cards else None))
    return tuple(columns)


class RowKind(Enum):
    """How a row is drawn."""

    SECTION = "section"  # a heading across the sheet: "Upper section"
    BOX = "box"  # a box players fill
    SUM = "sum"  # a subtotal they work out
    TICKS = "ticks"  # the extra-Yahtzee ticks, with their points
    GRAND = "grand"  # the grand total: one cell per sheet column


@dataclass(frozen=True)
class Row:
    """One line of the sheet: its label, what it scores, and the value in every cell.

    `cells[i]` holds the texts of sheet column i, one per rule-set column (one text for a
    GRAND row); `ticks[i]` the extra Yahtzees ticked per rule-set column (TICKS rows,
    filled sheets).
    """

    kind: RowKind
    label: str
    how: str = ""
    cells: tuple[tuple[str, ...], ...] = ()
    ticks: tuple[tuple[int, ...], ...] = ()
    key: str = ""


@dataclass(frozen=True)
class Sheet:
    """Everything a sheet shows, as text in the language it was built in."""

    title: str
    rules_title: str
    rules_lines: tuple[str, ...]
    columns: tuple[SheetColumn, ...]
    multipliers: tuple[int, ...]
    rows: tuple[Row, ...]
    headings: tuple[str, str]  # the label column and the how-to column
    summary: str = ""  # the match totals of a saved game
    language: str = "en"

    @property
    def sub_columns(self) -> int:
        return len(self.multipliers)

    def sub_headings(self) -> tuple[str, ...]:
        """ "×1", "×2" … when the rules have several columns; nothing otherwise."""
        if self.sub_columns == 1:
            return ()
        return tuple(f"×{m}" for m in self.multipliers)


def _bonus_how(rules: RuleSet) -> str:
    """How the upper bonus is earned, in a few words (its tiers, when it has several)."""
    if len(rules.bonus_tiers) > 1:
        tiers = list_text(
            _("{value} at {threshold}").format(value=value, threshold=threshold)
            for threshold, value in rules.bonus_tiers
        )
        return _("Bonus by the upper total, the highest tier reached: {tiers}").format(tiers=tiers)
    return _("Bonus if the upper total ≥ {threshold}: {value}").format(
        threshold=rules.upper_bonus_threshold, value=rules.upper_bonus_value
    )


def how_to_score(rules: RuleSet, category: Category) -> str:
    """What a box scores under these rules, in a few words for the sheet."""
    if category.is_upper:
        face = rules.box(category).face or 1
        return _("Count and add only {face}s").format(face=face)
    if rules.family is not Family.YAHTZEE:
        rule = box_rule(category, rules)
        return rule[:1].upper() + rule[1:]
    matching = rules.of_a_kind_scores is OfAKindScoring.MATCHING_DICE
    fixed = rules.straights is Straights.FIXED
    texts = {
        Category.THREE_OF_A_KIND: (
            _("3 × the face of the three alike") if matching else _("Total of all 5 dice")
        ),
        Category.FOUR_OF_A_KIND: (
            _("4 × the face of the four alike") if matching else _("Total of all 5 dice")
        ),
        Category.FULL_HOUSE: (
            _("Three and two alike (or five alike): score {points}")
            if rules.five_of_a_kind_is_full_house
            else _("Three and two alike: score {points}")
        ).format(points=rules.full_house),
        Category.SMALL_STRAIGHT: (
            _("Exactly 1-2-3-4-5: score {points}") if fixed else _("Four in a row: score {points}")
        ).format(points=rules.small_straight),
        Category.LARGE_STRAIGHT: (
            _("Exactly 2-3-4-5-6: score {points}") if fixed else _("Five in a row: score {points}")
        ).format(points=rules.large_straight),
        Category.YAHTZEE: _("Five alike: score {points}").format(points=rules.yahtzee),
        Category.CHANCE: _("Total of all 5 dice"),
    }
    return texts[category]


def _box_label(category: Category) -> str:
    name = box_name(category)
    return f"{name} {DIE_FACES[category.face - 1]}" if category.is_upper else name


def _value(number: int | None) -> str:
    return "" if number is None else str(number)


class _Figures:
    """The numbers of one rule-set column of a card (blank while nothing is filled)."""

    def __init__(self, rules: RuleSet, column: Column | None, multiplier: int) -> None:
        self.rules = rules
        self.column = column
        self.multiplier = multiplier

    def _started(self, boxes: Sequence[Category]) -> bool:
        column = self.column
        return column is not None and any(column.is_filled(c) for c in boxes if column.has_box(c))

    def box(self, category: Category) -> str:
        return "" if self.column is None else _value(self.column.score(category))

    def upper_total(self) -> str:
        if self.column is None or not self._started(self.rules.upper_boxes):
            return ""
        return str(self.column.upper_total)

    def upper_bonus(self) -> str:
        column = self.column
        if column is None:
            return ""
        bonus = column.upper_bonus(self.rules)
        if bonus or all(column.is_filled(c) for c in self.rules.upper_boxes):
            return str(bonus)
        return ""

    def upper_section(self) -> str:
        if self.column is None or not self._started(self.rules.upper_boxes):
            return ""
        return str(self.column.upper_total + self.column.upper_bonus(self.rules))

    def yahtzee_bonus(self) -> str:
        column = self.column
        if column is None:
            return ""
        if column.extra_yahtzees or column.is_complete:
            return str(column.yahtzee_bonus_total(self.rules))
        return ""

    def ticks(self) -> int:
        return 0 if self.column is None else self.column.extra_yahtzees

    def lower_section(self) -> str:
        column = self.column
        lower = [box for box in self.rules.boxes if not box.is_upper]
        if column is None or not (self._started(lower) or column.extra_yahtzees):
            return ""
        return str(column.lower_total + column.yahtzee_bonus_total(self.rules))

    def column_total(self, multiplied: bool = False) -> str:
        column = self.column
        if column is None or not self._started(self.rules.boxes):
            return ""
        total = column.total(self.rules)
        return str(total * self.multiplier if multiplied else total)


def build_sheet(
    rules: RuleSet,
    columns: Sequence[SheetColumn],
    *,
    summary: str = "",
    language: str = "en",
) -> Sheet:
    """The sheet of a rule set with these columns, in the current language.

    Raises:
        SheetError: no columns, or more than a sheet takes (`MAX_SHEET_COLUMNS`, and
            `MAX_SCORE_COLUMNS` counting each of the rules' columns).
    """
    if not 1 <= len(columns) <= MAX_SHEET_COLUMNS:
        raise SheetError(
            N_("a sheet has 1 to {most} columns, not {count}"),
            most=MAX_SHEET_COLUMNS,
            count=len(columns),
        )
    multipliers = rules.column_multipliers
    if len(columns) * len(multipliers) > MAX_SCORE_COLUMNS:
        raise SheetError(
            N_(
                "a sheet has at most {most} columns of scores: {count} columns of rules with "
                "{each} columns each would be {total}"
            ),
            most=MAX_SCORE_COLUMNS,
            count=len(columns),
            each=len(multipliers),
            total=len(columns) * len(multipliers),
        )
    figures = [
        [
            _Figures(rules, sheet_column.card.columns[i] if sheet_column.card else None, m)
            for i, m in enumerate(multipliers)
        ]
        for sheet_column in columns
    ]

    def cells(pick: str, *args: object) -> tuple[tuple[str, ...], ...]:
        return tuple(
            tuple(getattr(figure, pick)(*args) for figure in per_column) for per_column in figures
        )

    def box_row(category: Category) -> Row:
        return Row(
            RowKind.BOX,
            _box_label(category),
            how_to_score(rules, category),
            cells("box", category),
            key=category.key,
        )

    rows: list[Row] = [Row(RowKind.SECTION, _("Upper section"), key="upper_section")]
    rows.extend(box_row(category) for category in rules.upper_boxes)
    rows.append(
        Row(
            RowKind.SUM,
            _("Upper total"),
            _("Add the six boxes above"),
            cells("upper_total"),
            key="upper_total",
        )
    )
    if rules.upper_bonus:
        rows.append(
            Row(
                RowKind.SUM,
                _("Bonus"),
                _bonus_how(rules),
                cells("upper_bonus"),
                key="upper_bonus",
            )
        )
        rows.append(
            Row(
                RowKind.SUM,
                _("Upper section"),
                _("Upper total plus bonus"),
                cells("upper_section"),
                key="upper_section_total",
            )
        )
    rows.append(Row(RowKind.SECTION, _("Lower section"), key="lower_section"))
    rows.extend(box_row(category) for category in rules.boxes if not category.is_upper)
    if rules.yahtzee_bonus:
        rows.append(
            Row(
                RowKind.TICKS,
                _("Yahtzee bonus"),
                _("✓ for each further Yahtzee: {value} per ✓").format(
                    value=rules.yahtzee_bonus_value
                ),
                cells("yahtzee_bonus"),
                ticks=tuple(tuple(f.ticks() for f in per_column) for per_column in figures),
                key="yahtzee_bonus",
            )
        )
    lower_how = (
        _("Lower boxes plus Yahtzee bonus") if rules.yahtzee_bonus else _("Add the lower boxes")
    )
    rows.append(
        Row(RowKind.SUM, _("Lower total"), lower_how, cells("lower_section"), key="lower_total")
    )
    upper_label = _("Upper section") if rules.upper_bonus else _("Upper total")
    rows.append(
        Row(
            RowKind.SUM,
            upper_label,
            _("From above"),
            cells("upper_section" if rules.upper_bonus else "upper_total"),
            key="upper_again",
        )
    )
    if len(multipliers) > 1:
        rows.append(
            Row(
                RowKind.SUM,
                _("Column total"),
                _("Upper plus lower"),
                cells("column_total"),
                key="column_total",
            )
        )
        rows.append(
            Row(
                RowKind.SUM,
                _("Times the column's factor"),
                _("Column total × {factors}").format(
                    factors=", ".join(str(m) for m in multipliers)
                ),
                cells("column_total", True),
                key="column_times",
            )
        )
    grand = tuple(
        (
            str(column.card.total(rules))
            if column.card is not None and column.card.boxes_filled
            else "",
        )
        for column in columns
    )
    grand_how = _("Add the columns") if len(multipliers) > 1 else _("Upper plus lower")
    rows.append(Row(RowKind.GRAND, _("Grand total"), grand_how, grand, key="grand_total"))

    name = preset_name(rules)
    if name is None:
        rules_title = _("Rules: house rules")
    else:
        rules_title = _("Rules: {name} ({description})").format(
            name=preset_title(name), description=preset_description(name)
        )
    return Sheet(
        title=_("Score sheet"),
        rules_title=rules_title,
        rules_lines=tuple(describe_rules(rules)),
        columns=tuple(columns),
        multipliers=multipliers,
        rows=tuple(rows),
        headings=(_("Box"), _("How to score")),
        summary=summary,
        language=language,
    )


def match_summary(state: GameState) -> str:
    """The totals of a saved game (the match totals for a match) in one line."""
    totals = ", ".join(
        f"{seat.name} {total}" for seat, total in zip(state.seats, state.match_totals, strict=True)
    )
    if state.settings.match_length > 1:
        return _("Match totals: {totals}").format(totals=totals)
    return _("Totals: {totals}").format(totals=totals)


def game_sheet(state: GameState, *, language: str = "en") -> Sheet:
    """A saved game's sheet, filled in: a column per seat (per game of a match), with the
    totals underneath, in the current language.

    Raises:
        SheetError: more columns than a sheet takes.
    """
    return build_sheet(
        state.rules, game_columns(state), summary=match_summary(state), language=language
    )
