"""Records of Texas Hold'em Yahtzee games: the seats, the rules, the seeds and every action
with the faces it used, written as text that `fivedice verify` checks like any record.

Every draw from the bag and every roll of a game comes from its dice source: action *n*'s
dice (1-based; 0 deals the first hand) are the faces of stream *n* of the game's seeds
(`fivedice.core.fairdice`, scheme ``hmac-sha256-v2``, the game's terms bound in), or of
``random.Random("fivedice/{seed}/{n}")`` for a practice game with a seed of its own. The
record keeps the faces each action used (the draws and the rolls, `fivedice.core.holdem.dice`),
so it replays without the seeds, and `verify_holdem_record` recomputes them from the seeds.

The faces reveal every pocket die, so the text of a game in progress leaves them out (and the
server seed): only a finished or abandoned game's record holds them.

Text form::

    # fivedice holdem record 1
    rules: {"ante":10,...}
    seat: "Ann"
    seat: "CPU" cpu=strongest
    button: 0
    ...
    <blank line>
    0 deal | 3 6 1 ...
    1 0 check | 2 5
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace

from fivedice.core.dice import DiceSource, ScriptedDice
from fivedice.core.errors import N_, FivediceError
from fivedice.core.fairdice import (
    LEGACY_SCHEME,
    SCHEME_V2,
    HmacDice,
    parse_server_seed,
)
from fivedice.core.game import Seat
from fivedice.core.holdem.actions import parse_betting_action
from fivedice.core.holdem.game import Betting, HoldemRules, HoldemState, apply, new_game
from fivedice.core.record import RecordError, RecordingDice, dice_for, quote_name
from fivedice.core.verify import (
    DiceMismatchError,
    Problem,
    Verification,
    VerifyRefusedError,
    commitment_problems,
    revealed_seed,
)

HOLDEM_HEADER = "# fivedice holdem record 1"

__all__ = [
    "HOLDEM_HEADER",
    "HoldemEntry",
    "HoldemRecord",
    "holdem_record_to_text",
    "holdem_terms",
    "is_holdem_record",
    "parse_holdem_record",
    "rules_from_settings",
    "rules_settings",
    "verify_holdem_record",
]


@dataclass(frozen=True)
class HoldemEntry:
    """One logged action: its number (1-based), the seat, the action and the faces it used."""

    seq: int
    seat: int
    action: str
    faces: tuple[int, ...] = ()


@dataclass(frozen=True)
class HoldemRecord:
    """Everything needed to rebuild a game; `states` replays it from the faces kept."""

    players: tuple[Seat, ...]
    rules: HoldemRules
    button: int = 0
    deal_faces: tuple[int, ...] = ()
    actions: tuple[HoldemEntry, ...] = ()
    practice: bool = False
    seed: int = 0
    status: str = "in_progress"
    stacks: tuple[int, ...] | None = None
    dice_scheme: str = SCHEME_V2
    dice_commitment: str | None = None
    client_seeds: tuple[str, ...] = ()
    server_seed: bytes | None = field(default=None, repr=False)

    @property
    def is_over(self) -> bool:
        return self.status in ("finished", "abandoned")

    def states(self) -> Iterator[tuple[HoldemEntry | None, HoldemState]]:
        """The new game, then each action with the state after it.

        Raises:
            RecordError: an action is illegal, or its faces are too few or too many.
        """
        state = _replayed(
            "deal", self.deal_faces, lambda d: new_game(self.players, self.rules, d, self.button)
        )
        yield None, state
        for entry in self.actions:
            before = state
            if before.to_act != entry.seat:
                raise RecordError(
                    N_("action {number}: it was seat {expected}'s turn, not seat {seat}'s"),
                    number=entry.seq,
                    expected=before.to_act,
                    seat=entry.seat,
                )
            state = _replayed(f"action {entry.seq}", entry.faces, _acting(before, entry.action))
            yield entry, state

    def rebuild(self) -> HoldemState:
        states = [state for _entry, state in self.states()]
        return states[-1]

    def dice(self, number: int) -> DiceSource:
        """The dice source of action `number` (0: the first deal), from the seeds.

        Raises:
            VerifyRefusedError: verifiable dice whose server seed is not known here.
        """
        if self.dice_scheme == LEGACY_SCHEME:
            return dice_for(self.seed, number)
        if self.server_seed is None:
            raise VerifyRefusedError(N_("the record has no server seed to check the dice with"))
        return HmacDice(self.server_seed, self.client_seeds, number, holdem_terms(self))

    def played(self, action: str, dice: DiceSource, seat: int | None = None) -> HoldemRecord:
        """The record with one more action (its faces from `dice`).

        Raises:
            IllegalActionError, MalformedActionError: as `apply` (the record is unchanged).
        """
        state = self.rebuild()
        acting = state.to_act
        recording = RecordingDice(dice)
        after = apply(state, action, recording, seat)
        entry = HoldemEntry(
            len(self.actions) + 1,
            acting if acting is not None else -1,
            str(parse_betting_action(action)),
            tuple(recording.values),
        )
        status = "finished" if after.is_game_over else self.status
        stacks = tuple(seat.stack for seat in after.seats)
        return replace(self, actions=(*self.actions, entry), status=status, stacks=stacks)


def _acting(state: HoldemState, action: str) -> Callable[[DiceSource], HoldemState]:
    def step(dice: DiceSource) -> HoldemState:
        return apply(state, action, dice)

    return step


def _replayed(
    where: str, faces: tuple[int, ...], step: Callable[[DiceSource], HoldemState]
) -> HoldemState:
    source = ScriptedDice(faces)
    counting = RecordingDice(source)
    try:
        state = step(counting)
    except FivediceError as error:
        if isinstance(error, RecordError):
            raise
        raise RecordError(N_("{where}: {reason}"), where=where, reason=str(error)) from None
    if len(counting.values) != len(faces):
        raise RecordError(
            N_("{where}: the record has more dice than the action rolled"), where=where
        )
    return state


def rules_settings(rules: HoldemRules) -> dict[str, object]:
    settings = asdict(rules)
    settings["betting"] = rules.betting.value
    settings["blinds"] = list(rules.blinds) if rules.blinds else None
    return settings


def rules_from_settings(settings: dict[str, object]) -> HoldemRules:
    """The rules from `rules_settings`' dictionary.

    Raises:
        SettingsError, RecordError: an option that is not one.
    """
    try:
        values = dict(settings)
        values["betting"] = Betting(values.get("betting", Betting.NO_LIMIT.value))
        blinds = values.get("blinds")
        values["blinds"] = tuple(blinds) if isinstance(blinds, list) else None
        return HoldemRules(**values)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        if isinstance(error, FivediceError):
            raise
        raise RecordError(
            N_("the rules of the record cannot be read: {reason}"), reason=str(error)
        ) from None


def holdem_terms(record: HoldemRecord) -> str:
    """The SHA-256 (hex) of the game's terms bound into its dice: the rules, the players'
    names, the first button and the practice flag (compact, key-sorted ASCII JSON)."""
    terms = {
        "game": "holdem",
        "rules": rules_settings(record.rules),
        "players": [seat.name for seat in record.players],
        "button": record.button,
        "practice": record.practice,
    }
    text = json.dumps(terms, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _faces_text(faces: tuple[int, ...]) -> str:
    return "".join(map(str, faces))


def holdem_record_to_text(record: HoldemRecord, *, kept: bool = False) -> str:
    """The record as text: the faces and the server seed only once the game is over, or
    always with `kept` (the text a store keeps, never shown to a player)."""
    over = record.is_over or kept
    lines = [HOLDEM_HEADER]
    lines.append(
        f"rules: {json.dumps(rules_settings(record.rules), sort_keys=True, separators=(',', ':'))}"
    )
    for seat in record.players:
        cpu = f" cpu={seat.cpu_level}" if seat.cpu_level else ""
        lines.append(f"seat: {quote_name(seat.name)}{cpu}")
    lines.append(f"button: {record.button}")
    lines.append(f"practice: {'yes' if record.practice else 'no'}")
    lines.append(f"dice_scheme: {record.dice_scheme}")
    if record.dice_scheme == LEGACY_SCHEME:
        lines.append(f"seed: {record.seed}")
    else:
        lines.append(f"dice_commitment: {record.dice_commitment or ''}")
        lines.append(f"client_seeds: {json.dumps(list(record.client_seeds))}")
        if over and record.server_seed is not None:
            lines.append(f"server_seed: {record.server_seed.hex()}")
    lines.append(f"status: {record.status}")
    if record.stacks is not None:
        lines.append(f"stacks: {' '.join(map(str, record.stacks))}")
    lines.append("")
    lines.append(f"0 deal | {_faces_text(record.deal_faces)}" if over else "0 deal")
    for entry in record.actions:
        faces = f" | {_faces_text(entry.faces)}" if over and entry.faces else ""
        lines.append(f"{entry.seq} {entry.seat} {entry.action}{faces}")
    return "\n".join(lines) + "\n"


def is_holdem_record(text: str) -> bool:
    return text.lstrip("\ufeff").startswith(HOLDEM_HEADER)


def _faces(text: str, where: str) -> tuple[int, ...]:
    digits = text.strip()
    if digits and not (
        digits.isascii() and digits.isdigit() and all(c in "123456" for c in digits)
    ):
        raise RecordError(N_("{where}: dice are digits 1-6, not {text!r}"), where=where, text=text)
    return tuple(int(c) for c in digits)


def parse_holdem_record(text: str) -> HoldemRecord:
    """Reads a record's text (a signature line, if any, is left to the caller).

    Raises:
        RecordError: not a Hold'em record, or a line that cannot be read.
    """
    lines = text.replace("\r\n", "\n").lstrip("\ufeff").split("\n")
    if not lines or lines[0] != HOLDEM_HEADER:
        raise RecordError(N_("not a Texas Hold'em Yahtzee record"))
    headers: dict[str, str] = {}
    seats: list[Seat] = []
    index = 1
    while index < len(lines) and lines[index]:
        key, _, value = lines[index].partition(": ")
        if key == "seat":
            name_text, _, cpu = value.rpartition(" cpu=") if " cpu=" in value else (value, "", "")
            try:
                seats.append(Seat(json.loads(name_text), cpu or None))
            except (ValueError, TypeError):
                raise RecordError(
                    N_("a seat line cannot be read: {text!r}"), text=value[:60]
                ) from None
        else:
            headers[key] = value
        index += 1
    try:
        rules = rules_from_settings(json.loads(headers.get("rules", "{}")))
        scheme = headers.get("dice_scheme", SCHEME_V2)
        server = headers.get("server_seed")
        stacks = headers.get("stacks")
        record = HoldemRecord(
            players=tuple(seats),
            rules=rules,
            button=int(headers.get("button", "0")),
            practice=headers.get("practice") == "yes",
            seed=int(headers.get("seed", "0")),
            status=headers.get("status", "in_progress"),
            stacks=tuple(int(v) for v in stacks.split()) if stacks else None,
            dice_scheme=scheme,
            dice_commitment=headers.get("dice_commitment") or None,
            client_seeds=tuple(json.loads(headers.get("client_seeds", "[]"))),
            server_seed=parse_server_seed(server) if server else None,
        )
    except (ValueError, TypeError) as error:
        if isinstance(error, FivediceError):
            raise
        raise RecordError(
            N_("the record's headers cannot be read: {reason}"), reason=str(error)
        ) from None
    entries: list[HoldemEntry] = []
    deal: tuple[int, ...] = ()
    for line in lines[index + 1 :]:
        if not line.strip():
            continue
        head, _, faces = line.partition(" | ")
        words = head.split(" ", 2)
        if words[:2] == ["0", "deal"]:
            deal = _faces(faces, "deal")
            continue
        if len(words) != 3 or not words[0].isdigit() or not words[1].isdigit():
            raise RecordError(N_("an action line cannot be read: {text!r}"), text=line[:60])
        entries.append(
            HoldemEntry(int(words[0]), int(words[1]), words[2], _faces(faces, f"action {words[0]}"))
        )
    return replace(record, deal_faces=deal, actions=tuple(entries))


def verify_holdem_record(record: HoldemRecord) -> Verification:
    """Recomputes the faces of every action from the seeds, checks the commitment, replays
    the log and compares the stacks and status it states (as `fivedice.core.verify` does for
    the score games).

    Raises:
        VerifyRefusedError: the game is in progress or its server seed is missing.
    """
    committed = record.dice_scheme != LEGACY_SCHEME
    problems: list[Problem] = []
    if committed:
        seed = revealed_seed(record.server_seed, in_progress=not record.is_over)
        problems += commitment_problems(seed, record.dice_commitment)
    rolls = 0
    streams = [(0, "deal", record.deal_faces)] + [
        (entry.seq, entry.action, entry.faces) for entry in record.actions
    ]
    for number, action, faces in streams:
        if not faces:
            continue
        expected = record.dice(number).roll(len(faces))
        if expected != faces:
            problems.append(
                Problem(
                    number,
                    DiceMismatchError(
                        N_(
                            "action {number} ({action}): the record has {recorded},"
                            " the seeds give {seeds}"
                        ),
                        number=number,
                        action=action,
                        recorded=_faces_text(faces),
                        seeds=_faces_text(expected),
                    ),
                )
            )
            break
        rolls += 1
    state: HoldemState | None = None
    last = 0
    try:
        for entry, after in record.states():
            state = after
            last = entry.seq if entry is not None else 0
    except FivediceError as error:
        if not any(p.action is not None for p in problems):
            problems.append(Problem(last + 1, error))
    if state is not None and not any(p.action is not None for p in problems):
        stacks = tuple(seat.stack for seat in state.seats)
        if record.stacks is not None and record.stacks != stacks:
            problems.append(
                Problem(
                    None,
                    DiceMismatchError(
                        N_(
                            "the record says the stacks are {totals}, but its actions give {actual}"
                        ),
                        totals=" ".join(map(str, record.stacks)),
                        actual=" ".join(map(str, stacks)),
                    ),
                )
            )
        if record.status == "finished" and not state.is_game_over:
            problems.append(
                Problem(
                    None,
                    DiceMismatchError(
                        N_("the record says the game is finished, but its actions do not end it")
                    ),
                )
            )
    return Verification(rolls, committed, tuple(problems))
