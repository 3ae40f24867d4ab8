"""The web pages' words, translated per request (never through the process-wide language).

`texts(gettext)` returns every message the templates use, already translated by the
request's catalog; the parameter is called `_` so that `scripts/update-catalogs.sh` (Babel)
extracts the literals. The shared wording of `fivedice.wording.text` (box names, rules in words)
uses the language in force, which `in_language` sets for one call in this request's context
only (`fivedice.i18n.use_language`: a ContextVar, so concurrent requests need no lock).
"""

from __future__ import annotations

import gettext as gettext_module
from collections.abc import Callable

from fivedice.i18n import LANGUAGES, in_language, load_translations
from fivedice.web.alive_words import alive_texts
from fivedice.wording.boxes import (
    par_label,
    total_label,
    upper_bonus_label,
    upper_total_label,
    yahtzee_bonus_label,
)
from fivedice.wording.coach import KEEP_DICE, ROLL_ALL_AGAIN, SCORE_BOX, SCORE_BOX_IN_COLUMN
from fivedice.wording.labels import LEVEL_NAMES, level_name
from fivedice.wording.options import CHOICE_LABELS, FORM_LABELS, choice_label, option_label

__all__ = ["Plural", "gettext_for", "in_language", "ngettext_for", "pick_language", "texts"]


def gettext_for(language: str) -> Callable[[str], str]:
    """The translation function of one language (English: the messages as written)."""
    return load_translations(language if language in LANGUAGES else "en").gettext


def ngettext_for(gettext: Callable[[str], str]) -> Callable[[str, str, int], str]:
    """The plural-form translation that goes with `gettext` (a catalog's bound `gettext`);
    for any other function, English's rule (one: singular) applied to its translations."""
    owner = getattr(gettext, "__self__", None)
    if isinstance(owner, gettext_module.NullTranslations):
        return owner.ngettext
    return lambda singular, plural, count: gettext(singular if count == 1 else plural)


class Plural(str):
    """A message with plural forms, used like the other texts: `.format(**values)` picks the
    form for the number under `key` ("Score Ones for 1 point", "... for 3 points"), so
    templates need not know that the message has several forms. As a plain string it is the
    form for 2."""

    def __new__(cls, forms: Callable[[int], str], key: str) -> Plural:
        text = super().__new__(cls, forms(2))
        text.forms = forms
        text.key = key
        return text

    forms: Callable[[int], str]
    key: str

    def format(self, *args: object, **values: object) -> str:
        count = values.get(self.key)
        number = count if isinstance(count, int) else 2
        return self.forms(number).format(*args, **values)


def pick_language(cookie: str | None, accept_language: str | None) -> str:
    """The switcher's cookie if set, else the best of Accept-Language, else English."""
    if cookie in LANGUAGES:
        return cookie
    choices: list[tuple[float, int, str]] = []
    for order, part in enumerate((accept_language or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        code = tag.strip().split("-")[0].lower()
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if code in LANGUAGES and quality > 0:
            choices.append((-quality, order, code))
    return min(choices)[2] if choices else "en"


def texts(_: Callable[[str], str]) -> dict[str, str]:
    """Every message of the web pages, translated by `_`; the CPU levels (by level) and the
    rule options' labels (`opt_` + option) and values (`val_` + value) are the shared
    wording's."""
    ngettext = ngettext_for(_)
    return {
        **alive_texts(_),  # (sound, celebration, Copy and Share, offline: web/alive_words.py)
        "tagline": _("Five dice, every house rule, and a coach that knows the best move."),
        "new_game": _("New game"),
        "at_table": _("At the table"),
        "at_table_link": _("Playing with real dice? Let this phone keep the score."),
        "learn_by_playing": _("Learn by playing"),
        "drills": _("Practice"),
        "resume": _("Resume"),
        "rules": _("Rules"),
        "statistics": _("Statistics"),
        "high_scores": _("High scores"),
        "language": _("Language"),
        "players": _("Players"),
        "player": _("Player"),
        "name": _("Name"),
        "seat_n": _("Seat {number}"),
        "human": _("Human"),
        "cpu": _("CPU"),
        "nobody": _("Nobody"),
        "level": _("Level"),
        "preset": _("Rule preset"),
        "advanced": _("Advanced options"),
        "advanced_note": _("Leave a field empty to keep the preset's value."),
        "first_player": _("First player"),
        "table": _("Table and match"),
        "score_card": _("Score card"),
        "score_sheet": _("Score sheet"),
        "strategy_guide": _("Strategy guide"),
        "match_length": _("Games in the match"),
        "seed": _("Seed (optional, for a repeatable game)"),
        "practice": _("Practice (kept out of statistics and high scores)"),
        "start": _("Start"),
        "unfinished": _("Your unfinished games"),
        "no_unfinished": _("No unfinished games."),
        "continue": _("Continue"),
        "abandon": _("Abandon"),
        "roll": _("Roll"),
        "rolls_left": _("Rolls left: {count}"),
        "hint": _("Hint"),
        "coach_on": _("Coach: on"),
        "coach_off": _("Coach: off"),
        "chances_title": _("Chances to win"),
        "chances_estimated": _("Chances to win (estimated)"),
        "label_colon": _("{label}: "),  # (a label before figures: "：" in Japanese)
        "chances_on": _("Chances: on"),
        "chances_off": _("Chances: off"),
        "chance_of": _("{name}: {percent}%"),
        "whose_turn": _("{name}'s turn"),
        "turn_of": _("Turn {turn} of {turns}"),
        "game_of": _("Game {number} of {count}"),
        "die_label": _("Die {position}: {value}"),
        "die_held": _("Die {position}: {value}, held"),
        "die_unrolled": _("Die {position}: not rolled yet"),
        "dice": _("Dice"),
        "score_for": Plural(
            lambda n: ngettext(
                "Score {box} for {points} point", "Score {box} for {points} points", n
            ),
            "points",
        ),
        "score_for_column": _(
            "Score {box} in column {column} (×{multiplier}) for {points} points, worth {worth}"
        ),
        "column_short": _("Column {number} ×{multiplier}"),
        "preview": _("preview"),
        "unavailable": _("not available with these dice"),
        "open_box": _("open"),
        "confirm_zero": _("Score 0 in {box}? The box is then used up."),
        "zero_yes": _("Yes, score 0"),
        "zero_no": _("No, choose again"),
        "last_moves": _("Last moves"),
        "hint_legend": _(
            "Each number is the expected points to come, this move included;"
            " a red number is what an option loses against the best."
        ),
        "only_solo": _(
            "Only solo games count here: one player alone, no CPU and no friends,"
            " and not practice games."
        ),
        "started_on": _("started {date}"),
        "rules_named": _("rules: {rules}"),
        "abandon_game": _("Abandon this game?"),
        "abandon_note": _("It will no longer be offered for resuming."),
        "abandon_yes": _("Yes, abandon it"),
        "abandon_no": _("No, keep it"),
        "start_game": _("Start the game"),
        "box_value": _("{box}: {points}"),
        "box_unavailable": _("{box}: not available with these dice"),
        "box_open": _("{box}: open"),
        "cpu_thinking": _("{name} is thinking…"),
        "seat_me": _("Me"),
        "seat_friend": _("A friend (invite)"),
        "seat_local": _("Someone at this device"),
        "seat_open": _("Open seat (anyone with the room code)"),
        "room_started": _("This game has started. Only its players can open it."),
        "seed_given": _("Dice seed: {seed}"),
        "set_seed": _("Save my seed"),
        "your_devices": _("Your devices"),
        "device_this": _("this device"),
        "device_number": _("Device {number}"),
        "device_since": _("added {moment}"),
        "add_device": _("Add another device"),
        "add_device_note": _(
            "Open this link on your other device (it works once; a new one replaces it):"
        ),
        "device_code": _("Device code"),
        "use_device": _("Play this seat on this device too"),
        "leave_game": _("Leave this game"),
        "leave_note": _("A CPU plays your seat from now on; the others play on."),
        "handover_level": _("CPU level"),
        "only_host_abandons": _(
            "Only the host abandons a game that others play. You may leave it: a CPU plays"
            " your seat from then on."
        ),
        "seat_cpu": _("CPU"),
        "join_game": _("Join a game"),
        "join_game_link": _("A friend gave you a room code? Enter it here."),
        "join": _("Join"),
        "your_name": _("Your name"),
        "invited_as": _("You are invited to play as {name}."),
        "waiting_room": _("Waiting room"),
        "room_code": _("Room code"),
        "room_code_note": _(
            "A friend named on a seat joins with their own invitation link; with this code on"
            " “Join a game” anyone takes an open seat."
        ),
        "room_code_links_only": _(
            "Each friend joins with their own invitation link: this game has no open seat,"
            " so the code alone takes no seat."
        ),
        "seat_host": _("The host"),
        "seat_hosts_device": _("At the host's device"),
        "room_code_is": _("Room {code}"),
        "joined": _("joined"),
        "not_joined": _("not joined yet"),
        "you": _("you"),
        "invite_link": _("Invitation link"),
        "start_now": _("Start"),
        "start_with_cpus": _("Start with CPUs in the empty seats"),
        "waiting_for_host": _("Waiting for the host to start the game."),
        "reload": _("Reload"),
        "host_tools": _("A player left?"),
        "handover_note": _("Hand their seat to a CPU; it plays on from their next move."),
        "handover": _("Let a CPU play for {name}"),
        "cpu_move": _("Let the CPU move"),
        "did": _("{name}: {action}"),
        "game_over": _("Game over."),
        "game_abandoned": _("Game abandoned."),
        "review_game": _("Review this game"),
        "fair_dice": _("Fair dice"),
        "fair_commitment": _(
            "Before the first roll the server committed to a secret seed for the dice. Its"
            " fingerprint (SHA-256):"
        ),
        "fair_secret": _(
            "The seed itself is revealed when the game ends; then anyone can check every roll."
        ),
        "fair_revealed": _("The game is over; the server's seed was:"),
        "fair_client_seeds": _("The players' own seeds, mixed into the dice:"),
        "fair_no_client_seeds": _("No player added a seed of their own."),
        "verify_dice": _("Verify the dice"),
        "download_record": _("Download the game record"),
        "verify_title": _("Checking the dice of this game"),
        "record_key": _("The key that signs this server's game records (its fingerprint):"),
        "verify_yourself": _(
            "Check it yourself: download the record and run {command}, or recompute the dice"
            " with a few lines of your own code (the construction is in the README)."
        ),
        "back_to_game": _("Back to the game"),
        "your_dice_seed": _("Your dice seed (optional)"),
        "dice_seed_note": _(
            "Any text, up to 64 characters. It is mixed into the dice, so that nobody - not"
            " even the server - can choose them."
        ),
        "form_commitment": _(
            "The server has already committed to its seed for this game, before you choose"
            " yours; the game will show this fingerprint (SHA-256):"
        ),
        "commitment_used": _(
            "This form has already started a game. A new commitment is shown below: choose"
            " your seed again to start another game."
        ),
        "commitment_stale": _(
            "The commitment on this form can no longer be used (it has expired, or it is not"
            " this server's). A new one is shown below: choose your seed again."
        ),
        "finished_games": _("Finished games"),
        "review": _("Review"),
        "rank": _("Rank"),
        "total": total_label(_),
        "match_total": _("Match total"),
        "standings": _("Standings"),
        "watching": _("You are watching: you hold no seat in this game."),
        "not_your_turn": _("Waiting for {name}."),
        "keys_help": _("Keys: 1–5 hold or release a die, R rolls, H asks for a hint."),
        "keys_help_six": _("Keys: 1–6 hold or release a die, R rolls, H asks for a hint."),
        "invite": _("Invite links (send one to each player)"),
        "upper_total": upper_total_label(_),
        "against_par": par_label(_),
        "upper_bonus": upper_bonus_label(_),
        "yahtzee_bonus": yahtzee_bonus_label(_),
        "column_n": _("Column {number} (×{multiplier})"),
        "box": _("Box"),
        "best_options": _("Best options"),
        "goal_label": _("Goal"),
        "goal_button": _("Play for it"),
        "goal_loss": _("chance given up against the best"),
        "goal_heading": _(
            "The coach's best options for a final total of {total} (chance of reaching it):"
        ),
        "why_box_by_box": _("Why, box by box"),
        "expected": _("expected points to come"),
        "loss": _("points lost against the best"),
        "keep_dice": _(KEEP_DICE),
        "reroll_all": _(ROLL_ALL_AGAIN),
        "score_box": _(SCORE_BOX),
        "score_box_in_column": _(SCORE_BOX_IN_COLUMN),
        "best_options_estimated": _("Best options (estimated values, not exact)"),
        "games": _("Games"),
        "wins": _("Wins"),
        "average": _("Average"),
        "best": _("Best"),
        "worst": _("Worst"),
        "bonus_rate": _("Upper bonus rate"),
        "yahtzees": _("Yahtzees"),
        "no_stats": _("No finished games yet."),
        "place": _("Place"),
        "date": _("Date"),
        "no_high_scores": _("No high scores yet."),
        "typed_high_scores": _("At the table: dice typed in"),
        "typed_note": _(
            "These games were kept at a real table: their dice were typed in, not rolled by"
            " the app, so nobody can check them. They never enter the high scores above."
        ),
        "not_found": _("That game does not exist."),
        "page_stuck": _(
            "The page could not reach the server or the move was refused; reload to try again."
        ),
        "reconnecting": _("Connection lost. Reconnecting…"),
        "back_home": _("Back to the start"),
        "error": _("That did not work: {message}"),
        "rules_of": _("The rules of this game"),
        "preset_rules": _("Rules of a preset"),
        "show": _("Show"),
        "scratch": _("scratch"),
        "skip_link": _("Skip to the game"),
        # The board: whose move it is on this device, the end, the menu, undo.
        "your_turn": _("Your turn"),
        "tab_your_move": _("● {heading} · fivedice"),
        "you_win": _("You win with {points}"),
        "wins_with": _("{name} wins with {points}"),
        "tie_win": _("{names} share the win with {points}"),
        "solo_over": _("Game over. {name}: {points}"),
        "undo": _("Undo"),
        "menu": _("Menu"),
        "yes": _("Yes"),
        "no": _("No"),
        **{level: level_name(level, _) for level in LEVEL_NAMES},
        **{f"opt_{name}": option_label(name, _) for name in FORM_LABELS},
        **{f"val_{value}": choice_label(value, _) for value in CHOICE_LABELS},
    }
