"""Words for what the core holds: box names, the rules in words, cards and states as plain text.

Shared by every front end (plain mode, CLI, terminal app, web) so they say the same thing,
in the current language (`fivedice.i18n`).
"""

from __future__ import annotations

from collections.abc import Callable

from fivedice.core.card import Column, ScoreCard
from fivedice.core.categories import CATEGORIES, UPPER, Category
from fivedice.core.game import FirstPlayer, GameState
from fivedice.core.rules import BonusCondition, Joker, OfAKindScoring, RuleSet, Straights
from fivedice.i18n import _


def box_name(category: Category) -> str:
    """The box's name as players know it, in the current language."""
    names = {
        Category.ONES: _("Ones"),
        Category.TWOS: _("Twos"),
        Category.THREES: _("Threes"),
        Category.FOURS: _("Fours"),
        Category.FIVES: _("Fives"),
        Category.SIXES: _("Sixes"),
        Category.THREE_OF_A_KIND: _("Three of a kind"),
        Category.FOUR_OF_A_KIND: _("Four of a kind"),
        Category.FULL_HOUSE: _("Full house"),
        Category.SMALL_STRAIGHT: _("Small straight"),
        Category.LARGE_STRAIGHT: _("Large straight"),
        Category.YAHTZEE: _("Yahtzee"),
        Category.CHANCE: _("Chance"),
    }
    return names[category]


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


def preset_description(name: str) -> str:
    """What a rule preset is, in a few words, in the current language."""
    descriptions = {
        "classic": _("Official rules: extra-Yahtzee bonus 100, forced joker"),
        "free-choice": _("Classic with the free-choice joker (Verhoeff's rules)"),
        "simple": _("No extra-Yahtzee bonus and no joker"),
        "classic-five": _("Classic Five: no bonus, no joker, fixed straights"),
        "triple": _("Triple Yahtzee: three columns counting 1x, 2x and 3x"),
    }
    return descriptions.get(name, name)


def describe_rules(rules: RuleSet) -> list[str]:
    """The active rules as sentences, generated from the rule set's values."""
    lines = [
        _("Five dice, up to {rolls} rolls a turn; hold any dice between rolls.").format(
            rolls=rules.rolls_per_turn
        ),
        _("Upper boxes score the sum of the dice showing their face."),
    ]
    if rules.upper_bonus:
        lines.append(
            _("Upper bonus: {value} points when the upper boxes total {threshold} or more.").format(
                value=rules.upper_bonus_value, threshold=rules.upper_bonus_threshold
            )
        )
    else:
        lines.append(_("No upper bonus."))
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
    lines.append(_yahtzee_bonus_sentence(rules))
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
    lines.append(joker[rules.joker])
    if rules.upper_first:
        lines.append(
            _("Upper boxes first: lower boxes open only once all six upper boxes are filled.")
        )
    if rules.columns > 1:
        multipliers = ", ".join(f"×{m}" for m in rules.column_multipliers)
        lines.append(
            _(
                "{count} columns, filled in any order, one box a turn; they count {multipliers}."
            ).format(count=rules.columns, multipliers=multipliers)
        )
    return lines


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


def card_lines(
    rules: RuleSet, card: ScoreCard, previews: dict[tuple[int, Category], int]
) -> list[str]:
    """A score card as aligned lines; open boxes show what the current dice would earn there."""
    labels = [upper_total_label(), par_label(), upper_bonus_label(), yahtzee_bonus_label()]
    width = max(len(name) for name in [*map(box_name, CATEGORIES), *labels])
    lines = []
    columns = card.columns

    def cell(column: Column, index: int, category: Category) -> str:
        score = column.score(category)
        if score is not None:
            return f"{score:>5}"
        preview = previews.get((index, category))
        return f"{'+' + str(preview) if preview is not None else '-':>5}"

    column_word = _("col")
    header = " " * width + "".join(f"  {column_word} {i + 1}" for i in range(len(columns)))
    if len(columns) > 1:
        lines.append(header)
    for category in CATEGORIES:
        row = "".join(" " + cell(col, i, category) for i, col in enumerate(columns))
        lines.append(f"{box_name(category):<{width}}{row}")
        if category is UPPER[-1]:
            par = "".join(f" {col.upper_par:>+5}" for col in columns)
            upper = "".join(f" {col.upper_total:>5}" for col in columns)
            bonus = "".join(f" {col.upper_bonus(rules):>5}" for col in columns)
            lines.append(f"{upper_total_label():<{width}}{upper}")
            lines.append(f"{par_label():<{width}}{par}")
            lines.append(f"{upper_bonus_label():<{width}}{bonus}")
    extra = "".join(f" {col.yahtzee_bonus_total(rules):>5}" for col in columns)
    lines.append(f"{yahtzee_bonus_label():<{width}}{extra}")
    totals = "".join(f" {t:>5}" for t in card.column_totals(rules))
    lines.append(f"{total_label():<{width}}{totals}")
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
        lines.extend(ranking_lines(state))
        return lines
    seat = state.current_seat
    previews = {(p.column, p.category): p.points for p in state.placements()}
    for index, card in enumerate(state.cards):
        if len(state.cards) > 1 or index != seat:
            lines.append(
                f"== {state.seats[index].name}: {card.total(rules)} =="
                if index != seat
                else f"== {state.seats[index].name} =="
            )
        if index == seat:
            lines.extend(card_lines(rules, card, previews))
    lines.extend(turn_lines(state))
    return lines


def turn_lines(state: GameState) -> list[str]:
    """The turn in two or three lines: whose turn, the dice, and what each open box would earn."""
    rules = state.rules
    seat = state.current_seat
    lines = [
        _("{name}'s turn {turn} of {turns}: roll {used} of {rolls}.").format(
            name=state.seats[seat].name,
            turn=state.turn_number,
            turns=13 * rules.columns,
            used=state.turn.rolls_used,
            rolls=rules.rolls_per_turn,
        ),
        _("Dice: {dice}").format(dice=dice_text(state.dice, state.turn.held)),
    ]
    placements = state.placements()
    if placements:
        multi = rules.columns > 1
        options = ", ".join(
            f"{p.column + 1}:" * multi + f"{p.category.key} {p.points}" for p in placements
        )
        lines.append(_("Boxes: {options}").format(options=options))
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
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError):
        return str(error)
