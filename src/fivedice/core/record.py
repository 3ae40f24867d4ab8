"""Game records: settings + seed + the action log with the dice every action rolled.

A record rebuilds its game exactly by replay (`GameRecord.rebuild`), and has a text form in
the action notation (`record_to_text` / `parse_record`) for `fivedice export` and `replay`.
Pure Python (no database): a record file can be checked anywhere.

Dice: the dice of action number *n* (1-based; 0 is the first-player roll-off) come from a
`random.Random` seeded with ``"fivedice/{seed}/{n}"``. The dice that were rolled are stored
as well, so a replay never depends on the generator; and because each action's dice depend
only on (seed, n), a game resumed after a crash rolls exactly what it would have rolled
without the crash.

Verifiable dice (`fivedice.core.fairdice`): a game created without a seed of the client's
(scheme ``hmac-sha256-v1``) rolls from a secret server seed, the seats' client seeds and the
action number. Its record carries the commitment and the client seeds from the start, and
the server seed only once the game is finished or abandoned (`record_to_text` leaves it out
before); `fivedice.core.verify` recomputes every roll from them. Games with a seed the client
chose, and games saved before, use the scheme above (``python-random-v0``). Games created
since records were signed roll by ``hmac-sha256-v2``: the same, with the game's terms
(`terms_digest`: rules, players, ...) bound into every die, so they cannot be swapped later.

Signature: a record as exported ends with one line ``signature: ed25519 PUBLIC_KEY SIGNATURE``
(both in hex): an Ed25519 signature, by the key of the server or local installation that
kept the game, over the *signed bytes* - every byte of the record before that line (UTF-8,
lines ending in ``\n``; see `split_signature`). Any change to any line of the record, a
comment line added or a line removed, makes it fail. The core only finds and frames the
signature (stdlib only); `fivedice.service.signing` makes and checks it.

Undo: an entry with the notation ``undo`` takes back the most recent action still in effect
(consecutive undos go back one further action each). Nothing is ever deleted: the log keeps
what happened, and the game is rebuilt by replaying it with the undone actions skipped, so
nothing an undone action caused survives. An undo rolls no dice and is numbered like any
action, so the dice of later actions still come from (seed, action number). Whether an undo
is *allowed* is the service's decision (`fivedice.service.games.undo_refusal`); a record only
checks that each undo has an action to take back.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fivedice.core.actions import parse_action
from fivedice.core.dice import DiceSource, RandomDice, normalize_sequence
from fivedice.core.errors import N_, FivediceError
from fivedice.core.fairdice import LEGACY_SCHEME, SCHEME_V2, VERIFIABLE_SCHEMES, parse_server_seed
from fivedice.core.game import (
    FirstPlayer,
    GameKind,
    GameSettings,
    GameState,
    Seat,
    apply,
    new_game,
)
from fivedice.core.names import visible_text
from fivedice.core.rules import RuleSet, preset_name

RECORD_HEADER = "# fivedice game record 1"

SIGNATURE_PREFIX = "signature: "
"""How the last line of a signed record begins."""
SIGNATURE_ALGORITHM = "ed25519"
PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64
FINGERPRINT_DIGITS = 32
"""A key's fingerprint: the first 32 hex digits (128 bits) of the SHA-256 of its 32 bytes."""

UNDO = "undo"
"""The log notation of an undo: it takes back the most recent action still in effect."""


class RecordError(FivediceError):
    """A game record (a saved log or an exported text) does not replay to a valid game."""

    retryable = False


@dataclass(frozen=True)
class RecordSignature:
    """The signature line of a record: who signed (a public key) and the signature."""

    public_key: bytes
    value: bytes

    @property
    def fingerprint(self) -> str:
        return key_fingerprint(self.public_key)

    def line(self) -> str:
        return f"{SIGNATURE_PREFIX}{SIGNATURE_ALGORITHM} {self.public_key.hex()} {self.value.hex()}"


def key_fingerprint(public_key: bytes) -> str:
    """The short name of a public key people compare: SHA-256 of its bytes, 32 hex digits
    in groups of four.

    >>> key_fingerprint(bytes(32))
    '66687aad-f862bd77-6c8fc18b-8e9f8e20'
    """
    digits = hashlib.sha256(public_key).hexdigest()[:FINGERPRINT_DIGITS]
    return "-".join(digits[i : i + 8] for i in range(0, FINGERPRINT_DIGITS, 8))


def split_signature(text: str) -> tuple[str, RecordSignature | None]:
    """The record's signed text and its signature (None: the record is not signed).

    The signed text is the record with ``\r\n`` read as ``\n``, up to and including the line
    break before the signature line; its UTF-8 bytes are what was signed. The signature line
    is the last line (a final line break after it or not), spelled exactly as
    `RecordSignature.line` writes it. A record without a signature line is returned whole
    (normalised the same way).

    Raises:
        RecordError: the last line is a signature line that cannot be read.
    """
    normalised = text.replace("\r\n", "\n")
    body = normalised.removesuffix("\n")
    head, _, last = body.rpartition("\n")
    if not last.startswith(SIGNATURE_PREFIX):
        return normalised, None
    parts = last[len(SIGNATURE_PREFIX) :].split(" ")
    signature = None
    if (
        len(parts) == 3
        and parts[0] == SIGNATURE_ALGORITHM
        and len(parts[1]) == 2 * PUBLIC_KEY_BYTES
        and len(parts[2]) == 2 * SIGNATURE_BYTES
        and all(c in "0123456789abcdef" for c in parts[1] + parts[2])
    ):
        signature = RecordSignature(bytes.fromhex(parts[1]), bytes.fromhex(parts[2]))
    if signature is None or signature.line() != last:
        # Written exactly as `RecordSignature.line` writes it: the proof has one spelling.
        raise RecordError(
            N_(
                "the signature line reads 'signature: {algorithm} PUBLIC_KEY SIGNATURE'"
                " (lowercase hex)"
            ),
            algorithm=SIGNATURE_ALGORITHM,
        )
    return head + "\n", signature


def signed_bytes(body: str) -> bytes:
    """The bytes a record's signature is made over: its signed text (`split_signature`)."""
    return body.replace("\r\n", "\n").encode("utf-8")


def with_signature(body: str, signature: RecordSignature) -> str:
    """The record text `body` (as `record_to_text` wrote it) with its signature line."""
    return body + signature.line() + "\n"


def dice_for(seed: int, number: int) -> RandomDice:
    """The dice source of action `number` of a game with `seed` (0: the first-player roll-off)."""
    return RandomDice(random.Random(f"fivedice/{seed}/{number}"))


class RecordingDice:
    """Passes rolls through from a source and remembers every value, in order."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.values: list[int] = []

    def roll(self, count: int) -> tuple[int, ...]:
        values = self.source.roll(count)
        self.values.extend(values)
        return values


class _StrictScript:
    """Dice from a stored list that must be used up exactly (too few or too many: an error)."""

    def __init__(self, values: tuple[int, ...], where: str) -> None:
        self.values = values
        self.used = 0
        self.where = where

    def roll(self, count: int) -> tuple[int, ...]:
        if self.used + count > len(self.values):
            raise RecordError(
                N_("{where}: the record has too few dice for this action"), where=self.where
            )
        taken = self.values[self.used : self.used + count]
        self.used += count
        return taken

    def check_used(self) -> None:
        if self.used != len(self.values):
            raise RecordError(
                N_("{where}: the record has more dice than the action rolled"), where=self.where
            )


def rules_key(rules: RuleSet) -> str:
    """The preset name of the rules, or ``custom-`` and a short hash of the options."""
    name = preset_name(rules)
    if name is not None:
        return name
    text = json.dumps(rules.settings(), sort_keys=True)
    return "custom-" + hashlib.sha256(text.encode()).hexdigest()[:10]


def rules_to_json(rules: RuleSet) -> str:
    return json.dumps(rules.settings(), sort_keys=True)


def rules_from_json(text: str) -> RuleSet:
    """The rule set stored as `RuleSet.settings()` JSON.

    Raises:
        RecordError: not JSON of a valid rule set.
    """
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise RecordError(N_("the rules are not a JSON object"))
        return RuleSet().with_settings(data)
    except (json.JSONDecodeError, TypeError) as error:
        raise RecordError(
            N_("the stored rules cannot be read: {reason}"), reason=str(error)
        ) from None
    except FivediceError as error:
        raise RecordError(
            N_("the stored rules are not valid: {reason}"), reason=str(error)
        ) from None


def dice_text(values: tuple[int, ...]) -> str:
    return "".join(map(str, values))


def parse_dice_text(text: str, where: str) -> tuple[int, ...]:
    digits = text.replace(" ", "")
    if digits and not (digits.isascii() and digits.isdigit()):
        raise RecordError(N_("{where}: dice are digits 1-6, not {text!r}"), where=where, text=text)
    try:
        return normalize_sequence(int(c) for c in digits)
    except FivediceError as error:
        raise RecordError(N_("{where}: {reason}"), where=where, reason=str(error)) from None


@dataclass(frozen=True)
class ActionEntry:
    """One logged action: its number (1-based), the seat that took it, and the dice it rolled."""

    seq: int
    seat: int
    action: str
    dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to rebuild a game: settings, seed, roll-off dice and the action log."""

    settings: GameSettings
    seed: int
    actions: tuple[ActionEntry, ...] = ()
    opening_dice: tuple[int, ...] = ()
    practice: bool = False
    game_id: int | None = None
    started: datetime | None = None
    status: str | None = None
    totals: tuple[int, ...] | None = None
    dice_scheme: str = LEGACY_SCHEME
    dice_commitment: str | None = None
    client_seeds: tuple[str, ...] = ()
    server_seed: bytes | None = field(default=None, repr=False)
    """Secret while the game is in progress: only the service rolls with it."""

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def is_over(self) -> bool:
        """Finished or abandoned: the server seed may be shown."""
        return self.status in ("finished", "abandoned")

    @property
    def revealed_server_seed(self) -> str | None:
        """The server seed as hex once the game is over (None before, or if there is none)."""
        if self.server_seed is None or not self.is_over:
            return None
        return self.server_seed.hex()

    def states(self) -> Iterator[tuple[ActionEntry | None, GameState]]:
        """The new game, then each action with the state after it (checked as it goes).

        An undo entry comes with the state it restores: the state before the action it
        takes back.

        Raises:
            RecordError: an action is illegal, taken by the wrong seat, or its dice do not
                match what it rolled; an undo has nothing to take back.
        """
        for entry, state, _ in self._replay():
            yield entry, state

    def _replay(
        self,
    ) -> Iterator[tuple[ActionEntry | None, GameState, list[tuple[ActionEntry, GameState]]]]:
        """`states`, plus the actions still in effect, each with the state before it."""
        opening = _StrictScript(self.opening_dice, "the first-player roll-off")
        state = new_game(self.settings, opening)
        opening.check_used()
        in_effect: list[tuple[ActionEntry, GameState]] = []
        yield None, state, in_effect
        for expected, entry in enumerate(self.actions, start=1):
            where = f"action {entry.seq}"
            if entry.seq != expected:
                raise RecordError(
                    N_("{where}: expected action number {expected}"), where=where, expected=expected
                )
            if entry.action == UNDO:
                state = _undo(in_effect, entry, where)
                yield entry, state, in_effect
                continue
            if entry.seat != state.current_seat:
                seat = state.seats[state.current_seat].name
                raise RecordError(
                    N_("{where}: it is {name}'s turn, not seat {seat}'s"),
                    where=where,
                    name=seat,
                    seat=entry.seat + 1,
                )
            after = _replayed(state, entry, where)
            in_effect.append((entry, state))
            state = after
            yield entry, state, in_effect

    def rebuild(self) -> GameState:
        """The state after the last action (see `states`)."""
        last: GameState | None = None
        for _, state in self.states():
            last = state
        assert last is not None  # states() always yields the new game first
        return last

    def undo_target(self) -> UndoTarget | None:
        """What an undo appended now would take back (None: no action is in effect).

        Raises:
            RecordError: as `states`.
        """
        *_, (_, state, in_effect) = self._replay()
        if not in_effect:
            return None
        entry, before = in_effect[-1]
        last = self.actions[-1] if self.actions else None
        return UndoTarget(entry, before, state, last is not None and last.action == UNDO)


@dataclass(frozen=True)
class UndoTarget:
    """The action an undo would take back, the state it would restore and the state now."""

    entry: ActionEntry
    before: GameState
    after: GameState
    follows_undo: bool
    """Whether the log's last entry is itself an undo (this would be a second one in a row)."""

    @property
    def finished_a_game(self) -> bool:
        """Whether the action ended a game of the match (its result is already recorded)."""
        return self.after.game_number != self.before.game_number or (
            self.after.is_match_over and not self.before.is_match_over
        )


def _undo(
    in_effect: list[tuple[ActionEntry, GameState]], entry: ActionEntry, where: str
) -> GameState:
    """Takes the most recent action in effect off the list; returns the state before it."""
    if entry.dice:
        raise RecordError(N_("{where}: an undo rolls no dice"), where=where)
    if not in_effect:
        raise RecordError(N_("{where}: there is no action to undo"), where=where)
    undone, before = in_effect[-1]
    if entry.seat != undone.seat:
        raise RecordError(
            N_(
                "{where}: the undo is written for seat {seat}, but it takes back"
                " seat {other}'s action"
            ),
            where=where,
            seat=entry.seat + 1,
            other=undone.seat + 1,
        )
    in_effect.pop()
    return before


def terms_digest(settings: GameSettings, practice: bool) -> str:
    """The SHA-256 (hex) of a game's terms, bound into its dice by scheme ``hmac-sha256-v2``:
    what the players agreed to when it started, and nobody may change after.

    The terms are the compact, key-sorted, ASCII JSON of ``{"rules": RULES_SETTINGS,
    "first_player": ..., "match_length": ..., "kind": ..., "practice": true/false,
    "players": [NAME, ...]}`` (the names in seat order; a seat handed to a CPU keeps its
    name, so its CPU level is not a term).
    """
    terms = {
        "rules": settings.rules.settings(),
        "first_player": settings.first_player.value,
        "match_length": settings.match_length,
        "kind": settings.kind.value,
        "practice": practice,
        "players": [seat.name for seat in settings.seats],
    }
    text = json.dumps(terms, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def record_terms(record: GameRecord) -> str | None:
    """The terms digest a record's dice are bound to (None: a scheme without terms)."""
    if record.dice_scheme != SCHEME_V2:
        return None
    return terms_digest(record.settings, record.practice)


def settings_lines(settings: GameSettings) -> list[str]:
    lines = [
        f"rules: {rules_key(settings.rules)}",
        f"rules_settings: {rules_to_json(settings.rules)}",
        f"first_player: {settings.first_player.value}",
        f"match_length: {settings.match_length}",
    ]
    if settings.is_table:
        lines.append(f"kind: {settings.kind.value}")
    for seat in settings.seats:
        cpu = f" cpu={seat.cpu_level}" if seat.cpu_level else ""
        lines.append(f"seat: {quote_name(seat.name)}{cpu}")
    return lines


def quote_name(name: str) -> str:
    r"""The name as a JSON string on one line: every character that is not printable (a
    line separator, a control or format character) escaped, so no name can break a line.

    >>> print(quote_name('Ann "the Roller"'))
    "Ann \"the Roller\""
    >>> print(quote_name("x\u2028y"))
    "x\u2028y"
    """
    return "".join(
        char if char.isprintable() or char == " " else json.dumps(char)[1:-1]
        for char in json.dumps(name, ensure_ascii=False)
    )


def _action_name(name: str) -> str:
    """The seat's name as it starts an action line: bare when it reads back unchanged, else
    quoted (a colon, a quote, a backslash, a '#', outer spaces or an unprintable character
    in it)."""
    bare = (
        name == name.strip()
        and name.isprintable()
        and not any(char in name for char in ':"\\#')
        and not name[:1].isdigit()
    )
    return name if bare else quote_name(name)


def record_to_text(record: GameRecord) -> str:
    """The record as text: ``key: value`` headers, a blank line, then one action a line.

    Action lines read ``12. Ann: roll -> 3 3 3 5 5`` (the dice that action rolled, in order).
    """
    lines = [RECORD_HEADER]
    if record.game_id is not None:
        lines.append(f"game: {record.game_id}")
    if record.started is not None:
        lines.append(f"started: {record.started.isoformat()}")
    if record.status is not None:
        lines.append(f"status: {record.status}")
    lines.extend(settings_lines(record.settings))
    lines.append(f"seed: {record.seed}")
    lines.append(f"practice: {'yes' if record.practice else 'no'}")
    if record.dice_scheme != LEGACY_SCHEME:
        lines.append(f"dice_scheme: {record.dice_scheme}")
        lines.append(f"dice_commitment: {record.dice_commitment or ''}")
        lines.append(f"client_seeds: {json.dumps(list(record.client_seeds))}")
        revealed = record.revealed_server_seed
        if revealed is not None:
            lines.append(f"server_seed: {revealed}")
    lines.append(f"opening: {' '.join(map(str, record.opening_dice))}".rstrip())
    if record.totals is not None:
        lines.append(f"totals: {' '.join(map(str, record.totals))}")
    lines.append("")
    seats = record.settings.seats
    for entry in record.actions:
        dice = f" -> {' '.join(map(str, entry.dice))}" if entry.dice else ""
        lines.append(f"{entry.seq}. {_action_name(seats[entry.seat].name)}: {entry.action}{dice}")
    return "\n".join(lines) + "\n"


def _dice_headers(headers: dict[str, str]) -> dict[str, Any]:
    """The verifiable-dice fields of a record's headers (none: the legacy scheme)."""
    scheme = headers.get("dice_scheme", LEGACY_SCHEME)
    if scheme == LEGACY_SCHEME:
        return {}
    if scheme not in VERIFIABLE_SCHEMES:
        raise RecordError(N_("unknown dice scheme {scheme!r}"), scheme=scheme)
    seeds = json.loads(headers.get("client_seeds", "[]"))
    if not isinstance(seeds, list) or not all(isinstance(seed, str) for seed in seeds):
        raise RecordError(N_("client_seeds is a JSON list of texts, one per seat"))
    server = headers.get("server_seed")
    return {
        "dice_scheme": scheme,
        "dice_commitment": headers.get("dice_commitment") or None,
        "client_seeds": tuple(seeds),
        "server_seed": parse_server_seed(server) if server else None,
    }


_ACTION_LINE = re.compile(
    r'^(?P<seq>\d{1,9})\.\s(?P<name>"(?:[^"\\]|\\.)*"|[^"].*?):\s'
    r"(?P<action>(?:roll|hold|release|score|dice|undo)\b[^>]*?)"
    r"(?:\s->\s(?P<dice>[1-6 ]+))?\s*$",
    re.IGNORECASE,
)
_SEAT = re.compile(r"^(?P<name>\".*\")(?:\s+cpu=(?P<cpu>\S+))?\s*$")


def parse_record(text: str, *, check: bool = True) -> GameRecord:
    """Reads a record written by `record_to_text` and checks that it replays.

    Args:
        text: the record.
        check: replay it and check its totals and status (False: read it only, for
            `fivedice.core.verify`, which finds the first action that is wrong).

    Raises:
        RecordError: the text is not a record, or it does not replay (the message says where).
    """
    try:
        return _parse_record(text, check=check)
    except RecursionError:  # JSON nested thousands deep in a crafted record
        raise RecordError(N_("the record nests its values too deeply to be read")) from None


def _whole(value: str, key: str) -> int:
    """A header's whole number; refused before `int` when it is not one a record holds (a
    crafted one of thousands of digits would exceed Python's conversion limit)."""
    text = value.strip()
    if not re.fullmatch(r"\d{1,20}", text):
        raise RecordError(
            N_("{column} is not a whole number: {value!r}"), column=key, value=_clipped(text)
        )
    return int(text)


def _clipped(text: str, most: int = 60) -> str:
    """A piece of a record quoted in an error: a crafted line may be megabytes long."""
    return text if len(text) <= most else text[:most] + "…"


def _parse_record(text: str, *, check: bool) -> GameRecord:
    # The signature line (if any) is checked elsewhere (`fivedice.service.signing`).
    text, _ = split_signature(text)
    # Lines end at "\n" only: the other characters `str.splitlines` splits at (U+2028, ...)
    # are never written in a record, and must not make one line read as two.
    lines = text.split("\n")
    if not lines or lines[0].strip() != RECORD_HEADER:
        raise RecordError(
            N_("not a fivedice game record (the first line must be {header!r})"),
            header=RECORD_HEADER,
        )
    headers: dict[str, str] = {}
    seats: list[Seat] = []
    index = 1
    while index < len(lines) and lines[index].strip():
        key, sep, value = lines[index].partition(":")
        if not sep:
            raise RecordError(
                N_("line {number}: expected 'key: value', got {line!r}"),
                number=index + 1,
                line=_clipped(lines[index]),
            )
        key, value = key.strip(), value.strip()
        if key == "seat":
            match = _SEAT.match(value)
            if match is None:
                raise RecordError(
                    N_('line {number}: a seat reads "Name" or "Name" cpu=LEVEL'), number=index + 1
                )
            try:
                seats.append(Seat(json.loads(match["name"]), match["cpu"]))
            except (json.JSONDecodeError, FivediceError) as error:
                raise RecordError(
                    N_("line {number}: {reason}"), number=index + 1, reason=str(error)
                ) from None
        else:
            headers[key] = value
        index += 1
    for key in ("rules_settings", "seed"):
        if key not in headers:
            raise RecordError(N_("the record has no {key!r} line"), key=key)
    try:
        settings = GameSettings(
            tuple(seats),
            rules_from_json(headers["rules_settings"]),
            FirstPlayer(headers.get("first_player", "first_seat")),
            _whole(headers.get("match_length", "1"), "match_length"),
            GameKind(headers.get("kind", "play")),
        )
        seed = _whole(headers["seed"], "seed")
        game_id = _whole(headers["game"], "game") if "game" in headers else None
        started = datetime.fromisoformat(headers["started"]) if "started" in headers else None
        totals = (
            tuple(_whole(t, "totals") for t in headers["totals"].split())
            if "totals" in headers
            else None
        )
        dice_fields = _dice_headers(headers)
    except RecordError:
        raise
    except (ValueError, FivediceError) as error:
        raise RecordError(
            N_("the record's settings cannot be read: {reason}"), reason=str(error)
        ) from None
    entries: list[ActionEntry] = []
    names = {seat.name: number for number, seat in enumerate(settings.seats)}
    for number, line in enumerate(lines[index + 1 :], start=index + 2):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _ACTION_LINE.match(line.strip())
        if match is None:
            raise RecordError(
                N_("line {number}: not an action line: {line!r}"),
                number=number,
                line=_clipped(line),
            )
        name = match["name"]
        if name.startswith('"'):
            try:
                name = json.loads(name)
            except json.JSONDecodeError:
                raise RecordError(
                    N_("line {number}: the name {name} is not a quoted name"),
                    number=number,
                    name=visible_text(name),
                ) from None
        if name not in names:
            raise RecordError(
                N_("line {number}: no seat is called {name!r}"), number=number, name=name
            )
        notation = match["action"].strip()
        if notation.lower() == UNDO:
            notation = UNDO
        else:
            try:
                notation = str(parse_action(notation, None))
            except FivediceError as error:
                raise RecordError(
                    N_("line {number}: {reason}"), number=number, reason=str(error)
                ) from None
        dice = parse_dice_text(match["dice"] or "", f"line {number}")
        entries.append(ActionEntry(int(match["seq"]), names[name], notation, dice))
    record = GameRecord(
        settings=settings,
        seed=seed,
        actions=tuple(entries),
        opening_dice=parse_dice_text(headers.get("opening", ""), "the opening line"),
        practice=headers.get("practice", "no") == "yes",
        game_id=game_id,
        started=started,
        status=headers.get("status"),
        totals=totals,
        **dice_fields,
    )
    if not check:
        return record
    verify_record(record)
    return record


def verify_record(record: GameRecord) -> GameState:
    """Replays the record and checks that its totals and status agree with its actions.

    Returns:
        The state after the last action.

    Raises:
        RecordError: an action does not replay, or the totals or the status disagree.
    """
    state = record.rebuild()
    totals = record.totals
    if totals is not None and totals != state.match_totals:
        raise RecordError(
            N_("the record says the totals are {totals}, but its actions give {actual}"),
            totals=totals,
            actual=state.match_totals,
        )
    status = record.status
    if status == "finished" and not state.is_match_over:
        raise RecordError(N_("the record says the game is finished, but its actions do not end it"))
    if status == "in_progress" and state.is_match_over:
        raise RecordError(N_("the record says the game is in progress, but its actions end it"))
    return state


def apply_logged(state: GameState, entry: ActionEntry) -> GameState:
    """The state after one logged (non-undo) action, replayed with the dice it recorded.

    What `GameRecord.states` does for each entry, for a caller that keeps a game's state
    current by applying only the actions saved since (`GameService.latest`).

    Raises:
        RecordError: an undo entry (it needs the log), the wrong seat, an illegal action, or
            dice that do not match what it rolled.
    """
    where = f"action {entry.seq}"
    if entry.action == UNDO or entry.seat != state.current_seat:
        raise RecordError(N_("{where}: cannot be applied on its own"), where=where)
    return _replayed(state, entry, where)


def _replayed(state: GameState, entry: ActionEntry, where: str) -> GameState:
    """The state after the entry's action, which must use exactly the dice it recorded.

    Raises:
        RecordError: the action is illegal, or its dice do not match what it rolled.
    """
    script = _StrictScript(entry.dice, where)
    try:
        after = apply(state, entry.action, script)
    except RecordError:
        raise
    except FivediceError as error:
        raise RecordError(
            N_("{where} ({action}): {reason}"), where=where, action=entry.action, reason=str(error)
        ) from None
    script.check_used()
    return after
