"""Records of saved games: listings, exports, dice verification, statistics, sessions."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from fivedice.core.game import GameKind
from fivedice.core.record import parse_record
from fivedice.service.cpu import unknown_level
from fivedice.service.saved import SavedGames
from fivedice.store import DAMAGED, IN_PROGRESS, GameDamagedError, GameSummary, record_to_text
from fivedice.store.stats import HighScore, ProfileStats, high_scores, profile_stats

if TYPE_CHECKING:
    from fivedice.core.verify import Verification


class Records(SavedGames):
    """What is kept of saved games besides their play (part of `GameService`)."""

    def save_session(self, game_id: int, session: dict[str, Any]) -> None:
        """Saves a front end's session of a game (settings such as pace and language, and
        its move log) as JSON, so a resume can restore it. The game itself never needs it.

        Raises:
            GameNotFoundError; StoreUnavailableError (nothing changed, try again).
        """
        self.store.save_session(game_id, json.dumps(session, ensure_ascii=False))

    def load_session(self, game_id: int) -> dict[str, Any] | None:
        """The session saved with a game, or None (none saved, or not a JSON object)."""
        text = self.store.load_session(game_id)
        if text is None:
            return None
        try:
            session = json.loads(text)
        except ValueError:  # a damaged session is dropped: the game itself is intact
            return None
        return session if isinstance(session, dict) else None

    def list_games(self, status: str | None = None) -> list[GameSummary]:
        """Saved games, newest first (optionally only those with `status`).

        A damaged game is listed with its `damage` (and status ``damaged``); so is a game with
        a CPU seat of an unknown level. Its log is not replayed here (`load` does that).
        """
        return [_with_level_check(game) for game in self.store.list_games(status)]

    def latest_unfinished(self, kind: str = GameKind.PLAY.value) -> GameSummary | None:
        """The newest game still in progress of a kind (default: rolled by the app), if any
        (perhaps damaged: `load` says how)."""
        games = self.store.list_games(IN_PROGRESS, limit=1, kind=kind)
        return _with_level_check(games[0]) if games else None

    def export(self, game_id: int) -> str:
        """The game record as text (settings, seed, and every action with its dice).

        Raises:
            GameNotFoundError; GameDamagedError as `load` (a damaged game is not exported,
            so every exported record replays).
        """
        record = self.store.load_game(game_id)
        self._checked_state(game_id, record)
        return record_to_text(record)

    def verify_dice(self, game_id: int) -> Verification:
        """Checks a game's dice as anyone else would: from its exported record alone (the
        commitment, and every roll recomputed from the revealed seeds).

        Raises:
            GameNotFoundError; GameDamagedError as `export`; VerifyRefusedError: the game
            is in progress (its server seed is still secret).
        """
        from fivedice.core.verify import verify_record as check_dice

        return check_dice(parse_record(self.export(game_id), check=False))

    def stats(self, profile: str | None = None) -> list[ProfileStats]:
        """Statistics per profile and rule preset (practice games excluded)."""
        return profile_stats(self.store.results(profile))

    def high_scores(self) -> dict[str, list[HighScore]]:
        """The top 10 solo results per rule preset (practice games excluded)."""
        return high_scores(self.store.results())


def _with_level_check(game: GameSummary) -> GameSummary:
    """The listing line, marked damaged when a CPU seat has an unknown level."""
    if game.damage is not None:
        return game
    for number, level in enumerate(game.cpu_levels, start=1):
        unknown = unknown_level(level, number)
        if unknown is not None:
            damage = GameDamagedError(game.game_id, unknown)
            return replace(game, status=DAMAGED, totals=(), damage=damage)
    return game
