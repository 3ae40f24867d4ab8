"""Words for what the core holds: box names, the rules in words, cards and states as plain text.

Shared by every front end (plain mode, CLI, terminal app, web) so they say the same thing,
in the current language (`fivedice.i18n`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from fivedice.core.actions import Action, EnterDice, Hold, Release, Roll, ScorePoints
from fivedice.core.boxes import KNOWN_BOXES, Box, BoxKind
from fivedice.core.card import Column, Placement, ScoreCard
from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.errors import Phrase, Phrases
from fivedice.core.game import FirstPlayer, GameState
from fivedice.core.rules import (
    BonusCondition,
    Family,
    FillOrder,
    Joker,
    OfAKindScoring,
    RuleSet,
    Straights,
)
from fivedice.i18n import _, ngettext
from fivedice.wording.cells import pad_cells, text_width

if TYPE_CHECKING:
    from fivedice.strategy.hints import Hint


def list_text(items: Iterable[str], gettext: Callable[[str], str] | None = None) -> str:
    """Items joined as a list in the language: "Ones, Chance" in English, "1の目、チャンス" in
    Japanese (the separator is a message of its own, so no comma is built into a sentence)."""
    # Translators: the separator between the items of a list: a comma and a space in English.
    return (gettext or _)(", ").join(items)


def status_text(status: str) -> str:
    """A saved game's status ("in_progress", "finished", "abandoned") in words."""
    words = {
        "in_progress": _("in progress"),
        "finished": _("finished"),
        "abandoned": _("abandoned"),
    }
    return words.get(status, status)


def box_name(category: Category) -> str:
    """The box's name as players know it, in the current language."""
    return _(category.name)


def _box_words(text: str) -> str:
    # Letters and digits only, case folded: "Full-House", "full_house" and "full house" match.
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def find_box(text: str, boxes: tuple[Box, ...] = CATEGORIES) -> Category | None:
    """The box a player typed: its key, its English name or its name in the current language
    (case, spaces, dashes and underscores ignored), among `boxes` (the rule set's; default
    the classic thirteen); None when no box is called that."""
    wanted = _box_words(text)
    if not wanted:
        return None
    for category in boxes:
        names = (category.key, category.name, box_name(category))
        if any(_box_words(name) == wanted for name in names):
            return category
    return None


def upper_total_label() -> str:
    return _("Upper total")


def par_label() -> str:
    return _("Against par")


def upper_bonus_label() -> str:
    return _("Upper bonus")


def yahtzee_bonus_label() -> str:
    return _("Yahtzee bonus")


def total_label() -> str:
    return _("Total")


def preset_title(name: str) -> str:
    """A rule preset's name as players see it, in the current language (the key, e.g.
    `classic`, stays what `--rules` and the API take)."""
    titles = {
        "classic": _("Classic"),
        "free-choice": _("Free choice"),
        "simple": _("Simple"),
        "classic-five": _("Classic Five"),
        "triple": _("Triple Yahtzee"),
        "yatzy": _("Yatzy"),
        "maxi-yatzy": _("Maxi Yatzy"),
    }
    return titles.get(name, name)


def player_name(number: int) -> str:
    """The name of a person's seat nobody named: "Player 2"."""
    return _("Player {number}").format(number=number)


def cpu_name(number: int, level: str | None = None) -> str:
    """The name of a CPU seat nobody named: "CPU 2", or "CPU 2 (casual)" with its level."""
    if level is None:
        return _("CPU {number}").format(number=number)
    return _("CPU {number} ({level})").format(number=number, level=level_name(level))


def level_name(level: str) -> str:
    """A CPU level's name in the current language."""
    names = {
        "beginner": _("beginner"),
        "casual": _("casual"),
        "strong": _("strong"),
        "expert": _("expert"),
        "master": _("master"),
    }
    return names.get(str(level), str(level))


def preset_description(name: str) -> str:
    """What a rule preset is, in a few words, in the current language."""
    descriptions = {
        "classic": _("Official rules: extra-Yahtzee bonus 100, forced joker"),
        "free-choice": _("Classic with the free-choice joker (Verhoeff's rules)"),
        "simple": _("No extra-Yahtzee bonus and no joker"),
        "classic-five": _("Classic Five: no bonus, no joker, fixed straights"),
        "triple": _("Triple Yahtzee: three columns counting 1x, 2x and 3x"),
        "yatzy": _("Scandinavian: 15 boxes, pairs, straights 15 and 20, bonus 50 at 63"),
        "maxi-yatzy": _("six dice, 20 boxes, bonus 100 at 84, unused rolls saved"),
    }
    return descriptions.get(name, name)


def describe_rules(rules: RuleSet) -> list[str]:
    """The active rules as sentences, generated from the rule set's values and boxes."""
    dice_line = (
        ngettext(
            "Five dice, up to {rolls} roll a turn; hold any dice between rolls.",
            "Five dice, up to {rolls} rolls a turn; hold any dice between rolls.",
            rules.rolls_per_turn,
        )
        if rules.dice == 5
        else ngettext(
            "Six dice, up to {rolls} roll a turn; hold any dice between rolls.",
            "Six dice, up to {rolls} rolls a turn; hold any dice between rolls.",
            rules.rolls_per_turn,
        )
    )
    lines = [
        dice_line.format(rolls=rules.rolls_per_turn),
        _("Upper boxes score the sum of the dice showing their face."),
    ]
    if rules.upper_bonus:
        lines.append(
            ngettext(
                "Upper bonus: {value} point when the upper boxes total {threshold} or more.",
                "Upper bonus: {value} points when the upper boxes total {threshold} or more.",
                rules.upper_bonus_value,
            ).format(value=rules.upper_bonus_value, threshold=rules.upper_bonus_threshold)
        )
    else:
        lines.append(_("No upper bonus."))
    if rules.family is not Family.YAHTZEE:
        lines.extend(box_sentence(box, rules) for box in rules.boxes if not box.is_upper)
    else:
        lines.extend(_classic_box_sentences(rules))
    lines.append(_yahtzee_bonus_sentence(rules))
    lines.append(_joker_sentence(rules))
    if rules.upper_first:
        lines.append(
            _("Upper boxes first: lower boxes open only once all six upper boxes are filled.")
        )
    lines.extend(_order_sentences(rules))
    if rules.columns > 1:
        multipliers = list_text(f"×{m}" for m in rules.column_multipliers)
        lines.append(
            ngettext(
                "{count} column, filled in any order, one box a turn; it counts {multipliers}.",
                "{count} columns, filled in any order, one box a turn; they count {multipliers}.",
                rules.columns,
            ).format(count=rules.columns, multipliers=multipliers)
        )
    return lines


def _order_sentences(rules: RuleSet) -> list[str]:
    """The fill order, the saved rolls and the extra turn, when the rules have them."""
    lines = []
    if rules.fill_order is FillOrder.FORCED:
        lines.append(_("Forced order: the boxes are filled from top to bottom, one a turn."))
    if rules.saved_rolls:
        lines.append(
            _(
                "Saved rolls: rolls not used in a turn are saved; a later turn may use them"
                " after its own (the saved rolls start again each game)."
            )
        )
    if rules.extra_turn_on_yahtzee:
        lines.append(
            _(
                "Extra turn: a player who scores a Yahtzee (all dice the same) plays another"
                " turn at once; a player whose card is full is skipped, and the game ends when"
                " every card is full."
            )
        )
    return lines


def _points_words(points: int | None) -> str:
    return _("the sum of those dice") if points is None else str(points)


def box_rule(box: Box, rules: RuleSet) -> str:
    """What one box takes and scores, in a few words, from its kind and parameters (the
    rule set's own box): "3 dice of one face: 3 × the face"."""
    box = rules.box(box)
    if box.kind is BoxKind.UPPER:
        return _("the dice showing {face}, summed").format(face=box.face)
    if box.kind is BoxKind.CHANCE:
        return _("any dice, the sum")
    if box.kind is BoxKind.ALL_SAME:
        return _("all {dice} dice the same face: {points}").format(
            dice=rules.dice, points=box.points
        )
    if box.kind is BoxKind.OF_A_KIND:
        if box.matching:
            return _("{size} dice of one face: {size} × the face").format(size=box.size)
        return _("at least {size} dice of one face: the sum of all the dice").format(size=box.size)
    if box.kind is BoxKind.PAIRS:
        if box.size == 1:
            return _("two dice of one face: their sum (the highest pair)")
        text = _("{count} pairs of different faces: {points}").format(
            count=box.size, points=_points_words(None)
        )
        if box.loose:
            text += _(" (four of a kind counts as two pairs)")
        return text
    if box.kind is BoxKind.STRAIGHT:
        if box.faces:
            return _("exactly {faces}: {points}").format(
                faces="-".join(map(str, box.faces)), points=_points_words(box.points)
            )
        return _("{size} faces in a row: {points}").format(
            size=box.size, points=_points_words(box.points)
        )
    first, second = box.shape
    text = _("{first} dice of one face and {second} of another: {points}").format(
        first=first, second=second, points=_points_words(box.points)
    )
    if box.loose:
        text += _(" (dice all of one face count too)")
    return text


def box_sentence(box: Box, rules: RuleSet) -> str:
    """What one box takes and scores, as a sentence with its name."""
    return _("{name}: {rule}.").format(name=box_name(box), rule=box_rule(box, rules))


def _classic_box_sentences(rules: RuleSet) -> list[str]:
    """The lower boxes of the Yahtzee card, as the rule book words them."""
    lines = []
    if rules.of_a_kind_scores is OfAKindScoring.ALL_DICE:
        lines.append(_("Three and four of a kind score the sum of all five dice."))
    else:
        lines.append(_("Three of a kind scores 3 × the face, four of a kind 4 × the face."))
    full_house = _("Full house (three of one face and two of another): {points}.").format(
        points=rules.full_house
    )
    if rules.five_of_a_kind_is_full_house:
        full_house += " " + _("Five of a kind also counts as a full house.")
    lines.append(full_house)
    if rules.straights is Straights.RUNS:
        lines.append(
            _(
                "Small straight (four in a row): {small}; large straight (five in a row): {large}."
            ).format(small=rules.small_straight, large=rules.large_straight)
        )
    else:
        lines.append(
            _(
                "Small straight is exactly 1-2-3-4-5: {small}; large straight is exactly "
                "2-3-4-5-6: {large}."
            ).format(small=rules.small_straight, large=rules.large_straight)
        )
    lines.append(
        _("Yahtzee (five of a kind): {points}. Chance: the sum of the dice.").format(
            points=rules.yahtzee
        )
    )
    return lines


def _joker_sentence(rules: RuleSet) -> str:
    joker = {
        Joker.FORCED: _(
            "Joker (forced): a further Yahtzee must go in its upper box if open; otherwise in "
            "any open lower box, where full house and straights score in full; otherwise a 0 "
            "in an open upper box."
        ),
        Joker.FREE_CHOICE: _(
            "Joker (free choice): once its upper box is filled, a further Yahtzee may go in any "
            "open box, with full house and straights scoring in full."
        ),
        Joker.NONE: _("No joker: a further Yahtzee scores as an ordinary roll."),
    }
    return joker[rules.joker]


def _yahtzee_bonus_sentence(rules: RuleSet) -> str:
    """What a further Yahtzee earns, as play pays it (`Column.pays_yahtzee_bonus`).

    Under `box_scored` the bonus needs a Yahtzee box holding more than 0, which a Yahtzee
    worth 0 points never gives: such rules pay no bonus, and say so.
    """
    if not rules.yahtzee_bonus or rules.yahtzee_bonus_value == 0:
        return _("No bonus for further Yahtzees.")
    if rules.yahtzee_bonus_condition is BonusCondition.BOX_FILLED:
        condition = _("when the Yahtzee box is filled, even with 0")
    elif rules.yahtzee == 0:
        return _(
            "No bonus for further Yahtzees: the bonus needs a Yahtzee box holding more than 0, "
            "and a Yahtzee scores 0 here."
        )
    else:
        condition = _("when the Yahtzee box holds {points}").format(points=rules.yahtzee)
    return _("Each further Yahtzee earns a bonus of {value} {condition}.").format(
        value=rules.yahtzee_bonus_value, condition=condition
    )


def first_player_name(mode: FirstPlayer) -> str:
    return {
        FirstPlayer.FIRST_SEAT: _("the first seat starts"),
        FirstPlayer.HIGHEST_DIE: _("everyone rolls one die, highest starts"),
        FirstPlayer.HIGHEST_SUM: _("everyone rolls five dice, highest sum starts"),
    }[mode]


def dice_text(dice: tuple[int, ...] | None, held: tuple[bool, ...] = ()) -> str:
    """'3 3 [5] 6 2' — held dice in brackets."""
    if dice is None:
        return _("not rolled yet")
    marks = held or (False,) * len(dice)
    return " ".join(f"[{d}]" if h else str(d) for d, h in zip(dice, marks, strict=True))


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


def table_turn_lines(state: GameState) -> list[str]:
    """A turn at the table: whose turn, the dice entered, and every box they may go in."""
    rules = state.rules
    seat = state.current_seat
    lines = [
        _("{name}'s turn {turn} of {turns}.").format(
            name=state.seats[seat].name,
            turn=state.turn_number,
            turns=len(rules.boxes) * rules.columns,
        )
    ]
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
    seat = state.current_seat
    lines = [
        _("{name}'s turn {turn} of {turns}: roll {used} of {rolls}.").format(
            name=state.seats[seat].name,
            turn=state.turn_number,
            turns=len(rules.boxes) * rules.columns,
            used=state.turn.rolls_used,
            rolls=rules.rolls_per_turn + state.rolls_saved(seat),
        ),
        _("Dice: {dice}").format(dice=dice_text(state.dice, state.turn.held)),
    ]
    placements = state.placements()
    if placements:
        multi = rules.columns > 1
        options = list_text(
            f"{p.column + 1}:" * multi + f"{box_name(p.category)} {p.points}" for p in placements
        )
        lines.append(_("Boxes: {options}").format(options=options))
    return lines


def option_text(
    keep: tuple[int, ...] | None, category: Category | None, column: int | None = None
) -> str:
    """A coach option in words: "keep 6 6 6", "score Sixes", "score Sixes in column 2"."""
    if category is not None and column is not None:
        return _("score {box} in column {column}").format(box=box_name(category), column=column + 1)
    if category is not None:
        return _("score {box}").format(box=box_name(category))
    if not keep:
        return _("roll all five again")
    return _("keep {dice}").format(dice=" ".join(map(str, keep)))


def coach_lines(options: Sequence[Hint], limit: int = 8, compact: bool = False) -> list[str]:
    """The coach's best options, one a line, with the expected points to come and the loss.

    `options` are the service's hints; several-column values are estimates, marked ≈.
    `compact`: the numbers without words.
    """
    lines = []
    for number, option in enumerate(options[:limit], start=1):
        template = (
            _("{number}. {option}: {mark}{value:.1f} (−{loss:.1f})")
            if compact
            else _("{number}. {option}: {mark}{value:.1f} points to come (−{loss:.1f})")
        )
        lines.append(
            template.format(
                number=number,
                option=option_text(option.keep, option.category, option.column),
                mark="≈" if option.estimate else "",
                value=option.value,
                loss=option.loss,
            )
        )
    return lines


def ranking_lines(state: GameState) -> list[str]:
    """Final standings: rank, name and (match) total, equal totals sharing a rank."""
    order = sorted(range(len(state.seats)), key=lambda s: (state.ranks[s], s))
    return [
        _("{rank}. {name}: {total}").format(
            rank=state.ranks[s], name=state.seats[s].name, total=state.match_totals[s]
        )
        for s in order
    ]


def error_text(error: BaseException, gettext: Callable[[str], str] | None = None) -> str:
    """An error's message for players, translated.

    The message template of a fivedice error (`error.template`) is translated with `gettext`
    (default: the current language's `_`; the web passes the page language's) and filled with
    the error's parameters. Other errors, and a translation that cannot be filled, give
    `str(error)`.
    """
    template = getattr(error, "template", None)
    params = getattr(error, "params", None)
    if not isinstance(template, str) or not template or not isinstance(params, dict):
        return str(error)
    translated = (gettext or _)(template)
    if not params:
        return translated
    # An error inside an error (what is damaged in a game, ...) is translated as well, and so
    # is a parameter that is a message itself (what the store could not do, an option's name);
    # a box is named as on the card ("Full House" in German), not by its key.
    params = {
        key: _localized_box(value, gettext) if key == "box" else _translated_param(value, gettext)
        for key, value in params.items()
    }
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError):
        return str(error)


def _translated_param(value: object, gettext: Callable[[str], str] | None) -> object:
    if isinstance(value, BaseException):
        return error_text(value, gettext)
    if isinstance(value, Phrase):
        return (gettext or _)(str(value))
    if isinstance(value, Phrases):
        return list_text(((gettext or _)(phrase) for phrase in value), gettext)
    return value


def _localized_box(value: object, gettext: Callable[[str], str] | None) -> object:
    """A box key ("full_house") as the box's name in the language; other values as they are."""
    category = KNOWN_BOXES.get(value) if isinstance(value, str) else None
    if category is None:  # already a name (a `Phrase`), or not a box at all
        return _translated_param(value, gettext)
    return (gettext or _)(category.name)


def dice_values(dice: tuple[int, ...]) -> str:
    """Dice as words for a sentence: "3 3 5 6 6"."""
    return " ".join(map(str, dice))


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
    actor: str, positions: tuple[int, ...], dice: tuple[int, ...], *, hold: bool = True
) -> str:
    """Dice held or released by position, with their faces: "Ann holds dice 1 2 (6 6)"."""
    if hold:
        message = ngettext(
            "{name} holds die {positions} ({dice})",
            "{name} holds dice {positions} ({dice})",
            len(positions),
        )
    else:
        message = ngettext(
            "{name} releases die {positions} ({dice})",
            "{name} releases dice {positions} ({dice})",
            len(positions),
        )
    return message.format(name=actor, positions=dice_values(positions), dice=dice_values(dice))


def move_sentence(actor: str | None, action: Action, before: GameState, after: GameState) -> str:
    """An action that was just taken, as a sentence: "CPU 1 rolls 3 3 5 6 6", "CPU 1 holds
    3 3", "You score 25 in Full house" (`actor` None: the player reading it)."""
    if isinstance(action, Roll):
        return roll_sentence(actor, after.turn.dice or ())
    if isinstance(action, Hold):
        turn = after.turn
        held = dice_values(tuple(d for d, h in zip(turn.dice or (), turn.held, strict=False) if h))
        if actor is None:
            return _("You hold {dice}").format(dice=held)
        return _("{name} holds {dice}").format(name=actor, dice=held)
    if isinstance(action, Release):
        faces = before.turn.dice or ()
        released = dice_values(tuple(faces[p - 1] for p in action.positions if p <= len(faces)))
        if actor is None:
            return _("You release {dice}").format(dice=released)
        return _("{name} releases {dice}").format(name=actor, dice=released)
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
    from fivedice.core.actions import parse_action
    from fivedice.core.errors import FivediceError

    if notation.strip().lower() == "undo":
        return _("{name} takes back the last action").format(name=actor)
    try:
        action = parse_action(notation)
    except FivediceError:
        return notation
    return move_sentence(actor, action, before, after)


def keep_text(keep: tuple[int, ...]) -> str:
    """A keep in words: "keep 6 6 6" or "roll all five again"."""
    if not keep:
        return _("roll all five again")
    return _("keep {dice}").format(dice=" ".join(map(str, keep)))


def choice_text(
    keep: tuple[int, ...] | None, category: Category | None, column: int | None = None
) -> str:
    """A coach option in words (`column`, 0-based, for a box of a several-column card)."""
    if category is not None and column is not None:
        return _("score {box} in column {column}").format(box=box_name(category), column=column + 1)
    if category is not None:
        return _("score {box}").format(box=box_name(category))
    return keep_text(keep or ())
