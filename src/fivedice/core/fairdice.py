"""Verifiable dice: the server commits to a secret seed, the players add seeds, the end reveals.

Why: with dice from a seed only the server knows, nobody can check afterwards that the server
did not pick them. Here every game gets a secret *server seed* (32 random bytes) when it is
created, and shows its SHA-256 *commitment* from the start; each seat may add a *client seed*
of its own, so the server cannot choose the dice either (it committed before it saw them).
When the game ends (or is abandoned) the server seed is revealed, and anyone can recompute
every roll from the seeds and the action numbers, and check the commitment.

The construction (scheme ``hmac-sha256-v1``), for action number *n* (1-based, as in the game
record; 0 is the first-player roll-off before the first action):

- key: the server seed (32 bytes);
- message for block *c* (c = 0, 1, 2, ...): the JSON text, ASCII, without spaces, of
  ``[client_seeds, n, c]``, where ``client_seeds`` lists each seat's seed in seat order
  (``""`` for a seat without one): ``json.dumps([seeds, n, c], separators=(",", ":"))``;
- each block is HMAC-SHA256(key, message): 32 bytes, read in order;
- a byte *b* below 252 gives the face ``b % 6 + 1``; bytes 252-255 are skipped, so every face
  is exactly as likely (252 = 6 x 42);
- the dice an action rolls are the first faces of its stream, in the order the dice are
  rolled (the roll-off: seat by seat, round by round; a score that ends a game of a match
  rolls the next game's roll-off).

>>> seeds = DiceSeeds(bytes(32), ("", "lucky"))
>>> len(seeds.commitment)
64
>>> seeds.dice(1).roll(5) == seeds.dice(1).roll(5)
True
>>> [face_of_byte(b) for b in (0, 5, 6, 251, 252, 255)]
[1, 6, 1, 6, None, None]

Scheme ``hmac-sha256-v2`` (new games) is the same with the game's *terms* bound in: the
message is ``[client_seeds, terms, n, c]``, where ``terms`` is the SHA-256 (hex) of the
game's rules, first-player mode, match length, kind, practice flag and player names, as
`fivedice.core.record.terms_digest` writes them, fixed when the game starts. Change any of
them in a record - even with the server's own key, which could re-sign it - and every die
differs from the dice the players saw, and from the ones the seeds give.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import secrets
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from fivedice.core.errors import N_, FivediceError

SCHEME = "hmac-sha256-v1"
"""The dice scheme of new games: HMAC-SHA256 of the seeds, commitment revealed at the end."""

SCHEME_V2 = "hmac-sha256-v2"
"""The dice scheme of new games: ``hmac-sha256-v1`` with the game's terms in every message."""
VERIFIABLE_SCHEMES = (SCHEME, SCHEME_V2)

LEGACY_SCHEME = "python-random-v0"
"""Games with a seed the client chose, and games saved before verifiable dice: the dice of
action n come from ``random.Random(f"fivedice/{seed}/{n}")`` (not verifiable)."""

SERVER_SEED_BYTES = 32
REJECT_FROM = 252
"""Bytes from here on (252-255) are skipped: 252 is the largest multiple of 6 up to 256."""
MAX_CLIENT_SEED = 64
"""The longest client seed, in characters."""


class DiceSeedError(FivediceError):
    """A client seed or server seed that cannot be used (too long, control characters, ...)."""


def new_server_seed() -> bytes:
    """32 bytes from the operating system's secure random source."""
    return secrets.token_bytes(SERVER_SEED_BYTES)


def commitment_of(server_seed: bytes) -> str:
    """The SHA-256 of the server seed, as 64 hex digits: shown from the start of a game."""
    return hashlib.sha256(server_seed).hexdigest()


def face_of_byte(value: int) -> int | None:
    """The face 1-6 a byte gives, or None for the rejected bytes 252-255."""
    if value >= REJECT_FROM:
        return None
    return value % 6 + 1


def message(
    client_seeds: Sequence[str], number: int, counter: int, terms: str | None = None
) -> bytes:
    """The HMAC message of block `counter` of action `number` (canonical JSON, ASCII); with
    `terms` (scheme ``hmac-sha256-v2``) the game's terms digest follows the client seeds."""
    parts: list[object] = [list(client_seeds), number, counter]
    if terms is not None:
        parts.insert(1, terms)
    text = json.dumps(parts, separators=(",", ":"))
    return text.encode("ascii")


def faces(
    server_seed: bytes, client_seeds: Sequence[str], number: int, terms: str | None = None
) -> Iterator[int]:
    """The endless stream of faces of action `number` (0: the first-player roll-off)."""
    for counter in itertools.count():
        mixed = message(client_seeds, number, counter, terms)
        block = hmac.new(server_seed, mixed, hashlib.sha256)
        for byte in block.digest():
            face = face_of_byte(byte)
            if face is not None:
                yield face


class HmacDice:
    """The dice source of one action: its faces handed out in order (a `DiceSource`)."""

    def __init__(
        self,
        server_seed: bytes,
        client_seeds: Sequence[str],
        number: int,
        terms: str | None = None,
    ) -> None:
        self._faces = faces(server_seed, tuple(client_seeds), number, terms)

    def roll(self, count: int) -> tuple[int, ...]:
        return tuple(itertools.islice(self._faces, count))


def check_client_seed(text: str) -> str:
    """The client seed as it is used (outer spaces removed); "" means no seed.

    Raises:
        DiceSeedError: longer than `MAX_CLIENT_SEED` characters, or with control characters.
    """
    if not isinstance(text, str):
        raise DiceSeedError(N_("a client seed is text, not {value!r}"), value=text)
    seed = text.strip()
    if len(seed) > MAX_CLIENT_SEED:
        raise DiceSeedError(
            N_("a client seed has at most {most} characters, not {count}"),
            most=MAX_CLIENT_SEED,
            count=len(seed),
        )
    if any(unicodedata.category(c).startswith("C") for c in seed):
        raise DiceSeedError(N_("a client seed cannot hold control characters"))
    return seed


def parse_server_seed(text: str) -> bytes:
    """The server seed written as 64 hex digits.

    Raises:
        DiceSeedError: not 64 hex digits.
    """
    cleaned = text.strip().lower()
    if len(cleaned) != 2 * SERVER_SEED_BYTES or any(c not in "0123456789abcdef" for c in cleaned):
        raise DiceSeedError(
            N_("a server seed is {count} hex digits, not {text!r}"),
            count=2 * SERVER_SEED_BYTES,
            text=text[:80],
        )
    return bytes.fromhex(cleaned)


@dataclass(frozen=True)
class DiceSeeds:
    """The seeds of a game's dice. The server seed is secret until the game is over: it is
    left out of `repr`, and front ends show only `commitment` while the game is played."""

    server_seed: bytes = field(repr=False)
    client_seeds: tuple[str, ...] = ()
    terms: str | None = None
    """The game's terms digest (scheme ``hmac-sha256-v2``); None: ``hmac-sha256-v1``."""

    def __post_init__(self) -> None:
        if len(self.server_seed) != SERVER_SEED_BYTES:
            raise DiceSeedError(
                N_("a server seed has {count} bytes, not {found}"),
                count=SERVER_SEED_BYTES,
                found=len(self.server_seed),
            )

    @classmethod
    def new(cls, client_seeds: Sequence[str | None], seat_count: int) -> DiceSeeds:
        """Fresh seeds for a game: a new secret server seed and each seat's client seed.

        Raises:
            DiceSeedError: more client seeds than seats, or a client seed that cannot be used.
        """
        return cls(new_server_seed(), client_seed_list(client_seeds, seat_count))

    @property
    def commitment(self) -> str:
        return commitment_of(self.server_seed)

    @property
    def server_seed_hex(self) -> str:
        return self.server_seed.hex()

    @property
    def scheme(self) -> str:
        return SCHEME if self.terms is None else SCHEME_V2

    def dice(self, number: int) -> HmacDice:
        """The dice source of action `number` (0: the first-player roll-off)."""
        return HmacDice(self.server_seed, self.client_seeds, number, self.terms)


def client_seed_list(client_seeds: Sequence[str | None], seat_count: int) -> tuple[str, ...]:
    """One client seed per seat ("" for none), checked; missing seats get "".

    Raises:
        DiceSeedError: more client seeds than seats, or a seed `check_client_seed` refuses.
    """
    if len(client_seeds) > seat_count:
        raise DiceSeedError(
            N_("{count} client seeds for {seats} seats: at most one per seat"),
            count=len(client_seeds),
            seats=seat_count,
        )
    seeds = [check_client_seed(seed or "") for seed in client_seeds]
    return tuple(seeds) + ("",) * (seat_count - len(seeds))


# -- commitments drawn before the client seeds (the two-step of the API and the new-game page)

COMMITMENT_LIFETIME = 3600
"""Seconds a drawn commitment can be used to create a game (one hour)."""
HANDLE_NONCE_BYTES = 16
HANDLE_MAC_DIGITS = 32
"""Hex digits of the handle's HMAC kept in the handle (128 bits)."""
COMMITMENT_HANDLE_LENGTH = 2 * HANDLE_NONCE_BYTES + 1 + 12 + 1 + HANDLE_MAC_DIGITS
"""The longest handle: nonce, expiry (at most 12 digits) and HMAC, dot-separated."""

Keyed = Callable[[str], str]
"""HMAC-SHA256 (hex) of a message under the server's secret (`web.security.Signer.mac`)."""


class CommitmentHandleError(DiceSeedError):
    """A commitment handle that was not drawn here, is damaged, or has expired; or client
    seeds sent without one."""


@dataclass(frozen=True)
class Commitment:
    """A server seed drawn and committed to before any client seed is known.

    `handle` is what the client sends back with its seeds: the nonce the server seed is
    derived from, when the handle expires, and an HMAC over both. Nothing is stored when a
    commitment is drawn; any worker with the same secret opens the handle, and the store
    records each commitment a game was created with, so a handle makes one game only.
    """

    handle: str
    commitment: str
    expires: int  # Unix time, whole seconds


def committed_server_seed(mac: Keyed, nonce: bytes) -> bytes:
    """The server seed behind a nonce: HMAC(secret, "fair:server-seed:<nonce hex>"), 32 bytes.

    Why derived rather than stored: the handle then carries all the server needs, and the
    seed stays secret (the handle has only the nonce; the seed needs the server's secret).
    """
    return bytes.fromhex(mac(f"fair:server-seed:{nonce.hex()}"))


def _handle_mac(mac: Keyed, nonce_hex: str, expires: int) -> str:
    return mac(f"fair:commitment:{nonce_hex}:{expires}")[:HANDLE_MAC_DIGITS]


def issue_commitment(mac: Keyed, nonce: bytes, expires: int) -> Commitment:
    """The commitment and handle of `nonce`, usable until `expires` (Unix seconds).

    >>> keyed = lambda text: hashlib.sha256(b"k" + text.encode()).hexdigest()
    >>> drawn = issue_commitment(keyed, bytes(16), 100)
    >>> open_commitment(keyed, drawn.handle, now=50) == committed_server_seed(keyed, bytes(16))
    True
    >>> commitment_of(committed_server_seed(keyed, bytes(16))) == drawn.commitment
    True
    """
    nonce_hex = nonce.hex()
    handle = f"{nonce_hex}.{expires}.{_handle_mac(mac, nonce_hex, expires)}"
    return Commitment(handle, commitment_of(committed_server_seed(mac, nonce)), expires)


def open_commitment(mac: Keyed, handle: str, *, now: float) -> bytes:
    """The server seed a handle was drawn for, if the handle is this server's and unexpired.

    Raises:
        CommitmentHandleError: not a handle this server drew (or altered), or expired.
    """
    text = handle.strip() if isinstance(handle, str) else ""
    parts = text.split(".") if len(text) <= COMMITMENT_HANDLE_LENGTH else []
    if (
        len(parts) != 3
        or len(parts[0]) != 2 * HANDLE_NONCE_BYTES
        or any(c not in "0123456789abcdef" for c in parts[0])
        or not (parts[1].isascii() and parts[1].isdigit() and len(parts[1]) <= 12)
        or not hmac.compare_digest(
            parts[2].encode(), _handle_mac(mac, parts[0], int(parts[1])).encode()
        )
    ):
        raise CommitmentHandleError(N_("this commitment handle was not drawn by this server"))
    if int(parts[1]) <= now:
        raise CommitmentHandleError(
            N_("this commitment has expired: draw a new one before choosing your seed")
        )
    return committed_server_seed(mac, bytes.fromhex(parts[0]))
