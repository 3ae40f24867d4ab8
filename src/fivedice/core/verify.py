"""Checks a game record's dice against its seeds: what `fivedice verify` runs.

A record of a game with verifiable dice (`fivedice.core.fairdice`) carries the commitment,
the client seeds and, once the game is over, the server seed. `verify_record` checks that
the server seed is the one committed to, recomputes every roll from the seeds and the action
numbers, replays the log, and names the first action that does not match. A record still in
progress is refused (its server seed is not revealed yet). Records of practice games with a
seed of the client's (and of games saved before verifiable dice) are recomputed from that
seed; there is no commitment to check for them.

The whole record - names, rules, seat kinds and CPU levels, every decision (holds, boxes),
totals, status, practice flag - is vouched for by its signature over every line
(`fivedice.core.record.split_signature`, checked by `fivedice.service.signing`), and only by
a key the checker trusts: a true signature by any other key proves nothing, as anyone can
edit a record and sign it with a key of their own (`Verdict.UNTRUSTED`);
`record_verdict` is the one policy that turns the signature's status and this check into
what `fivedice verify` and the verify page say: verified only when the signature holds and
every roll was committed to and recomputed; altered when anything does not match; otherwise
not verifiable, and why (in progress, practice, dice from before verifiable dice, unsigned).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from fivedice.core.dice import DiceSource
from fivedice.core.errors import N_, FivediceError
from fivedice.core.fairdice import LEGACY_SCHEME, HmacDice, commitment_of
from fivedice.core.record import GameRecord, dice_for, record_terms


class VerifyRefusedError(FivediceError):
    """The record cannot be verified (yet): a game in progress, or no server seed."""


class DiceMismatchError(FivediceError):
    """One thing in the record that does not match its seeds, its log or its commitment."""


@dataclass(frozen=True)
class Problem:
    """What does not match, and at which action (0: the roll-off; None: the whole record)."""

    action: int | None
    error: FivediceError


@dataclass(frozen=True)
class Verification:
    """The outcome of `verify_record`."""

    rolls: int
    """How many rolls (actions that rolled dice, and the roll-off) were recomputed."""
    committed: bool
    """Whether the dice were committed to (False: from a seed known in advance)."""
    problems: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def first_bad_action(self) -> int | None:
        """The number of the first action that does not match (None: none, or only the
        commitment)."""
        numbers = [p.action for p in self.problems if p.action is not None]
        return min(numbers) if numbers else None


class SignatureStatus(Enum):
    """What a record's signature line says about the rest of it."""

    VALID = "valid"
    """Made over every other line by the key named in it (and that key is trusted)."""
    MISSING = "missing"
    """No signature line (a record exported before records were signed)."""
    INVALID = "invalid"
    """Not a signature of these lines by that key: something was changed after signing."""
    OTHER_KEY = "other_key"
    """A true signature, but by another key than the one the checker said to trust."""
    UNKNOWN = "unknown"
    """A true signature by a key nobody said to trust (no `--key`, and not this
    installation's own): anyone can sign an edited record with a key of their own."""


class Verdict(Enum):
    """What `fivedice verify` concludes about a record, and its exit status."""

    VERIFIED = "verified"
    """Signed, and every roll committed to and recomputed; the log replays to its totals."""
    ALTERED = "altered"
    """Something does not match: the signature, the commitment, a roll, the log, a total."""
    NOT_YET = "not_yet"
    """A game in progress (or without its server seed): its dice cannot be checked yet."""
    PRACTICE = "practice"
    """A practice game: its dice came from a seed known in advance."""
    OLD_DICE = "old_dice"
    """A game saved before verifiable dice: its dice came from a seed known in advance."""
    UNTRUSTED = "untrusted"
    """Everything checks out, but the key that signed it is not one the checker trusts."""
    UNSIGNED = "unsigned"
    """The dice check out, but nothing vouches for the names, rules, boxes or status."""
    NO_PROOF = "no_proof"
    """Neither a signature nor committed dice: nothing in the record can be checked."""

    @property
    def exit_status(self) -> int:
        """0 verified, 1 altered, 3 not (fully) verifiable, 4 signed by a key not trusted
        (2 is a record that cannot be read)."""
        if self is Verdict.VERIFIED:
            return 0
        if self is Verdict.ALTERED:
            return 1
        if self is Verdict.UNTRUSTED:
            return 4
        return 3


def record_verdict(
    signature: SignatureStatus, verification: Verification | None, *, practice: bool
) -> Verdict:
    """The verdict on a record, from its signature and its dice check (None: the check was
    refused - a game in progress).

    Never "verified" for dice nobody can check, nor for a record nothing vouches for.

    >>> record_verdict(SignatureStatus.VALID, Verification(3, True), practice=False)
    <Verdict.VERIFIED: 'verified'>
    >>> record_verdict(SignatureStatus.INVALID, Verification(3, True), practice=False)
    <Verdict.ALTERED: 'altered'>
    >>> record_verdict(SignatureStatus.VALID, Verification(3, False), practice=True)
    <Verdict.PRACTICE: 'practice'>
    >>> record_verdict(SignatureStatus.MISSING, Verification(3, True), practice=False)
    <Verdict.UNSIGNED: 'unsigned'>
    >>> record_verdict(SignatureStatus.UNKNOWN, Verification(3, True), practice=False)
    <Verdict.UNTRUSTED: 'untrusted'>
    """
    if signature in (SignatureStatus.INVALID, SignatureStatus.OTHER_KEY):
        return Verdict.ALTERED
    if verification is None:
        return Verdict.NOT_YET
    if not verification.ok:
        return Verdict.ALTERED
    if not verification.committed:
        if signature is SignatureStatus.MISSING:
            return Verdict.NO_PROOF
        return Verdict.PRACTICE if practice else Verdict.OLD_DICE
    if signature is SignatureStatus.MISSING:
        return Verdict.UNSIGNED
    if signature is SignatureStatus.UNKNOWN:
        return Verdict.UNTRUSTED
    return Verdict.VERIFIED


def verify_record(record: GameRecord) -> Verification:
    """Recomputes every roll of a record from its seeds and checks its commitment and log.

    Raises:
        VerifyRefusedError: the game is in progress or its server seed is missing, so its
            dice cannot be recomputed.
    """
    committed = record.dice_scheme != LEGACY_SCHEME
    problems: list[Problem] = []
    if committed:
        server_seed = revealed_seed(
            record.server_seed, in_progress=record.status in (None, "in_progress")
        )
        problems += commitment_problems(server_seed, record.dice_commitment)
        seeds = record.client_seeds
        terms = record_terms(record)  # (a changed name or rule changes every die)

        def source(number: int) -> DiceSource:
            return HmacDice(server_seed, seeds, number, terms)
    else:

        def source(number: int) -> DiceSource:
            return dice_for(record.seed, number)

    rolls, mismatch = _check_rolls(record, source)
    log_problems = _check_log(record)
    if mismatch is not None:
        problems.append(mismatch)
        # A log problem at the same action says the same thing less precisely.
        log_problems = [p for p in log_problems if p.action != mismatch.action]
    problems.extend(log_problems)
    # The commitment first, then the actions in order, then the totals and status.
    commitment = [p for p in problems[:1] if p.action is None and committed]
    numbered = sorted((p for p in problems if p.action is not None), key=lambda p: p.action or 0)
    rest = [p for p in problems if p.action is None and p not in commitment]
    return Verification(rolls, committed, (*commitment, *numbered, *rest))


def revealed_seed(server_seed: bytes | None, *, in_progress: bool) -> bytes:
    """The server seed a record's dice are checked with.

    Raises:
        VerifyRefusedError: none - the game is in progress, or the record lacks it.
    """
    if server_seed is None:
        if in_progress:
            raise VerifyRefusedError(
                N_(
                    "the game is still in progress: its server seed is revealed when it"
                    " ends, and only then can its dice be checked"
                )
            )
        raise VerifyRefusedError(N_("the record has no server seed to check the dice with"))
    return server_seed


def commitment_problems(server_seed: bytes, commitment: str | None) -> list[Problem]:
    """The problem of a server seed that is not the one committed to (none when it is)."""
    if commitment_of(server_seed) == (commitment or "").lower():
        return []
    mismatch = DiceMismatchError(
        N_(
            "the server seed does not match the commitment {commitment}:"
            " it is not the seed the game committed to at its start"
        ),
        commitment=commitment or "-",
    )
    return [Problem(None, mismatch)]


def _check_rolls(
    record: GameRecord, source: Callable[[int], DiceSource]
) -> tuple[int, Problem | None]:
    """Compares each stored roll with its recomputed dice; stops at the first difference."""
    rolls = 0
    if record.opening_dice:
        expected = source(0).roll(len(record.opening_dice))
        if expected != record.opening_dice:
            return rolls, Problem(
                0,
                DiceMismatchError(
                    N_(
                        "the first-player roll-off: the record has {recorded},"
                        " the seeds give {seeds}"
                    ),
                    recorded=_dice(record.opening_dice),
                    seeds=_dice(expected),
                ),
            )
        rolls += 1
    seats = record.settings.seats
    for expected_number, entry in enumerate(record.actions, start=1):
        if entry.seq != expected_number:
            return rolls, Problem(
                expected_number,
                DiceMismatchError(
                    N_("action {number} is missing (the record goes on with action {found})"),
                    number=expected_number,
                    found=entry.seq,
                ),
            )
        if not entry.dice:
            continue
        expected = source(entry.seq).roll(len(entry.dice))
        if expected != entry.dice:
            name = seats[entry.seat].name if 0 <= entry.seat < len(seats) else "?"
            return rolls, Problem(
                entry.seq,
                DiceMismatchError(
                    N_(
                        "action {number} ({name}: {action}): the record has {recorded},"
                        " the seeds give {seeds}"
                    ),
                    number=entry.seq,
                    name=name,
                    action=entry.action,
                    recorded=_dice(entry.dice),
                    seeds=_dice(expected),
                ),
            )
        rolls += 1
    return rolls, None


def _check_log(record: GameRecord) -> list[Problem]:
    """Replays the log: the first action that is illegal or rolls the wrong number of dice,
    and the totals and status the record states."""
    last_number = 0
    state = None
    try:
        for entry, after in record.states():
            state = after
            if entry is not None:
                last_number = entry.seq
    except FivediceError as error:
        return [Problem(last_number + 1 if state is not None else 0, error)]
    assert state is not None  # states() always yields the new game first
    problems = []
    if record.totals is not None and record.totals != state.match_totals:
        problems.append(
            Problem(
                None,
                DiceMismatchError(
                    N_("the record says the totals are {totals}, but its actions give {actual}"),
                    totals=_dice(record.totals),
                    actual=_dice(state.match_totals),
                ),
            )
        )
    if record.status == "finished" and not state.is_match_over:
        problems.append(
            Problem(
                None,
                DiceMismatchError(
                    N_("the record says the game is finished, but its actions do not end it")
                ),
            )
        )
    return problems


def _dice(values: tuple[int, ...]) -> str:
    return " ".join(map(str, values))
