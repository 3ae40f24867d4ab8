"""Commitment handles: a server seed fixed (and its SHA-256 handed out) before any client
seed, opened again only by the server that drew it, only until it expires."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from fivedice.core.fairdice import (
    COMMITMENT_HANDLE_LENGTH,
    CommitmentHandleError,
    commitment_of,
    committed_server_seed,
    issue_commitment,
    open_commitment,
)

SECRET = b"core-test-secret"


def keyed(text: str) -> str:
    return hmac.new(SECRET, text.encode(), hashlib.sha256).hexdigest()


NONCE = bytes(range(16))
DRAWN = issue_commitment(keyed, NONCE, expires=2_000_000_000)


def test_a_handle_opens_to_the_seed_whose_hash_was_handed_out():
    seed = open_commitment(keyed, DRAWN.handle, now=1_900_000_000)
    assert len(seed) == 32 and commitment_of(seed) == DRAWN.commitment
    assert seed == committed_server_seed(keyed, NONCE)
    assert len(DRAWN.handle) <= COMMITMENT_HANDLE_LENGTH
    # The handle carries the nonce, never the seed or anything it could be read from.
    assert seed.hex() not in DRAWN.handle and DRAWN.commitment not in DRAWN.handle


def test_a_handle_is_refused_from_its_expiry_on():
    with pytest.raises(CommitmentHandleError, match="expired"):
        open_commitment(keyed, DRAWN.handle, now=2_000_000_000)


def _altered(position: int) -> str:
    flipped = "1" if DRAWN.handle[position] != "1" else "2"
    return DRAWN.handle[:position] + flipped + DRAWN.handle[position + 1 :]


@pytest.mark.parametrize(
    "handle",
    [
        _altered(0),  # the nonce
        _altered(33),  # the expiry
        _altered(len(DRAWN.handle) - 1),  # the HMAC
        DRAWN.handle.rsplit(".", 1)[0],
        DRAWN.handle + ".0",
        DRAWN.handle.upper(),
        "",
        "..",
        "x" * (COMMITMENT_HANDLE_LENGTH + 1),
        issue_commitment(
            lambda text: hashlib.sha256(text.encode()).hexdigest(), NONCE, 2**31
        ).handle,  # another secret
    ],
)
def test_a_handle_altered_or_not_drawn_here_is_refused(handle):
    with pytest.raises(CommitmentHandleError, match="not drawn by this server"):
        open_commitment(keyed, handle, now=1_900_000_000)


def test_each_nonce_commits_to_its_own_seed():
    other = issue_commitment(keyed, bytes(16), expires=2_000_000_000)
    assert other.commitment != DRAWN.commitment and other.handle != DRAWN.handle
