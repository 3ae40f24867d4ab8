"""The game: seats, turns, rolls, holds, scoring, matches, first player and ranking.

State is immutable; `apply(state, action, dice)` returns the next state and raises a typed
error, leaving the old state as it was, when the action is malformed or illegal.

>>> from fivedice.core.dice import ScriptedDice
>>> settings = GameSettings(seats=(Seat("Ann"),))
>>> state = new_game(settings)
>>> state = apply(state, parse_action("roll"), ScriptedDice([3, 3, 3, 5, 5]))
>>> state = apply(state, parse_action("score full_house"))
>>> state.totals
(25,)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property

from fivedice.core.actions import (
    Action,
    EnterDice,
    Hold,
    Release,
    Roll,
    Score,
    ScorePoints,
    parse_action,
)
from fivedice.core.card import Placement, ScoreCard
from fivedice.core.dice import DICE_COUNT, DiceSource, normalize_sequence
from fivedice.core.errors import N_, ActionError, IllegalActionError
from fivedice.core.errors import SettingsError as SettingsError  # (its old home: re-exported)
from fivedice.core.names import check_name, name_key
from fivedice.core.rules import RuleSet
from fivedice.core.scoring import is_yahtzee

MAX_SEATS = 100
MAX_MATCH_LENGTH = 100


class FirstPlayer(Enum):
    """How the first player of a game is chosen."""

    FIRST_SEAT = "first_seat"  # the first seat (in a match: rotates by game)
    HIGHEST_DIE = "highest_die"  # everyone rolls one die; highest starts, ties roll again
    HIGHEST_SUM = "highest_sum"  # everyone rolls five dice; highest sum starts, ties roll again


class GameKind(Enum):
    """Who rolls: the app (`play`), or the players with real dice at a table (`table`).

    At the table the app only keeps the score: players enter the dice they rolled
    (`dice 3 3 3 5 5`) or the points of a box (`score full_house 25`); there is no roll or hold.
    """

    PLAY = "play"
    TABLE = "table"


@dataclass(frozen=True)
class Seat:
    """A place at the table: a human, or a CPU player of a named level.

    The name is checked and trimmed by `check_name` (the one rule for names); the CPU level
    is checked where the levels are known (the service), not here.

    Raises:
        PlayerNameError: the name cannot be used.
    """

    name: str
    cpu_level: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", check_name(self.name))

    @property
    def is_cpu(self) -> bool:
        return self.cpu_level is not None


@dataclass(frozen=True)
class GameSettings:
    """Everything that defines a game or match before the first roll."""

    seats: tuple[Seat, ...] = (Seat("Player"),)
    rules: RuleSet = field(default_factory=RuleSet)
    first_player: FirstPlayer = FirstPlayer.FIRST_SEAT
    match_length: int = 1
    kind: GameKind = GameKind.PLAY

    @property
    def is_table(self) -> bool:
        """A game at the table: real dice, the app keeps the card."""
        return self.kind is GameKind.TABLE

    def __post_init__(self) -> None:
        if not 1 <= len(self.seats) <= MAX_SEATS:
            raise SettingsError(
                N_("a game has 1 to {most} seats, not {count}"),
                most=MAX_SEATS,
                count=len(self.seats),
            )
        names = [name_key(seat.name) for seat in self.seats]
        if len(set(names)) != len(names):
            raise SettingsError(N_("two seats have the same name; give each player their own"))
        if self.kind is GameKind.TABLE and any(seat.is_cpu for seat in self.seats):
            raise SettingsError(N_("at the table every seat is a person with real dice"))
        if self.kind is GameKind.TABLE and self.rules.wild_die:
            raise SettingsError(
                N_("the wild die is played with the app's dice, not in a game at the table")
            )
        if not 1 <= self.match_length <= MAX_MATCH_LENGTH:
            raise SettingsError(
                N_("a match has 1 to {most} games, not {count}"),
                most=MAX_MATCH_LENGTH,
                count=self.match_length,
            )


@dataclass(frozen=True)
class Turn:
    """The turn in progress: whose it is, the dice (None before the first roll), holds."""

    seat: int
    dice: tuple[int, ...] | None = None
    held: tuple[bool, ...] = (False,) * DICE_COUNT
    rolls_used: int = 0

    @classmethod
    def start(cls, seat: int, rules: RuleSet) -> Turn:
        """A new turn of `seat` before its first roll, with the rule set's number of dice."""
        return cls(seat=seat, held=(False,) * rules.dice)

    @property
    def held_positions(self) -> tuple[int, ...]:
        """Held dice by position, from 1."""
        return tuple(i + 1 for i, h in enumerate(self.held) if h)

    @property
    def kept_values(self) -> tuple[int, ...]:
        """The values of the held dice, sorted (a keep)."""
        if self.dice is None:
            return ()
        return tuple(sorted(d for d, h in zip(self.dice, self.held, strict=True) if h))


@dataclass(frozen=True)
class FinishedGame:
    """A finished game of a match: the cards, each seat's total, and who started."""

    cards: tuple[ScoreCard, ...]
    totals: tuple[int, ...]
    starting_seat: int
    instant_winner: int | None = None
    """The seat that won the game at once (`Box.served_wins`), if one did."""


@dataclass(frozen=True)
class GameState:
    """A game (or the current game of a match) at one moment."""

    settings: GameSettings
    cards: tuple[ScoreCard, ...]
    turn: Turn
    starting_seat: int = 0
    game_number: int = 1
    opening_rolls: tuple[tuple[tuple[int, ...] | None, ...], ...] = ()
    finished_games: tuple[FinishedGame, ...] = ()
    saved_rolls: tuple[int, ...] = ()
    """Rolls each seat saved from earlier turns (the `saved_rolls` rule; empty: none)."""
    instant_winner: int | None = None
    """The seat that won the current game at once: it scored a served hand in a box that
    wins (`Box.served_wins`: Generala) with others at the table. The game ends there, the
    other cards as they stand; that seat ranks first whatever the totals (`ranks`)."""

    @property
    def rules(self) -> RuleSet:
        return self.settings.rules

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.settings.seats

    @property
    def current_seat(self) -> int:
        return self.turn.seat

    @property
    def dice(self) -> tuple[int, ...] | None:
        return self.turn.dice

    @property
    def rolls_left(self) -> int:
        return self.rules.rolls_per_turn + self.rolls_saved(self.turn.seat) - self.turn.rolls_used

    def rolls_saved(self, seat: int) -> int:
        """Rolls the seat saved from earlier turns (the `saved_rolls` rule), usable now."""
        return self.saved_rolls[seat] if seat < len(self.saved_rolls) else 0

    @property
    def is_game_over(self) -> bool:
        """The current game is finished (every box of every card is filled, or a seat won it
        at once: `instant_winner`)."""
        return self.instant_winner is not None or all(card.is_complete for card in self.cards)

    @property
    def is_match_over(self) -> bool:
        return self.is_game_over and self.game_number >= self.settings.match_length

    @cached_property  # (a state never changes: summed once, however often asked)
    def totals(self) -> tuple[int, ...]:
        """Each seat's grand total in the current game."""
        return tuple(card.total(self.rules) for card in self.cards)

    @cached_property  # (a state never changes: summed once, however often asked)
    def match_totals(self) -> tuple[int, ...]:
        """Each seat's total summed over the finished games and the current one."""
        return tuple(
            sum(game.totals[seat] for game in self.finished_games) + total
            for seat, total in enumerate(self.totals)
        )

    @cached_property  # (a state never changes: summed once, however often asked)
    def ranks(self) -> tuple[int, ...]:
        """Each seat's rank by match total; equal totals share a rank (1, 1, 3). A single
        game won at once (`instant_winner`) ranks its winner first, the others after it by
        their totals; in a match of several games such a win ends that game only, and the
        match is ranked by its totals."""
        winner = self.instant_winner if self.settings.match_length == 1 else None
        return rank(self.match_totals, winner)

    @property
    def turn_number(self) -> int:
        """1-based number of the current round (turns of the seat to move, plus one)."""
        return self.cards[self.turn.seat].boxes_filled + 1

    def placements(self) -> list[Placement]:
        """Where the current dice may go for the seat to move (empty before the first roll)."""
        return list(self._placements)

    @cached_property
    def _placements(self) -> tuple[Placement, ...]:
        # (Made once per state: a view lists them and its legal actions again.)
        if self.turn.dice is None or self.is_game_over:
            return ()
        return tuple(self.cards[self.turn.seat].placements(self.rules, self.turn.dice, self.served))

    @property
    def served(self) -> bool:
        """The dice are the turn's first roll ("served": Generala's hands earn more)."""
        return self.turn.rolls_used == 1


def rank(totals: Sequence[int], winner: int | None = None) -> tuple[int, ...]:
    """Competition ranking: highest first, equal totals share the rank; a seat that won at
    once (`winner`: `GameState.instant_winner`) first whatever its total, the others after.

    >>> rank([200, 250, 200, 180])
    (2, 1, 2, 4)
    >>> rank([120, 90, 150], winner=1)
    (3, 1, 2)
    """
    if winner is None:
        return tuple(1 + sum(1 for other in totals if other > total) for total in totals)
    others = [total for seat, total in enumerate(totals) if seat != winner]
    return tuple(
        1 if seat == winner else 2 + sum(1 for other in others if other > total)
        for seat, total in enumerate(totals)
    )


def choose_first_player(
    mode: FirstPlayer,
    seat_count: int,
    dice: DiceSource | None,
    game_number: int = 1,
    dice_count: int = DICE_COUNT,
) -> tuple[int, tuple[tuple[tuple[int, ...] | None, ...], ...]]:
    """The starting seat and the roll-off rounds that chose it (None: not in that round).

    In `first_seat` mode the start rotates through the seats from game to game of a match.
    """
    if mode is FirstPlayer.FIRST_SEAT or seat_count == 1:
        return (game_number - 1) % seat_count, ()
    if dice is None:
        raise ActionError(N_("choosing the first player by dice needs a dice source"))
    count = 1 if mode is FirstPlayer.HIGHEST_DIE else dice_count
    contenders = list(range(seat_count))
    rounds: list[tuple[tuple[int, ...] | None, ...]] = []
    while True:
        rolls: list[tuple[int, ...] | None] = [None] * seat_count
        for seat in contenders:
            rolls[seat] = normalize_sequence(dice.roll(count))
        rounds.append(tuple(rolls))
        best = max(sum(rolls[seat] or ()) for seat in contenders)
        contenders = [seat for seat in contenders if sum(rolls[seat] or ()) == best]
        if len(contenders) == 1:
            return contenders[0], tuple(rounds)


def _start_game(
    settings: GameSettings,
    dice: DiceSource | None,
    game_number: int,
    finished: tuple[FinishedGame, ...],
) -> GameState:
    start, rounds = choose_first_player(
        settings.first_player, len(settings.seats), dice, game_number, settings.rules.dice
    )
    return GameState(
        settings=settings,
        cards=tuple(ScoreCard.empty(settings.rules) for _ in settings.seats),
        turn=Turn.start(start, settings.rules),
        starting_seat=start,
        game_number=game_number,
        opening_rolls=rounds,
        finished_games=finished,
    )


def new_game(settings: GameSettings, dice: DiceSource | None = None) -> GameState:
    """The state before the first roll; `dice` is needed when the first player is rolled for."""
    return _start_game(settings, dice, 1, ())


# One whole sentence per verb, so that translators see each sentence whole.
_ROLL_FIRST = {
    "hold dice": N_("roll before you hold dice: the turn starts with a roll"),
    "release dice": N_("roll before you release dice: the turn starts with a roll"),
    "score": N_("roll before you score: the turn starts with a roll"),
}
_NO_ROLLS_LEFT = {
    "roll": N_(
        "no rolls are left ({used} of {rolls} used), so there is nothing to roll: score a box"
    ),
    "hold": N_(
        "no rolls are left ({used} of {rolls} used), so there is nothing to hold: score a box"
    ),
    "release": N_(
        "no rolls are left ({used} of {rolls} used), so there is nothing to release: score a box"
    ),
}


def _require_turn_started(state: GameState, doing: str) -> tuple[int, ...]:
    if state.turn.dice is None:
        raise IllegalActionError(_ROLL_FIRST[doing])
    return state.turn.dice


def _require_rolls_left(state: GameState, doing: str) -> None:
    if state.rolls_left <= 0:
        raise IllegalActionError(
            _NO_ROLLS_LEFT[doing],
            used=state.turn.rolls_used,
            rolls=state.rules.rolls_per_turn,
        )


def _apply_roll(state: GameState, dice: DiceSource | None) -> GameState:
    turn = state.turn
    if turn.dice is not None:
        _require_rolls_left(state, "roll")
        if all(turn.held):
            raise IllegalActionError(
                N_("all five dice are held: release one to roll, or score a box")
                if len(turn.held) == DICE_COUNT
                else N_("all the dice are held: release one to roll, or score a box")
            )
    if dice is None:
        raise ActionError(N_("rolling needs a dice source"))
    count = state.rules.dice
    held = turn.held if turn.dice is not None else (False,) * count
    fresh = iter(normalize_sequence(dice.roll(held.count(False))))
    old = turn.dice or (0,) * count
    values = tuple(old[i] if held[i] else next(fresh) for i in range(count))
    return replace(
        state, turn=replace(turn, dice=values, held=held, rolls_used=turn.rolls_used + 1)
    )


def _apply_hold(state: GameState, positions: tuple[int, ...], hold: bool) -> GameState:
    verb = "hold" if hold else "release"
    _require_turn_started(state, verb + " dice")
    _require_rolls_left(state, verb)
    held = list(state.turn.held)
    for position in positions:
        if position > len(held):
            raise IllegalActionError(
                N_("there are dice 1 to {count}; there is no die {position}"),
                count=len(held),
                position=position,
            )
    for position in positions:
        if held[position - 1] == hold:
            template = (
                N_("die {position} is already held") if hold else N_("die {position} is not held")
            )
            raise IllegalActionError(template, position=position)
        held[position - 1] = hold
    return replace(state, turn=replace(state.turn, held=tuple(held)))


def _apply_score(state: GameState, action: Score, dice: DiceSource | None) -> GameState:
    if state.settings.is_table and state.turn.dice is None:
        raise IllegalActionError(
            N_(
                "enter the dice first (e.g. 'dice 3 3 3 5 5'), or the points"
                " (e.g. 'score full_house 25')"
            )
        )
    values = _require_turn_started(state, "score")
    seat = state.turn.seat
    card = state.cards[seat].fill(state.rules, action.column, action.category, values, state.served)
    wins = (
        state.served
        and len(state.seats) > 1
        and state.rules.box(action.category).served_wins
        and bool(card.columns[action.column].score(action.category))
    )
    return _next_turn(state, card, dice, is_yahtzee(state.rules, values), seat if wins else None)


def _apply_points(state: GameState, action: ScorePoints, dice: DiceSource | None) -> GameState:
    seat = state.turn.seat
    card = state.cards[seat].fill_points(state.rules, action.column, action.category, action.points)
    entered = state.turn.dice
    yahtzee = entered is not None and is_yahtzee(state.rules, entered)
    all_same_box = state.rules.all_same_box
    if all_same_box is not None and action.category == all_same_box and action.points > 0:
        yahtzee = True  # points in the Yahtzee box: a Yahtzee was rolled
    return _next_turn(state, card, dice, yahtzee)


def _apply_dice(state: GameState, action: EnterDice) -> GameState:
    count = state.rules.dice
    if len(action.dice) != count:
        raise IllegalActionError(
            N_("a roll has {count} dice, not {found}: {dice}"),
            count=count,
            found=len(action.dice),
            dice=action.dice,
        )
    # The dice are final as far as the app knows: no rolls are left to take here.
    used = state.rules.rolls_per_turn + state.rolls_saved(state.turn.seat)
    turn = replace(state.turn, dice=action.dice, rolls_used=used)
    return replace(state, turn=turn)


def _next_seat(state: GameState, cards: tuple[ScoreCard, ...], yahtzee: bool) -> int:
    """Who plays next: the same seat after a Yahtzee under `extra_turn_on_yahtzee` (unless its
    card is full), else the next seat in order whose card is not full."""
    seat = state.turn.seat
    count = len(state.seats)
    if yahtzee and state.rules.extra_turn_on_yahtzee and not cards[seat].is_complete:
        return seat
    for step in range(1, count + 1):
        candidate = (seat + step) % count
        if not cards[candidate].is_complete:
            return candidate
    return (seat + 1) % count  # the game is over


def _saved_after(state: GameState) -> tuple[int, ...]:
    """The saved rolls after the seat to move scores: its rolls left are kept for later."""
    if not state.rules.saved_rolls or state.settings.is_table:
        return state.saved_rolls
    saved = list(state.saved_rolls or (0,) * len(state.seats))
    saved[state.turn.seat] = max(0, state.rolls_left)
    return tuple(saved)


def _next_turn(
    state: GameState,
    card: ScoreCard,
    dice: DiceSource | None,
    yahtzee: bool = False,
    winner: int | None = None,
) -> GameState:
    """The state after the seat to move filled a box: the next seat's turn, or next game
    (`winner`: the seat that won the game at once by this box)."""
    seat = state.turn.seat
    cards = (*state.cards[:seat], card, *state.cards[seat + 1 :])
    after = replace(
        state,
        cards=cards,
        turn=Turn.start(_next_seat(state, cards, yahtzee), state.rules),
        saved_rolls=_saved_after(state),
        instant_winner=winner,
    )
    if after.is_game_over and after.game_number < state.settings.match_length:
        finished = FinishedGame(cards, after.totals, state.starting_seat, winner)
        return _start_game(
            state.settings, dice, state.game_number + 1, (*state.finished_games, finished)
        )
    return after


def apply(state: GameState, action: Action | str, dice: DiceSource | None = None) -> GameState:
    """The state after an action by the seat to move.

    Args:
        state: the current state (never modified).
        action: an action value, or its text notation.
        dice: where new dice come from; needed for `roll`, and for the last `score` of a
            game of a match whose next first player is rolled for.

    Raises:
        MalformedActionError: the text is not an action.
        IllegalActionError: the rules do not allow the action now; the message says why.
    """
    if isinstance(action, str):
        action = parse_action(action, state.rules.dice)
    if state.is_match_over:
        raise IllegalActionError(N_("the game is over"))
    at_table = state.settings.is_table
    if at_table and isinstance(action, Roll | Hold | Release):
        raise IllegalActionError(
            N_(
                "at the table you roll your own dice: enter what you rolled"
                " (e.g. 'dice 3 3 3 5 5') or the points (e.g. 'score full_house 25')"
            )
        )
    if not at_table and isinstance(action, EnterDice | ScorePoints):
        raise IllegalActionError(
            N_(
                "dice and points are entered only in games at the table;"
                " here the app rolls the dice"
            )
        )
    if isinstance(action, EnterDice):
        return _apply_dice(state, action)
    if isinstance(action, ScorePoints):
        return _apply_points(state, action, dice)
    if isinstance(action, Roll):
        return _apply_roll(state, dice)
    if isinstance(action, Hold):
        return _apply_hold(state, action.positions, True)
    if isinstance(action, Release):
        return _apply_hold(state, action.positions, False)
    if isinstance(action, Score):
        return _apply_score(state, action, dice)
    raise ActionError(N_("not an action: {action!r}"), action=action)


def legal_actions(state: GameState) -> list[Action]:
    """Every action the seat to move may take now (holds and releases one die each).

    At the table: the boxes the entered dice may go in (entering dice or points is always
    possible and not listed).
    """
    if state.is_match_over:
        return []
    turn = state.turn
    if state.settings.is_table:
        # Dice entries (any of the 252 rolls) and point entries are not listed.
        return [Score(p.category, p.column) for p in state.placements()]
    if turn.dice is None:
        return [Roll()]
    actions: list[Action] = []
    if state.rolls_left > 0:
        if not all(turn.held):
            actions.append(Roll())
        for position in range(1, len(turn.held) + 1):
            held = turn.held[position - 1]
            actions.append(Release((position,)) if held else Hold((position,)))
    actions.extend(Score(p.category, p.column) for p in state.placements())
    return actions


def replay(
    settings: GameSettings, actions: Iterable[Action | str], dice: DiceSource | None
) -> GameState:
    """The state reached by playing `actions` from a new game with the given dice."""
    state = new_game(settings, dice)
    for action in actions:
        state = apply(state, action, dice)
    return state
