"""Texas Hold'em Yahtzee use cases: games with people and CPUs, turns, views, the coach,
records, reviews and statistics (kept apart from the score games).

A game is kept as its record (`fivedice.core.holdem.record.HoldemRecord`, with its server
seed and the faces of every action) in a `HoldemGames` port: the store's table
(`fivedice.store.holdem.HoldemStore`) or, without a store, memory. Every answer a front end
gets for a seat comes from `view_for`: no other seat's pocket dice before the showdown.

The API for front ends (every method raises the typed errors of the core on bad input and
changes nothing then):

- `new_game(seats, rules, ...) -> int`: a game id; the first hand is dealt.
- `view(game_id, seat) -> HoldemView`: the table as that seat (None: a spectator) sees it.
- `act(game_id, seat, action) -> ActResult`: a person's action ("check", "bet 40", ...).
- `cpu_step(game_id) -> ActResult | None`: one CPU action, if a CPU is to act.
- `run_cpus(game_id) -> list[ActResult]`: CPU actions until a person is to act or the end.
- `coach(game_id, seat) -> Decision`: the equity now, the pot odds, the strongest level's
  action and its reason (`fivedice.wording.holdem.coach_text` says it in words).
- `export(game_id) -> str`: the signed record (the faces and seed only once it is over).
- `review(game_id) -> list[ReviewLine]`: a finished game's decisions with their equity.
- `games() -> list[HoldemSummary]`, `abandon(game_id)`, `stats() -> list[HoldemStats]`.
- `HoldemService.open(url)`: kept in the database; `latest_unfinished() -> int | None`
  and every method above with a saved game's id resume it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from fivedice.core.errors import N_, FivediceError, IllegalActionError
from fivedice.core.fairdice import LEGACY_SCHEME, SCHEME_V2, DiceSeeds, client_seed_list
from fivedice.core.game import Seat
from fivedice.core.holdem import (
    HandResult,
    HoldemRules,
    HoldemState,
    HoldemView,
    Street,
    new_game,
    parse_betting_action,
    view_for,
)
from fivedice.core.holdem.record import (
    HoldemRecord,
    holdem_record_to_text,
    parse_holdem_record,
)
from fivedice.core.record import RecordingDice
from fivedice.service.errors import NotCpuTurnError, ReviewRefusedError
from fivedice.strategy.holdem.odds import Equity
from fivedice.strategy.holdem.players import Decision, Reason, decide, strongest_decision
from fivedice.strategy.levels import check_level

__all__ = [
    "ActResult",
    "HoldemGameNotFoundError",
    "HoldemGames",
    "HoldemService",
    "HoldemStats",
    "HoldemSummary",
    "MemoryHoldemGames",
    "ReviewLine",
]


class HoldemGameNotFoundError(FivediceError):
    """No Hold'em game has this id."""


class HoldemGames(Protocol):
    """Where Hold'em games are kept: each as its record's whole text (`kept=True`)."""

    def create(self, text: str, status: str) -> int: ...

    def save(self, game_id: int, text: str, status: str) -> None: ...

    def load(self, game_id: int) -> str: ...

    def ids(self) -> list[int]: ...


class MemoryHoldemGames:
    """Hold'em games kept in memory (a process's games: tests, a session without a store)."""

    def __init__(self) -> None:
        self._texts: dict[int, str] = {}

    def create(self, text: str, status: str) -> int:
        game_id = len(self._texts) + 1
        self._texts[game_id] = text
        return game_id

    def save(self, game_id: int, text: str, status: str) -> None:
        self._texts[game_id] = text

    def load(self, game_id: int) -> str:
        if game_id not in self._texts:
            raise HoldemGameNotFoundError(N_("there is no game {game_id}"), game_id=game_id)
        return self._texts[game_id]

    def ids(self) -> list[int]:
        return sorted(self._texts, reverse=True)


@dataclass(frozen=True)
class ActResult:
    """One action taken: who, what, and how the hand ended if it did."""

    seat: int
    name: str
    action: str
    hand_number: int
    ended_hand: HandResult | None
    """The result of the hand this action ended (None: the hand goes on)."""
    game_over: bool


@dataclass(frozen=True)
class ReviewLine:
    """One decision of a finished game with the equity of that moment."""

    seq: int
    hand_number: int
    street: Street
    seat: int
    name: str
    action: str
    equity: Equity
    pot_odds: float
    best: str
    """What the strongest level would have done (its pure line, no bluffs)."""
    reason: Reason


@dataclass(frozen=True)
class HoldemSummary:
    game_id: int
    status: str
    names: tuple[str, ...]
    stacks: tuple[int, ...]
    hands: int
    winner: str | None


@dataclass(frozen=True)
class HoldemStats:
    """A person's Hold'em games (kept apart from the score games' statistics)."""

    name: str
    played: int
    won: int
    hands: int


class HoldemService:
    """The Hold'em use cases over a `HoldemGames` port (default: memory)."""

    def __init__(self, games: HoldemGames | None = None, *, sign: bool = True) -> None:
        self.kept: HoldemGames = games if games is not None else MemoryHoldemGames()
        self.sign = sign
        self._cache: dict[int, tuple[str, HoldemRecord, HoldemState]] = {}

    @classmethod
    def open(cls, url: str | None = None) -> HoldemService:
        """A service keeping its games in the database at `url` (default:
        `$FIVEDICE_DATABASE_URL` or the user data directory), migrated to the current schema."""
        from fivedice.store import Store
        from fivedice.store.holdem import HoldemStore

        return cls(HoldemStore(Store(url)))

    def latest_unfinished(self) -> int | None:
        """The newest game still in progress, if any."""
        for game_id in self.kept.ids():
            if self._load(game_id)[0].status == "in_progress":
                return game_id
        return None

    # -- games ------------------------------------------------------------------------------

    def new_game(
        self,
        seats: Sequence[Seat],
        rules: HoldemRules | None = None,
        *,
        seed: int | None = None,
        client_seeds: Sequence[str | None] = (),
        button: int = 0,
    ) -> int:
        """A new game, its first hand dealt; with `seed` a practice game (dice from that seed,
        not verifiable), else verifiable dice (a fresh server seed, committed to).

        Raises:
            SettingsError: 2-6 seats with different names; CpuLevelError: an unknown level;
            DiceSeedError: a client seed that cannot be used.
        """
        for number, seat in enumerate(seats, start=1):
            if seat.cpu_level is not None:
                check_level(seat.cpu_level, number)
        rules = rules or HoldemRules()
        if seed is not None:
            record = HoldemRecord(
                tuple(seats), rules, button, practice=True, seed=seed, dice_scheme=LEGACY_SCHEME
            )
        else:
            fresh = DiceSeeds.new(client_seeds, len(seats))
            record = HoldemRecord(
                tuple(seats),
                rules,
                button,
                dice_scheme=SCHEME_V2,
                dice_commitment=fresh.commitment,
                client_seeds=client_seed_list(client_seeds, len(seats)),
                server_seed=fresh.server_seed,
            )
        recording = RecordingDice(record.dice(0))
        state = new_game(record.players, record.rules, recording, record.button)
        record = replace(record, deal_faces=tuple(recording.values))
        text = holdem_record_to_text(record, kept=True)
        game_id = self.kept.create(text, record.status)
        self._cache[game_id] = (text, record, state)
        return game_id

    def _load(self, game_id: int) -> tuple[HoldemRecord, HoldemState]:
        text = self.kept.load(game_id)
        cached = self._cache.get(game_id)
        if cached is not None and cached[0] == text:
            return cached[1], cached[2]
        record = parse_holdem_record(text)
        state = record.rebuild()
        self._cache[game_id] = (text, record, state)
        return record, state

    def _store(self, game_id: int, record: HoldemRecord, state: HoldemState) -> None:
        text = holdem_record_to_text(record, kept=True)
        self.kept.save(game_id, text, record.status)
        self._cache[game_id] = (text, record, state)

    def view(self, game_id: int, seat: int | None) -> HoldemView:
        """The table as `seat` sees it (None: a spectator, who sees no pocket dice).

        Raises:
            HoldemGameNotFoundError.
        """
        _record, state = self._load(game_id)
        return view_for(state, seat)

    def commitment(self, game_id: int) -> str | None:
        """The dice commitment shown from the start (None: a practice game)."""
        return self._load(game_id)[0].dice_commitment

    def is_cpu_turn(self, game_id: int) -> bool:
        record, state = self._load(game_id)
        return state.to_act is not None and record.players[state.to_act].is_cpu

    def act(self, game_id: int, seat: int | None, action: str) -> ActResult:
        """`seat` takes `action` (None: whoever is to act - a front end for one person).

        Raises:
            MalformedActionError, IllegalActionError: nothing changed.
        """
        record, state = self._load(game_id)
        if state.to_act is None:
            raise IllegalActionError(N_("the game is over: no more actions"))
        acting = state.to_act
        parsed = parse_betting_action(action)  # refuses malformed text before anything
        played = record.played(str(parsed), record.dice(len(record.actions) + 1), seat)
        after = _after(state, played)
        self._store(game_id, played, after)
        ended = (
            after.last_hand
            if after.hand_number != state.hand_number or after.is_game_over
            else None
        )
        return ActResult(
            acting,
            record.players[acting].name,
            str(parsed),
            state.hand_number,
            ended,
            after.is_game_over,
        )

    def cpu_step(self, game_id: int) -> ActResult | None:
        """One CPU action when a CPU is to act (None: a person is, or the game is over)."""
        record, state = self._load(game_id)
        if state.to_act is None or not record.players[state.to_act].is_cpu:
            return None
        seat = state.to_act
        level = record.players[seat].cpu_level or "casual"
        rng = random.Random(f"holdem-cpu/{game_id}/{len(record.actions)}")
        decision = decide(level, view_for(state, seat), rng)
        return self.act(game_id, seat, str(decision.action))

    def run_cpus(self, game_id: int, most: int = 10_000) -> list[ActResult]:
        """CPU actions until a person is to act or the game is over."""
        moves: list[ActResult] = []
        while len(moves) < most:
            move = self.cpu_step(game_id)
            if move is None:
                break
            moves.append(move)
        return moves

    def coach(self, game_id: int, seat: int) -> Decision:
        """What the strongest level would do for `seat` now (its pure line), with the
        equity and pot odds it is chosen from.

        Raises:
            NotCpuTurnError: it is not `seat`'s turn.
        """
        _record, state = self._load(game_id)
        if state.to_act != seat:
            raise NotCpuTurnError(N_("the coach speaks on your turn"))
        rng = random.Random(f"holdem-coach/{game_id}")
        return strongest_decision(view_for(state, seat), rng, mixed=False, budget=(3, 4000))

    def abandon(self, game_id: int) -> None:
        record, state = self._load(game_id)
        if record.status == "in_progress":
            self._store(game_id, replace(record, status="abandoned"), state)

    # -- records ----------------------------------------------------------------------------

    def export(self, game_id: int) -> str:
        """The game's record, signed with the installation's record key (the faces and the
        server seed only once the game is over).

        Raises:
            RecordKeyError: the key cannot be read or created.
        """
        record, _state = self._load(game_id)
        text = holdem_record_to_text(record)
        if not self.sign:
            return text
        from fivedice.service.signing import record_key

        return record_key().sign(text)

    def review(self, game_id: int, samples: int = 2000) -> list[ReviewLine]:
        """Every decision of a finished game with the deciding seat's equity at that moment
        and what the strongest level would have done.

        Raises:
            ReviewRefusedError: the game is not over (its pocket dice are still secret).
        """
        record, _state = self._load(game_id)
        if not record.is_over:
            raise ReviewRefusedError(N_("a game is reviewed once it is over"))
        lines = []
        before: HoldemState | None = None
        for entry, state in record.states():
            if entry is not None and before is not None:
                view = view_for(before, entry.seat)
                rng = random.Random(f"holdem-review/{game_id}/{entry.seq}")
                best = strongest_decision(view, rng, mixed=False, budget=(2, samples))
                assert best.equity is not None
                lines.append(
                    ReviewLine(
                        entry.seq,
                        before.hand_number,
                        before.street,
                        entry.seat,
                        record.players[entry.seat].name,
                        entry.action,
                        best.equity,
                        best.pot_odds,
                        str(best.action),
                        best.reason,
                    )
                )
            before = state
        return lines

    def games(self) -> list[HoldemSummary]:
        """Every kept game, newest first."""
        summaries = []
        for game_id in self.kept.ids():
            record, state = self._load(game_id)
            winner = None if state.winner is None else record.players[state.winner].name
            summaries.append(
                HoldemSummary(
                    game_id,
                    record.status,
                    tuple(seat.name for seat in record.players),
                    tuple(seat.stack for seat in state.seats),
                    state.hand_number,
                    winner,
                )
            )
        return summaries

    def stats(self) -> list[HoldemStats]:
        """Per person (CPU seats left out): games played, won, hands (practice left out)."""
        table: dict[str, list[int]] = {}
        for summary in self.games():
            record, state = self._load(summary.game_id)
            if record.practice or record.status == "in_progress":
                continue
            for number, seat in enumerate(record.players):
                if seat.is_cpu:
                    continue
                row = table.setdefault(seat.name, [0, 0, 0])
                row[0] += 1
                row[1] += state.winner == number
                row[2] += state.hand_number
        return [HoldemStats(name, *row) for name, row in sorted(table.items())]


def _after(state: HoldemState, played: HoldemRecord) -> HoldemState:
    """The state after the record's last action, replayed from its faces alone."""
    from fivedice.core.dice import ScriptedDice
    from fivedice.core.holdem import apply

    entry = played.actions[-1]
    return apply(state, entry.action, ScriptedDice(entry.faces))
