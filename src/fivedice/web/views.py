"""What the web shows of a game: a `GameView` turned into plain, JSON-friendly data.

Both the JSON API and the pages render from these dictionaries, so the browser never needs
the rules: previews, legal boxes, totals and par are all computed here from the state the
service returned.
"""

from __future__ import annotations

from threading import Lock
from typing import Any

from fivedice.core.card import ScoreCard
from fivedice.core.game import GameState, legal_actions
from fivedice.core.rules import RuleSet, preset_name
from fivedice.service.games import GameView

CARDS_CACHED = 4096
"""Cards whose data `card_data` keeps: a version changes one card, the others are the very
same (immutable) objects as in the version before, so their data is not computed again."""

_cards: dict[int, tuple[ScoreCard, object, dict[str, Any]]] = {}
_cards_lock = Lock()


def card_data(state: GameState, seat: int) -> dict[str, Any]:
    """One seat's card: every column's boxes, subtotals, par and bonuses, and the total.

    Kept per card object (and rule set): the card of a seat that did not move is the same
    object from version to version, and its data is the slow part of `game_data`. Callers
    must not change the dictionary returned.
    """
    rules = state.rules
    card = state.cards[seat]
    kept = _cards.get(id(card))
    if kept is not None and kept[0] is card and kept[1] is rules:
        return kept[2]
    data = _card_data(state, seat)
    with _cards_lock:
        if len(_cards) >= CARDS_CACHED:
            _cards.clear()
        _cards[id(card)] = (card, rules, data)
    return data


def _card_data(state: GameState, seat: int) -> dict[str, Any]:
    rules = state.rules
    card = state.cards[seat]
    columns = []
    for index, column in enumerate(card.columns):
        columns.append(
            {
                "column": index + 1,
                "multiplier": rules.column_multipliers[index],
                "boxes": {c.key: column.score(c) for c in column.boxes},
                "upper_total": column.upper_total,
                "upper_par": column.upper_par,
                "upper_bonus": column.upper_bonus(rules),
                "yahtzee_bonus": column.yahtzee_bonus_total(rules),
                "total": column.total(rules) * rules.column_multipliers[index],
            }
        )
    return {"columns": columns, "total": card.total(rules)}


_settings: dict[int, tuple[RuleSet, dict[str, object]]] = {}


def _rule_settings(rules: RuleSet) -> dict[str, object]:
    """`rules.settings()`, made once per rule set object (callers must not change it)."""
    kept = _settings.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    settings = rules.settings()
    with _cards_lock:
        if len(_settings) >= CARDS_CACHED:
            _settings.clear()
        _settings[id(rules)] = (rules, settings)
    return settings


def game_data(view: GameView, public_id: str) -> dict[str, Any]:
    """The whole game as the API returns it (and the pages render it)."""
    state = view.state
    over = view.is_over
    seat_to_move = None if over else state.current_seat
    cards = [card_data(state, index) for index in range(len(state.seats))]
    totals, match_totals, ranks = state.totals, state.match_totals, state.ranks
    players = []
    for index, seat in enumerate(state.seats):
        players.append(
            {
                "seat": index,
                "name": seat.name,
                "kind": "cpu" if seat.is_cpu else "human",
                "level": seat.cpu_level,
                "card": cards[index],
                "total": totals[index],
                "match_total": match_totals[index],
                "rank": ranks[index],
            }
        )
    placements = [] if over else state.placements()
    return {
        "id": public_id,
        "version": view.version,
        "status": view.status,
        "practice": view.practice,
        "dice_commitment": view.dice_commitment,
        "server_seed": view.server_seed,  # None until the game is over (see Fair dice)
        "client_seeds": list(view.client_seeds),  # each seat's own seed ("" for none)
        "rules": preset_name(state.rules),
        "rule_settings": _rule_settings(state.rules),
        "game_number": state.game_number,
        "match_length": state.settings.match_length,
        "first_player": state.settings.first_player.value,
        "current_seat": seat_to_move,
        "instant_winner": state.instant_winner,  # the seat that won at once (Generala)
        "is_cpu_turn": view.is_cpu_turn,
        "turn_number": None if over else state.turn_number,
        "dice": list(state.dice) if state.dice is not None and not over else None,
        "held": list(state.turn.held),
        "rolls_used": state.turn.rolls_used,
        "rolls_left": state.rolls_left,
        "players": players,
        "placements": [
            {
                "column": p.column + 1,
                "box": p.category.key,
                "points": p.points,
                "box_points": p.box_points,
                "upper_bonus": p.upper_bonus,
                "yahtzee_bonus": p.yahtzee_bonus,
                "joker": p.joker,
            }
            for p in placements
        ],
        "legal_actions": [str(action) for action in legal_actions(state)] if not over else [],
        "finished_games": [
            {"number": number, "totals": list(game.totals)}
            for number, game in enumerate(state.finished_games, start=1)
        ],
    }
