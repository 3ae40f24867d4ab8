"""The verifiable dice construction: unbiased by construction, and as the README documents it."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter

import pytest

from fivedice.core.fairdice import (
    REJECT_FROM,
    DiceSeedError,
    DiceSeeds,
    HmacDice,
    check_client_seed,
    client_seed_list,
    commitment_of,
    face_of_byte,
    faces,
    parse_server_seed,
)
from fivedice.core.game import FirstPlayer, GameSettings, Seat, new_game


def test_rejection_maps_every_byte_value_without_bias():
    mapped = [face_of_byte(value) for value in range(256)]
    rejected = [value for value, face in enumerate(mapped) if face is None]
    assert rejected == [252, 253, 254, 255] and REJECT_FROM == 252
    counts = Counter(face for face in mapped if face is not None)
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    assert set(counts.values()) == {42}  # each face from exactly 42 of the 252 kept bytes


def _reference_faces(server_seed: bytes, client_seeds: list[str], number: int, count: int):
    """The README's recipe, written out again here from hmac/hashlib alone."""
    out: list[int] = []
    counter = 0
    while len(out) < count:
        msg = json.dumps([client_seeds, number, counter], separators=(",", ":")).encode()
        for byte in hmac.new(server_seed, msg, hashlib.sha256).digest():
            if byte < 252:
                out.append(byte % 6 + 1)
        counter += 1
    return out[:count]


def test_dice_match_an_independently_computed_vector():
    server_seed = bytes(range(32))
    seeds = ["", "lucky 7"]
    # Block 0 of action 3, by hand: the message is the compact JSON of [seeds, 3, 0].
    message = b'[["","lucky 7"],3,0]'
    digest = hmac.new(server_seed, message, hashlib.sha256).digest()
    by_hand = [b % 6 + 1 for b in digest if b < 252][:5]
    assert HmacDice(server_seed, seeds, 3).roll(5) == tuple(by_hand)
    # Many dice (several blocks, with rejected bytes among them) agree with the recipe too.
    many = list(HmacDice(server_seed, seeds, 3).roll(200))
    assert many == _reference_faces(server_seed, seeds, 3, 200)
    assert any(b >= 252 for c in range(7) for b in _block(server_seed, seeds, 3, c))


def _block(server_seed, seeds, number, counter):
    msg = json.dumps([seeds, number, counter], separators=(",", ":")).encode()
    return hmac.new(server_seed, msg, hashlib.sha256).digest()


def test_rolls_continue_the_stream_of_their_action():
    dice = HmacDice(b"k" * 32, ["a"], 9)
    first, second = dice.roll(3), dice.roll(2)
    assert first + second == HmacDice(b"k" * 32, ["a"], 9).roll(5)


def test_every_seed_and_the_action_number_change_the_dice():
    base = HmacDice(b"s" * 32, ["x", ""], 1).roll(20)
    assert HmacDice(b"t" * 32, ["x", ""], 1).roll(20) != base
    assert HmacDice(b"s" * 32, ["y", ""], 1).roll(20) != base
    assert HmacDice(b"s" * 32, ["x", "z"], 1).roll(20) != base
    assert HmacDice(b"s" * 32, ["x", ""], 2).roll(20) != base


def test_faces_are_roughly_uniform_over_many_actions():
    counts = Counter(face for n in range(300) for face in HmacDice(b"u" * 32, [], n).roll(20))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    assert all(800 <= count <= 1200 for count in counts.values()), counts  # 1000 each expected


def test_commitment_is_the_sha256_of_the_server_seed():
    seeds = DiceSeeds.new(["me"], 2)
    assert seeds.commitment == hashlib.sha256(seeds.server_seed).hexdigest()
    assert seeds.client_seeds == ("me", "")
    assert seeds.server_seed.hex() not in repr(seeds)
    assert commitment_of(bytes(32)) == hashlib.sha256(bytes(32)).hexdigest()
    assert DiceSeeds.new([], 1).server_seed != DiceSeeds.new([], 1).server_seed


def test_the_roll_off_uses_action_zero():
    seeds = DiceSeeds(bytes(32), ("", ""))
    settings = GameSettings((Seat("Ann"), Seat("Bob")), first_player=FirstPlayer.HIGHEST_SUM)
    state = new_game(settings, seeds.dice(0))
    rolled = [d for round_ in state.opening_rolls for dice in round_ if dice for d in dice]
    assert tuple(rolled) == seeds.dice(0).roll(len(rolled))


@pytest.mark.parametrize(
    "bad", ["x" * 65, "tab\there", "new\nline", "\x00"], ids=["long", "tab", "newline", "nul"]
)
def test_unusable_client_seeds_are_refused(bad):
    with pytest.raises(DiceSeedError):
        check_client_seed(bad)


def test_client_seeds_are_one_per_seat():
    assert client_seed_list([" ann ", None], 3) == ("ann", "", "")
    assert check_client_seed("Grüße 🎲") == "Grüße 🎲"
    with pytest.raises(DiceSeedError):
        client_seed_list(["a", "b"], 1)


def test_server_seeds_are_read_as_64_hex_digits():
    assert parse_server_seed("AB" * 32) == bytes([0xAB]) * 32
    for bad in ("ab" * 31, "zz" * 32, ""):
        with pytest.raises(DiceSeedError):
            parse_server_seed(bad)
    assert list(zip(range(3), faces(bytes(32), [], 0), strict=False))  # an endless stream


def test_the_terms_scheme_puts_the_terms_digest_after_the_client_seeds():
    """Scheme hmac-sha256-v2: block c of action n is HMAC(server seed, [seeds, terms, n, c])."""
    server_seed = bytes(range(32))
    terms = hashlib.sha256(b"the rules and the players").hexdigest()
    message = json.dumps([["", "lucky 7"], terms, 3, 0], separators=(",", ":")).encode()
    digest = hmac.new(server_seed, message, hashlib.sha256).digest()
    by_hand = tuple(b % 6 + 1 for b in digest if b < 252)[:5]
    assert HmacDice(server_seed, ["", "lucky 7"], 3, terms).roll(5) == by_hand
    # Other terms, other dice; no terms: the v1 dice.
    other = hashlib.sha256(b"other rules").hexdigest()
    assert HmacDice(server_seed, ["", "lucky 7"], 3, other).roll(20) != HmacDice(
        server_seed, ["", "lucky 7"], 3, terms
    ).roll(20)
    seeds = DiceSeeds(server_seed, ("", "lucky 7"), terms)
    assert seeds.scheme == "hmac-sha256-v2" and seeds.dice(3).roll(5) == by_hand
    assert DiceSeeds(server_seed, ("", "lucky 7")).scheme == "hmac-sha256-v1"
    # The commitment is the server seed's alone, whatever the terms.
    assert seeds.commitment == hashlib.sha256(server_seed).hexdigest()
