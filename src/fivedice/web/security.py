"""Unguessable public game ids and seat tokens, both HMACs of the store's integer ids.

The store numbers games 1, 2, 3, ...; those numbers never leave the server alone. A public id
is ``"<id>-<20 hex digits of HMAC(secret, 'game:<id>')>"`` and a seat token is
``HMAC(secret, '<id>:<seat>')``, or ``HMAC(secret, '<id>:<seat>:<generation>')`` once the
seat changed hands (its generation, kept with the game's seats, went up: the old token is
refused). Nothing secret is stored: any worker that knows the secret checks them, which is
why several workers must share one secret (`FIVEDICE_SECRET` or one file).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

import platformdirs

SECRET_ENV = "FIVEDICE_SECRET"
SECRET_FILE_NAME = "web-secret"
PUBLIC_ID_DIGITS = 20  # 80 bits: far beyond guessing over HTTP
MIN_SECRET_LENGTH = 16


class SecretError(RuntimeError):
    """The server secret cannot be read or created."""


def _secret_path() -> Path:
    return Path(platformdirs.user_data_dir("fivedice")) / SECRET_FILE_NAME


def load_secret(path: Path | None = None) -> bytes:
    """The server secret: `$FIVEDICE_SECRET`, else a random one kept in a 0600 file.

    The file is created atomically (written under a temporary name, then hard-linked into
    place, which fails if another worker won the race), so concurrent workers all end up
    with the same secret.

    Raises:
        SecretError: the secret is too short or the file cannot be read or written.
    """
    configured = os.environ.get(SECRET_ENV, "")
    if configured:
        if len(configured) < MIN_SECRET_LENGTH:
            raise SecretError(f"{SECRET_ENV} must have at least {MIN_SECRET_LENGTH} characters")
        return configured.encode()
    target = path or _secret_path()
    for _attempt in range(50):
        try:
            text = target.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            text = ""
        except OSError as error:
            raise SecretError(f"cannot read the secret {target}: {error}") from None
        if len(text) >= MIN_SECRET_LENGTH:
            return text.encode()
        try:
            _create_secret_file(target)
        except FileExistsError:
            time.sleep(0.02)  # another worker is creating it
        except OSError as error:
            raise SecretError(f"cannot create the secret {target}: {error}") from None
    raise SecretError(f"the secret file {target} stays empty or too short")


def _create_secret_file(target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=".secret-")
    try:
        os.fchmod(descriptor, 0o600)
        os.write(descriptor, (secrets.token_hex(32) + "\n").encode())
        os.fsync(descriptor)
        os.close(descriptor)
        os.link(temporary, target)  # atomic; FileExistsError if someone else was first
    finally:
        os.unlink(temporary)


PUBLIC_IDS_KEPT = 65_536
"""Public ids a `Signer` keeps made (about 100 bytes each)."""


class Signer:
    """Makes and checks public game ids and seat tokens with one secret."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        # Each game's public id, made once: every request of a game reads it (the access
        # log, the route) and every answer writes it, and its HMAC is a good part of a cheap
        # request. At most `PUBLIC_IDS_KEPT` games (dropped all at once beyond).
        self._public_ids: dict[int, str] = {}

    def mac(self, message: str) -> str:
        """HMAC-SHA256 of a message under the server secret, in hex."""
        return hmac.new(self._secret, message.encode(), hashlib.sha256).hexdigest()

    def public_id(self, game_id: int) -> str:
        """The id a game is known by outside the server."""
        known = self._public_ids.get(game_id)
        if known is None:
            known = f"{game_id}-{self.mac(f'game:{game_id}')[:PUBLIC_ID_DIGITS]}"
            if len(self._public_ids) >= PUBLIC_IDS_KEPT:
                self._public_ids.clear()
            self._public_ids[game_id] = known
        return known

    def game_id(self, public_id: str) -> int | None:
        """The store id behind a public id, or None if it is not one this server made."""
        number, sep, mac = public_id.partition("-")
        if (
            not sep
            or not (number.isascii() and number.isdigit())
            or len(number) > 18
            or number.startswith("0")
        ):
            return None
        game_id = int(number)
        expected = self.public_id(game_id).partition("-")[2]
        return game_id if hmac.compare_digest(mac.encode(), expected.encode()) else None

    def seat_token(self, game_id: int, seat: int, generation: int = 0) -> str:
        """The secret that lets its holder act for one seat of one game, in one generation
        of the seat (raised when the seat changes hands: the old token is refused then).
        Generation 0 is the token every game had before generations: they keep working."""
        if generation == 0:
            return self.mac(f"{game_id}:{seat}")
        return self.mac(f"{game_id}:{seat}:{generation}")

    def seat_of(
        self,
        game_id: int,
        token: str,
        seat_count: int,
        generations: Mapping[int, int] | None = None,
    ) -> int | None:
        """The seat a token belongs to in its seat's current generation (`generations`:
        seat -> generation, 0 if absent), or None (every seat is compared, in constant time)."""
        found = None
        for seat in range(seat_count):
            generation = generations.get(seat, 0) if generations else 0
            expected = self.seat_token(game_id, seat, generation)
            if hmac.compare_digest(token.encode(), expected.encode()):
                found = seat
        return found
