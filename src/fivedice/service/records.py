"""Records of saved games: listings, exports, dice verification, statistics, sessions."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from fivedice.core.errors import N_, FivediceError
from fivedice.core.fairdice import LEGACY_SCHEME
from fivedice.core.game import GameKind
from fivedice.core.holdem.record import (
    is_holdem_record,
    parse_holdem_record,
    verify_holdem_record,
)
from fivedice.core.record import parse_record, split_signature
from fivedice.core.rules import PRESETS, RuleSet
from fivedice.core.verify import (
    Problem,
    SignatureStatus,
    Verdict,
    Verification,
    VerifyRefusedError,
    record_verdict,
    verify_record,
)
from fivedice.service.cpu import unknown_level
from fivedice.service.saved import SavedGames
from fivedice.service.settings import is_default_human_name, profile_of
from fivedice.service.signing import SignatureCheck, TrustedKey, check_signature, record_key
from fivedice.store import (
    DAMAGED,
    IN_PROGRESS,
    GameDamagedError,
    GameSummary,
    ResultRow,
    record_to_text,
)
from fivedice.store.stats import HighScore, ProfileStats, high_scores, profile_stats
from fivedice.wording.rules import rules_title


class SignatureMismatchError(FivediceError):
    """The record's signature does not vouch for it (changed after signing, or another key)."""


@dataclass(frozen=True)
class RecordCheck:
    """Everything `fivedice verify` and the verify page say about a record: the verdict,
    the signature (and the fingerprint of its key), and the dice check (None: refused, a
    game in progress - `refused` says why)."""

    verdict: Verdict
    signature: SignatureCheck
    verification: Verification | None
    refused: VerifyRefusedError | None = None
    trusted: TrustedKey | None = None
    server_alone: bool = False
    """Whether the server alone chose the dice (committed dice, but no player gave a seed)."""

    @property
    def ok(self) -> bool:
        return self.verdict is Verdict.VERIFIED

    @property
    def committed(self) -> bool:
        return self.verification is not None and self.verification.committed

    @property
    def rolls(self) -> int:
        return 0 if self.verification is None else self.verification.rolls

    @property
    def problems(self) -> tuple[Problem, ...]:
        """What does not match: the signature first, then the dice and the log."""
        found = () if self.verification is None else self.verification.problems
        fingerprint = self.signature.fingerprint or "-"
        if self.signature.status is SignatureStatus.INVALID:
            mismatch = SignatureMismatchError(
                N_(
                    "the signature by key {fingerprint} does not match the record: a line was"
                    " changed, added or removed after it was signed"
                ),
                fingerprint=fingerprint,
            )
            found = (Problem(None, mismatch), *found)
        elif self.signature.status is SignatureStatus.OTHER_KEY:
            other = SignatureMismatchError(
                N_("the record is signed by key {fingerprint}, not the one you trust ({trusted})"),
                fingerprint=fingerprint,
                trusted=self.trusted.shown if self.trusted else "-",
            )
            found = (Problem(None, other), *found)
        return found

    @property
    def first_bad_action(self) -> int | None:
        return None if self.verification is None else self.verification.first_bad_action


def check_record_text(text: str, trusted: TrustedKey | None = None) -> RecordCheck:
    """Checks a record as `fivedice verify` does: its signature over every line (and, with
    `trusted`, who made it), its commitment, every roll recomputed, its log replayed.

    Raises:
        RecordError: the text is not a record that can be read.
    """
    signature = check_signature(text, trusted)
    if is_holdem_record(text):  # a Texas Hold'em Yahtzee game: its own log, the same checks
        holdem = parse_holdem_record(split_signature(text)[0])
        practice, scheme, seeds = holdem.practice, holdem.dice_scheme, holdem.client_seeds
        verify = partial(verify_holdem_record, holdem)
    else:
        record = parse_record(text, check=False)
        practice, scheme, seeds = record.practice, record.dice_scheme, record.client_seeds
        verify = partial(verify_record, record)
    try:
        verification: Verification | None = verify()
        refused = None
    except VerifyRefusedError as error:
        verification, refused = None, error
    verdict = record_verdict(signature.status, verification, practice=practice)
    server_alone = scheme != LEGACY_SCHEME and not any(seeds)
    return RecordCheck(verdict, signature, verification, refused, trusted, server_alone)


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
        """The game record as text (settings, seed, and every action with its dice), signed
        with the installation's record key (`fivedice.service.signing`).

        Raises:
            GameNotFoundError; GameDamagedError as `load` (a damaged game is not exported,
            so every exported record replays); RecordKeyError: the record key cannot be
            read or created.
        """
        record = self.store.load_game(game_id)
        self._checked_state(game_id, record)
        return record_key().sign(record_to_text(record))

    def verify_dice(self, game_id: int) -> RecordCheck:
        """Checks a game as anyone else would: from its exported record alone (the
        signature, the commitment, and every roll recomputed from the revealed seeds).

        Raises:
            GameNotFoundError; GameDamagedError as `export`; VerifyRefusedError: the game
            is in progress (its server seed is still secret).
        """
        check = check_record_text(self.export(game_id))
        if check.refused is not None:
            raise check.refused
        return check

    def stats(self, profile: str | None = None) -> list[ProfileStats]:
        """Statistics per profile and rule preset (practice games excluded); every default
        human name ("You", "Player", "あなた") counts as one profile (`profile_of`)."""
        if profile is not None and is_default_human_name(profile):
            rows = [r for r in self.store.results() if is_default_human_name(r.profile)]
        else:
            rows = self.store.results(profile)
        return profile_stats(_one_profile_per_person(rows))

    def rules_titles(self) -> dict[str, str]:
        """Each rules key of the stored results ("classic", "custom-24e13c39cc") and its name
        as players see it in the language in force: a preset's title, or custom rules named
        by what differs ("Classic, bonus at 70"; `wording.rules.rules_title`)."""
        titles: dict[str, str] = {}
        for row in self.store.results():
            if row.rules in titles:
                continue
            rules = find_preset_rules(row.rules)
            if rules is None:
                try:
                    rules = self.store.load_game(row.game_id).settings.rules
                except FivediceError:  # a damaged game: its key is all there is
                    titles[row.rules] = row.rules
                    continue
            titles[row.rules] = rules_title(rules)
        return titles

    def high_scores(self, *, typed: bool = False) -> dict[str, list[HighScore]]:
        """The top 10 solo results per rule preset (practice games excluded) of the games the
        app rolled the dice of; `typed`: of the games at the table instead (dice typed in,
        which nobody can check: never on the same board)."""
        kind = GameKind.TABLE if typed else GameKind.PLAY
        return high_scores(_one_profile_per_person(self.store.results()), kind=kind.value)


def find_preset_rules(key: str) -> RuleSet | None:
    """The rules of a preset's key, or None for any other key (custom rules)."""
    return next((preset.rules for preset in PRESETS if preset.name == key), None)


def _one_profile_per_person(rows: list[ResultRow]) -> list[ResultRow]:
    """The results with every default human name shown as one profile (`profile_of`)."""
    return [replace(row, profile=profile_of(row.profile)) for row in rows]


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
