"""Which seeds a game made from a form or the API may take: a client seed only with a
commitment drawn before it, a commitment never with a chosen seed."""

from __future__ import annotations

import pytest

from fivedice.core.fairdice import CommitmentHandleError, DiceSeedError
from fivedice.service.creation import commitment_refusal


@pytest.mark.parametrize(
    ("client_seeds", "handle", "seed", "refused"),
    [
        (["mine"], None, None, CommitmentHandleError),  # a seed the server saw first
        (["", None], None, None, None),  # no client seed: the one step still serves
        (["mine"], "h", None, None),
        ([], "h", None, None),
        ([], "h", 5, DiceSeedError),  # known dice: nothing to commit to
        (["mine"], None, 5, None),  # refused later, as a chosen seed with client seeds
    ],
)
def test_client_seeds_need_a_commitment_and_a_chosen_seed_takes_none(
    client_seeds, handle, seed, refused
):
    found = commitment_refusal(client_seeds, handle, seed)
    assert type(found) is refused if refused else found is None
