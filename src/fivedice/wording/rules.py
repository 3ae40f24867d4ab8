"""The rules in words: sentences generated from a rule set's values and boxes."""

from __future__ import annotations

from fivedice.core.boxes import YAHTZEE, Box, BoxKind
from fivedice.core.rules import (
    PRESETS,
    BonusCondition,
    Family,
    FillOrder,
    Joker,
    OfAKindScoring,
    RuleSet,
    Straights,
)
from fivedice.i18n import _, ngettext
from fivedice.wording.boxes import box_name
from fivedice.wording.labels import preset_title
from fivedice.wording.lists import list_text
from fivedice.wording.options import choice_label, option_label

MOST_CHANGES_NAMED = 3
"""A custom rule set's name names at most this many changes; the rest are counted."""


def rules_title(rules: RuleSet) -> str:
    """The rules' name as players see it, in every front end: a preset's title ("Classic"),
    or, for custom rules, the nearest preset and what differs from it ("Classic, bonus at
    70", "Yatzy, 2 rolls a turn") instead of a key like `custom-24e13c39cc`.

    >>> from fivedice.core.rules import find_ruleset
    >>> rules_title(find_ruleset("classic", {"upper_bonus_threshold": 70}))
    'Classic, bonus at 70'
    """
    mine = rules.settings()

    def changes(base: RuleSet) -> list[str]:
        theirs = base.settings()
        keys = [k for k in mine if mine[k] != theirs.get(k)]
        return keys + [k for k in theirs if k not in mine]

    preset = min(PRESETS, key=lambda p: (p.rules.family is not rules.family, len(changes(p.rules))))
    different = changes(preset.rules)
    if not different:
        return preset_title(preset.name)
    words = [_change_words(key, rules) for key in different[:MOST_CHANGES_NAMED]]
    if len(different) > MOST_CHANGES_NAMED:
        more = len(different) - MOST_CHANGES_NAMED
        words.append(
            ngettext("{count} more change", "{count} more changes", more).format(count=more)
        )
    # Translators: a rule preset's title and what differs from it ("Classic, bonus at 70").
    return _("{preset}, {changes}").format(
        preset=preset_title(preset.name), changes=_(", ").join(words)
    )


def _change_words(key: str, rules: RuleSet) -> str:
    """One option that differs from the preset, in a few words, with its value here."""
    value = rules.settings().get(key, getattr(rules, key, None))
    if key == "upper_bonus_threshold":
        return _("bonus at {points}").format(points=value)
    if key == "upper_bonus_value":
        return _("bonus of {points}").format(points=value)
    if key == "rolls_per_turn" and isinstance(value, int):
        return ngettext("{count} roll a turn", "{count} rolls a turn", value).format(count=value)
    if key == "column_multipliers" and isinstance(value, list):
        return _("columns {multipliers}").format(multipliers=" ".join(f"×{m}" for m in value))
    if isinstance(value, bool) or value is None:
        value = "on" if value else "off"
    return _("{option}: {value}").format(option=option_label(key), value=choice_label(str(value)))


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
    if len(rules.bonus_tiers) > 1:
        tiers = list_text(
            _("{value} at {threshold}").format(value=value, threshold=threshold)
            for threshold, value in rules.bonus_tiers
        )
        lines.append(
            _(
                "Upper bonus in tiers: {tiers} in the upper boxes; the highest tier reached counts."
            ).format(tiers=tiers)
        )
    elif rules.upper_bonus:
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
    # Yatzy and Maxi Yatzy have neither a bonus for further Yahtzees nor a joker: their
    # rules do not speak of further Yahtzees at all (unless an option adds them).
    classic = rules.family is Family.YAHTZEE
    if classic or rules.yahtzee_bonus:
        lines.append(_yahtzee_bonus_sentence(rules))
    if classic or rules.joker is not Joker.NONE:
        lines.append(_joker_sentence(rules))
    if rules.upper_first:
        lines.append(
            _("Upper boxes first: lower boxes open only once all six upper boxes are filled.")
        )
    lines.extend(_order_sentences(rules))
    lines.extend(_served_sentences(rules))
    if rules.wild_die:
        lines.append(_wild_die_sentence(rules))
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


def _served_sentences(rules: RuleSet) -> list[str]:
    """The served hands, the instant win they stand for, and the optimum a preset quotes."""
    lines = []
    wins = next((box for box in rules.boxes if box.served_wins), None)
    if any(box.served for box in rules.boxes) and wins is not None:
        lines.append(
            _(
                "Served: a hand made on the first roll of the turn. A served {box} scored in"
                " its box wins the game at once when others are at the table (their cards stay"
                " as they are, and its player ranks first); alone, and for fivedice's"
                " expected-score solver, it is worth the box's {points} points."
            ).format(box=box_name(wins), points=wins.points)
        )
    preset = next((p for p in PRESETS if p.rules == rules), None)
    if preset is not None and preset.optimum is not None:
        lines.append(
            _("Optimal play scores {points} on average (fivedice's exact solver).").format(
                points=f"{preset.optimum:.2f}"
            )
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
                "Extra turn: a player who scores a {box} (all dice the same) plays another"
                " turn at once; a player whose card is full is skipped, and the game ends when"
                " every card is full."
            ).format(box=all_same_name(rules))
        )
    return lines


def all_same_name(rules: RuleSet) -> str:
    """The family's own name for all dice the same: its all-same box's (Yahtzee, Yatzy,
    Yacht, Generala, Kismet, Maxi Yatzy)."""
    return box_name(rules.all_same_box or YAHTZEE)


def _wild_die_sentence(rules: RuleSet) -> str:
    return _(
        "Wild die: die {position} has its own colour and a star (★) on its 1 face. When a roll"
        " is scored the ★ counts as whichever face 1-6 gives the most points in the box chosen"
        " (in Ones it is a 1); it may complete a {box} (all dice the same), a straight or a"
        " full house, and a {box} made with it counts as a {box} for every rule. The wild die"
        " is held by its position like any other. (fivedice's own rule: no published numeric"
        " rule for a wild die exists.)"
    ).format(position=rules.dice, box=all_same_name(rules))


def _points_words(points: int | None, extra: int = 0) -> str:
    if points is not None:
        return str(points)
    if extra:
        return _("the sum of the dice + {extra}").format(extra=extra)
    return _("the sum of those dice")


def _box_extras(box: Box, text: str) -> str:
    """A box's rule with its served points and stand-ins, when it has them."""
    if box.stand_ins:
        text += _(" (a 1 may stand for a 2 or a 6)")
    if box.served:
        text += _(" ({points} more when made on the first roll of the turn)").format(
            points=box.served
        )
    return text


def box_rule(box: Box, rules: RuleSet) -> str:
    """What one box takes and scores, in a few words, from its kind and parameters (the
    rule set's own box): "3 dice of one face: 3 × the face"."""
    box = rules.box(box)
    return _box_extras(box, _box_rule(box, rules))


def _box_rule(box: Box, rules: RuleSet) -> str:
    """`box_rule` without the served points and stand-ins."""
    if box.kind is BoxKind.FLUSH:
        return _(
            "all dice of one colour of pips (1 and 6 black, 2 and 5 red, 3 and 4 green): {points}"
        ).format(points=box.points)
    if box.kind is BoxKind.UPPER:
        return _("the dice showing {face}, summed").format(face=box.face)
    if box.kind is BoxKind.CHANCE:
        return _("any dice, the sum")
    if box.kind is BoxKind.ALL_SAME:
        first_box = rules.all_same_box
        if box.second and first_box is not None:
            return _(
                "all {dice} dice the same face, while the {box} box holds its points: {points}"
            ).format(dice=rules.dice, box=box_name(first_box), points=box.points)
        return _("all {dice} dice the same face: {points}").format(
            dice=rules.dice, points=_points_words(box.points, box.extra)
        )
    if box.kind is BoxKind.OF_A_KIND:
        if box.points is not None:
            return _("at least {size} dice of one face: {points}").format(
                size=box.size, points=box.points
            )
        if box.matching:
            return _("{size} dice of one face: {size} × the face").format(size=box.size)
        if box.extra:
            return _("at least {size} dice of one face: the sum of all the dice + {extra}").format(
                size=box.size, extra=box.extra
            )
        return _("at least {size} dice of one face: the sum of all the dice").format(size=box.size)
    if box.kind is BoxKind.PAIRS and box.same_colour:
        return _(
            "{count} pairs of faces of one colour of pips (four of a kind counts): the sum of"
            " all the dice"
        ).format(count=box.size)
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
    template = (
        _("{first} dice of one face and {second} of another of the same colour: {points}")
        if box.same_colour
        else _("{first} dice of one face and {second} of another: {points}")
    )
    text = template.format(first=first, second=second, points=_points_words(box.points, box.extra))
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
