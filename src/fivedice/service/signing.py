"""The installation's record key: every exported game record is signed with it (Ed25519).

Why: the dice of a record can be recomputed from its seeds, but its names, rules, chosen
boxes, totals, status and practice flag are only words in a text file: anyone could edit
them. A signature over the whole record by the key of the server (or of the local
installation, for games played in the terminal) makes every edit visible: `fivedice verify`
refuses a record whose signature does not match, and prints the fingerprint of the key that
signed it, which anyone compares with the one the server publishes (`GET /fairness/key`) or
pins with `fivedice verify --key`.

The key: `$FIVEDICE_RECORD_KEY` (the private key as 64 hex digits, for several servers that
must sign alike), else a random one kept in a 0600 file ``record-key`` in the user data
directory, created atomically (written under a temporary name, then hard-linked into place,
which fails if another worker won the race) so that every worker signs with the same key.
The core frames the signature (`fivedice.core.record.split_signature`); signing needs the
`cryptography` library, which is why it lives here and not in the core (stdlib only).
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from fivedice.core.errors import N_, FivediceError
from fivedice.core.record import (
    FINGERPRINT_DIGITS,
    PUBLIC_KEY_BYTES,
    SIGNATURE_ALGORITHM,
    RecordSignature,
    key_fingerprint,
    signed_bytes,
    split_signature,
    with_signature,
)
from fivedice.core.verify import SignatureStatus

KEY_ENV = "FIVEDICE_RECORD_KEY"
KEY_FILE_NAME = "record-key"
PRIVATE_KEY_BYTES = 32


class RecordKeyError(FivediceError):
    """The record key cannot be read or created, or a key given to trust cannot be read."""


@dataclass(frozen=True)
class RecordKey:
    """An installation's signing key (the private half stays in this object)."""

    private_key: Ed25519PrivateKey

    @property
    def public_key(self) -> bytes:
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @property
    def fingerprint(self) -> str:
        return key_fingerprint(self.public_key)

    @property
    def published(self) -> str:
        """The public key as `GET /fairness/key` serves it, and as `verify --key FILE` reads
        it: ``ed25519 HEX`` and the fingerprint."""
        return f"{SIGNATURE_ALGORITHM} {self.public_key.hex()}\nfingerprint: {self.fingerprint}\n"

    def sign(self, body: str) -> str:
        """The record text `body` with its signature line."""
        value = self.private_key.sign(signed_bytes(body))
        return with_signature(body, RecordSignature(self.public_key, value))


def _key_path() -> Path:
    return Path(platformdirs.user_data_dir("fivedice")) / KEY_FILE_NAME


_loaded: dict[tuple[str, str], RecordKey] = {}
_loading = threading.Lock()


def record_key(path: Path | None = None) -> RecordKey:
    """The installation's record key: `$FIVEDICE_RECORD_KEY`, else the key file (created
    on first use). Read once per process.

    Raises:
        RecordKeyError: the configured key is not 64 hex digits, or the file cannot be read
            or written.
    """
    configured = os.environ.get(KEY_ENV, "").strip()
    target = path or _key_path()
    cache_key = (configured, str(target))
    with _loading:
        if cache_key not in _loaded:
            text = configured if configured else _key_file_text(target)
            _loaded[cache_key] = RecordKey(_private_key(text, KEY_ENV if configured else target))
        return _loaded[cache_key]


def _private_key(text: str, where: object) -> Ed25519PrivateKey:
    try:
        raw = bytes.fromhex(text)
        if len(raw) != PRIVATE_KEY_BYTES:
            raise ValueError
        return Ed25519PrivateKey.from_private_bytes(raw)
    except ValueError:
        raise RecordKeyError(
            N_("the record key in {where} is not {count} hex digits"),
            where=str(where),
            count=2 * PRIVATE_KEY_BYTES,
        ) from None


def _key_file_text(target: Path) -> str:
    for _attempt in range(50):
        try:
            text = target.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            text = ""
        except (OSError, UnicodeDecodeError) as error:
            raise RecordKeyError(
                N_("cannot read the record key {file}: {error}"), file=str(target), error=error
            ) from None
        if text:
            return text
        try:
            _create_key_file(target)
        except FileExistsError:
            time.sleep(0.02)  # another worker is creating it
        except OSError as error:
            raise RecordKeyError(
                N_("cannot create the record key {file}: {error}"), file=str(target), error=error
            ) from None
    raise RecordKeyError(N_("the record key file {file} stays empty"), file=str(target))


def _create_key_file(target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    raw = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=".record-key-")
    try:
        os.fchmod(descriptor, 0o600)
        os.write(descriptor, (raw.hex() + "\n").encode())
        os.fsync(descriptor)
        os.close(descriptor)
        os.link(temporary, target)  # atomic; FileExistsError if someone else was first
    finally:
        os.unlink(temporary)


@dataclass(frozen=True)
class TrustedKey:
    """Whom `verify --key` trusts: a whole public key, or only its fingerprint."""

    public_key: bytes | None = None
    fingerprint: str | None = None

    def matches(self, public_key: bytes) -> bool:
        if self.public_key is not None:
            return self.public_key == public_key
        return self.fingerprint == key_fingerprint(public_key)

    @property
    def shown(self) -> str:
        if self.public_key is not None:
            return key_fingerprint(self.public_key)
        return self.fingerprint or ""


def trusted_key(text: str) -> TrustedKey:
    """A key to trust, as `verify --key` takes it: a fingerprint (32 hex digits, dashes,
    colons and spaces ignored), a public key (64 hex digits, or ``ed25519 HEX`` as
    `GET /fairness/key` serves it), or the PEM of a public key.

    Raises:
        RecordKeyError: none of these.
    """
    text = text.strip()
    if text.startswith("-----BEGIN PUBLIC KEY-----"):
        try:
            loaded = serialization.load_pem_public_key(text.encode("ascii"))
        except (ValueError, UnicodeEncodeError):
            loaded = None
        if isinstance(loaded, Ed25519PublicKey):
            return TrustedKey(
                public_key=loaded.public_bytes(
                    serialization.Encoding.Raw, serialization.PublicFormat.Raw
                )
            )
    else:
        first = text.splitlines()[0] if text else ""
        words = first.split()
        if len(words) == 2 and words[0] == SIGNATURE_ALGORITHM:
            first = words[1]
        digits = "".join(c for c in first if c not in "-: ").lower()
        if all(c in "0123456789abcdef" for c in digits):
            if len(digits) == 2 * PUBLIC_KEY_BYTES:
                return TrustedKey(public_key=bytes.fromhex(digits))
            if len(digits) == FINGERPRINT_DIGITS:
                fingerprint = "-".join(digits[i : i + 8] for i in range(0, len(digits), 8))
                return TrustedKey(fingerprint=fingerprint)
    raise RecordKeyError(
        N_(
            "a key to trust is a fingerprint ({digits} hex digits), a public key ({key} hex"
            " digits, or the text of /fairness/key) or a file holding one"
        ),
        digits=FINGERPRINT_DIGITS,
        key=2 * PUBLIC_KEY_BYTES,
    )


@dataclass(frozen=True)
class SignatureCheck:
    """What the signature line of a record says: the status, and the key that signed."""

    status: SignatureStatus
    signature: RecordSignature | None = None

    @property
    def fingerprint(self) -> str | None:
        return None if self.signature is None else self.signature.fingerprint


def own_key() -> TrustedKey | None:
    """This installation's own record key, if it has one (`$FIVEDICE_RECORD_KEY` or the key
    file; none is created): the key of the games played here, trusted without `--key`."""
    configured = os.environ.get(KEY_ENV, "").strip()
    try:
        if not configured and not _key_path().is_file():
            return None
        return TrustedKey(public_key=record_key().public_key)
    except (OSError, RecordKeyError):
        return None


def check_signature(text: str, trusted: TrustedKey | None = None) -> SignatureCheck:
    """Checks the record's signature over all its other lines, and that the key that made
    it is `trusted` (None: this installation's own key, `own_key`). A true signature by a
    key not trusted is `SignatureStatus.UNKNOWN` without `trusted`, `OTHER_KEY` with it.

    Raises:
        RecordError: the signature line cannot be read.
    """
    body, signature = split_signature(text)
    if signature is None:
        return SignatureCheck(SignatureStatus.MISSING)
    try:
        public = Ed25519PublicKey.from_public_bytes(signature.public_key)
        public.verify(signature.value, signed_bytes(body))
    except (InvalidSignature, ValueError):
        return SignatureCheck(SignatureStatus.INVALID, signature)
    if trusted is not None and not trusted.matches(signature.public_key):
        return SignatureCheck(SignatureStatus.OTHER_KEY, signature)
    if trusted is None:
        own = own_key()
        if own is None or not own.matches(signature.public_key):
            return SignatureCheck(SignatureStatus.UNKNOWN, signature)
    return SignatureCheck(SignatureStatus.VALID, signature)
